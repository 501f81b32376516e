import type { ProgressReporter } from '../../store/records';

/** A ProgressReporter that writes plain lines (tests and non-terminal output). */
export function lineProgress(write: (line: string) => void): ProgressReporter & { lines: string[] } {
  const lines: string[] = [];
  let label = '';
  let done = 0;
  let total = 0;
  const out = (line: string) => {
    lines.push(line);
    write(line);
  };
  return {
    lines,
    start(l, t) {
      label = l;
      total = t;
      done = 0;
      out(`start ${label} ${total}`);
    },
    tick(amount = 1) {
      done += amount;
      out(`tick ${label} ${done}/${total}`);
    },
    stop() {
      out(`done ${label}`);
    },
    log(message) {
      out(message);
    },
  };
}
