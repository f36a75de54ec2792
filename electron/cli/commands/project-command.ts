import path from 'node:path';
import type { GameId } from '../../../shared/model/walkmesh';
import { rebakeProject } from '../../services/bake-pool/project-rebake';
import { nothingToBakeLabel } from '../../services/bake-pool/unbaked-reasons';
import { FileAccessError } from '../../services/file-access';
import { asProjectFileError } from '../../services/project/project-database';
import { ProjectFileError } from '../../services/project/project-file-error';
import { importSources, type ImportProgress } from '../../services/project/project-import';
import { ProjectStore } from '../../services/project/project-store';
import { gameIds } from '../../services/project/project-types';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { ExportVerifyError } from '../../services/project/project-export';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { projectExport, projectExportUsage, projectRestore } from './project-export-command';
import { progressMode, progressReporter } from './project-progress';
import { terminalText as t } from '../terminal-text';

export const projectUsage =
  'walkbench project create PROJECT --game nwn2|kotor|skyrim|source [--name NAME] [--game-folder DIR]… | ' +
  'project info PROJECT [--json] | project import PROJECT SOURCE… [--module NAME] [--models DIR…] [--2da DIR] [--json] | ' +
  'project rebake PROJECT [--module M] [--jobs N] [--record-batch N] [--force] [--json] | ' +
  `${projectExportUsage}   the project file`;

function megabytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

function withStore<T>(file: string, fn: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(file);
  try {
    return fn(store);
  } catch (e) {
    throw asProjectFileError(file, e);
  } finally {
    store.close();
  }
}

function create(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, ['game', 'name'], ['json'], ['game-folder']);
  const [file, ...extra] = args.positional;
  if (file === undefined || extra.length > 0) throw new UsageError('project create needs exactly one PROJECT file');
  const game = args.flags.get('game');
  const known = gameIds.find((g) => g === game);
  if (typeof game !== 'string' || !known) throw new UsageError(`--game must be one of ${gameIds.join(', ')}`);
  const nameFlag = args.flags.get('name');
  const name = typeof nameFlag === 'string' ? nameFlag : path.basename(file).replace(/\.[^.]*$/, '');
  const store = ProjectStore.create(file, { name, game: known satisfies GameId });
  try {
    for (const folder of args.lists.get('game-folder') ?? []) store.addGameFolder(path.resolve(folder));
    const info = store.info();
    if (args.flags.has('json')) io.out(`${JSON.stringify({ file, ...info, gameFolders: store.listGameFolders() }, null, 2)}\n`);
    else io.out(`${t(file)}: created project "${t(info.name)}" for ${info.game} (schema version ${info.schemaVersion})\n`);
  } catch (e) {
    throw asProjectFileError(file, e);
  } finally {
    store.close();
  }
  return ExitCode.ok;
}

function info(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, [], ['json']);
  const [file, ...extra] = args.positional;
  if (file === undefined || extra.length > 0) throw new UsageError('project info needs exactly one PROJECT file');
  return withStore(file, (store) => {
    const project = store.info();
    const counts = store.counts();
    const modules = store.listModules();
    const kinds: Record<string, number> = {};
    for (const f of store.listFiles()) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
    const folders = store.listGameFolders();
    if (args.flags.has('json')) {
      io.out(`${JSON.stringify({ file, ...project, gameFolders: folders, counts, kinds, modules }, null, 2)}\n`);
      return ExitCode.ok;
    }
    io.out(`${t(file)}: project "${t(project.name)}" for ${project.game}, schema version ${project.schemaVersion}, created ${t(project.createdAt)}\n`);
    for (const f of folders) io.out(`  ${t(f.role)} folder: ${t(f.path)}\n`);
    io.out(`  ${counts.files} files (${megabytes(counts.bytes)}), ${counts.edits} edited, ${counts.bakes} bakes, ${counts.history} history steps, ${counts.exports} exports\n`);
    const byKind = Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ');
    if (byKind) io.out(`  ${byKind}\n`);
    for (const m of modules) io.out(`  module ${t(m.name)}: ${m.fileCount} files, ${megabytes(m.totalSize)}\n`);
    return ExitCode.ok;
  });
}

