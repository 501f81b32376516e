import pg from 'pg';

// A PostgreSQL schema of its own for a test run (its connection string selects it through
// search_path), dropped afterwards. No vitest here: Playwright specs use it too.

/** A connection string whose sessions use `schema` as their search_path. */
export function withSearchPath(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function onAdminConnection<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresSchema(
  databaseUrl: string,
  prefix = 'test',
): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const schema = `${prefix
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await onAdminConnection(databaseUrl, (c) => c.query(`CREATE SCHEMA "${schema}"`));
  return {
    url: withSearchPath(databaseUrl, schema),
    schema,
    drop: () => onAdminConnection(databaseUrl, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
  };
}
