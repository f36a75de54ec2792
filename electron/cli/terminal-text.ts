/**
 * Text that came from a file (resource names, paths, strings a format holds, messages
 * quoting them) shown on a terminal. A name may hold escape sequences (ESC, CSI, OSC…)
 * that would recolour, retitle or rewrite the user's terminal, or a line break that fakes
 * a line of output; each control character is shown instead as `\xNN` (C0 controls,
 * DEL and the C1 controls) and each invisible bidirectional or zero-width mark as
 * `\u{NNNN}`, so what is printed is exactly what the file says, visibly.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).padStart(4, '0')}}`;
}

/** One value for a line of terminal output: every control character escaped, line breaks too. */
export function terminalText(value: string | number | boolean | null | undefined): string {
  return String(value ?? '').replace(CONTROL, escapeOne);
}

/**
 * Whole lines of output as the command wrote them: control characters escaped but line
 * breaks and tabs kept. The command line's own output to the terminal passes through it
 * (cli-io.ts `processIo`), so nothing a file holds reaches the terminal as a control
 * sequence even where a value was not escaped one by one.
 */
export function terminalLines(text: string): string {
  return text.replace(CONTROL_BUT_LINES, escapeOne);
}
