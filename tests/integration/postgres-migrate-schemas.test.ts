import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '~/services/db/db.server';
import { POSTGRES_URL } from '../support/databases';
import { createPostgresSchema } from '../support/postgres-schema';

// Quarry may share its PostgreSQL database with other schemas (another app, another instance
// under its own search_path, test suites side by side). Migrating must look at its own schema
// alone: Kysely's introspection asked about every schema by name, and one dropped meanwhile made
// the app's migration fail with "schema … does not exist".

describe.skipIf(!POSTGRES_URL)(
  `migrating beside other schemas${POSTGRES_URL ? '' : ' (skipped: set DATABASE_URL=postgres://... to run it)'}`,
  () => {
    it("sees only its own schema's tables, and migrates while other schemas come and go", async () => {
      const url = POSTGRES_URL ?? '';
      const own = await createPostgresSchema(url, 'migrate own');
      const neighbour = await createPostgresSchema(url, 'migrate neighbour');
      const admin = new pg.Client({ connectionString: neighbour.url });
      await admin.connect();
      const handle = openDatabase({ databaseUrl: own.url });
      let churning = true;
      try {
        await admin.query('CREATE TABLE neighbours_table (id INTEGER)');
        await migrate(handle.db, 'postgres');
        const tables = await handle.db.introspection.getTables({ withInternalKyselyTables: true });
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([own.schema]));
        expect(tables.map((t) => t.name)).toContain('users');
        expect(tables.map((t) => t.name)).toContain('kysely_migration');
        expect(tables.map((t) => t.name)).not.toContain('neighbours_table');

        // Schemas made and dropped as fast as the server allows while the app migrates again and again.
        const churn = (async () => {
          for (let i = 0; churning; i++) {
            const name = `${neighbour.schema}_${i}`;
            await admin.query(`CREATE SCHEMA ${name}; CREATE TABLE ${name}.t (id SERIAL, v TEXT)`);
            await admin.query(`DROP SCHEMA ${name} CASCADE`);
          }
        })();
        try {
          for (let i = 0; i < 30; i++) await migrate(handle.db, 'postgres');
        } finally {
          churning = false;
          await churn;
        }
        const users = await sql<{ n: string }>`SELECT count(*) AS n FROM users`.execute(handle.db);
        expect(Number(users.rows[0].n)).toBe(0);
      } finally {
        churning = false;
        await handle.close();
        await admin.end();
        await own.drop();
        await neighbour.drop();
      }
    });
  },
);
