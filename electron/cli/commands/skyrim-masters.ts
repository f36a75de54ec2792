import path from 'node:path';
import type { FileReport } from '../../../shared/formats/file-report';
import { PLUGIN_FORMAT } from '../../../shared/formats/skyrim/plugin-document';
import { pluginMasters } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { validatePlugin, type MasterPlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { warning, type Finding } from '../../../shared/validation/finding';
import { readBytes } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { expectedErrorMessage } from '../expected-errors';

/**
 * Reads the `--master` plugins, each named by its file name as a TES4 MAST list spells it.
 * Returns a one-line message instead when one cannot be read.
 */
export async function readMasterPlugins(files: readonly string[]): Promise<{ masters: MasterPlugin[] } | { error: string; file: string }> {
  const masters: MasterPlugin[] = [];
  for (const file of files) {
    try {
      masters.push({ name: path.basename(file), doc: readPlugin(await readBytes(file), env) });
    } catch (e) {
      const message = expectedErrorMessage(e, file);
      if (message === undefined) throw e;
      return { error: message, file };
    }
  }
  return { masters };
}

/** A warning for each given master the plugin's header does not list: its links cannot resolve to that file. */
export function unlistedMasters(masterList: readonly string[], masters: readonly MasterPlugin[]): Finding[] {
  const listed = new Set(masterList.map((m) => m.toLowerCase()));
  return masters
    .filter((m) => !listed.has(m.name.toLowerCase()))
    .map((m) => warning('navm.master.not-listed', `--master ${m.name} is not a master of this plugin (its masters: ${masterList.join(', ') || 'none'}); its navmeshes are not used`));
}

/**
 * The Skyrim plugin's report with its navmesh findings recomputed against the masters:
 * links into them are checked for reciprocity instead of being reported as unverifiable.
 * Reports of other formats come back unchanged.
 */
export function reportWithMasters(report: FileReport, bytes: Uint8Array, masters: readonly MasterPlugin[]): FileReport {
  if (report.format !== PLUGIN_FORMAT || masters.length === 0) return report;
  const doc = readPlugin(bytes, env);
  const findings = [...unlistedMasters(pluginMasters(doc), masters), ...validatePlugin(doc, masters, path.basename(report.file))];
  const errors = findings.filter((f) => f.severity === 'error');
  const warnings = findings.filter((f) => f.severity === 'warning');
  return { ...report, errors, warnings, ok: errors.length === 0 };
}
