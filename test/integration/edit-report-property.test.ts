import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEditService } from '../../electron/services/edit-service';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { EditCommand } from '../../shared/edits/edit-command';
import type { FileReport } from '../../shared/formats/file-report';
import { handlerById } from '../../shared/formats/format-registry';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { faceCount, vertexCount, type GameId, type Walkmesh } from '../../shared/model/walkmesh';
import { fixturesRoot } from '../support/fixtures';
import { projectResolver } from '../support/project-resolver';
import { mulberry32 } from '../support/seeded-random';

/**
 * The property behind "findings never lie" (issue 13 §3): over random sequences of edits,
 * undos and redos, what the edit service reports for a file — in an edit's reply when its
 * bytes are written at once, else from `edits.report` once the bytes written behind are
 * written — is exactly what `walkbench validate` says of the bytes the project holds, and
 * those bytes are exactly what replaying the project's history from the imported file
 * writes. The project's own findings (room links, lost edits) are not the validator's and
 * are left out of the comparison.
 */

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-report-property-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const PROJECT_CODES = /^(kotor\.link\.|project\.|edit\.unwritable)/;

function own(r: FileReport): { errors: string[]; warnings: string[]; readFailure: unknown } {
  const text = (list: FileReport['errors']) => list.filter((f) => !PROJECT_CODES.test(f.code)).map((f) => `${f.code}: ${f.message}`);
  return { errors: text(r.errors), warnings: text(r.warnings), readFailure: r.readFailure };
}


const CASES: { game: GameId; fixture: string; seed: number }[] = [
  { game: 'kotor', fixture: 'kotor/k1-blackvulkar/m10aa_09a.wok', seed: 1 },
  { game: 'nwn2', fixture: 'nwn2/kaedrin/a winding path.trx', seed: 2 },
  { game: 'source', fixture: 'source/tf2/itemtest.nav', seed: 3 },
  { game: 'skyrim', fixture: 'skyrim/FreeCamera.esp', seed: 4 },
];
const STEPS = 60;

/** An edit the game takes on this mesh (a refusal is allowed: it must change nothing). */
function randomEdit(game: GameId, m: Walkmesh, next: () => number): EditCommand {
  const F = faceCount(m);
  const face = () => Math.floor(next() * F);
  const r = next();
  if (r < 0.45) {
    const faces = [face(), face()];
    if (game === 'kotor') return { kind: 'paint-faces', faces, material: [1, 2, 3, 4, 7, 15][Math.floor(next() * 6)]! };
    if (game === 'nwn2') return next() < 0.5 ? { kind: 'paint-faces', faces, walkable: next() < 0.5 } : { kind: 'paint-faces', faces, setBits: 0x20 };
    return { kind: 'paint-faces', faces, setBits: game === 'skyrim' ? 0x800 : 0x8 };
  }
  if (r < 0.8) {
    const v = Math.floor(next() * vertexCount(m));
    const dz = Math.fround((next() - 0.5) * 0.5);
    return { kind: 'move-vertices', vertices: [v], positions: [m.positions[v * 3]!, m.positions[v * 3 + 1]!, Math.fround(m.positions[v * 3 + 2]! + dz)] };
  }
  if (r < 0.9 && game !== 'source') return { kind: 'flip-faces', faces: [face()] };
  return { kind: 'delete-faces', faces: [game === 'skyrim' ? F - 1 : face()] };
}

describe('an edited file\'s report is `walkbench validate` of the bytes the project holds, and those bytes are the history replayed', () => {
  for (const c of CASES) {
    it(`${c.game}: ${STEPS} random edits, undos and redos of ${path.basename(c.fixture)}`, async () => {
      const file = path.join(tmp, `${c.game}.walkbench`);
      const store = ProjectStore.create(file, { name: c.game, game: c.game });
      await importSources(store, [path.join(fixturesRoot, c.fixture)], { module: 'm' });
      const record = store.listFiles()[0]!;
      store.close();
      const service = createEditService({ resolveProject: projectResolver(() => file) });
      const next = mulberry32(c.seed);
      const counts = { applied: 0, refused: 0, undone: 0, redone: 0, immediate: 0 };
      try {
        for (let step = 0; step < STEPS; step++) {
          const what = next();
          let reply: FileReport | null = null;
          try {
            if (what < 0.7) {
              const m = service.editedWalkmeshes(file, record.id)![0]!;
              reply = (await service.handlers['edits.apply']({ fileId: record.id, command: randomEdit(c.game, m, next), delta: true })).report;
              counts.applied++;
            } else {
              const r = (await service.handlers[what < 0.85 ? 'edits.undo' : 'edits.redo']({ fileId: record.id, delta: true })).outcome;
              reply = r?.report ?? null;
              if (r) counts[what < 0.85 ? 'undone' : 'redone']++;
            }
          } catch (e) {
            if (!(e instanceof ServiceError && e.code === 'invalid-params')) throw e;
            counts.refused++;
          }
          const shown = (await service.handlers['edits.report']({ fileId: record.id })).report;
          if (reply) {
            counts.immediate++;
            expect(own(reply), `step ${step}: the reply's report`).toEqual(own(shown));
          }
          const s = ProjectStore.open(file);
          try {
            const now = s.fileById(record.id)!;
            expect(now.editWritePending, `step ${step}: nothing left to write`).toBe(false);
            const bytes = s.loadCurrentBytes(now);
            expect(own(shown), `step ${step}: the report is the validator's of the held bytes`).toEqual(own(inspectBytes(now.name, bytes, env)));
            const replayed = handlerById(now.format!)!.write(new ProjectEdits(s, env).document(now.id), env);
            expect(Buffer.compare(Buffer.from(replayed), Buffer.from(bytes)), `step ${step}: the held bytes are the history replayed`).toBe(0);
          } finally {
            s.close();
          }
        }
      } finally {
        await service.close();
      }
      // The walk did edit, undo and refuse: a walk that only refused proves nothing.
      expect(counts.applied).toBeGreaterThan(3);
      expect(counts.undone + counts.redone).toBeGreaterThan(0);
    }, 120_000);
  }
});
