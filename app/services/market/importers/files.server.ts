import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ImportFileError } from '../store/records';

// Command-line arguments → input files. Folders are walked recursively; the order is sorted so
// two runs over the same inputs do the same work in the same order (same permatickers).

export type ParsedArgs = { paths: string[]; flags: Map<string, string | true> };

/** `a.csv --ticker AAPL --skip-bad-rows b/` → paths [a.csv, b/], flags {ticker: AAPL, skip-bad-rows: true}. */
export function parseArgs(args: string[], valued: readonly string[]): ParsedArgs {
  const paths: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      paths.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2);
    if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
      flags.set(name, value);
    } else {
      flags.set(name, inline ?? true);
    }
  }
  return { paths, flags };
}

export function expandPaths(paths: string[], accept: (file: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(path.join(p, name));
    } else if (accept(p)) {
      out.push(p);
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new ImportFileError(p, null, 'no such file or folder');
    walk(p);
  }
  return [...new Set(out)].sort();
}

/** Reads a file as UTF-8 text, gunzipping `.gz` files. */
export function readText(file: string): string {
  const buffer = readFileSync(file);
  if (!file.toLowerCase().endsWith('.gz')) return buffer.toString('utf8');
  try {
    return gunzipSync(buffer).toString('utf8');
  } catch (e) {
    throw new ImportFileError(file, null, `not a valid gzip file (${(e as Error).message})`);
  }
}

/** JSON.parse with the line of the syntax error, when the engine reports a position. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : null;
    throw new ImportFileError(file, line, `broken JSON: ${message}`);
  }
}
