import { describe, expect, it } from 'vitest';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { computeNormalsSteps, mergeKind, mergeKindSteps } from '../../../renderer/src/viewport/level-context-layer';
import { runSliced, type SliceClock } from '../../../renderer/src/viewport/time-sliced';
import type { LevelContextPiece } from '../../../shared/model/level-context';

/** A clock the test moves: each step costs `stepMs`, and `later` queues the next slice. */
function fakeClock(stepMs: number) {
  let t = 0;
  const queued: (() => void)[] = [];
  const clock: SliceClock = { now: () => t, later: (next) => void queued.push(next) };
  return {
    clock,
    queued,
    tick: () => (t += stepMs),
    /** Runs queued slices until none is left (the event loop's turns). */
    drain(): number {
      let turns = 0;
      while (queued.length > 0) {
        queued.shift()!();
        turns++;
      }
      return turns;
    },
  };
}

function* counted(n: number, ran: number[], tick: () => void): Generator<void, void> {
  for (let i = 0; i < n; i++) {
    ran.push(i);
    tick();
    yield;
  }
}

describe('runSliced', () => {
  it('runs steps until the budget is spent, then gives the event loop back, and finishes in order', async () => {
    const c = fakeClock(4);
    const ran: number[] = [];
    const run = runSliced(counted(10, ran, c.tick), 10, c.clock);
    // 4 ms a step, 10 ms a slice: three steps (12 ms) before the first yield to the page.
    expect(ran).toEqual([0, 1, 2]);
    expect(c.queued.length).toBe(1);
    c.drain();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // 10 steps and the generator's end: slices of 3, 3, 3, then 1 step and done.
    expect(run.slices).toBe(4);
    await expect(run.done).resolves.toBe(true);
  });

  it('stops at cancel, runs the generator finally block, and resolves false', async () => {
    const c = fakeClock(6);
    const ran: number[] = [];
    let closed = false;
    function* steps(): Generator<void, void> {
      try {
        yield* counted(10, ran, c.tick);
      } finally {
        closed = true;
      }
    }
    const run = runSliced(steps(), 10, c.clock);
    expect(ran).toEqual([0, 1]);
    run.cancel();
    expect(c.drain()).toBe(1);
    expect(ran).toEqual([0, 1]);
    expect(closed).toBe(true);
    await expect(run.done).resolves.toBe(false);
  });

  it('lets a step cancel its own run without a generator-already-running error', async () => {
    const c = fakeClock(1);
    let run: ReturnType<typeof runSliced> | null = null;
    let after = 0;
    function* steps(): Generator<void, void> {
      yield;
      run!.cancel();
      yield;
      after++;
      yield;
    }
    // A budget of 0: one step a slice, so the cancelling step runs after runSliced returned.
    run = runSliced(steps(), 0, c.clock);
    c.drain();
    await expect(run.done).resolves.toBe(false);
    expect(after).toBe(0);
  });

  it('waits for a promise a step yields, without running or queueing slices meanwhile, settled either way', async () => {
    const c = fakeClock(1);
    const ran: string[] = [];
    let release: () => void = () => {};
    let refuse: (e: Error) => void = () => {};
    function* steps(): Generator<void | Promise<void>, void> {
      ran.push('a');
      yield new Promise<void>((resolve) => (release = resolve));
      ran.push('b');
      yield new Promise<void>((_, reject) => (refuse = reject));
      ran.push('c');
    }
    const run = runSliced(steps(), 100, c.clock);
    expect(ran).toEqual(['a']);
    expect(c.queued.length).toBe(0);
    release();
    await Promise.resolve();
    expect(c.drain()).toBe(1);
    expect(ran).toEqual(['a', 'b']);
    refuse(new Error('shader failed'));
    await Promise.resolve();
    c.drain();
    expect(ran).toEqual(['a', 'b', 'c']);
    await expect(run.done).resolves.toBe(true);
  });

  it("rejects with a step's error", async () => {
    const c = fakeClock(1);
    function* steps(): Generator<void, void> {
      yield;
      throw new RangeError('piece 3: triangle uses vertex 9 of 4');
    }
    const run = runSliced(steps(), 100, c.clock);
    c.drain();
    await expect(run.done).rejects.toThrow('vertex 9 of 4');
  });
});

function piece(vertices: number, coloured: boolean, seed: number): LevelContextPiece {
  const positions = new Float32Array(vertices * 3).map((_, i) => (i * 7 + seed) % 101);
  const triangles = new Uint32Array((vertices - 2) * 3).map((_, i) => (Math.floor(i / 3) + (i % 3)) % vertices);
  return {
    label: `piece ${seed}`,
    kind: 'terrain',
    positions,
    triangles,
    ...(coloured ? { vertexColours: new Uint8Array(vertices * 4).map((_, i) => (i * 13 + seed) % 256) } : {}),
  };
}

describe('mergeKindSteps', () => {
  const pieces = [piece(700, true, 1), piece(5, false, 2), piece(40, true, 3), piece(300, false, 4)];

  it('gives the same buffers as the merge in one go, whatever the step size', () => {
    const whole = mergeKind(pieces, 'terrain');
    for (const stepItems of [1, 7, 64, 1000, 1e9]) {
      const steps = mergeKindSteps(pieces, 'terrain', stepItems);
      let yields = 0;
      let step = steps.next();
      while (!step.done) {
        yields++;
        step = steps.next();
      }
      expect(step.value.positions).toEqual(whole.positions);
      expect(step.value.colours).toEqual(whole.colours);
      expect(step.value.indices).toEqual(whole.indices);
      // Items copied: every vertex and every index once; a yield at most every stepItems of them.
      const items = 1045 + whole.indices.length;
      expect(yields).toBeLessThanOrEqual(Math.ceil(items / stepItems));
      if (stepItems <= 64) expect(yields).toBeGreaterThanOrEqual(Math.floor(items / (2 * stepItems)));
    }
  });

  it('offsets each piece\'s indices by the vertices before it and swaps y and z', () => {
    const m = mergeKind(pieces, 'terrain');
    const second = pieces[1]!;
    const at = (700 - 2) * 3;
    expect(m.indices[at]).toBe(second.triangles[0]! + 700);
    expect(Array.from(m.positions.subarray(700 * 3, 700 * 3 + 3))).toEqual([second.positions[0]!, second.positions[2]!, second.positions[1]!]);
  });
});

describe('computeNormalsSteps', () => {
  it("gives Babylon's ComputeNormals to the bit, whatever the step size", () => {
    const m = mergeKind([piece(400, false, 5), piece(90, false, 6)], 'world');
    // A degenerate face (all corners one point) and a vertex no face uses keep Babylon's handling.
    const indices = new Uint32Array([...m.indices, 3, 3, 3]);
    const positions = new Float32Array([...m.positions, 1, 2, 3]);
    const expected = new Float32Array(positions.length);
    VertexData.ComputeNormals(positions, indices, expected);
    for (const stepItems of [1, 50, 1e9]) {
      const normals = new Float32Array(positions.length).fill(9);
      const steps = computeNormalsSteps(positions, indices, normals, stepItems);
      let yields = 0;
      while (!steps.next().done) yields++;
      expect(normals).toEqual(expected);
      if (stepItems === 1) expect(yields).toBeGreaterThan(400);
    }
  });
});
