import type { Walkmesh } from '../../../shared/model/walkmesh';
import type { FaceRef } from '../stores/selection-store';

/** What "Go to N" looks for in a file: a Source area ID, a Skyrim triangle, else a face. */
export function gotoNoun(walkmeshes: readonly Walkmesh[]): 'area' | 'triangle' | 'face' {
  const first = walkmeshes[0];
  if (first?.format === 'source-nav') return 'area';
  return first?.game === 'skyrim' ? 'triangle' : 'face';
}

export type GotoResult = { ok: true; faces: FaceRef[]; label: string } | { ok: false; message: string };

/**
 * The faces numbered `n` the way the file numbers them: a Source area is every face it
 * owns (an area is drawn as two triangles), elsewhere face/triangle `n` of `mesh` (the
 * walkmesh the designer is in: the selected one, else the first shown), as numbered in the
 * file, since readers keep the file's face order.
 */
export function findNumbered(walkmeshes: readonly Walkmesh[], n: number, mesh: number): GotoResult {
  const noun = gotoNoun(walkmeshes);
  if (!Number.isInteger(n) || n < 0) return { ok: false, message: `Type a ${noun} number (0 or more).` };
  if (noun === 'area') {
    const faces: FaceRef[] = [];
    walkmeshes.forEach((wm, m) => {
      for (let f = 0; f < wm.faceOwner.length; f++) if (wm.faceOwner[f] === n) faces.push({ mesh: m, face: f });
    });
    return faces.length > 0 ? { ok: true, faces, label: `area ${n}` } : { ok: false, message: `No area ${n} in this map.` };
  }
  const wm = walkmeshes[mesh];
  if (!wm) return { ok: false, message: 'No walkmesh is open.' };
  const count = wm.triangles.length / 3;
  if (n >= count) return { ok: false, message: `${wm.name} has ${count.toLocaleString('en-US')} ${noun}s (0 to ${(count - 1).toLocaleString('en-US')}): no ${noun} ${n}.` };
  return { ok: true, faces: [{ mesh, face: n }], label: `${noun} ${n} of ${wm.name}` };
}
