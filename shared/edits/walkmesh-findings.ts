import { DEFAULT_WALKABILITY } from '../formats/kotor/surface-materials';
import { KNOWN_TRIANGLE_FLAGS } from '../formats/nwn2/aswm-document';
import { faceCount, NO_OWNER, vertexCount, type Walkmesh } from '../model/walkmesh';
import { error, warning, type Finding } from '../validation/finding';
import { FindingSink } from '../validation/finding-sink';
import type { EditResult } from './edit-command';
import { mapFaceIndices, type FaceMap } from './face-map';

/**
 * Findings about a walkmesh that an edit can cause, kept per face so that after an edit
 * only the faces it touched and their neighbours are checked again:
 *
 * - `mesh.face.degenerate`: a face with a repeated corner or no area (the games' own
 *   validators report the same, e.g. bwm.face.degenerate, nav.area.degenerate);
 * - `mesh.face.walkable-down` / `mesh.face.walkable-vertical`: a walkable face that
 *   points down or stands on its edge (bwm.face.walkable-down / -vertical);
 * - `mesh.edge.non-manifold`: three or more faces on one edge (bwm.edge.non-manifold);
 * - `mesh.edge.winding`: two faces running a shared edge the same way (one is flipped);
 * - per game, what the writer would refuse or the game not understand: KotOR materials
 *   past the surface table, NWN2 flags outside 16 bits or without a known meaning, Source
 *   faces with no area.
 *
 * Edge findings have the subject `edge` face*3+corner and are filed under the lowest face
 * on the edge, so each is reported once. The whole-file checks (AABB trees, bake tables,
 * connections) stay with the format's validator, run when the file is saved.
 */
export class WalkmeshFindings {
  private readonly byFace = new Map<number, Finding[]>();
  /** Faces around each vertex (CSR): `faceList[vertexStart[v] .. vertexStart[v+1]]`. */
  private vertexStart = new Uint32Array(0);
  private faceList = new Uint32Array(0);
  /** Vertices whose face list changed since the CSR was built, with their list now. */
  private readonly patched = new Map<number, number[]>();
  /** The corners the vertex lists reflect, to take a changed face out of its old vertices' lists. */
  private corners = new Uint32Array(0);

  constructor(private readonly mesh: Walkmesh) {
    this.checkAll();
  }

  /** Checks again what an edit applied to the mesh may have changed. */
  update(result: EditResult): void {
    const region = new Set<number>();
    if (result.renumbered) {
      if (!result.faceMap) {
        this.checkAll();
        return;
      }
      // Findings follow their faces to the new indices and are checked again there (their
      // messages name the face); the vertex lists are built anew.
      this.buildVertexFaces();
      for (const f of this.renumberFindings(result.faceMap)) region.add(f);
    } else if (result.topology) this.patchVertexFaces(result.affectedFaces);
    const F = faceCount(this.mesh);
    for (const f of this.byFace.keys()) if (f >= F) this.byFace.delete(f);
    for (const f of result.affectedFaces) if (f < F) region.add(f);
    for (const v of result.affectedVertices) {
      const list = this.facesOf(v);
      for (let i = 0; i < list.length; i++) region.add(list[i]!);
    }
    for (const f of region) this.checkFace(f);
  }

  /** Moves the findings to the faces' new indices; returns those indices. */
  private renumberFindings(map: FaceMap): number[] {
    const old = [...this.byFace.entries()].sort((x, y) => x[0] - y[0]);
    const next = mapFaceIndices(old.map((e) => e[0]), map);
    this.byFace.clear();
    const moved: number[] = [];
    old.forEach(([, list], i) => {
      if (next[i]! < 0) return;
      this.byFace.set(next[i]!, list);
      moved.push(next[i]!);
    });
    return moved;
  }

  /** Checks every face again (after an edit that renumbered faces, or to start over). */
  checkAll(): void {
    this.byFace.clear();
    this.buildVertexFaces();
    const F = faceCount(this.mesh);
    for (let f = 0; f < F; f++) this.checkFace(f);
  }

