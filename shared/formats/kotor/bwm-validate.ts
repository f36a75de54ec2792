import { buildFaceAdjacency } from '../../model/face-adjacency';
import type { Finding } from '../../validation/finding';
import { FindingSink } from '../../validation/finding-sink';
import { computeWalkableAdjacency, NO_ADJACENT } from '../../bakers/kotor/bwm-adjacency';
import { walkPerimeters } from '../../bakers/kotor/bwm-perimeters';
import {
  AABB_NO_CHILD,
  AABB_NODE_WORDS,
  AABB_UNKNOWN_VALUE,
  BWM_TYPE_AREA,
  floatsOf,
  NO_TRANSITION,
  type BwmDocument,
} from './bwm-document';
import { DEFAULT_WALKABILITY, isWalkableMaterial, type WalkabilityTable } from './surface-materials';

const VALID_PLANES = new Set([0, 1, 2, 4, 8, 16, 32]);
const edgeName = (slot: number): string => `face ${Math.floor(slot / 3)} edge ${slot % 3}`;

/**
 * Checks a BWM against the invariants of game files (spec §6.2). Every finding about a
 * face or an edge names it (edge subjects are face*3 + localEdge). Stored tables that
 * disagree with the geometry are found by rebuilding them the game's way and comparing.
 *
 * Severity is the game's view: an error is something the game refuses, crashes on or
 * cannot path through as intended (a number it indexes or divides by that is out of range
 * or not finite, or a table the engine walks that disagrees with the geometry, which no
 * game file has); what game files have and the game loads is a warning saying why. The
 * comment at each rule gives its reason. Checked on the 8 game-shipped K1 rooms
 * (k1-blackvulkar), the TSL room 203tell and test.wok / zio006j: none has an error.
 */
