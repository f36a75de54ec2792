import type { LevelContext } from '../../../shared/model/level-context';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { buildLevelContextIndex, findOffLevelFaces, findUncoveredGround } from '../../../shared/views/level-context-check';

/** A finding of the level check: a walkmesh face off the level, or level ground no face covers. */
export interface LevelFinding {
  code: 'level.face.floating' | 'level.face.sunk' | 'level.ground.uncovered' | 'level.check.skipped';
  message: string;
  /** The walkmesh face it is about (floating and sunk faces). */
  face?: { mesh: number; face: number };
  /** Where it is, game space (uncovered ground: the region's centre). */
  at?: [number, number, number];
}

/**
 * The walkmeshes of a file checked against the level around them (shared/views/level-context-check.ts):
 * floating and sunk faces per walkmesh face; uncovered ground once for the file, ground no
 * walkmesh of it covers (a layout's rooms, a plugin's navmeshes meet at their seams: one
 * room's floor is not uncovered seen from the next).
 * Walkmeshes hidden in the viewport (the tree's eye, an isolated Skyrim cell) are checked
 * and cover ground all the same: the game loads every walkmesh of the file whatever the
 * designer is looking at, so hiding one must neither turn its floor into uncovered ground
 * nor hide its faces' problems (nor re-run the check: the findings do not depend on what
 * is shown). The panel marks findings on hidden walkmeshes (LevelFindings.vue).
 */
export function levelFindings(walkmeshes: readonly Walkmesh[], context: LevelContext): LevelFinding[] {
  const index = buildLevelContextIndex(context);
  const out: LevelFinding[] = [];
  walkmeshes.forEach((mesh, m) => {
    for (const f of findOffLevelFaces(mesh, index)) {
      const how = f.kind === 'floating' ? `floats ${f.offset.toFixed(2)} above` : `is sunk ${(-f.offset).toFixed(2)} below`;
      out.push({ code: f.kind === 'floating' ? 'level.face.floating' : 'level.face.sunk', message: `${walkmeshes.length > 1 ? `${mesh.name}: ` : ''}face ${f.face} ${how} the level`, face: { mesh: m, face: f.face } });
    }
  });
  for (const r of findUncoveredGround(walkmeshes, index)) {
    const c = r.centre.map((v) => v.toFixed(1)).join(', ');
    out.push({ code: 'level.ground.uncovered', message: `Walkable ground with no walkmesh over it: ${Math.round(r.area).toLocaleString('en-US')} square units around (${c}), on ${r.pieces.slice(0, 3).join(', ')}${r.pieces.length > 3 ? '…' : ''}`, at: r.centre });
  }
  return out;
}
