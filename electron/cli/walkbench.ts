import { endQuietlyWhenOutputCloses, ExitCode, processIo, UsageError, type CliIo } from './cli-io';

declare const WALKBENCH_VERSION: string | undefined;

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * Each command's module is imported only when that command runs (issue 18): the bundle
 * splits at these imports (build/build-node.mjs), so `walkbench info x.wok` loads the
 * format readers and not the bakers, the project store, SQLite or the server. A command
 * module exports its runner and its usage line.
 */
const commands: Record<string, () => Promise<{ run: Command; usage: string }>> = {
  info: async () => import('./commands/info-command').then((m) => ({ run: m.infoCommand, usage: m.infoUsage })),
  validate: async () => import('./commands/validate-command').then((m) => ({ run: m.validateCommand, usage: m.validateUsage })),
  roundtrip: async () => import('./commands/roundtrip-command').then((m) => ({ run: m.roundtripCommand, usage: m.roundtripUsage })),
  convert: async () => import('./commands/convert-command').then((m) => ({ run: m.convertCommand, usage: m.convertUsage })),
  bake: async () => import('./commands/bake-command').then((m) => ({ run: m.bakeCommand, usage: m.bakeUsage })),
  path: async () => import('./commands/path-command').then((m) => ({ run: m.pathCommand, usage: m.pathUsage })),
  project: async () => import('./commands/project-command').then((m) => ({ run: m.projectCommand, usage: m.projectUsage })),
  serve: async () => import('./commands/serve-command').then((m) => ({ run: (argv, io) => m.serveCommand([...argv], io), usage: m.serveUsage })),
};

/** The help text: the only place that needs every command and format at once. */
async function help(): Promise<string> {
  const [{ formatHandlers }, { auroraCodecs }, loaded] = await Promise.all([
    import('../../shared/formats/format-registry'),
    import('../../shared/formats/aurora/aurora-codecs'),
    Promise.all(Object.values(commands).map((load) => load())),
  ]);
  const formats = formatHandlers.map((h) => `  ${h.extensions.join(' ')}  ${h.label} (${h.id})`).join('\n');
  return [
    'walkbench: walkmeshes and navmeshes of NWN2, KotOR, Skyrim and Source games',
    '',
    'Commands:',
    ...loaded.map((c) => `  ${c.usage}`),
    '',
    'Formats:',
    formats,
    '',
    'Resource formats (read and written by roundtrip):',
    ...auroraCodecs.map((c) => `  ${c.extensions.slice(0, 6).join(' ')}${c.extensions.length > 6 ? ' …' : ''}  ${c.label} (${c.id})`),
    '',
    'With --json each command prints one JSON array, one object per input file.',
    '',
  ].join('\n');
}

/** Runs the command line; returns the exit status. Never throws. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (io === processIo) endQuietlyWhenOutputCloses();
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.out(await help());
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === '--version') {
    io.out(`${typeof WALKBENCH_VERSION === 'string' ? WALKBENCH_VERSION : 'development'}\n`);
    return ExitCode.ok;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.err(`walkbench: unknown command "${name}"; run walkbench --help\n`);
    return ExitCode.usage;
  }
  let command: { run: Command; usage: string } | undefined;
  try {
    command = await load();
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError && command) {
      io.err(`walkbench ${name}: ${e.message}\nusage: ${command.usage}\n`);
      return ExitCode.usage;
    }
    const detail = e instanceof Error ? (process.env.WALKBENCH_DEBUG ? (e.stack ?? e.message) : e.message) : String(e);
    io.err(`walkbench: internal error: ${detail} (this is a bug in Walkbench; set WALKBENCH_DEBUG=1 for details)\n`);
    return ExitCode.internal;
  }
}
