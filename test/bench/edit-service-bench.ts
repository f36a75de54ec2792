/**
 * The edit service on a generated 100,352-triangle KotOR room (a 224 × 224 grid, see
 * edit-bench.ts): `edits.apply` of a paint stroke (about 50 faces under a brush) and of a
 * move of 20 vertices, each with its reply encoded for the transport (encodeFrame, as the
 * browser mode sends it), once asking for a delta and once for whole walkmeshes. Times
 * are per edit, median and p99; the reply sizes are the encoded frames. The service's
 * time includes committing the history entry and the file's mark; the file's bytes are
 * written behind when the editor is idle (ProjectEdits writeBehind), timed on its own in
 * the last line. The last column is what the page then does with the reply on the
 * CPU (decodeFrame, the store's patch, colours, the flat mesh and the picking BVH, as the
 * viewport does; the GPU upload is not timed). Figures for reading, never asserted. Run alone with
 * `node --import tsx test/bench/edit-service-bench.ts [--strokes N]`.
 */
import { projectResolver } from '../support/project-resolver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEditService } from '../../electron/services/edit-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { EditCommand } from '../../shared/edits/edit-command';
import { facesUnderBrush, walkmeshGrid } from '../../shared/edits/selection';
import { bwmFromWalkmesh } from '../../shared/formats/kotor/bwm-walkmesh';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { applyEditsDelta } from '../../shared/edits/apply-edits-delta';
import { copyWalkmesh } from '../../shared/edits/walkmesh-copy';
import { buildTriangleBvh, refitTriangleBvhFaces, type TriangleBvh } from '../../shared/geometry/triangle-bvh';
import type { EditsOutcome } from '../../shared/ipc/edits-contract';
import { decodeFrame, encodeFrame } from '../../shared/ipc/mesh-payload';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { sameGeometry } from '../../renderer/src/tools/face-selection';
import { deltaRedraw } from '../../renderer/src/viewport/delta-view';
import { colourFaces } from '../../renderer/src/viewport/face-colours';
import { buildFlatMesh, writeFlatFace, type FlatMeshData } from '../../renderer/src/viewport/game-to-babylon';
import { gridWalkmesh } from '../unit/edits/grid-walkmesh';
import { median, percentile } from './measure';
import { renderTable } from './text-table';

export interface EditServiceBenchOptions {
  /** Timed edits per row (at least 50 are sensible for a p99). */
  strokes?: number;
  out?: (text: string) => void;
}

export interface EditServiceBenchRow {
  operation: string;
  reply: 'delta' | 'whole';
  samples: number;
  facesPerEdit: number;
  /** `edits.apply` alone, encodeFrame of its reply alone, and both. */
  applyMedianMs: number;
  encodeMedianMs: number;
  medianMs: number;
  p99Ms: number;
  replyBytes: number;
  /** The page's CPU work on the reply (see the file comment). */
  pageMedianMs: number;
}

/** The page's copy of the walkmesh with what the viewport derives from it. */
interface PageState {
  mesh: Walkmesh;
  flat: FlatMeshData;
  bvh: TriangleBvh;
  legend: ReturnType<typeof colourFaces>['legend'];
}

/** What the page does with a reply (CPU side): the delta patched in, or the whole walkmesh taken. */
function pageTakes(page: PageState, frame: Uint8Array): void {
  const o = decodeFrame(frame) as EditsOutcome;
  if (o.delta) {
    const change = applyEditsDelta(page.mesh, o.delta);
    const redraw = deltaRedraw(page.mesh, change, 'walkable', page.legend);
    page.legend = redraw.legend ?? colourFaces([page.mesh], 'walkable').legend;
    for (const f of redraw.moved) writeFlatFace(page.mesh, f, page.flat.positions, page.flat.normals);
    if (redraw.moved.length > 0) refitTriangleBvhFaces(page.bvh, redraw.moved);
    return;
  }
  const now = o.walkmeshes[0]!;
  const rebuild = !sameGeometry(page.mesh, now);
  page.legend = colourFaces([now], 'walkable').legend;
  page.mesh = now;
  if (rebuild) {
    page.flat = buildFlatMesh(now);
    // A new file object: its BVH is built again on the next hover.
    page.bvh = buildTriangleBvh(now.positions, now.triangles);
  }
}

/** A small deterministic generator, so every run makes the same edits. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const GRID = 224;
/** A 2.8-unit brush covers about 25 unit squares of the grid: about 50 faces. */
const BRUSH = 2.8;

