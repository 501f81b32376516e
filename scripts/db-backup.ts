import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../app/services/config.server';
import { BackupError, backupSqlite, postgresBackupCommands } from '../app/services/db/backup.server';
import { sqliteFilePath } from '../app/services/db/db.server';

// npm run db:backup -- --out FILE
// SQLite: a consistent copy of DATA_DIR/quarry.sqlite while the app keeps running.
// PostgreSQL (DATABASE_URL set): refuses, and prints the pg_dump command to run instead.

const USAGE = 'Usage: npm run db:backup -- --out FILE';

export type CliOutput = { out: (line: string) => void; err: (line: string) => void };

const consoleOutput: CliOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** The whole command, minus process.exit: tests run it in-process with their own env and output. */
export async function runDbBackup(args: string[], env: NodeJS.ProcessEnv = process.env, io: CliOutput = consoleOutput): Promise<number> {
  let out: string | undefined;
  try {
    const { values } = parseArgs({
      args,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      io.out(USAGE);
      return 0;
    }
    out = values.out?.trim();
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return 2;
  }
  if (!out) {
    io.err(`Missing --out FILE.\n${USAGE}`);
    return 2;
  }

  try {
    const c = loadConfig(env);
    if (c.databaseUrl) {
      const commands = postgresBackupCommands(c.databaseUrl, out);
      io.err(
        [
          'Not backed up: DATABASE_URL points at PostgreSQL, and db:backup copies the SQLite file only.',
          'Back PostgreSQL up with pg_dump (the same major version as the server or newer):',
          '',
          `  ${commands.dump}`,
          '',
          'and restore it into an empty database (or after dropping the schema) with:',
          '',
          `  ${commands.restore}`,
          ...(commands.passwordHidden ? ['', 'The password is not printed: put it in PGPASSWORD or ~/.pgpass.'] : []),
        ].join('\n'),
      );
      return 1;
    }
    const done = await backupSqlite(sqliteFilePath(c.dataDir), out);
    const mb = (done.bytes / 1024 / 1024).toFixed(1);
    io.out(`Backed up ${done.source} to ${done.out} (${done.pages} pages, ${mb} MB) in ${(done.ms / 1000).toFixed(1)} s.`);
    return 0;
  } catch (e) {
    if (e instanceof BackupError || e instanceof ConfigError) {
      io.err(`Not backed up: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runDbBackup(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error('db:backup failed:', e);
      process.exit(1);
    },
  );
}
