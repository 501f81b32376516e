import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '~/services/db/db.server';
import { POSTGRES_URL } from '../support/databases';

// The database server ending an idle connection of the app's pools (a restart, a failover, an
// administrator's pg_terminate_backend) must not end the app: the next query gets a new connection.

describe.skipIf(!POSTGRES_URL)(
  `PostgreSQL connections ended by the server${POSTGRES_URL ? '' : ' (skipped: set DATABASE_URL=postgres://... to run it)'}`,
  () => {
    it('logs the ended idle connections of both pools and answers the next queries on new ones', async () => {
      const url = POSTGRES_URL ?? '';
      const handle = openDatabase({ databaseUrl: url });
      const marker = `idle_probe_${randomBytes(4).toString('hex')}`;
      const logged = vi.mocked(console.error).mockImplementation(() => undefined);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        // One idle connection in each pool, its last query carrying the marker.
        await sql.raw(`SELECT 1 AS ${marker}`).execute(handle.db);
        await sql.raw(`SELECT 1 AS ${marker}`).execute(handle.relaxed!);
        const { rows } = await admin.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE $1`,
          [`%${marker}%`],
        );
        expect(rows.map((r) => r.ended)).toEqual([true, true]);
        await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(2), { timeout: 5_000 });
        expect(logged).toHaveBeenCalledWith(expect.stringContaining('an idle PostgreSQL connection ended'));
        const again = await sql<{ n: number }>`SELECT 2 AS n`.execute(handle.db);
        expect(again.rows[0].n).toBe(2);
        const relaxedAgain = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(handle.relaxed!);
        expect(relaxedAgain.rows[0].synchronous_commit).toBe('off');
      } finally {
        logged.mockReset();
        await admin.end();
        await handle.close();
      }
    });
  },
);
