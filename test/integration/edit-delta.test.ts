import { projectResolver } from '../support/project-resolver';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEditService, type EditService } from '../../electron/services/edit-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import { applyEditsDelta } from '../../shared/edits/apply-edits-delta';
import type { EditCommand } from '../../shared/edits/edit-command';
import { copyWalkmesh } from '../../shared/edits/walkmesh-copy';
import type { EditsOutcome } from '../../shared/ipc/edits-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../shared/formats/kotor/surface-materials';
import { faceCount, vertexCount, type Walkmesh } from '../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { projectTempDir } from '../unit/project/project-test-files';

const projectPath = projectTempDir('edit-delta');

/** A small deterministic generator: every run makes the same edits. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Every array of the mesh; positions by their bits (a -0 or a NaN must match too). */
function arrays(m: Walkmesh): Record<string, number[]> {
  return {
    positions: Array.from(new Uint32Array(m.positions.buffer, m.positions.byteOffset, m.positions.length)),
    triangles: Array.from(m.triangles),
    faceWalkable: Array.from(m.faceWalkable),
    faceMaterial: Array.from(m.faceMaterial),
    faceOwner: Array.from(m.faceOwner),
  };
}

function makeProject(name: string, game: 'source' | 'kotor', fixture: string): { file: string; fileId: number } {
  const file = projectPath(`${name}.walkbench`);
  const store = ProjectStore.create(file, { name, game });
  try {
    const fileId = store.upsertFile({ module: 'm', area: 'a', name: path.basename(fixture), kind: 'walkmesh', bytes: readFixture(path.join(fixturesRoot, fixture)) }).fileId;
    return { file, fileId };
  } finally {
    store.close();
  }
}

/** A paint stroke of up to 50 faces or a move of up to 20 vertices, drawn from `random` for the mesh as it is. */
function randomEdit(m: Walkmesh, random: () => number, game: 'source' | 'kotor'): EditCommand {
  const pick = (n: number, of: number) => [...new Set(Array.from({ length: n }, () => Math.floor(random() * of)))];
  if (random() < 0.5) {
    const P = m.positions;
    const vertices = pick(1 + Math.floor(random() * 20), vertexCount(m));
    // Source areas are rectangles in x and y: only heights move freely there.
    const free = game === 'source' ? [2] : [0, 1, 2];
    const positions = vertices.flatMap((v) => [0, 1, 2].map((k) => (free.includes(k) ? Math.fround(P[v * 3 + k]! + (random() - 0.5) * 0.5) : P[v * 3 + k]!)));
    return { kind: 'move-vertices', vertices, positions };
  }
  const faces = pick(1 + Math.floor(random() * 50), faceCount(m));
  const r = random();
  if (game === 'kotor') return r < 0.7 ? { kind: 'paint-faces', faces, material: Math.floor(random() * 20) } : { kind: 'paint-faces', faces, walkable: random() < 0.5 };
  return r < 0.5 ? { kind: 'paint-faces', faces, setBits: 1 << Math.floor(random() * 8) } : { kind: 'paint-faces', faces, clearBits: 1 << Math.floor(random() * 8) };
}

const services: EditService[] = [];
afterAll(async () => {
  for (const s of services) await s.close();
});

