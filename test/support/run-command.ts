import type { CliIo } from '../../electron/cli/cli-io';

/** What a command printed and returned. */
export interface CommandRun {
  status: number;
  out: string;
  err: string;
}

/** A runner for one command function that captures its output instead of printing it. */
export function commandRunner(command: (argv: readonly string[], io: CliIo) => Promise<number>): (...argv: string[]) => Promise<CommandRun> {
  return async (...argv) => {
    let out = '';
    let err = '';
    const status = await command(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
    return { status, out, err };
  };
}