  /** The findings, by face, with at most `cap` listed per code (as the format validators do). */
  findings(cap = 100): Finding[] {
    const sink = new FindingSink(cap);
    const faces = [...this.byFace.keys()].sort((a, b) => a - b);
    for (const f of faces) for (const finding of this.byFace.get(f)!) sink.push(finding);
    return sink.finish();
  }

  /** Number of findings, uncapped. */
  get count(): number {
    let n = 0;
    for (const list of this.byFace.values()) n += list.length;
    return n;
  }

  private buildVertexFaces(): void {
    const T = this.mesh.triangles;
    const V = vertexCount(this.mesh);
    const start = new Uint32Array(V + 1);
    for (let i = 0; i < T.length; i++) start[T[i]! + 1]!++;
    for (let v = 0; v < V; v++) start[v + 1]! += start[v]!;
    const fill = start.slice(0, V);
    const list = new Uint32Array(T.length);
    for (let i = 0; i < T.length; i++) list[fill[T[i]!]!++] = (i / 3) | 0;
    this.vertexStart = start;
    this.faceList = list;
    this.patched.clear();
    this.corners = T.slice();
  }

  /** The faces using vertex v, a face once per corner it has there (listed together). */
  private facesOf(v: number): ArrayLike<number> {
    const p = this.patched.get(v);
    if (p) return p;
    if (v + 1 >= this.vertexStart.length) return [];
    return this.faceList.subarray(this.vertexStart[v]!, this.vertexStart[v + 1]!);
  }

  /**
   * Moves changed faces between vertex lists: faces whose corners changed (the edit's
   * affected faces), faces added or removed at the end. A few edits patch a few lists;
   * once the patches grow large the lists are built again.
   */
  private patchVertexFaces(affected: Uint32Array): void {
    const T = this.mesh.triangles;
    const F = T.length / 3;
    const old = this.corners;
    const oldF = old.length / 3;
    if (this.patched.size > 4096 || Math.abs(F - oldF) > 4096) {
      this.buildVertexFaces();
      return;
    }
    const changed = new Set<number>();
    for (const f of affected) changed.add(f);
    for (let f = Math.min(F, oldF); f < Math.max(F, oldF); f++) changed.add(f);
    const list = (v: number): number[] => {
      let p = this.patched.get(v);
      if (!p) this.patched.set(v, (p = Array.from(this.facesOf(v))));
      return p;
    };
    for (const f of changed) {
      if (f < oldF) {
        for (let k = 0; k < 3; k++) {
          const p = list(old[f * 3 + k]!);
          for (let i = p.length - 1; i >= 0; i--) if (p[i] === f) p.splice(i, 1);
        }
      }
    }
    for (const f of changed) {
      if (f < F) for (let k = 0; k < 3; k++) list(T[f * 3 + k]!).push(f);
    }
    if (F * 3 !== old.length) {
      const next = new Uint32Array(F * 3);
      next.set(old.subarray(0, Math.min(old.length, F * 3)));
      this.corners = next;
    }
    for (const f of changed) if (f < F) this.corners.set(T.subarray(f * 3, f * 3 + 3), f * 3);
  }

  private readonly scratch: Finding[] = [];

  private checkFace(f: number): void {
    const out = this.scratch;
    out.length = 0;
    this.checkFaceInto(f, out);
    if (out.length > 0) this.byFace.set(f, out.slice());
    else if (this.byFace.size > 0) this.byFace.delete(f);
  }