export async function runEditServiceBench(options: EditServiceBenchOptions = {}): Promise<EditServiceBenchRow[]> {
  const strokes = Math.max(1, options.strokes ?? 60);
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const dir = mkdtempSync(path.join(tmpdir(), 'walkbench-edit-service-bench-'));
  const rows: EditServiceBenchRow[] = [];
  const file = path.join(dir, 'bench.walkbench');
  const service = createEditService({ resolveProject: projectResolver(() => file) });
  try {
    const t0 = performance.now();
    const store = ProjectStore.create(file, { name: 'edit service bench', game: 'kotor' });
    let fileId: number;
    try {
      const bytes = writeBwm(bwmFromWalkmesh(gridWalkmesh(GRID), undefined));
      fileId = store.upsertFile({ module: 'bench', area: 'grid', name: 'grid.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes }).fileId;
    } finally {
      store.close();
    }
    const buildMs = performance.now() - t0;
    const t1 = performance.now();
    // The model the edits name faces and vertices of (the writer orders faces its own way).
    const mesh = service.editedWalkmeshes(file, fileId)![0]!;
    const openMs = performance.now() - t1;
    const shown = copyWalkmesh(mesh);
    const page: PageState = { mesh: shown, flat: buildFlatMesh(shown), bvh: buildTriangleBvh(shown.positions, shown.triangles), legend: colourFaces([shown], 'walkable').legend };
    const grid = walkmeshGrid(mesh);
    const random = lcg(42);
    const h = service.handlers;

    const time = async (operation: string, reply: 'delta' | 'whole', make: () => EditCommand): Promise<void> => {
      const times: number[] = [];
      const applyTimes: number[] = [];
      const encodeTimes: number[] = [];
      const pageTimes: number[] = [];
      const sizes: number[] = [];
      let faces = 0;
      const warmup = 5;
      for (let i = 0; i < strokes + warmup; i++) {
        const command = make();
        const start = performance.now();
        const outcome = await h['edits.apply']({ fileId, command, delta: reply === 'delta' });
        const applied = performance.now();
        const frame = encodeFrame(outcome);
        const end = performance.now();
        if (reply === 'delta' && !outcome.delta) throw new Error(`${operation}: the service answered without a delta`);
        const p0 = performance.now();
        pageTakes(page, frame);
        pageTimes.push(performance.now() - p0);
        if (i < warmup) continue;
        times.push(end - start);
        applyTimes.push(applied - start);
        encodeTimes.push(end - applied);
        sizes.push(frame.byteLength);
        faces += command.kind === 'paint-faces' ? command.faces.length : 0;
      }
      rows.push({ operation, reply, samples: times.length, facesPerEdit: faces / times.length, applyMedianMs: median(applyTimes), encodeMedianMs: median(encodeTimes), medianMs: median(times), p99Ms: percentile(times, 99), replyBytes: median(sizes), pageMedianMs: median(pageTimes.slice(warmup)) });
    };

    const paint = (): EditCommand => {
      const m = 2 + Math.floor(random() * 17);
      return { kind: 'paint-faces', faces: Array.from(facesUnderBrush(mesh, grid, 4 + random() * (GRID - 8), 4 + random() * (GRID - 8), BRUSH)), material: m === 7 ? 3 : m };
    };
    /** 20 vertices of a 4 × 5 block of the grid, lifted or lowered together. */
    const move = (): EditCommand => {
      const x0 = 1 + Math.floor(random() * (GRID - 6)), y0 = 1 + Math.floor(random() * (GRID - 6));
      const lift = Math.fround((random() - 0.5) * 0.5);
      const vertices: number[] = [];
      const positions: number[] = [];
      // The grid's vertices by position: the room's writer keeps vertex order, not face order.
      for (let y = y0; y < y0 + 5; y++) {
        for (let x = x0; x < x0 + 4; x++) {
          const v = y * (GRID + 1) + x;
          vertices.push(v);
          positions.push(mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, Math.fround(mesh.positions[v * 3 + 2]! + lift));
        }
      }
      return { kind: 'move-vertices', vertices, positions };
    };
    await time(`paint stroke (${BRUSH} m brush)`, 'delta', paint);
    await time(`paint stroke (${BRUSH} m brush)`, 'whole', paint);
    await time('move 20 vertices', 'delta', move);
    await time('move 20 vertices', 'whole', move);
    // The page's copy, kept by the replies alone, is still the service's walkmesh.
    const held = service.editedWalkmeshes(file, fileId)![0]!;
    if (!sameGeometry(page.mesh, held) || page.mesh.faceMaterial.some((m, f) => m !== held.faceMaterial[f])) throw new Error('the page copy drifted from the service walkmesh');

    // What every edit pays whatever its reply: the room written again (KotOR derives face
    // order, planes, AABB tree, adjacency and perimeters) before it is saved in the project.
    const writes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const w0 = performance.now();
      writeBwm(bwmFromWalkmesh(mesh, undefined));
      writes.push(performance.now() - w0);
    }
    out(`edit service on a ${faceCount(mesh).toLocaleString('en-US')}-triangle KotOR room: project built in ${buildMs.toFixed(0)} ms, file opened for editing in ${openMs.toFixed(0)} ms\n`);
    out(
      `${renderTable(
        [{ header: 'edits.apply + encodeFrame', align: 'left' }, { header: 'reply', align: 'left' }, { header: 'edits' }, { header: 'faces/edit' }, { header: 'apply median ms' }, { header: 'encode median ms' }, { header: 'median ms' }, { header: 'p99 ms' }, { header: 'reply bytes' }, { header: 'page CPU median ms' }],
        rows.map((r) => [r.operation, r.reply, String(r.samples), r.facesPerEdit ? r.facesPerEdit.toFixed(1) : '-', r.applyMedianMs.toFixed(2), r.encodeMedianMs.toFixed(3), r.medianMs.toFixed(2), r.p99Ms.toFixed(2), r.replyBytes.toLocaleString('en-US'), r.pageMedianMs.toFixed(2)]),
      )}\n`,
    );
    // The findings the page then shows: edits.report writes what is behind and validates
    // the written bytes (read + validate, as `walkbench validate` does).
    const reports: number[] = [];
    for (let i = 0; i < 5; i++) {
      await h['edits.apply']({ fileId, command: paint(), delta: true });
      const r0 = performance.now();
      await h['edits.report']({ fileId });
      reports.push(performance.now() - r0);
    }
    out(`written behind when the editor is idle, not in the times above: the room's bake and write (bwmFromWalkmesh + writeBwm), median ${median(writes).toFixed(1)} ms over ${writes.length}\n`);
    out(`the report the page asks for once idle (edits.report: the write behind, then read + validate of the bytes), median ${median(reports).toFixed(1)} ms over ${reports.length}\n`);
    return rows;
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { strokes: { type: 'string', default: '60' } } });
  await runEditServiceBench({ strokes: Number(values.strokes) });
}
