import { sql } from 'kysely';
import { getDb } from '~/services/db/db.server';

// Every row of every table of the app database, as one comparable text: a test takes it before
// and after something that must not write (a GET loader) and compares. Works on both dialects.

export async function databaseContents(): Promise<string> {
  const db = await getDb();
  const tables = await db.introspection.getTables();
  // On PostgreSQL, Kysely lists the tables of every schema: only the connection's own count (other
  // suites running beside this one have schemas with the same tables, made and dropped meanwhile).
  const schema = tables.some((t) => t.schema)
    ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]?.schema
    : undefined;
  const names = tables
    .filter((t) => schema === undefined || t.schema === schema)
    .map((t) => t.name)
    .sort();
  const parts: string[] = [];
  for (const table of names) {
    const rows = await db
      .selectFrom(table as never)
      .selectAll()
      .execute();
    parts.push(
      `${table}: ${rows
        .map((r) => JSON.stringify(r))
        .sort()
        .join('\n')}`,
    );
  }
  return parts.join('\n\n');
}