export function validateBwm(doc: BwmDocument, table: WalkabilityTable = DEFAULT_WALKABILITY): Finding[] {
  const sink = new FindingSink();
  const faces = doc.faces.length / 3;
  const vertexCount = doc.vertices.length / 3;
  const P = floatsOf(doc.vertices);
  const isArea = doc.type === BWM_TYPE_AREA;
  // Error: the engine reads 0x08 as "vertices are in world space" (1) or not; any other
  // value is no file's and the room would be transformed as an object (stuck player).
  if (doc.type !== 0 && doc.type !== 1) sink.error('bwm.header.type', undefined, () => `walkmesh type ${doc.type} is neither 1 (room) nor 0 (placeable/door)`);

  // Geometry the game needs: every vertex, use point and stored normal or plane distance a
  // finite number. A face with a corner that is not is reported through its vertex, and
  // nothing derived from it is compared (no "planar distance NaN should be NaN").
  const finite = new Uint8Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const x = P[3 * v]!, y = P[3 * v + 1]!, z = P[3 * v + 2]!;
    if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) finite[v] = 1;
    // Error: NaN/∞ corners break the AABB ray tests and heights the engine computes.
    else sink.error('bwm.vertex.not-finite', undefined, () => `vertex ${v} is at (${x}, ${y}, ${z}); every coordinate must be a finite number`);
  }
  const H = floatsOf(doc.hooks);
  const hookNames = ['relative use point 1', 'relative use point 2', 'absolute use point 1', 'absolute use point 2', 'position'];
  for (let h = 0; h < 5; h++) {
    if (!Number.isFinite(H[3 * h]!) || !Number.isFinite(H[3 * h + 1]!) || !Number.isFinite(H[3 * h + 2]!)) {
      // Error: use points are where creatures are sent to use a door or placeable.
      sink.error('bwm.hook.not-finite', undefined, () => `the header's ${hookNames[h]} is (${H[3 * h]}, ${H[3 * h + 1]}, ${H[3 * h + 2]}); every coordinate must be a finite number`);
    }
  }

  let badIndex = false;
  for (let i = 0; i < doc.faces.length; i++) {
    if (doc.faces[i]! >= vertexCount) {
      badIndex = true;
      // Error: the engine indexes its vertex array with it and reads past its end.
      sink.error('bwm.face.vertex-index', { kind: 'face', id: Math.floor(i / 3) }, () => `face ${Math.floor(i / 3)} uses vertex ${doc.faces[i]!}, but there are ${vertexCount} vertices`);
    }
  }
  if (badIndex) return sink.finish();

  const walkable = new Uint8Array(faces);
  let walkableCount = 0;
  let firstNonWalkable = -1;
  for (let f = 0; f < faces; f++) {
    walkable[f] = isWalkableMaterial(table, doc.materials[f]!) ? 1 : 0;
    if (walkable[f]) {
      walkableCount++;
      // Error: adjacency row k is read as face k's, so every walkable face after a
      // non-walkable one gets another face's neighbours.
      if (firstNonWalkable >= 0) sink.error('bwm.face.order', { kind: 'face', id: f }, () => `walkable face ${f} comes after non-walkable face ${firstNonWalkable}: adjacency rows no longer match faces (${table.source} walkability)`);
    } else if (firstNonWalkable < 0) firstNonWalkable = f;
    // Warning: the game's own surfacemat.2da may have more rows than the table used here.
    if (doc.materials[f]! >= table.walkable.length) sink.warning('bwm.face.material-range', { kind: 'face', id: f }, () => `face ${f} has material ${doc.materials[f]!}, past the ${table.walkable.length} rows of ${table.source}`);
  }

  const N = floatsOf(doc.normals);
  const D = floatsOf(doc.planes);
  for (let f = 0; f < faces; f++) {
    const a = doc.faces[3 * f]!, b = doc.faces[3 * f + 1]!, c = doc.faces[3 * f + 2]!;
    let storedOk = true;
    if (!Number.isFinite(N[3 * f]!) || !Number.isFinite(N[3 * f + 1]!) || !Number.isFinite(N[3 * f + 2]!)) {
      storedOk = false;
      // Error: the stored plane is what the engine uses for heights and collisions.
      sink.error('bwm.face.normal-not-finite', { kind: 'face', id: f }, () => `face ${f}: the stored normal (${N[3 * f]}, ${N[3 * f + 1]}, ${N[3 * f + 2]}) is not a finite vector`);
    }
    if (!Number.isFinite(D[f]!)) {
      storedOk = false;
      sink.error('bwm.face.plane-not-finite', { kind: 'face', id: f }, () => `face ${f}: the stored planar distance ${D[f]} is not a finite number`);
    }
    if (!finite[a] || !finite[b] || !finite[c]) continue;
    const ux = P[3 * b]! - P[3 * a]!, uy = P[3 * b + 1]! - P[3 * a + 1]!, uz = P[3 * b + 2]! - P[3 * a + 2]!;
    const vx = P[3 * c]! - P[3 * a]!, vy = P[3 * c + 1]! - P[3 * a + 1]!, vz = P[3 * c + 2]! - P[3 * a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    if (a === b || b === c || a === c || len < 1e-12) {
      // Warning: the game-shipped K1 room m10aa_03a has a walkable zero-area face (face 39,
      // normal (1, 0, 0)) and loads and plays; such a face holds no point to stand on, and
      // its edges link like any other's.
      sink.warning('bwm.face.degenerate', { kind: 'face', id: f }, () => `face ${f} (vertices ${a}, ${b}, ${c}) has zero area; the game loads such faces (a BioWare room has one), but nothing can stand on it`);
      continue;
    }
    // Warnings: 203tell ships 4 vertical walkable faces; a downward one is walked on by the
    // game but trips engine re-implementations (reone issue #128).
    if (walkable[f]) {
      if (nz / len < -1e-6) sink.warning('bwm.face.walkable-down', { kind: 'face', id: f }, () => `walkable face ${f} faces down (normal z ${(nz / len).toFixed(4)})`);
      else if (Math.abs(nz / len) <= 1e-6) sink.warning('bwm.face.walkable-vertical', { kind: 'face', id: f }, () => `walkable face ${f} is vertical`);
    }
    if (!storedOk) continue;
    const dn = Math.abs(N[3 * f]! - nx / len) + Math.abs(N[3 * f + 1]! - ny / len) + Math.abs(N[3 * f + 2]! - nz / len);
    // Errors: the engine places creatures on the stored plane, not on the corners, so a
    // plane that disagrees with them puts creatures above or below the floor.
    if (!(dn < 1e-3)) sink.error('bwm.face.normal', { kind: 'face', id: f }, () => `face ${f}: stored normal (${N[3 * f]}, ${N[3 * f + 1]}, ${N[3 * f + 2]}) does not match its winding`);
    const d = -(N[3 * f]! * P[3 * a]! + N[3 * f + 1]! * P[3 * a + 1]! + N[3 * f + 2]! * P[3 * a + 2]!);
    if (!(Math.abs(d - D[f]!) < 1e-2)) sink.error('bwm.face.plane', { kind: 'face', id: f }, () => `face ${f}: stored planar distance ${D[f]} should be ${d}`);
  }

  // Warning: the game-shipped TSL room 203tell has 113 edges shared by three or four faces
  // (a floor edge under two wall faces) and loads. Walk adjacency pairs one face with the
  // face running the edge the other way (directed twins), which the stored table shows and
  // bwm.adjacency.mismatch checks; the other faces keep the edge as a border.
  const model = buildFaceAdjacency(doc.faces, vertexCount);
  for (const e of model.nonManifold) {
    const walkableHere = e.faces.filter((g) => walkable[g]).length;
    sink.warning('bwm.edge.non-manifold', { kind: 'face', id: e.faces[0]! }, () => `the edge between vertices ${e.a} and ${e.b} is shared by ${e.faces.length} faces (${e.faces.join(', ')}, ${walkableHere} walkable); the game loads such edges (a TSL room has 113) and links at most one pair of walkable faces across it`);
  }

  if (isArea) validateWalkTables(doc, walkableCount, P, finite, sink);
  // Warning: the game reads these tables only for rooms (type 1).
  else if (doc.adjacency.length + doc.edgeIndex.length + doc.perimeters.length + doc.aabb.length > 0) {
    sink.warning('bwm.object.tables', undefined, () => 'a placeable/door walkmesh (type 0) carries AABB or walk tables, which the game ignores');
  }
  if (isArea) validateAabb(doc, P, finite, sink);
  validatePadding(doc, sink);
  return sink.finish();
}

