import type { PlaceableModel } from '../bakers/nwn2/placeable-walkmesh';
import { readGff } from '../formats/aurora/gff-reader';
import { readGitDoors, readGitPlaceables, readGitWalkmeshCutters, type GitPlaceable } from '../formats/aurora/nwn2-git';
import type { BwmDocument } from '../formats/kotor/bwm-document';
import { placeWalkmeshVertices, readKotorGitPlacements, type KotorGitObject, type PlacedState } from '../formats/kotor/kotor-git-placement';
import { CURTAIN_Z } from '../formats/nwn2/mdb-document';
import type { GameId } from '../model/walkmesh';
import { boundarySegments } from './footprint-outlines';
import { OverlayBuilder, type LineOverlay } from './view-overlay';

/** Half the side of a placement marker, in game units (metres in both games). */
const MARKER = 0.5;

/** Footprint classes: outlines of placed walkmeshes first, markers for objects without a model after. */
const PLACEABLE_OUTLINE = 0;
const DOOR_CLOSED_OUTLINE = 1;
const DOOR_OPEN_OUTLINE = 2;
const PLACEABLE_MARKER = 3;
const DOOR_MARKER = 4;
export const FOOTPRINT_CLASS_LABELS = [
  'placeable (walkmesh outline)',
  'door closed (walkmesh outline)',
  'door open (walkmesh outline)',
  'placeable without a model (marker only)',
  'door without a model (marker only)',
] as const;

/** A KotOR object's walkmesh in one state (a placeable's PWK, a door's DWK 0/1/2). */
export interface KotorObjectWalkmesh {
  state: PlacedState;
  doc: BwmDocument;
}

/**
 * Where the models of an area's objects come from (the project, in the app). Each returns
 * undefined when the model is not available; the object is then drawn as a marker.
 */
export interface FootprintModels {
  kotor?(object: KotorGitObject): readonly KotorObjectWalkmesh[] | undefined;
  nwn2Placeable?(placeable: GitPlaceable): PlaceableModel | undefined;
}

interface Placed {
  x: number;
  y: number;
  z: number;
  bearing: number;
}

/**
 * A square at the object's position turned by its bearing, with a line along its facing:
 * where it stands and which way it faces, for an object whose model is not at hand.
 */
function marker(out: OverlayBuilder, c: number, o: Placed): void {
  const cos = Math.cos(o.bearing), sin = Math.sin(o.bearing);
  const corner = (u: number, v: number): [number, number] => [o.x + u * cos - v * sin, o.y + u * sin + v * cos];
  const pts = [corner(-MARKER, -MARKER), corner(MARKER, -MARKER), corner(MARKER, MARKER), corner(-MARKER, MARKER)];
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!, b = pts[(i + 1) % 4]!;
    out.segment(c, a[0], a[1], o.z, b[0], b[1], o.z);
  }
  const tip = corner(MARKER * 2.5, 0);
  out.segment(c, o.x, o.y, o.z, tip[0], tip[1], o.z);
  out.countItem(c);
}

/** Adds the outline segments; false when the walkmesh has none (then the caller marks the object). */
function outline(out: OverlayBuilder, c: number, segments: Float32Array): boolean {
  for (let i = 0; i < segments.length; i += 6) out.segment(c, segments[i]!, segments[i + 1]!, segments[i + 2]!, segments[i + 3]!, segments[i + 4]!, segments[i + 5]!);
  return segments.length > 0;
}

/**
 * Outlines of a KotOR object's walkmeshes (kotor-bwm.md §7.4). The legend counts objects:
 * a door with both open DWKs counts once as open.
 */
function kotorFootprint(out: OverlayBuilder, o: KotorGitObject, walkmeshes: readonly KotorObjectWalkmesh[] | undefined): void {
  let drawn = 0;
  for (const w of walkmeshes ?? []) {
    const c = w.state === 'placeable' ? PLACEABLE_OUTLINE : w.state === 'closed' ? DOOR_CLOSED_OUTLINE : DOOR_OPEN_OUTLINE;
    if (outline(out, c, boundarySegments(placeWalkmeshVertices(w.doc, o), w.doc.faces))) drawn |= 1 << c;
  }
  for (const c of [PLACEABLE_OUTLINE, DOOR_CLOSED_OUTLINE, DOOR_OPEN_OUTLINE]) if (drawn & (1 << c)) out.countItem(c);
  if (drawn === 0) marker(out, o.kind === 'door' ? DOOR_MARKER : PLACEABLE_MARKER, o);
}

