import { parseArgs } from 'node:util';
import { startBrowserApp } from '../support/browser-app';
import { renderTable } from '../bench/text-table';
import { formatDivergence, runWalk, type WalkSummary } from './walk-runner';

/**
 * `npm run soak -- --steps N --seed S [--keep] [--start GAME] [--renderer DIR]`: the random walk of
 * test/e2e/random-walk.test.ts for any length. Prints a progress line now and then, and at
 * the end a summary table and the first divergence (with the actions that led to it), if
 * any; exit status 1 on a divergence.
 */

const USAGE = 'usage: npm run soak -- --steps N --seed S [--keep] [--every K] [--start nwn2|kotor|skyrim|source] [--renderer DIR (a built renderer, else it is built)]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function sumOf(s: WalkSummary, match: (kind: string, outcome: string) => boolean): number {
  let n = 0;
  for (const [key, v] of Object.entries(s.outcomes)) {
    const [kind, outcome] = key.split(': ') as [string, string];
    if (match(kind, outcome)) n += v;
  }
  return n;
}

const EDIT_KINDS = new Set(['paint', 'move', 'delete', 'create-face', 'room-link', 'cutter-add', 'cutter-move', 'cutter-delete']);

export function summaryTable(s: WalkSummary): string {
  const secs = s.wallMs / 1000;
  const rows: [string, string][] = [
    ['seed', String(s.seed)],
    ['steps', `${count(s.stepsRun)} of ${count(s.stepsAsked)}`],
    ['wall time', `${secs.toFixed(1)} s (oracle ${(s.oracleMs / 1000).toFixed(1)} s, waiting for idle ${(s.idleMs / 1000).toFixed(1)} s)`],
    ['steps/s', (s.stepsRun / secs).toFixed(2)],
  ];
  rows.push(['actions by kind', `(count, mean ms for the action and the wait for idle)`]);
  for (const [kind, n] of Object.entries(s.byKind).sort((a, b) => b[1] - a[1])) rows.push([`  ${kind}`, `${count(n)}  (${((s.msByKind[kind] ?? 0) / n).toFixed(0)} ms)`]);
  rows.push(['games visited', s.gamesVisited.join(', ')]);
  rows.push(['edits accepted', count(sumOf(s, (k, o) => EDIT_KINDS.has(k) && o === 'done'))]);
  rows.push(['edits refused', count(sumOf(s, (k, o) => (EDIT_KINDS.has(k) || k === 'refused') && o === 'refused'))]);
  const reasons = Object.entries(s.refusedReasons).sort((a, b) => b[1] - a[1]);
  const isEdit = (reason: string) => EDIT_KINDS.has(reason.split(': ')[0]!) || reason.startsWith('refused: ');
  for (const [reason, n] of reasons.filter(([r]) => isEdit(r))) rows.push([`  ${n}×`, reason]);
  rows.push(['picks that missed (action skipped)', count(sumOf(s, (_k, o) => o === 'missed'))]);
  for (const [reason, n] of Object.entries(s.missedReasons).sort((a, b) => b[1] - a[1]).slice(0, 8)) rows.push([`  ${n}×`, reason]);
  rows.push(['edits with nothing done', count(sumOf(s, (k, o) => EDIT_KINDS.has(k) && o === 'nothing'))]);
  for (const k of ['undo', 'redo'] as const) {
    rows.push([`${k}s`, `${count(sumOf(s, (x, o) => x === k && o === 'done'))} done, ${count(sumOf(s, (x, o) => x === k && o === 'nothing'))} nothing to ${k}, ${count(sumOf(s, (x, o) => x === k && o === 'refused'))} refused`]);
  }
  const bakes = Object.entries(s.outcomes).filter(([key]) => key.startsWith('bake: ')).map(([key, n]) => `${n} ${key.slice(6)}`);
  rows.push(['bakes', bakes.join(', ') || '0']);
  for (const [reason, n] of reasons.filter(([r]) => !isEdit(r))) rows.push([`  ${n}×`, reason]);
  rows.push(['dry runs', count(sumOf(s, (k) => k === 'dry-run'))]);
  rows.push(['reloads', count(s.byKind.reload ?? 0)]);
  rows.push(['project switches', count(s.byKind['switch-project'] ?? 0)]);
  rows.push(['divergences', s.divergence ? `1 (step ${s.divergence.step}: ${s.divergence.checks[0]!.check})` : '0']);
  return renderTable([{ header: 'soak', align: 'left' }, { header: '', align: 'left' }], rows);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { steps: { type: 'string' }, seed: { type: 'string' }, keep: { type: 'boolean' }, every: { type: 'string' }, renderer: { type: 'string' }, start: { type: 'string' } },
      strict: true,
    }));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  const steps = Number(values.steps ?? '200');
  const seed = Number(values.seed ?? '1');
  if (!Number.isInteger(steps) || steps < 1) fail(`--steps must be a whole number above 0, not ${values.steps}`);
  if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a whole number, not ${values.seed}`);
  const every = Number(values.every ?? String(Math.max(10, Math.round(steps / 50))));
  const out = (line: string) => process.stdout.write(`${line}\n`);

  if (!values.renderer) out('building the renderer…');
  const app = await startBrowserApp('walkbench-soak-renderer-', values.renderer);
  let summary: WalkSummary;
  try {
    out(`soak: ${steps} steps, seed ${seed}`);
    summary = await runWalk({ seed, steps, rendererDir: app.rendererDir, browser: app.browser, keep: values.keep === true, log: out, progressEvery: every, ...(values.start ? { startGame: values.start } : {}) });
  } finally {
    await app.close();
  }
  out('');
  out(summaryTable(summary));
  if (summary.divergence) {
    out('');
    out(formatDivergence(summary.divergence));
  }
  if (values.keep) out(`\nprojects kept in ${summary.workDir}`);
  process.exit(summary.divergence ? 1 : 0);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