/**
 * Warnings: bytes the header's offsets do not cover (after the last section, or between
 * sections) are never read by the game, which finds every table through the header; they
 * are kept byte for byte on save.
 */
function validatePadding(doc: BwmDocument, sink: FindingSink): void {
  if (doc.trailing.length > 0) sink.warning('bwm.padding.trailing', undefined, () => `${doc.trailing.length} byte(s) after the last section, which the game does not read`);
  const file = doc.original;
  if (!file || file.length < 0x88) return;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const u32 = (at: number): number => view.getUint32(at, true);
  const faces = u32(0x50);
  const spans: [number, number][] = [
    [u32(0x4c), u32(0x48) * 12],
    [u32(0x54), faces * 12],
    [u32(0x58), faces * 4],
    [u32(0x5c), faces * 12],
    [u32(0x60), faces * 4],
    [u32(0x68), u32(0x64) * AABB_NODE_WORDS * 4],
    [u32(0x74), u32(0x70) * 12],
    [u32(0x7c), u32(0x78) * 8],
    [u32(0x84), u32(0x80) * 4],
  ];
  const used = spans.filter(([, size]) => size > 0).sort((x, y) => x[0] - y[0]);
  let end = 0x88;
  let gaps = 0;
  for (const [at, size] of used) {
    if (at > end) gaps += at - end;
    end = Math.max(end, at + size);
  }
  if (gaps > 0) sink.warning('bwm.padding.gap', undefined, () => `${gaps} byte(s) between sections that no header offset covers, which the game does not read`);
}

