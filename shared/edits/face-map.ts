import type { EditResult } from './edit-command';

export type FaceMap = NonNullable<EditResult['faceMap']>;

/**
 * The new index of each old face index (ascending input), or -1 for a removed face,
 * through a delete (`removed`, old indices) or an insert (`inserted`, new indices).
 */
export function mapFaceIndices(sortedOld: ArrayLike<number>, map: FaceMap): Int32Array {
  const out = new Int32Array(sortedOld.length);
  let j = 0;
  for (let i = 0; i < sortedOld.length; i++) {
    const f = sortedOld[i]!;
    if ('removed' in map) {
      while (j < map.removed.length && map.removed[j]! < f) j++;
      out[i] = j < map.removed.length && map.removed[j] === f ? -1 : f - j;
    } else {
      while (j < map.inserted.length && map.inserted[j]! <= f + j) j++;
      out[i] = f + j;
    }
  }
  return out;
}
