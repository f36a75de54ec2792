import { restoreLastExport } from '../../services/project/export-backups';
import { asProjectFileError } from '../../services/project/project-database';
import { exportProject } from '../../services/project/project-export';
import { planExport, type ExportChange } from '../../services/project/project-export-plan';
import { rebakeProject } from '../../services/bake-pool/project-rebake';
import { ProjectStore } from '../../services/project/project-store';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { progressMode, progressReporter } from './project-progress';
import { terminalText as t } from '../terminal-text';

export const projectExportUsage =
  'project export PROJECT --to GAMEDIR|ARCHIVE [--module M] [--rebake] [--dry-run] [--json] | project restore PROJECT --to GAMEDIR|ARCHIVE [--dry-run] [--json]';

function kb(n: number): string {
  return `${(n / 1024).toFixed(1)} KB`;
}

function toFlag(args: ReturnType<typeof parseArgs>, sub: string): string {
  const to = args.flags.get('to');
  if (typeof to !== 'string' || to === '') throw new UsageError(`project ${sub} needs --to GAMEDIR (a game folder or a module archive)`);
  return to;
}

/** How the dry run names what happens to a file's content (issue 15 §4). */
const CHANGE_TEXT: Record<ExportChange, string> = { unchanged: 'unchanged: kept as imported', edited: 'written: edited', rebaked: 're-baked' };

/**
 * `project export`: lists every file it will create or replace and what it writes (kept
 * as imported, its edit, or re-baked and why), and stops there with --dry-run; then
 * writes them with backups and reads each back. An unedited file goes out byte for byte
 * as imported unless --rebake, which first bakes in the project what has no bake yet (as
 * `project rebake` does) and then exports every bake. Exit status 1 when any file is
 * refused (nothing is written then) or a written file does not read back.
 */
export async function projectExport(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['to', 'module'], ['dry-run', 'json', 'rebake']);
  const [file, ...extra] = args.positional;
  if (file === undefined || extra.length > 0) throw new UsageError('project export needs exactly one PROJECT file');
  const rebake = args.flags.has('rebake');
  const to = toFlag(args, 'export');
  const moduleFlag = args.flags.get('module');
  if (moduleFlag === '') throw new UsageError('--module needs a name');
  const json = args.flags.has('json');
  const dryRun = args.flags.has('dry-run');
  const store = ProjectStore.open(file);
  const progress = progressReporter(io, 'export', progressMode(io, json));
  try {
    const planOptions = { to, ...(typeof moduleFlag === 'string' ? { module: moduleFlag } : {}), rebake };
    if (rebake) {
      // Bakes go into the project only (the game folder is untouched until the plan is shown).
      const baking = progressReporter(io, 'rebake', progressMode(io, json));
      const report = await rebakeProject(store, {
        ...(typeof moduleFlag === 'string' ? { module: moduleFlag } : {}),
        onFile: (e, done, total) => baking.update(done, total, e.file),
      }).finally(() => baking.finish());
      if (!json) for (const e of report.entries) if (e.status === 'failed') io.out(`bake failed ${t(e.file)}: ${t(e.reason)}\n`);
    }
    const plan = planExport(store, planOptions);
    // The list comes first, before anything is written.
    if (!json) {
      for (const e of plan.entries) {
        // Names come from the project's files (and so from the archives imported): shown with
        // control characters escaped.
        const where = e.resource ? `${t(e.targetPath)}:${t(e.resource)}` : t(e.targetPath);
        const findings = e.errors + e.warnings > 0 ? `, ${e.errors} validation error(s), ${e.warnings} warning(s)` : '';
        const why = e.change === 'unchanged' ? '' : ` (${t(e.why)})`;
        io.out(`${e.action} ${where}: ${CHANGE_TEXT[e.change]}${why} (${kb(e.bytes)} from the ${e.source} of ${t(e.file)}${findings})\n`);
      }
      for (const r of plan.refused) io.out(`refused ${t(r.file)}: ${t(r.reason)}\n`);
    }
    const result = await exportProject(store, { ...planOptions, plan, dryRun, onProgress: (done, total, label) => progress.update(done, total, label) }).finally(() =>
      progress.finish(),
    );
    if (json) {
      io.out(`${JSON.stringify({ project: file, target: plan.target, status: result.status, runId: result.runId, backupDir: result.backupDir, planned: plan.entries, refused: plan.refused, verified: result.verified }, null, 2)}\n`);
    } else {
      const counts = { create: 0, replace: 0, unchanged: 0 };
      for (const e of plan.entries) counts[e.action]++;
      const changes = { unchanged: 0, edited: 0, rebaked: 0 };
      for (const e of plan.entries) changes[e.change]++;
      const summary =
        `${counts.create} to create, ${counts.replace} to replace, ${counts.unchanged} unchanged, ${plan.refused.length} refused; ` +
        `${changes.unchanged} kept as imported, ${changes.edited} written (edited), ${changes.rebaked} re-baked`;
      const into = plan.target.kind === 'folder' ? plan.target.dir : plan.target.file;
      if (result.status === 'refused') io.out(`${t(file)}: nothing exported: ${summary}\n`);
      else if (result.status === 'planned') io.out(`${t(file)}: dry run: ${summary}\n`);
      else if (result.status === 'aborted') io.out(`${t(file)}: export stopped after ${result.verified.length} files; run it again to finish\n`);
      else {
        const backups = result.backupDir && counts.replace > 0 ? `; replaced files backed up in ${t(result.backupDir)}` : '';
        if (result.verified.length === 0) io.out(`${t(file)}: nothing written: ${t(into)} already holds every file as exported; ${summary}\n`);
        else io.out(`${t(file)}: exported ${result.verified.length} files into ${t(into)}, each read back identical${backups}; ${summary}\n`);
      }
    }
    return result.status === 'refused' || result.status === 'aborted' ? ExitCode.failed : ExitCode.ok;
  } catch (e) {
    throw asProjectFileError(file, e);
  } finally {
    store.close();
  }
}