function validateWalkTables(doc: BwmDocument, walkableCount: number, P: Float32Array, finite: Uint8Array, sink: FindingSink): void {
  const stored = doc.adjacency;
  // Errors below: the engine walks these tables to path and to cross into other rooms; a
  // table that disagrees with the geometry (no game file's does) sends it along the wrong
  // faces, off the perimeter or through a doorway that is not there.
  if (stored.length !== walkableCount * 3) {
    sink.error('bwm.adjacency.count', undefined, () => `adjacency has ${stored.length / 3} rows for ${walkableCount} walkable faces`);
  }
  const rebuilt = computeWalkableAdjacency(doc.faces, walkableCount, doc.vertices.length / 3);
  const rows = Math.min(stored.length, rebuilt.length);
  for (let s = 0; s < rows; s++) {
    if (stored[s] !== rebuilt[s]) {
      sink.error('bwm.adjacency.mismatch', { kind: 'edge', id: s }, () => `${edgeName(s)}: stored adjacency ${stored[s]} but the geometry gives ${rebuilt[s]}${stored[s]! >= 0 ? ` (${edgeName(stored[s]!)})` : ''}`);
    }
  }
  const slots = doc.faces.length;
  const seen = new Uint8Array(slots);
  for (let i = 0; i < doc.edgeIndex.length; i++) {
    const e = doc.edgeIndex[i]!;
    if (e >= slots) {
      sink.error('bwm.edges.index', { kind: 'edge', id: e }, () => `edge ${i} has index ${e}, past the ${slots} face edges (a writer bug such as face*6 + edge)`);
      continue;
    }
    if (seen[e]) sink.error('bwm.edges.duplicate', { kind: 'edge', id: e }, () => `${edgeName(e)} is listed twice in the edge table`);
    seen[e] = 1;
    if (e >= rebuilt.length || rebuilt[e] !== NO_ADJACENT) {
      sink.error('bwm.edges.not-perimeter', { kind: 'edge', id: e }, () => `${edgeName(e)} is in the edge table but is not a walkable border edge`);
      if (doc.edgeTransition[i] !== NO_TRANSITION) sink.error('bwm.transition.nowhere', { kind: 'edge', id: e }, () => `${edgeName(e)} carries transition ${doc.edgeTransition[i]} but is not a perimeter edge`);
    }
    if (doc.edgeTransition[i]! < NO_TRANSITION) sink.error('bwm.transition.value', { kind: 'edge', id: e }, () => `${edgeName(e)} has transition ${doc.edgeTransition[i]}, not a room index or -1`);
  }
  for (let s = 0; s < rebuilt.length; s++) {
    if (rebuilt[s] === NO_ADJACENT && !seen[s]) sink.error('bwm.edges.missing', { kind: 'edge', id: s }, () => `${edgeName(s)} is a walkable border edge missing from the edge table`);
  }
  const walk = walkPerimeters(rebuilt);
  if (doc.perimeters.length === 0 && doc.edgeIndex.length > 0) {
    sink.error('bwm.perimeters.missing', undefined, () => `${doc.edgeIndex.length} perimeter edges but a perimeter count of 0 (a PyKotor-fork writer bug); the game needs ${walk.perimeters.length} loop(s)`);
  } else {
    let previous = 0;
    for (let i = 0; i < doc.perimeters.length; i++) {
      const p = doc.perimeters[i]!;
      if (p <= previous || p > doc.edgeIndex.length) sink.error('bwm.perimeters.order', undefined, () => `perimeter ${i} ends at ${p}, after ${previous} and within ${doc.edgeIndex.length} edges expected`);
      previous = p;
    }
    if (doc.perimeters.length > 0 && previous !== doc.edgeIndex.length) sink.error('bwm.perimeters.last', undefined, () => `the last perimeter ends at ${previous}, not at the edge count ${doc.edgeIndex.length}`);
  }
  findDuplicateVertexSeams(doc, rebuilt, P, finite, sink);
}

/** Walkable border edges whose endpoints coincide in position with another border edge: duplicate vertices that keep the two faces unlinked. */
function findDuplicateVertexSeams(doc: BwmDocument, adjacency: Int32Array, P: Float32Array, finite: Uint8Array, sink: FindingSink): void {
  const byPosition = new Map<string, number>();
  const pos = (v: number): string => `${P[3 * v]},${P[3 * v + 1]},${P[3 * v + 2]}`;
  // Warning: 203tell (game-shipped) has two such seams; the game loads it and simply does
  // not walk across them.
  for (let s = 0; s < adjacency.length; s++) {
    if (adjacency[s] !== NO_ADJACENT) continue;
    const f = (s / 3) | 0;
    const e = s - 3 * f;
    const a = doc.faces[s]!, b = doc.faces[3 * f + (e === 2 ? 0 : e + 1)]!;
    if (!finite[a] || !finite[b]) continue;
    const twin = byPosition.get(`${pos(b)}|${pos(a)}`);
    if (twin !== undefined) {
      sink.warning('bwm.vertex.duplicate-seam', { kind: 'edge', id: s }, () => `${edgeName(s)} and ${edgeName(twin)} meet at the same positions through different (duplicate) vertices, so they are not adjacent`);
    } else byPosition.set(`${pos(a)}|${pos(b)}`, s);
  }
}

