import { processIo, type CliIo } from '../cli-io';
import { terminalText } from '../terminal-text';

/** Plain progress lines at most this often, so a long run shows life without flooding a log. */
const LINE_INTERVAL_MS = 500;
const BAR_WIDTH = 28;

export type ProgressMode = 'bar' | 'lines' | 'none';

/** A bar on a terminal, plain lines when stderr goes to a file or pipe, nothing with --json. */
export function progressMode(io: CliIo, json: boolean): ProgressMode {
  if (json) return 'none';
  return io === processIo && process.stderr.isTTY ? 'bar' : 'lines';
}

/**
 * Reports `(done, total, label)` progress on stderr. The bar redraws one line in place
 * (carriage return, cleared to the end) and is ended by `finish`; lines are throttled
 * but the last one (done = total) is always printed.
 */
export function progressReporter(io: CliIo, what: string, mode: ProgressMode): { update(done: number, total: number, label: string): void; finish(): void } {
  let last = 0;
  let drawn = false;
  return {
    update(done, total, label) {
      if (mode === 'none') return;
      if (mode === 'lines') {
        const t = Date.now();
        if (t - last < LINE_INTERVAL_MS && done < total) return;
        last = t;
        io.err(`${what}: ${done}/${total} ${terminalText(label)}\n`);
        return;
      }
      const fraction = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(fraction * BAR_WIDTH);
      const safe = terminalText(label);
      const shown = safe.length > 40 ? `…${safe.slice(-39)}` : safe;
      // The bar's own carriage return and erase-line go to the terminal as they are (processIo
      // would show them escaped); the label, from the files, is escaped.
      (io.errRaw ?? io.err)(`\r${what} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${shown}\u001b[K`);
      drawn = true;
    },
    finish() {
      if (drawn) io.err('\n');
      drawn = false;
    },
  };
}