describe('edit replies as deltas', () => {
  for (const [game, fixture] of [['kotor', 'kotor/k1-blackvulkar/m10aa_09a.wok'], ['source', 'source/tf2/itemtest.nav']] as const) {
    it(`${game}: the deltas of random paints and moves, undos and redos rebuild exactly the service's walkmesh`, async () => {
      const { file, fileId } = makeProject(`random-${game}`, game, fixture);
      const service = createEditService({ resolveProject: projectResolver(() => file) });
      services.push(service);
      const h = service.handlers;
      // What the app shows: the walkmesh as opened, then only what the replies carry.
      const shown = copyWalkmesh(service.editedWalkmeshes(file, fileId)![0]!);
      const random = lcg(game === 'kotor' ? 7 : 11);
      let done = 0;
      let undone = 0;
      const counts = { apply: 0, undo: 0, redo: 0, refused: 0, changedFaces: 0, movedVertices: 0 };
      const absorb = (o: EditsOutcome) => {
        expect(o.fileId).toBe(fileId);
        // A paint or a move never sends the whole mesh back when a delta is asked for.
        expect(o.walkmeshes).toEqual([]);
        expect(o.delta).not.toBeNull();
        const change = applyEditsDelta(shown, o.delta!);
        counts.changedFaces += change.faces.length;
        counts.movedVertices += change.vertices.length;
      };
      for (let step = 0; step < 160; step++) {
        const r = random();
        if (r < 0.5 && undone > 0) {
          absorb((await h['edits.redo']({ delta: true })).outcome!);
          done++;
          undone--;
          counts.redo++;
        } else if (r < 0.7 && done > 0) {
          absorb((await h['edits.undo']({ delta: true })).outcome!);
          done--;
          undone++;
          counts.undo++;
        } else {
          const command = randomEdit(shown, random, game);
          let reply: EditsOutcome;
          try {
            reply = await h['edits.apply']({ fileId, command, delta: true });
          } catch (e) {
            // Some random strokes break the game's rules (a material the surface table refuses…).
            if (e instanceof ServiceError && e.code === 'invalid-params') {
              counts.refused++;
              continue;
            }
            throw e;
          }
          absorb(reply);
          done++;
          undone = 0;
          counts.apply++;
        }
        if (step % 20 === 19) expect(arrays(shown)).toEqual(arrays(service.editedWalkmeshes(file, fileId)![0]!));
      }
      expect(arrays(shown)).toEqual(arrays(service.editedWalkmeshes(file, fileId)![0]!));
      // The sequence exercised every kind of step, and most strokes landed.
      expect(counts.apply).toBeGreaterThan(25);
      expect(counts.undo).toBeGreaterThan(10);
      expect(counts.redo).toBeGreaterThan(5);
      expect(counts.refused).toBeLessThan(counts.apply);
      expect(counts.changedFaces).toBeGreaterThan(100);
      expect(counts.movedVertices).toBeGreaterThan(100);

      // Undo everything: the deltas lead back to the file as imported.
      const original = copyWalkmesh(service.editedWalkmeshes(file, fileId)![0]!);
      while (done > 0) {
        absorb((await h['edits.undo']({ delta: true })).outcome!);
        done--;
      }
      expect(arrays(shown)).toEqual(arrays(service.editedWalkmeshes(file, fileId)![0]!));
      expect(arrays(shown)).not.toEqual(arrays(original));
    });
  }

  it('edits of corners, replies without `delta`, and an undo replayed from the project come back whole', async () => {
    const { file, fileId } = makeProject('whole', 'kotor', 'kotor/k1-blackvulkar/m10aa_09a.wok');
    let service = createEditService({ resolveProject: projectResolver(() => file) });
    services.push(service);
    const F = faceCount(service.editedWalkmeshes(file, fileId)![0]!);
    const flip = await service.handlers['edits.apply']({ fileId, command: { kind: 'flip-faces', faces: [0] }, delta: true });
    expect(flip.delta).toBeNull();
    expect(flip.walkmeshes.length).toBe(1);
    // KotOR takes walkability from the material: paint one that is not walkable.
    const blocked = [...Array(20).keys()].find((x) => !isWalkableMaterial(DEFAULT_WALKABILITY, x))!;
    const paint = await service.handlers['edits.apply']({ fileId, command: { kind: 'paint-faces', faces: [1, 2], material: blocked } });
    expect(paint.delta).toBeNull();
    expect(faceCount(paint.walkmeshes[0]!)).toBe(F);
    const undoFlip = await service.handlers['edits.apply']({ fileId, command: { kind: 'delete-faces', faces: [F - 1] }, delta: true });
    expect(undoFlip.delta).toBeNull();
    expect(faceCount(undoFlip.walkmeshes[0]!)).toBe(F - 1);
    await service.handlers['edits.undo']({ delta: true });
    // A fresh service has not opened the file: the undo replays it, so there is no delta to give.
    await service.close();
    service = createEditService({ resolveProject: projectResolver(() => file) });
    services.push(service);
    const replayed = (await service.handlers['edits.undo']({ delta: true })).outcome!;
    expect(replayed.delta).toBeNull();
    expect(replayed.walkmeshes.length).toBe(1);
    expect(Array.from(replayed.walkmeshes[0]!.faceWalkable.subarray(1, 3))).toEqual(Array.from(service.editedWalkmeshes(file, fileId)![0]!.faceWalkable.subarray(1, 3)));
    // The file is open in this service now: the next step is a delta again.
    const redone = (await service.handlers['edits.redo']({ delta: true })).outcome!;
    expect(redone.delta).not.toBeNull();
    expect(Array.from(redone.delta!.faces).sort((a, b) => a - b)).toEqual([1, 2]);
    expect(Array.from(redone.delta!.faceWalkable)).toEqual([0, 0]);
  });
});
