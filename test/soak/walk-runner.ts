import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { openProjectPage } from '../support/browser-app';
import { chooseAction, describeAction, performAction, visibleFaces, type Action, type StepResult, type WalkWorld } from './walk-actions';
import { beforeOf, checkIntent, checkPage, checkProblems, fileFacts, WalkOracle, type Divergence, type ProjectFacts } from './walk-oracle';
import { busyReason, sleep, snapshot, type PageSnapshot } from './walk-page';
import { buildWalkProjects } from './walk-projects';
import { WalkRng } from './walk-rng';

/**
 * Runs the random walk: builds the four projects, serves the app in browser mode, and for
 * each step chooses an action (walk-actions.ts), does it through the page, waits until the
 * page is idle, and has the oracle (walk-oracle.ts) compare the page with the project. It
 * stops at the first divergence with the seed, the step, what diverged and the actions that
 * led there. Shared by the end-to-end test and `npm run soak`.
 */

export interface WalkOptions {
  seed: number;
  steps: number;
  /** The built renderer (test/support/browser-app.ts buildRenderer). */
  rendererDir: string;
  /** A browser to open the page in; else one is launched and closed. */
  browser?: Browser;
  /** Keep the projects' folder (its path is in the summary). */
  keep?: boolean;
  /** Progress lines (sparse) and notes. */
  log?: (line: string) => void;
  /** Print a progress line every this many steps (0: never). */
  progressEvery?: number;
  /** The game whose project the page starts on (else one drawn from the seed). */
  startGame?: string;
  /** How long the page may take to become idle after a step before that is a divergence. */
  idleTimeoutMs?: number;
  /** How long a page divergence may take to settle (an answer on its way) before it counts. */
  settleMs?: number;
}

export interface ActionRecord {
  step: number;
  text: string;
  outcome: string;
  reason?: string;
  ms: number;
}

export interface WalkDivergence {
  seed: number;
  step: number;
  action: string;
  checks: Divergence[];
  lastActions: ActionRecord[];
}

export interface WalkSummary {
  seed: number;
  stepsAsked: number;
  stepsRun: number;
  wallMs: number;
  /** Time spent by the oracle (reading the project and comparing), ms. */
  oracleMs: number;
  /** Time spent waiting for the page to be idle after the actions, ms. */
  idleMs: number;
  byKind: Record<string, number>;
  /** Outcome counts per action kind (`paint: done`, `undo: nothing`, …). */
  outcomes: Record<string, number>;
  /** Refused edits by the page's reason (shortened). */
  refusedReasons: Record<string, number>;
  /** Picks that did not land, by why. */
  missedReasons: Record<string, number>;
  /** Time per action kind (the action and the wait for idle), ms in all. */
  msByKind: Record<string, number>;
  /** The games whose project the page showed at some step. */
  gamesVisited: string[];
  divergence: WalkDivergence | null;
  workDir: string;
}

const HISTORY_SHOWN = 20;

/** The console line Chromium logs for the services' answer to a refused edit (HTTP 400): expected when the step was refused. */
const REFUSAL_RESPONSE = /^console: Failed to load resource: the server responded with a status of 400 \(Bad Request\)$/;

/** One line of a reason, without numbers that change from step to step, for counting. */
function reasonKey(text: string): string {
  return text
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .replace(/"[^"]*"/g, '"…"')
    .slice(0, 110);
}

export function formatDivergence(d: WalkDivergence): string {
  const lines = [`DIVERGENCE at step ${d.step} (seed ${d.seed}) after: ${d.action}`];
  for (const c of d.checks) lines.push(`  [${c.check}] ${c.where}`, `      expected: ${c.expected}`, `      shown:    ${c.shown}`);
  lines.push(`  last ${d.lastActions.length} actions:`);
  for (const a of d.lastActions) lines.push(`    ${String(a.step).padStart(5)}  ${a.text} → ${a.outcome}${a.reason ? ` (${a.reason.slice(0, 160)})` : ''}`);
  lines.push(`  reproduce: npm run soak -- --steps ${d.step} --seed ${d.seed}`);
  return lines.join('\n');
}

