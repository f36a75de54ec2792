/**
 * Edit timings on a generated 100,352-triangle walkmesh (a 224 × 224 grid): each row is
 * one kind of edit applied to the model (what an edit costs before its reply), timed one
 * edit at a time; median and p99 printed, never asserted. The findings are not part of an
 * edit any more: they are the validator's report of the bytes once written (see the edit
 * service bench, `--suite "edit service"`, for that cost).
 * Run alone with `node --import tsx test/bench/edit-bench.ts [--strokes N]`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applyEdit } from '../../shared/edits/apply-edit';
import type { EditCommand } from '../../shared/edits/edit-command';
import { facesUnderBrush, walkmeshGrid } from '../../shared/edits/selection';
import { faceCount, vertexCount } from '../../shared/model/walkmesh';
import { gridWalkmesh } from '../unit/edits/grid-walkmesh';
import { median } from './measure';
import { renderTable } from './text-table';

export interface EditBenchOptions {
  strokes?: number;
  out?: (text: string) => void;
}

export interface EditBenchRow {
  operation: string;
  samples: number;
  facesPerEdit: number;
  medianMs: number;
  p99Ms: number;
}

function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** A small deterministic generator, so every run paints the same strokes. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function runEditBench(options: EditBenchOptions = {}): EditBenchRow[] {
  const strokes = options.strokes ?? 400;
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const mesh = gridWalkmesh(224);
  const n = 224;
  const random = lcg(42);
  const rows: EditBenchRow[] = [];
  const time = (operation: string, count: number, make: () => EditCommand | undefined): void => {
    const times: number[] = [];
    let faces = 0;
    for (let i = 0; i < count + 20; i++) {
      const t0 = performance.now();
      const cmd = make();
      if (!cmd) continue;
      const result = applyEdit(mesh, cmd);
      const ms = performance.now() - t0;
      if (i < 20) continue; // warm-up
      times.push(ms);
      faces += result.affectedFaces.length;
    }
    rows.push({ operation, samples: times.length, facesPerEdit: faces / times.length, medianMs: median(times), p99Ms: percentile(times, 99) });
  };

  const faces = faceCount(mesh).toLocaleString('en-US');
  const t1 = performance.now();
  const grid = walkmeshGrid(mesh);
  const gridMs = performance.now() - t1;

  // A paint stroke: the faces under a 1.5 m brush (about 14 faces) painted one material.
  time('paint stroke (1.5 m brush)', strokes, () => {
    const faces = Array.from(facesUnderBrush(mesh, grid, random() * n, random() * n, 1.5));
    return { kind: 'paint-faces', faces, material: random() < 0.5 ? 3 : 5 };
  });
  time('paint stroke (4 m brush)', strokes, () => {
    const faces = Array.from(facesUnderBrush(mesh, grid, random() * n, random() * n, 4));
    return { kind: 'paint-faces', faces, material: random() < 0.5 ? 3 : 5 };
  });
  // Undo of a stroke: the stroke is applied untimed, its inverse timed.
  let pending: EditCommand | undefined;
  time('undo of a 1.5 m stroke', strokes, () => {
    const cmd = pending;
    pending = applyEdit(mesh, { kind: 'paint-faces', faces: Array.from(facesUnderBrush(mesh, grid, random() * n, random() * n, 1.5)), material: 7 }).inverse;
    return cmd;
  });
  time('move 1 vertex', strokes, () => {
    const v = Math.floor(random() * vertexCount(mesh));
    return { kind: 'move-vertices', vertices: [v], positions: [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, Math.fround(random())] };
  });
  time('flip 1 face', strokes, () => ({ kind: 'flip-faces', faces: [Math.floor(random() * faceCount(mesh))] }));
  time('split edge (appends 2 faces)', Math.min(strokes, 100), () => {
    const f = Math.floor(random() * faceCount(mesh));
    return { kind: 'split-edge', edge: [mesh.triangles[f * 3]!, mesh.triangles[f * 3 + 1]!] };
  });
  time('delete 1 face (renumbers the faces after it)', Math.min(strokes, 40), () => ({ kind: 'delete-faces', faces: [Math.floor(random() * faceCount(mesh))] }));

  out(`edits on a ${faces}-triangle walkmesh: brush grid ${gridMs.toFixed(1)} ms (once per mesh)\n`);
  out(
    `${renderTable(
      [{ header: 'edit of the model', align: 'left' }, { header: 'edits' }, { header: 'faces/edit' }, { header: 'median ms' }, { header: 'p99 ms' }],
      rows.map((r) => [r.operation, String(r.samples), r.facesPerEdit.toFixed(1), r.medianMs.toFixed(3), r.p99Ms.toFixed(3)]),
    )}\n`,
  );
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { strokes: { type: 'string', default: '400' } } });
  runEditBench({ strokes: Number(values.strokes) });
}
