/**
 * Line overlays the viewport draws over the faces (perimeters, links, boxes, normals…).
 * Segments are in game space (Z-up) as one Float32Array, so an overlay of 100,000 lines is
 * one allocation here, one Babylon line system there, and crosses both transports as raw
 * bytes. Overlays from the format documents travel in OpenedFile; overlays that follow from
 * the common model alone are computed in the renderer from the same code.
 */
export const overlayIds = [
  'perimeter',
  'normals',
  'aabb',
  'transitions',
  'edge-links',
  'door-links',
  'cover-edges',
  'connections',
  'ladders',
  'hiding-spots',
  'footprints',
  'cutters',
] as const;

export type OverlayId = (typeof overlayIds)[number];

export interface OverlayClass {
  /** Legend text, e.g. `depth 3` or `one-way`. */
  label: string;
  /** Items (not segments) of this class. */
  count: number;
}

export interface LineOverlay {
  id: OverlayId;
  /** x, y, z of both ends per segment, game space. */
  segments: Float32Array;
  /** Per segment, its index into `classes` (colour and legend line). */
  segmentClass: Uint8Array;
  /**
   * Axis-aligned boxes as min x, y, z, max x, y, z each: a sixth of the bytes their 12
   * edges would take (a 100,000-face KotOR room has 200,000 AABB nodes). Drawn as edges.
   */
  boxes: Float32Array;
  boxClass: Uint8Array;
  classes: OverlayClass[];
  /**
   * Pairs of faceOwner values the lines link (Source area connections), so islands can
   * follow links the mesh's edges do not show.
   */
  ownerLinks?: Uint32Array;
}

/** Bottom square, top square, then the four uprights. */
const BOX_EDGE_CORNERS = [0, 1, 1, 3, 3, 2, 2, 0, 4, 5, 5, 7, 7, 6, 6, 4, 0, 4, 1, 5, 3, 7, 2, 6];

/** The 12 edges of box `i` of an overlay, as 72 floats (game space). */
export function boxEdges(boxes: Float32Array, i: number, out: Float32Array, at: number): void {
  const o = i * 6;
  const x0 = boxes[o]!, y0 = boxes[o + 1]!, z0 = boxes[o + 2]!, x1 = boxes[o + 3]!, y1 = boxes[o + 4]!, z1 = boxes[o + 5]!;
  // Corner k of the box: bit 0 picks x, bit 1 y, bit 2 z. Edges as corner pairs.
  let w = at;
  for (let k = 0; k < 24; k++) {
    const c = BOX_EDGE_CORNERS[k]!;
    out[w++] = c & 1 ? x1 : x0;
    out[w++] = c & 2 ? y1 : y0;
    out[w++] = c & 4 ? z1 : z0;
  }
}

export const overlayLabels: Record<OverlayId, string> = {
  perimeter: 'Perimeters (walkable border)',
  normals: 'Face normals',
  aabb: 'AABB boxes by depth',
  transitions: 'Transitions / room links',
  'edge-links': 'Edge links (other navmeshes)',
  'door-links': 'Door links',
  'cover-edges': 'Cover edges',
  connections: 'Area connections',
  ladders: 'Ladders',
  'hiding-spots': 'Hiding spots',
  footprints: 'Placeable and door footprints',
  cutters: 'Cutter outlines',
};

/** Collects segments of one overlay, growing its arrays as needed. */
export class OverlayBuilder {
  private data = new Float32Array(6 * 64);
  private cls = new Uint8Array(64);
  private n = 0;
  private boxData = new Float32Array(0);
  private boxCls = new Uint8Array(0);
  private boxCount = 0;
  private readonly counts: number[];

  constructor(
    readonly id: OverlayId,
    private readonly classLabels: readonly string[],
  ) {
    if (classLabels.length > 256) throw new RangeError(`overlay ${id} has ${classLabels.length} classes; at most 256 fit`);
    this.counts = classLabels.map(() => 0);
  }

  /** Counts one item (a box, a link, a ladder) of class `c` for the legend. */
  countItem(c: number): void {
    this.counts[c]!++;
  }

  segment(c: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
    if (this.n === this.cls.length) {
      const d = new Float32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
      const k = new Uint8Array(this.cls.length * 2);
      k.set(this.cls);
      this.cls = k;
    }
    const o = this.n * 6;
    this.data[o] = ax;
    this.data[o + 1] = ay;
    this.data[o + 2] = az;
    this.data[o + 3] = bx;
    this.data[o + 4] = by;
    this.data[o + 5] = bz;
    this.cls[this.n++] = c;
  }

  /** An axis-aligned box, drawn as its 12 edges. */
  box(c: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): void {
    if (this.boxCount === this.boxCls.length) {
      const size = Math.max(64, this.boxCls.length * 2);
      const d = new Float32Array(size * 6);
      d.set(this.boxData);
      this.boxData = d;
      const k = new Uint8Array(size);
      k.set(this.boxCls);
      this.boxCls = k;
    }
    this.boxData.set([x0, y0, z0, x1, y1, z1], this.boxCount * 6);
    this.boxCls[this.boxCount++] = c;
  }

  /** A small upright cross marking a point. */
  marker(c: number, x: number, y: number, z: number, size: number): void {
    this.segment(c, x - size, y, z, x + size, y, z);
    this.segment(c, x, y - size, z, x, y + size, z);
    this.segment(c, x, y, z, x, y, z + size * 2);
  }

  get segmentCount(): number {
    return this.n;
  }

  /** The overlay, or null when nothing was added (the legend then says none in this file). */
  finish(): LineOverlay | null {
    if (this.n === 0 && this.boxCount === 0 && this.counts.every((c) => c === 0)) return null;
    const classes = this.classLabels.map((label, i) => ({ label, count: this.counts[i]! }));
    return {
      id: this.id,
      segments: this.data.slice(0, this.n * 6),
      segmentClass: this.cls.slice(0, this.n),
      boxes: this.boxData.slice(0, this.boxCount * 6),
      boxClass: this.boxCls.slice(0, this.boxCount),
      classes,
    };
  }
}