function validateAabb(doc: BwmDocument, P: Float32Array, finite: Uint8Array, sink: FindingSink): void {
  const faces = doc.faces.length / 3;
  const nodes = doc.aabb.length / AABB_NODE_WORDS;
  const W = doc.aabb;
  const B = floatsOf(W);
  // Errors: the engine finds the face under a point by descending this tree from node 0,
  // so a face missing from it, a box that does not hold its face or a child index out of
  // range leaves faces nothing can stand on, or reads past the table.
  if (nodes !== (faces > 0 ? 2 * faces - 1 : 0)) sink.error('bwm.aabb.count', undefined, () => `the AABB tree has ${nodes} nodes; ${faces} faces need ${2 * faces - 1}`);
  // Warning: reone, xoreos and KotOR.js start at node 0 whatever 0x6C holds.
  if (doc.aabbRoot !== 0) sink.warning('bwm.aabb.root', undefined, () => `header 0x6C (AABB root) is ${doc.aabbRoot}; every known file has 0`);
  const parents = new Uint32Array(nodes);
  const leafOf = new Int32Array(faces).fill(-1);
  for (let k = 0; k < nodes; k++) {
    const o = k * AABB_NODE_WORDS;
    let boxOk = true;
    for (let i = 0; i < 6; i++) if (!Number.isFinite(B[o + i]!)) boxOk = false;
    if (!boxOk) sink.error('bwm.aabb.box-not-finite', undefined, () => `AABB node ${k}: its box (${Array.from(B.subarray(o, o + 6)).join(', ')}) is not made of finite numbers`);
    for (let ax = 0; ax < 3 && boxOk; ax++) {
      if (!(B[o + ax]! <= B[o + 3 + ax]!)) { sink.error('bwm.aabb.inverted', undefined, () => `AABB node ${k}: min ${'xyz'[ax]} ${B[o + ax]} exceeds max ${B[o + 3 + ax]}`); break; }
    }
    // Warning: no reader uses the field; every known file has 4.
    if (W[o + 7] !== AABB_UNKNOWN_VALUE) sink.warning('bwm.aabb.unknown', undefined, () => `AABB node ${k}: the field that is always 4 holds ${W[o + 7]}`);
    // Warning: the engine only ANDs the flag with a ray-direction mask to order the descent
    // (PyKotor reverse-engineering notes, spec §3.1); the PyKotor writers, whose indoor-map
    // rooms are played, write 3 for a Z split.
    if (!VALID_PLANES.has(W[o + 8]!)) sink.warning('bwm.aabb.plane', undefined, () => `AABB node ${k}: plane ${W[o + 8]} is not one of 0, 1, 2, 4, 8, 16, 32; the game only orders its search by it`);
    const face = W[o + 6]! | 0;
    if (face >= 0) {
      if (face >= faces) { sink.error('bwm.aabb.face', undefined, () => `AABB leaf ${k} names face ${face} of ${faces}`); continue; }
      if (leafOf[face]! >= 0) sink.error('bwm.aabb.face-twice', { kind: 'face', id: face }, () => `face ${face} is in AABB leaves ${leafOf[face]} and ${k}`);
      leafOf[face] = k;
      for (let i = 0; i < 3 && boxOk; i++) {
        const v = doc.faces[3 * face + i]!;
        if (!finite[v]) continue;
        for (let ax = 0; ax < 3; ax++) {
          const c = P[3 * v + ax]!;
          if (c < B[o + ax]! || c > B[o + 3 + ax]!) { sink.error('bwm.aabb.leaf-box', { kind: 'face', id: face }, () => `AABB leaf ${k}: face ${face} vertex ${v} lies outside its box`); i = 3; break; }
        }
      }
      continue;
    }
    for (const c of [W[o + 9]!, W[o + 10]!]) {
      if (c === AABB_NO_CHILD || c >= nodes || c === 0) { sink.error('bwm.aabb.child', undefined, () => `AABB node ${k}: child ${c === AABB_NO_CHILD ? -1 : c} is not a node index (0-based, 1..${nodes - 1})`); continue; }
      parents[c]!++;
      const co = c * AABB_NODE_WORDS;
      for (let ax = 0; ax < 3; ax++) {
        if (B[co + ax]! < B[o + ax]! || B[co + 3 + ax]! > B[o + 3 + ax]!) { sink.error('bwm.aabb.child-box', undefined, () => `AABB node ${c} is not inside its parent ${k}`); break; }
      }
    }
  }
  for (let k = 1; k < nodes; k++) if (parents[k] !== 1) sink.error('bwm.aabb.parents', undefined, () => `AABB node ${k} has ${parents[k]} parents, not 1`);
  for (let f = 0; f < faces && nodes > 0; f++) if (leafOf[f]! < 0) sink.error('bwm.aabb.face-missing', { kind: 'face', id: f }, () => `face ${f} is in no AABB leaf`);
}