async function waitIdle(page: Page, oracle: WalkOracle, project: string, timeoutMs: number): Promise<string | null> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = await snapshot(page);
    let why = busyReason(s.state);
    if (!why && s.state.project) {
      const pending = oracle.pendingWrites(s.state.project.path).filter((id) => !oracle.unwritable(s.state.project!.path, id));
      if (pending.length > 0) why = `edited bytes of file(s) ${pending.join(', ')} not written yet (write-behind)`;
    } else if (!why && !s.state.project) why = `no project open (expected ${project})`;
    if (!why) return null;
    if (Date.now() > end) return why;
    await sleep(40);
  }
}

export async function runWalk(options: WalkOptions): Promise<WalkSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const rng = new WalkRng(options.seed);
  const workDir = mkdtempSync(path.join(tmpdir(), `walkbench-walk-${options.seed}-`));
  const summary: WalkSummary = { seed: options.seed, stepsAsked: options.steps, stepsRun: 0, wallMs: 0, oracleMs: 0, idleMs: 0, byKind: {}, outcomes: {}, refusedReasons: {}, missedReasons: {}, msByKind: {}, gamesVisited: [], divergence: null, workDir };
  const history: ActionRecord[] = [];
  const problems: string[] = [];
  let server: BrowserServer | undefined;
  let jobs: JobService | undefined;
  let page: Page | undefined;
  let ownBrowser: Browser | undefined;
  try {
    const projects = await buildWalkProjects(workDir);
    const drawn = rng.pick(projects);
    const startup = projects.find((p) => p.game === options.startGame) ?? drawn;
    const opened = await openProjectPage(startup.file, options.rendererDir, problems, { requests: false }, { ...(options.browser ? { browser: options.browser } : {}), onJobService: (j) => (jobs = j) });
    server = opened.server;
    page = opened.page;
    if (!options.browser) ownBrowser = opened.browser;
    const oracle = new WalkOracle();
    let expectedProject = startup.file;

    const fail = (step: number, action: string, checks: Divergence[]) => {
      summary.divergence = { seed: options.seed, step, action, checks, lastActions: history.slice(-HISTORY_SHOWN) };
    };

    // The page as it starts: idle, then checked like any step.
    const idle0 = await waitIdle(page, oracle, expectedProject, options.idleTimeoutMs ?? 60_000);
    if (idle0) {
      fail(0, 'opening the app', [{ check: 'idle', where: 'the page', expected: 'idle', shown: idle0 }]);
      return summary;
    }
    let facts: ProjectFacts = oracle.read(expectedProject);
    summary.gamesVisited.push(facts.game);
    let snap: PageSnapshot = await snapshot(page);
    const first = checkPage(facts, snap, expectedProject);
    if (first.length > 0) {
      fail(0, 'opening the app', first);
      return summary;
    }

    // Per tab, model and view: the faces a click reaches (framed from the top).
    let visibleKey = '';
    let visible: Set<number> | null = null;
    for (let step = 1; step <= options.steps; step++) {
      const active = snap.state.tabs.find((t) => t.active);
      const mesh = active && !active.showBaked && active.fileId !== null ? fileFacts(facts, active.fileId)?.meshes?.[0] : undefined;
      const key = active && mesh ? `${active.key}|${active.meshDigest}` : '';
      if (key !== visibleKey) {
        visibleKey = key;
        visible = mesh ? await visibleFaces(page, mesh) : null;
      }
      const world: WalkWorld = { page, projects, startup, facts, snap, visible };
      const action: Action = chooseAction(rng, world);
      const text = describeAction(action);
      const before = beforeOf(facts);
      const problemsBefore = problems.length;
      const t0 = performance.now();
      let result: StepResult;
      try {
        result = await performAction(action, world);
      } catch (e) {
        const message = e instanceof Error ? e.message.split('\n')[0]! : String(e);
        history.push({ step, text, outcome: 'threw', reason: message, ms: performance.now() - t0 });
        fail(step, text, [{ check: 'action', where: text, expected: 'the action can be done through the page', shown: message }]);
        break;
      }
      if (result.project) expectedProject = result.project;
      // A reload or another project starts the camera anew.
      if (action.kind === 'reload' || action.kind === 'switch-project' || action.kind === 'close-tab') visibleKey = '';
      const t1 = performance.now();
      const notIdle = await waitIdle(page, oracle, expectedProject, options.idleTimeoutMs ?? 60_000);
      const t2 = performance.now();
      summary.idleMs += t2 - t1;
      summary.byKind[action.kind] = (summary.byKind[action.kind] ?? 0) + 1;
      summary.msByKind[action.kind] = (summary.msByKind[action.kind] ?? 0) + (t2 - t0);
      const outcomeKey = `${action.kind}: ${result.outcome}`;
      summary.outcomes[outcomeKey] = (summary.outcomes[outcomeKey] ?? 0) + 1;
      if (result.outcome === 'missed' && result.reason) {
        const k = `${action.kind}: ${reasonKey(result.reason)}`;
        summary.missedReasons[k] = (summary.missedReasons[k] ?? 0) + 1;
      }
      if (result.outcome === 'refused' && result.reason) {
        const k = `${action.kind}: ${reasonKey(result.reason)}`;
        summary.refusedReasons[k] = (summary.refusedReasons[k] ?? 0) + 1;
      }
      history.push({ step, text, outcome: result.outcome, ...(result.reason ? { reason: result.reason } : {}), ms: t2 - t0 });
      summary.stepsRun = step;
      if (notIdle) {
        fail(step, text, [{ check: 'idle', where: 'the page after the step', expected: `idle within ${options.idleTimeoutMs ?? 60_000} ms`, shown: notIdle }]);
        break;
      }

      // The oracle; a page that disagrees is read again for a moment (an answer may be on its way).
      const settleEnd = performance.now() + (options.settleMs ?? 3000);
      let checks: Divergence[];
      for (;;) {
        facts = oracle.read(expectedProject);
        snap = await snapshot(page);
        const previous = facts.path === before.path ? null : oracle.read(before.path);
        checks = [
          ...(result.divergences ?? []),
          ...checkProblems(problems, problemsBefore, result.outcome === 'refused' ? REFUSAL_RESPONSE : undefined),
          ...checkIntent(result.intent, before, facts, previous),
          ...checkPage(facts, snap, expectedProject),
        ];
        if (checks.length === 0 || performance.now() > settleEnd) break;
        const onlyPage = (result.divergences ?? []).length === 0 && checkProblems(problems, problemsBefore, result.outcome === 'refused' ? REFUSAL_RESPONSE : undefined).length === 0 && checkIntent(result.intent, before, facts, previous).length === 0;
        if (!onlyPage) break;
        await sleep(100);
        await waitIdle(page, oracle, expectedProject, 5000);
      }
      summary.oracleMs += performance.now() - t2;
      if (!summary.gamesVisited.includes(facts.game)) summary.gamesVisited.push(facts.game);
      if (checks.length > 0) {
        fail(step, text, checks);
        break;
      }
      if (options.progressEvery && step % options.progressEvery === 0) {
        const s = (performance.now() - started) / 1000;
        log(`step ${step}/${options.steps}  ${(step / s).toFixed(2)} steps/s  last: ${text} → ${result.outcome}`);
      }
    }
    return summary;
  } finally {
    summary.wallMs = performance.now() - started;
    if (page && options.browser) await page.close().catch(() => undefined);
    await ownBrowser?.close().catch(() => undefined);
    await jobs?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    if (!options.keep) rmSync(workDir, { recursive: true, force: true });
  }
}