/** `project restore`: puts back the files the last export into GAMEDIR replaced, and removes those it created. */
export async function projectRestore(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['to'], ['dry-run', 'json']);
  const [file, ...extra] = args.positional;
  if (file === undefined || extra.length > 0) throw new UsageError('project restore needs exactly one PROJECT file');
  const to = toFlag(args, 'restore');
  const json = args.flags.has('json');
  const store = ProjectStore.open(file);
  const progress = progressReporter(io, 'restore', progressMode(io, json));
  try {
    const result = restoreLastExport(store, to, { dryRun: args.flags.has('dry-run'), onProgress: (d, t, l) => progress.update(d, t, l) });
    progress.finish();
    if (json) {
      io.out(`${JSON.stringify({ project: file, runs: result.runs.map((r) => r.id), files: result.files, tempFiles: result.tempFiles }, null, 2)}\n`);
      return ExitCode.ok;
    }
    if (result.runs.length === 0) {
      io.out(`${t(file)}: no export into ${t(to)} to restore\n`);
      return ExitCode.ok;
    }
    for (const f of result.files) io.out(`${f.action} ${t(f.targetPath)}${f.reason ? `: ${t(f.reason)}` : ''}\n`);
    const removing = args.flags.has('dry-run') ? 'would remove' : 'removed';
    for (const temp of result.tempFiles) io.out(`${removing} ${t(temp)} (left by an export stopped mid-write)\n`);
    const n = (a: string) => result.files.filter((f) => f.action === a).length;
    io.out(`${t(file)}: undid export ${result.runs.map((r) => r.id).join(', ')}: ${n('restored')} restored, ${n('removed')} removed, ${n('kept')} kept\n`);
    return ExitCode.ok;
  } catch (e) {
    throw asProjectFileError(file, e);
  } finally {
    store.close();
  }
}