async function importCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['module', '2da'], ['json'], ['models']);
  const [file, ...sources] = args.positional;
  if (file === undefined || sources.length === 0) throw new UsageError('project import needs a PROJECT and at least one SOURCE');
  const json = args.flags.has('json');
  const moduleFlag = args.flags.get('module');
  if (moduleFlag === '') throw new UsageError('--module needs a name');
  const twoDa = args.flags.get('2da');
  const store = ProjectStore.open(file);
  const progress = progressReporter(io, 'import', progressMode(io, json));
  try {
    const onProgress = (p: ImportProgress) => progress.update(p.done, p.total, `files, ${megabytes(p.bytes)}`);
    const report = await importSources(store, sources, {
      module: typeof moduleFlag === 'string' ? moduleFlag : undefined,
      modelDirs: args.lists.get('models')!,
      ...(typeof twoDa === 'string' ? { twoDaDir: twoDa } : {}),
      onProgress,
    }).finally(() => progress.finish());
    if (json) {
      io.out(`${JSON.stringify({ project: file, counts: report.counts, files: report.files }, null, 2)}\n`);
    } else {
      for (const f of report.files) {
        // Names come from the files and archives imported: shown with control characters escaped.
        if (f.status === 'added' || f.status === 'changed') io.out(`${f.status} ${t(f.module)}/${t(f.name)} (${f.kind})\n`);
        else if (f.status === 'skipped') io.out(`skipped ${t(f.path)}: ${t(f.reason)}\n`);
      }
      const c = report.counts;
      io.out(`${t(file)}: ${c.added} added, ${c.changed} changed, ${c.unchanged} unchanged, ${c.skipped} skipped\n`);
    }
  } catch (e) {
    throw asProjectFileError(file, e);
  } finally {
    store.close();
  }
  return ExitCode.ok;
}

/**
 * `project rebake`: re-bakes on a worker pool the walkmeshes whose bytes or baker version
 * changed since their last bake (all of them with --force), then prints a summary.
 */
async function rebake(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['module', 'jobs', 'record-batch'], ['force', 'json']);
  const [file, ...extra] = args.positional;
  if (file === undefined || extra.length > 0) throw new UsageError('project rebake needs exactly one PROJECT file');
  // Bakes recorded per project transaction (default RECORD_BATCH): 1 makes each bake durable as it lands.
  const batchFlag = args.flags.get('record-batch');
  const recordBatch = typeof batchFlag === 'string' ? Number(batchFlag) : undefined;
  if (recordBatch !== undefined && (!Number.isInteger(recordBatch) || recordBatch < 1)) throw new UsageError('--record-batch needs a whole number ≥ 1');
  const moduleFlag = args.flags.get('module');
  if (moduleFlag === '') throw new UsageError('--module needs a name');
  const jobsFlag = args.flags.get('jobs');
  const jobs = typeof jobsFlag === 'string' ? Number(jobsFlag) : undefined;
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1)) throw new UsageError('--jobs needs a whole number ≥ 1');
  const json = args.flags.has('json');
  const store = ProjectStore.open(file);
  const mode = progressMode(io, json);
  const progress = progressReporter(io, 'rebake', mode);
  try {
    const report = await rebakeProject(store, {
      module: typeof moduleFlag === 'string' ? moduleFlag : undefined,
      jobs,
      ...(recordBatch !== undefined ? { recordBatch } : {}),
      force: args.flags.has('force'),
      onFile: (e, done, total) => {
        const what = e.status === 'baked' ? `baked in ${Math.round(e.elapsedMs)} ms` : e.status === 'failed' ? `failed: ${e.reason}` : 'unchanged';
        // One line per file off a terminal: a log of a long rebake says what each file did.
        if (mode === 'lines') io.err(`rebake: ${done}/${total} ${t(e.file)} ${t(what)}\n`);
        else progress.update(done, total, `${e.file} ${what}`);
      },
    }).finally(() => progress.finish());
    if (json) io.out(`${JSON.stringify({ project: file, counts: report.counts, files: report.entries }, null, 2)}\n`);
    else {
      for (const e of report.entries) if (e.status === 'failed') io.out(`failed ${t(e.file)}: ${t(e.reason)}\n`);
      if (report.entries.length === 0) io.out(`${t(nothingToBakeLabel(store.info().game, typeof moduleFlag === 'string' ? moduleFlag : undefined))}\n`);
      const c = report.counts;
      io.out(`${t(file)}: ${c.baked} baked, ${c.skipped} skipped (unchanged), ${c.failed} failed\n`);
    }
    return report.counts.failed > 0 ? ExitCode.failed : ExitCode.ok;
  } catch (e) {
    throw asProjectFileError(file, e);
  } finally {
    store.close();
  }
}

/** `walkbench project …`: create a project file, show what it holds, import into it, re-bake it. */
export async function projectCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'create':
        return create(rest, io);
      case 'info':
        return info(rest, io);
      case 'import':
        return await importCommand(rest, io);
      case 'rebake':
        return await rebake(rest, io);
      case 'export':
        return await projectExport(rest, io);
      case 'restore':
        return await projectRestore(rest, io);
      default:
        throw new UsageError(
          sub === undefined ? 'project needs a subcommand: create, info, import, rebake, export or restore' : `unknown project subcommand "${sub}"`,
        );
    }
  } catch (e) {
    if (e instanceof ProjectFileError || e instanceof FileAccessError || e instanceof ExportVerifyError || isMalformedInputError(e)) {
      io.err(`walkbench: ${t(e.message)}\n`);
      return ExitCode.failed;
    }
    throw e;
  }
}
