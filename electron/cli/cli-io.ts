import { terminalLines } from './terminal-text';

/** Where a command writes; tests pass their own to capture output. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /**
   * Standard error as is, for the progress bar's own carriage return and erase-line (its
   * label escaped by the bar); without it the bar goes through `err`.
   */
  errRaw?(text: string): void;
}

/**
 * Standard output and error. What a command prints passes through terminalLines: a control
 * character from a file (an escape sequence in a resource name…) shows as `\xNN` instead
 * of acting on the terminal. (The progress bar draws its own line, project-progress.ts.)
 */
export const processIo: CliIo = {
  out: (text) => void process.stdout.write(terminalLines(text)),
  err: (text) => void process.stderr.write(terminalLines(text)),
  errRaw: (text) => void process.stderr.write(text),
};

/**
 * A pipeline whose reader went away (`walkbench project info P | head -2`): the rest of
 * the output has no one to read it, so the command ends at once, quietly and with status 0,
 * as a pipeline expects, instead of an unhandled EPIPE with a stack trace. Any other error
 * of the output streams ends it with one line and status 1.
 */
export function endQuietlyWhenOutputCloses(): void {
  const onError = (stream: 'stdout' | 'stderr') => (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') process.exit(ExitCode.ok);
    if (stream === 'stdout') {
      try {
        process.stderr.write(`walkbench: cannot write the output: ${e.message}\n`);
      } catch {
        // Nowhere left to say it.
      }
    }
    process.exit(ExitCode.failed);
  };
  process.stdout.on('error', onError('stdout'));
  process.stderr.on('error', onError('stderr'));
}

/** Exit statuses of the `walkbench` command. */
export const ExitCode = {
  ok: 0,
  /** A file was invalid, unreadable, or not identical after a round trip. */
  failed: 1,
  /** The command line itself was wrong. */
  usage: 2,
  /** A bug in Walkbench (EX_SOFTWARE). */
  internal: 70,
} as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
  /** Values of the repeatable flags, in order (empty when absent). */
  lists: Map<string, string[]>;
}

/**
 * Parses `--flag`, `--flag value` and `--flag=value`. `valued` names the flags that take
 * a value; any other flag must be in `switches`, so a typo is refused instead of ignored.
 */
export function parseArgs(
  argv: readonly string[],
  valued: readonly string[],
  switches: readonly string[],
  repeatable: readonly string[] = [],
): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>(repeatable.map((name) => [name, []]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (valued.includes(name) || repeatable.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      if (repeatable.includes(name)) lists.get(name)!.push(value);
      else flags.set(name, value);
    } else if (switches.includes(name) && eq < 0) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { positional, flags, lists };
}
