import { existsSync } from 'node:fs';
import path from 'node:path';
import { rendererDirectory } from '../../services/app-paths';
import { createEventHub } from '../../../shared/ipc/event-hub';
import { startBrowserServer } from '../../services/browser-server';
import { isProjectFile } from '../../services/project-file-sniff';
import { createRecentProjects, defaultRecentProjectsFile } from '../../services/recent-projects';
import { checkRegularFile, FileAccessError } from '../../services/file-access';
import { createWalkbenchService } from '../../services/walkbench-service';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { terminalText } from '../terminal-text';

export const serveUsage =
  'walkbench serve [--port N] [--project FILE | --file FILE]   the app in a browser, on 127.0.0.1 with a secret token';

function parsePort(value: string | true | undefined): number {
  if (value === undefined) return 0;
  const port = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port needs a port number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(value)}`);
  }
  return port;
}

/**
 * `walkbench serve`: the app's renderer and services over HTTP on 127.0.0.1, for browsers
 * and for machines where Electron cannot start. Prints the address with its token and
 * resolves when the server closes (Ctrl+C or SIGTERM).
 */
export async function serveCommand(args: string[], io: Pick<CliIo, 'out' | 'err'>): Promise<number> {
  const parsed = parseArgs(args, ['port', 'project', 'file'], ['help']);
  if (parsed.flags.has('help')) {
    io.out(`usage: ${serveUsage}\n`);
    return ExitCode.ok;
  }
  if (parsed.positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positional[0])}`);
  const port = parsePort(parsed.flags.get('port'));
  if (parsed.flags.has('project') && parsed.flags.has('file')) throw new UsageError('give --project or --file, not both');
  const fileFlag = parsed.flags.get('project') ?? parsed.flags.get('file');
  let startupFile: string | null = null;
  if (typeof fileFlag === 'string') {
    startupFile = path.resolve(fileFlag);
    try {
      // A regular file only: a FIFO or a device is refused before anything opens it.
      await checkRegularFile(startupFile);
    } catch (e) {
      if (!(e instanceof FileAccessError)) throw e;
      io.err(`walkbench serve: ${terminalText(e.message)}\n`);
      return ExitCode.failed;
    }
  }

  const rendererDir = rendererDirectory();
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    io.err(`walkbench serve: warning: the renderer is not built (${rendererDir}); run npm run build:renderer, then reload the page\n`);
  }
  const events = createEventHub();
  let closeService: (() => Promise<void>) | undefined;
  // A project given on the command line is opened in the page at start.
  const project = startupFile !== null && (await isProjectFile(startupFile).catch(() => false)) ? startupFile : null;
  let server;
  try {
    server = await startBrowserServer({
      service: createWalkbenchService({
        startupFile,
        startupIsProject: project !== null,
        events,
        onClose: (c) => (closeService = c),
        // File ▸ Recent and Reopen last on the page's start screen.
        recentProjects: createRecentProjects(defaultRecentProjectsFile()),
      }),
      events,
      rendererDir,
      port,
      log: (line) => io.err(`${line}\n`),
    });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = code === 'EADDRINUSE' ? `port ${port} is already in use` : e instanceof Error ? e.message : String(e);
    io.err(`walkbench serve: cannot listen on 127.0.0.1: ${why}\n`);
    return ExitCode.failed;
  }
  io.out(`Walkbench is running in browser mode at ${server.url}\n`);
  io.out('Open that address in a browser on this computer (it carries the access token). Press Ctrl+C to stop.\n');

  // The first SIGINT or SIGTERM stops the server and closes the project; the handlers stay
  // until that is done, so a second signal during the shutdown is not the default exit
  // (which would cut the project's last writes short).
  const stop = () => void server.close();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await server.closed;
  } finally {
    // Edits written behind are written, bakes and the live bake worker end (their worker
    // threads would keep the process alive), and the project file is closed.
    await closeService?.();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  io.out('Walkbench stopped.\n');
  return ExitCode.ok;
}
