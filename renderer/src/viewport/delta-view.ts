import type { DeltaChange } from '../../../shared/edits/apply-edits-delta';
import { facesOfVertices } from '../../../shared/model/vertex-faces';
import { NO_OWNER, type Walkmesh } from '../../../shared/model/walkmesh';
import { keyColour, NON_WALKABLE_RGB, OTHER_RGB, ownerShade, WALKABLE_RGB, type ColourMode, type LegendEntry, type Rgb } from './face-colours';
import { vertexFacesOf } from './file-view-data';

/** What the viewport redraws for a delta, found without a pass over the whole mesh. */
export interface DeltaRedraw {
  /** Every face's colour may have changed (islands renumbered, material colours re-ranked): colour the mesh anew. */
  recolourAll: boolean;
  /** Faces to recolour and their RGB, three numbers per face (empty when recolourAll). */
  recoloured: Uint32Array;
  rgb: Float32Array;
  /** The legend after the delta (null when recolourAll). */
  legend: LegendEntry[] | null;
  /** Faces with a moved corner: their corners and normals are written again. */
  moved: Uint32Array;
}

/**
 * The part of a walkmesh an applied delta changed on screen, and the legend after it,
 * computed from the changed faces and the legend before (its counts), as colourFaces would
 * colour them. Where a colour depends on the whole mesh (islands after a change of
 * walkability or owners, owners changed, a material palette whose ranks change) it says
 * recolourAll and the caller colours the mesh anew.
 */
export function deltaRedraw(mesh: Walkmesh, change: DeltaChange, mode: ColourMode, legendBefore: readonly LegendEntry[]): DeltaRedraw {
  const moved = change.vertices.length > 0 ? facesOfVertices(vertexFacesOf(mesh), change.vertices) : new Uint32Array(0);
  const all: DeltaRedraw = { recolourAll: true, recoloured: new Uint32Array(0), rgb: new Float32Array(0), legend: null, moved };
  const faces = change.faces;
  if (faces.length === 0) return { ...all, recolourAll: false, legend: [...legendBefore] };
  const rgb = new Float32Array(faces.length * 3);
  const put = (i: number, c: Rgb, s: number, clamp: boolean) => {
    for (let k = 0; k < 3; k++) rgb[i * 3 + k] = clamp ? Math.min(1, c[k]! * s) : c[k]! * s;
  };
  switch (mode) {
    case 'walkable': {
      const walkable = legendBefore.find((e) => e.label === 'walkable');
      const blocked = legendBefore.find((e) => e.label === 'not walkable');
      if (!walkable || !blocked) return all;
      let gained = 0;
      faces.forEach((f, i) => {
        const w = mesh.faceWalkable[f] !== 0;
        gained += (w ? 1 : 0) - (change.before.walkable[i] !== 0 ? 1 : 0);
        put(i, w ? WALKABLE_RGB : NON_WALKABLE_RGB, ownerShade(mesh.faceOwner[f]!), true);
      });
      const legend = legendBefore.map((e) => (e === walkable ? { ...e, faces: e.faces + gained } : e === blocked ? { ...e, faces: e.faces - gained } : e));
      return { recolourAll: false, recoloured: faces, rgb, legend, moved };
    }
    case 'owner': {
      // Owner counts are unchanged unless an owner changed; walkability only darkens.
      if (change.ownerChanged) return all;
      faces.forEach((f, i) => {
        const k = mesh.faceOwner[f]!;
        put(i, k === NO_OWNER ? OTHER_RGB : keyColour(k + 1), mesh.faceWalkable[f] === 0 && k !== NO_OWNER ? 0.45 : 1, false);
      });
      return { recolourAll: false, recoloured: faces, rgb, legend: [...legendBefore], moved };
    }
    case 'island':
      // Islands follow walkability and owners only; a change of material changes no colour.
      return change.walkableChanged || change.ownerChanged ? all : { recolourAll: false, recoloured: new Uint32Array(0), rgb: new Float32Array(0), legend: [...legendBefore], moved };
    case 'material': {
      const next = materialLegend(legendBefore, change, mesh);
      if (!next) return all;
      faces.forEach((f, i) => put(i, next.colourOf.get(mesh.faceMaterial[f]!)!, 1, false));
      return { recolourAll: false, recoloured: faces, rgb, legend: next.legend, moved };
    }
  }
}

const OTHERS = / other values$/;

/**
 * The material legend after the change, when its named values (the most used, each with
 * its palette colour) keep their colours: every value painted from or to is named, and
 * the ranks of the named values stay as they were. Else null. A named value whose count
 * falls to or below the largest unnamed count could swap ranks with it, so that is null too.
 */
function materialLegend(before: readonly LegendEntry[], change: DeltaChange, mesh: Walkmesh): { legend: LegendEntry[]; colourOf: Map<number, Rgb> } | null {
  const named = before.filter((e) => !OTHERS.test(e.label));
  const rest = before.find((e) => OTHERS.test(e.label));
  // The legend names values as the game does; the stored value rides along (decimal or 0x…).
  const valueOf = (e: LegendEntry) => (e.raw !== undefined ? Number(e.raw) : Number.NaN);
  const counts = new Map<number, number>();
  for (const e of named) counts.set(valueOf(e), e.faces);
  const lowest = named.length > 0 ? named[named.length - 1]!.faces : 0;
  const move = (value: number, by: number): boolean => {
    const c = counts.get(value);
    if (c === undefined) return false;
    counts.set(value, c + by);
    return true;
  };
  for (let i = 0; i < change.faces.length; i++) {
    if (!move(change.before.material[i]!, -1) || !move(mesh.faceMaterial[change.faces[i]!]!, 1)) return null;
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const sameOrder = ranked.every(([value], i) => value === valueOf(named[i]!));
  // Unnamed values have at most `lowest` faces and ranked below every named value: one that
  // lost faces must stay above that, and none may fall to 0 (it would leave the legend).
  const had = new Map(named.map((e) => [valueOf(e), e.faces]));
  const clear = ranked.every(([value, n]) => n > 0 && (!rest || n >= had.get(value)! || n > lowest));
  if (!sameOrder || !clear) return null;
  const colourOf = new Map<number, Rgb>(named.map((e) => [valueOf(e), e.colour]));
  const legend = before.map((e) => (OTHERS.test(e.label) ? e : { ...e, faces: counts.get(valueOf(e))! }));
  return { legend, colourOf };
}
