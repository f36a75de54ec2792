import { auroraCodecs } from '../../shared/formats/aurora/aurora-codecs';
import { formatHandlers } from '../../shared/formats/format-registry';
import { endQuietlyWhenOutputCloses, ExitCode, processIo, UsageError, type CliIo } from './cli-io';
import { bakeCommand, bakeUsage } from './commands/bake-command';
import { convertCommand, convertUsage } from './commands/convert-command';
import { infoCommand, infoUsage } from './commands/info-command';
import { pathCommand, pathUsage } from './commands/path-command';
import { projectCommand, projectUsage } from './commands/project-command';
import { roundtripCommand, roundtripUsage } from './commands/roundtrip-command';
import { serveCommand, serveUsage } from './commands/serve-command';
import { validateCommand, validateUsage } from './commands/validate-command';

declare const WALKBENCH_VERSION: string | undefined;

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

const commands: Record<string, { run: Command; usage: string }> = {
  info: { run: infoCommand, usage: infoUsage },
  validate: { run: validateCommand, usage: validateUsage },
  roundtrip: { run: roundtripCommand, usage: roundtripUsage },
  convert: { run: convertCommand, usage: convertUsage },
  bake: { run: bakeCommand, usage: bakeUsage },
  path: { run: pathCommand, usage: pathUsage },
  project: { run: projectCommand, usage: projectUsage },
  serve: { run: (argv, io) => serveCommand([...argv], io), usage: serveUsage },
};

function help(): string {
  const formats = formatHandlers.map((h) => `  ${h.extensions.join(' ')}  ${h.label} (${h.id})`).join('\n');
  return [
    'walkbench: walkmeshes and navmeshes of NWN2, KotOR, Skyrim and Source games',
    '',
    'Commands:',
    ...Object.values(commands).map((c) => `  ${c.usage}`),
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
    io.out(help());
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === '--version') {
    io.out(`${typeof WALKBENCH_VERSION === 'string' ? WALKBENCH_VERSION : 'development'}\n`);
    return ExitCode.ok;
  }
  const command = commands[name];
  if (!command) {
    io.err(`walkbench: unknown command "${name}"; run walkbench --help\n`);
    return ExitCode.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`walkbench ${name}: ${e.message}\nusage: ${command.usage}\n`);
      return ExitCode.usage;
    }
    const detail = e instanceof Error ? (process.env.WALKBENCH_DEBUG ? (e.stack ?? e.message) : e.message) : String(e);
    io.err(`walkbench: internal error: ${detail} (this is a bug in Walkbench; set WALKBENCH_DEBUG=1 for details)\n`);
    return ExitCode.internal;
  }
}
