import { getDb } from '~/services/db/db.server';

// Every row of every table of the app database, as one comparable text: a test takes it before
// and after something that must not write (a GET loader) and compares. Works on both dialects.

export async function databaseContents(): Promise<string> {
  const db = await getDb();
  // On PostgreSQL, the tables of the connection's own schema (current-schema-introspector.ts).
  const names = (await db.introspection.getTables()).map((t) => t.name).sort();
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