  private checkFaceInto(f: number, out: Finding[]): void {
    const m = this.mesh;
    const P = m.positions;
    const T = m.triangles;
    const a = T[f * 3]!, b = T[f * 3 + 1]!, c = T[f * 3 + 2]!;
    const face = { kind: 'face', id: f } as const;
    const ux = P[b * 3]! - P[a * 3]!, uy = P[b * 3 + 1]! - P[a * 3 + 1]!, uz = P[b * 3 + 2]! - P[a * 3 + 2]!;
    const vx = P[c * 3]! - P[a * 3]!, vy = P[c * 3 + 1]! - P[a * 3 + 1]!, vz = P[c * 3 + 2]! - P[a * 3 + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (a === b || b === c || a === c || !(len >= 1e-12)) {
      out.push(error('mesh.face.degenerate', `face ${f} (vertices ${a}, ${b}, ${c}) has zero area`, face));
    } else if (m.faceWalkable[f]) {
      const up = nz / len;
      if (up < -1e-6) out.push(warning('mesh.face.walkable-down', `walkable face ${f} faces down (normal z ${up.toFixed(4)})`, face));
      else if (up <= 1e-6) out.push(warning('mesh.face.walkable-vertical', `walkable face ${f} is vertical`, face));
    }
    this.checkGameFace(f, out);
    for (let e = 0; e < 3; e++) this.checkEdge(f, e, out);
  }

  private checkGameFace(f: number, out: Finding[]): void {
    const m = this.mesh;
    const face = { kind: 'face', id: f } as const;
    const material = m.faceMaterial[f]!;
    if (m.game === 'kotor' && material >= DEFAULT_WALKABILITY.walkable.length) {
      out.push(warning('mesh.face.material-range', `face ${f} has material ${material}, past the ${DEFAULT_WALKABILITY.walkable.length} rows of the surface table`, face));
    } else if (m.game === 'nwn2') {
      if (material > 0xffff) out.push(error('mesh.face.flags-range', `face ${f}: flags 0x${material.toString(16)} do not fit the 16-bit NWN2 triangle flags`, face));
      else if (material & ~KNOWN_TRIANGLE_FLAGS) out.push(warning('mesh.face.unknown-flags', `face ${f} has flag bits 0x${(material & ~KNOWN_TRIANGLE_FLAGS).toString(16)} with no known meaning`, face));
    } else if (m.game === 'source' && (m.faceOwner[f] === NO_OWNER || m.faceOwner[f] === 0)) {
      out.push(error('mesh.face.no-area', `face ${f} belongs to no area; every face of a .nav mesh must`, face));
    }
  }

  /** Reports edge e of face f if f is the lowest face on it and the edge is non-manifold or mis-wound. */
  private checkEdge(f: number, e: number, out: Finding[]): void {
    const T = this.mesh.triangles;
    const u = T[f * 3 + e]!;
    const v = T[f * 3 + (e === 2 ? 0 : e + 1)]!;
    if (u === v) return;
    let count = 0;
    let same = 0;
    // The CSR is read in place: a subarray per edge costs more than the whole check.
    const patch = this.patched.size > 0 ? this.patched.get(u) : undefined;
    const faces: ArrayLike<number> = patch ?? this.faceList;
    const start = patch ? 0 : u + 1 < this.vertexStart.length ? this.vertexStart[u]! : 0;
    const end = patch ? patch.length : u + 1 < this.vertexStart.length ? this.vertexStart[u + 1]! : 0;
    for (let i = start; i < end; i++) {
      const g = faces[i]!;
      if (i > start && faces[i - 1] === g) continue; // a face listed twice at a repeated corner
      for (let k = 0; k < 3; k++) {
        const p = T[g * 3 + k]!, q = T[g * 3 + (k === 2 ? 0 : k + 1)]!;
        if (p === u && q === v) {
          if (g < f) return;
          count++;
          if (g !== f) same++;
        } else if (p === v && q === u) {
          if (g < f) return;
          count++;
        }
      }
    }
    const subject = { kind: 'edge', id: f * 3 + e } as const;
    if (count >= 3) out.push(error('mesh.edge.non-manifold', `the edge between vertices ${Math.min(u, v)} and ${Math.max(u, v)} is shared by ${count} faces`, subject));
    else if (same > 0) out.push(warning('mesh.edge.winding', `face ${f} and another face run the edge ${u}→${v} the same way (one of them is flipped)`, subject));
  }
}
