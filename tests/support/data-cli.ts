import { resetConfigForTests } from '~/services/config.server';
import type { CliIo } from '~/services/imports/data-cli.server';
import { silentProgress } from '~/services/imports/progress.server';
import { openMarketReader } from '~/services/market/store/open-store.server';
import type { ProgressReporter } from '~/services/market/store/records';

// What tests of `npm run data -- …` share: the CLI's output captured, the store read back, and
// the environment changed for the next command (the config is read again).

export function captureCli(progress: ProgressReporter = silentProgress): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), progress };
}

export async function queryStore<T = Record<string, unknown>>(file: string, sql: string): Promise<T[]> {
  const reader = await openMarketReader(file);
  try {
    return await reader.all<T>(sql);
  } finally {
    reader.close();
  }
}

export function setEnv(patch: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
}