/**
 * The WALK packets of an NWN2 placeable's model, placed as the bake places them
 * (placeable-walkmesh.ts rule 2): scaled by ModelScale, turned by Bearing, moved to X, Y, Z.
 * The curtain vertices (z = −1,000,000, nwn2-trn-trx.md §5.5) stand on the ground rather
 * than a million units below it; without the area's surface at hand, the placeable's own Z
 * stands in for the ground, so the walls and landings they make outline the footprint.
 */
export function placeNwn2Walkmeshes(p: GitPlaceable, model: PlaceableModel): { positions: Float32Array; triangles: Uint32Array } {
  const cos = Math.cos(p.bearing), sin = Math.sin(p.bearing);
  let vertices = 0, faces = 0;
  for (const w of model.walkmeshes) {
    vertices += w.positions.length / 3;
    faces += w.faces.length / 3;
  }
  const positions = new Float32Array(vertices * 3);
  const triangles = new Uint32Array(faces * 3);
  let base = 0, t = 0;
  for (const w of model.walkmeshes) {
    const P = w.positions;
    for (let i = 0; i < P.length; i += 3) {
      const lx = P[i]! * p.scale.x, ly = P[i + 1]! * p.scale.y, lz = P[i + 2]!;
      const o = base * 3 + i;
      positions[o] = p.x + cos * lx - sin * ly;
      positions[o + 1] = p.y + sin * lx + cos * ly;
      positions[o + 2] = lz <= CURTAIN_Z ? p.z : p.z + lz * p.scale.z;
    }
    for (let i = 0; i < w.faces.length; i++) triangles[t++] = base + w.faces[i]!;
    base += P.length / 3;
  }
  return { positions, triangles };
}

function nwn2Footprint(out: OverlayBuilder, p: GitPlaceable, model: PlaceableModel | undefined): void {
  if (model) {
    const placed = placeNwn2Walkmeshes(p, model);
    if (outline(out, PLACEABLE_OUTLINE, boundarySegments(placed.positions, placed.triangles))) {
      out.countItem(PLACEABLE_OUTLINE);
      return;
    }
  }
  marker(out, PLACEABLE_MARKER, p);
}

/**
 * The placement views of an area from its GIT: NWN2 walkmesh cutter outlines, and the
 * placeables and doors of either game as the outlines of their placed walkmeshes where
 * `models` has them, as oriented markers where not. Malformed GITs throw the GFF reader's
 * MalformedInputError (the caller names the file).
 */
export function gitOverlays(game: GameId, gitBytes: Uint8Array, models: FootprintModels = {}): LineOverlay[] {
  const gff = readGff(gitBytes);
  const footprints = new OverlayBuilder('footprints', FOOTPRINT_CLASS_LABELS);
  const out: (LineOverlay | null)[] = [];
  if (game === 'nwn2') {
    for (const p of readGitPlaceables(gff)) nwn2Footprint(footprints, p, models.nwn2Placeable?.(p));
    // NWN2 door models (doortypes.2da / genericdoors.2da) are not looked up yet.
    for (const d of readGitDoors(gff)) marker(footprints, DOOR_MARKER, d);
    const cutters = new OverlayBuilder('cutters', ['walkmesh cutter']);
    for (const c of readGitWalkmeshCutters(gff)) {
      const n = c.polygon.length / 2;
      if (n < 2) continue;
      cutters.countItem(0);
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        cutters.segment(0, c.polygon[i * 2]!, c.polygon[i * 2 + 1]!, c.position.z, c.polygon[j * 2]!, c.polygon[j * 2 + 1]!, c.position.z);
      }
    }
    out.push(cutters.finish());
  } else if (game === 'kotor') {
    const placed = readKotorGitPlacements(gff);
    for (const p of placed.placeables) kotorFootprint(footprints, p, models.kotor?.(p));
    for (const d of placed.doors) kotorFootprint(footprints, d, models.kotor?.(d));
  }
  out.push(footprints.finish());
  return out.filter((o): o is LineOverlay => o !== null);
}
