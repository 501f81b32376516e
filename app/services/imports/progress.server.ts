import cliProgress from 'cli-progress';
import type { ProgressReporter } from '../market/store/records';

// Progress of long runs: a bar on a terminal, plain lines otherwise (logs, CI, `npm start`).

export type ProgressOptions = {
  stream?: NodeJS.WriteStream;
  /** Plain mode: a line every `every` percent. */
  every?: number;
  now?: () => number;
};

export function createProgressReporter(options: ProgressOptions = {}): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  return stream.isTTY ? barReporter(stream) : lineReporter(stream, options.every ?? 10, options.now ?? (() => Date.now()));
}

function barReporter(stream: NodeJS.WriteStream): ProgressReporter {
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(label, total) {
      bar?.stop();
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`,
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    tick(amount = 1) {
      bar?.increment(amount);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
    log(message) {
      if (bar) stream.write('\n');
      stream.write(`${message}\n`);
    },
  };
}

export function lineReporter(
  stream: Pick<NodeJS.WritableStream, 'write'>,
  every: number,
  now: () => number = () => Date.now(),
): ProgressReporter {
  let label = '';
  let total = 0;
  let done = 0;
  let nextReport = 0;
  let startedAt = 0;
  const line = () => `${label}: ${done}/${total} (${total > 0 ? Math.floor((100 * done) / total) : 100}%)`;
  return {
    start(l, t) {
      label = l;
      total = t;
      done = 0;
      nextReport = every;
      startedAt = now();
      stream.write(`${label}: starting, ${total} to do\n`);
    },
    tick(amount = 1) {
      done += amount;
      const percent = total > 0 ? (100 * done) / total : 100;
      if (percent >= nextReport && done < total) {
        stream.write(`${line()}\n`);
        while (nextReport <= percent) nextReport += every;
      }
    },
    stop() {
      stream.write(`${line()} done in ${((now() - startedAt) / 1000).toFixed(1)} s\n`);
    },
    log(message) {
      stream.write(`${message}\n`);
    },
  };
}

/** For tests and library callers that want no output. */
export const silentProgress: ProgressReporter = { start() {}, tick() {}, stop() {}, log() {} };
