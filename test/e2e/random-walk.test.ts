import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser-suite';
import { formatDivergence, runWalk, type WalkSummary } from '../soak/walk-runner';

/**
 * Issue 13, "Evidence": a seeded random walk of user actions (open and switch projects and
 * tabs, select, paint, move, delete, create faces, room links, NWN2 cutters and views, undo
 * and redo, bakes, export dry runs, reloads, tools the file does not offer) against the app
 * in browser mode, with an oracle in Node checking after every step that every file's bytes
 * are its history replayed and that every open tab's model, findings and bake state, and the
 * tree's bake marks, are what the project holds (test/soak/). A failure prints the seed, the
 * step, what diverged and the actions that led there; `npm run soak -- --steps N --seed S`
 * replays it and runs any length.
 */

/** One walk per game to start on (each switches projects on its way); 240 steps in all. */
const WALKS = [
  { seed: 1, start: 'nwn2' },
  { seed: 2, start: 'kotor' },
  { seed: 3, start: 'skyrim' },
  { seed: 4, start: 'source' },
];
const STEPS = 60;

const app = browserSuite('walkbench-e2e-walk-renderer-');
const summaries: WalkSummary[] = [];

describe('random walk with an oracle: the page shows what the project holds after every step', () => {
  for (const { seed, start } of WALKS) {
    it(`seed ${seed}: ${STEPS} steps from the ${start} project`, async () => {
      const summary = await runWalk({ seed, steps: STEPS, rendererDir: app.rendererDir, browser: app.browser, startGame: start });
      summaries.push(summary);
      if (summary.divergence) expect.fail(`\n${formatDivergence(summary.divergence)}`);
      expect(summary.stepsRun).toBe(STEPS);
    // About 45 s each on an idle 2-core machine; the margin is for a loaded one (one timed out at 180 s with a load of 18).
    }, 400_000);
  }

  it('visited every game and did edits, undos, bakes, dry runs and reloads', () => {
    expect(summaries.flatMap((s) => s.gamesVisited).sort()).toEqual(expect.arrayContaining(['kotor', 'nwn2', 'skyrim', 'source']));
    const done = (kind: string) => summaries.reduce((n, s) => n + (s.outcomes[`${kind}: done`] ?? 0), 0);
    for (const kind of ['paint', 'move', 'undo', 'bake']) expect(done(kind), `${kind} done`).toBeGreaterThan(0);
    for (const kind of ['dry-run', 'reload', 'switch-project']) expect(summaries.reduce((n, s) => n + (s.byKind[kind] ?? 0), 0), kind).toBeGreaterThan(0);
  });
});
