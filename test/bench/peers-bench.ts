/**
 * Walkbench beside the tools designers would otherwise use (issue 18), measured in one run:
 * `npm run bench -- --suite peers`, or alone `node --import tsx test/bench/peers-bench.ts
 * [--pairs N] [--runs N] [--no-processes]`. Figures for reading, never pass/fail.
 *
 * 1. Path queries on the largest fixture of each game: Walkbench's own A* over the faces
 *    (and, for NWN2, the walk through the game's baked tables) beside the npm-installable
 *    navmesh libraries, recast-navigation-js (Recast/Detour in WebAssembly) and navcat
 *    (the same algorithms in JavaScript), each building its own navmesh from the same
 *    walkable triangles and answering the same queries (node centres of pairs Walkbench
 *    finds joined). Ratio = the peer's median over Walkbench's (above 1: Walkbench faster).
 * 2. `.nav` parsing in MB/s over every Source fixture, beside any `.nav` parser on npm.
 * 3. Absolute times a native peer's figures can be checked against (the native tools
 *    cannot be installed here): re-baking each fixture TRX one process per file (the
 *    `walkbench` bin, as a build script's loop runs it) and the start-up of `node` itself
 *    and of `walkbench --version`.
 *
 * A peer that cannot be installed or run prints its row with the reason. The machine's load
 * (os.loadavg) is printed with the figures: other work on the machine slows every row.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { seededRandom } from '../../shared/bakers/nwn2/point-reachability';
import { loadDocument } from '../../shared/formats/inspect-file';
import { readNav } from '../../shared/formats/source/nav-reader';
import { Nwn2PathSurface } from '../../shared/pathing/nwn2-path';
import { pathSurfaceFor } from '../../shared/pathing/path-for-document';
import type { Point3 } from '../../shared/pathing/path-result';
import type { PathSurface } from '../../shared/pathing/path-surface';
import { fixtureName, listFixtures, readFixture, repoRoot } from '../support/fixtures';
import { median } from './measure';
import { formatCount, renderTable, type Column } from './text-table';

export interface PeersBenchOptions {
  /** Query pairs per file (default 300). */
  pairs?: number;
  /** Runs per process timing (default 3; the median is shown). */
  runs?: number;
  /** Skip section 3 (it starts 2 processes per fixture TRX and run). */
  processes?: boolean;
  out?: (text: string) => void;
}

const GAMES: { game: string; sub: string; extensions: string[] }[] = [
  { game: 'nwn2', sub: 'nwn2', extensions: ['.trx'] },
  { game: 'kotor', sub: 'kotor', extensions: ['.wok'] },
  { game: 'skyrim', sub: 'skyrim', extensions: ['.esp', '.esm'] },
  { game: 'source', sub: 'source', extensions: ['.nav'] },
];

function largest(files: string[]): string {
  return files.reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a));
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** What a peer needs: walkable triangles in a y-up, right-handed frame, wound counter-clockwise seen from above, in metres. */
interface PeerInput {
  positions: Float32Array;
  indices: Uint32Array;
  /** Game units per metre. */
  unit: number;
}

/** The game's z-up point as the peers' y-up point, in metres: (x, z, −y) keeps the handedness. */
function toPeer(p: Point3, unit: number): [number, number, number] {
  return [p[0] / unit, p[2] / unit, -p[1] / unit];
}

/**
 * The surface's walkable triangles for a peer; for a file with several spaces (a Skyrim
 * plugin's cells and worldspaces, which overlap in coordinates) only the faces of `space`.
 */
function peerInput(surface: PathSurface, unit: number, space: string | undefined): PeerInput {
  const { positions: p, triangles: t, walkable } = surface.locator;
  const inSpace = (f: number) => space === undefined || surface.parts.some((part) => part.space === space && f >= part.faceStart && f < part.faceEnd);
  const faces: number[] = [];
  for (let f = 0; f < t.length / 3; f++) if (walkable[f] && inSpace(f)) faces.push(f);
  const positions = new Float32Array((p.length / 3) * 3);
  for (let v = 0; v < p.length / 3; v++) {
    const [x, y, z] = toPeer([p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!], unit);
    positions[v * 3] = x;
    positions[v * 3 + 1] = y;
    positions[v * 3 + 2] = z;
  }
  const indices = new Uint32Array(faces.length * 3);
  faces.forEach((f, i) => {
    const a = t[f * 3]!, b = t[f * 3 + 1]!, c = t[f * 3 + 2]!;
    // Counter-clockwise seen from +y: the normal (b − a) × (c − a) points up.
    const ux = positions[b * 3]! - positions[a * 3]!, uz = positions[b * 3 + 2]! - positions[a * 3 + 2]!;
    const vx = positions[c * 3]! - positions[a * 3]!, vz = positions[c * 3 + 2]! - positions[a * 3 + 2]!;
    const up = uz * vx - ux * vz;
    indices.set(up >= 0 ? [a, b, c] : [a, c, b], i * 3);
  });
  return { positions, indices, unit };
}

/** Pairs of walkable node centres that Walkbench's A* joins (seeded, as path-bench.ts picks them). */
function queryPairs(surface: PathSurface, count: number, space: string | undefined): [Point3, Point3][] {
  const G = surface.graph;
  const comp = surface.diagnostics.components();
  const nodes: number[] = [];
  const spaceOf = (v: number) => surface.parts.find((p) => v >= p.faceStart && v < p.faceEnd)?.space;
  for (let v = 0; v < G.nodeCount; v++) if (G.walkable[v] && (space === undefined || surface.faceNode !== null || spaceOf(v) === space)) nodes.push(v);
  const random = seededRandom(0x9a7b);
  const centre = (v: number): Point3 => [G.centre[v * 3]!, G.centre[v * 3 + 1]!, G.centre[v * 3 + 2]!];
  const pairs: [Point3, Point3][] = [];
  for (let tries = 0; pairs.length < count && tries < count * 200; tries++) {
    const a = nodes[Math.floor(random() * nodes.length)]!, b = nodes[Math.floor(random() * nodes.length)]!;
    if (comp[a] !== comp[b]) continue;
    if (surface.findPath(centre(a), centre(b), { tolerance: 0 }).found) pairs.push([centre(a), centre(b)]);
  }
  return pairs;
}

/** Median milliseconds per query over the pairs after a warm-up pass, and how many it answered. */
function timeQueries(pairs: readonly [Point3, Point3][], query: (a: Point3, b: Point3) => boolean): { ms: number; answered: number } {
  for (const [a, b] of pairs.slice(0, 100)) query(a, b);
  const times: number[] = [];
  let answered = 0;
  for (const [a, b] of pairs) {
    const t0 = performance.now();
    if (query(a, b)) answered++;
    times.push(performance.now() - t0);
  }
  return { ms: times.length ? median(times) : NaN, answered };
}

interface PathRow {
  game: string;
  file: string;
  who: string;
  nodes: string;
  buildMs: number;
  ms: number;
  answered: string;
  ratio: string;
  note: string;
}

/** A peer that answers path queries over its own navmesh built from `input`. */
interface PathPeer {
  name: string;
  build(input: PeerInput): Promise<{ nodes: number; query: (a: [number, number, number], b: [number, number, number]) => boolean }>;
}

const near = (p: { x: number; y: number; z: number } | [number, number, number], q: [number, number, number], tol: number) => {
  const [x, y, z] = Array.isArray(p) ? p : [p.x, p.y, p.z];
  return Math.hypot(x - q[0], z - q[2]) <= tol && Math.abs(y - q[1]) <= 4 * tol;
};

/** Cell sizes in metres for both peers' voxelisation: fine enough for doorways of walkmeshes made for a metre-wide creature. */
const CELL = 0.2;
const CELL_HEIGHT = 0.1;

const recastPeer: PathPeer = {
  name: 'recast-navigation-js',
  async build(input) {
    const core = await import('recast-navigation');
    const generators = await import('recast-navigation/generators');
    await core.init();
    const r = generators.generateSoloNavMesh(input.positions, input.indices, {
      cs: CELL,
      ch: CELL_HEIGHT,
      walkableSlopeAngle: 70,
      walkableHeight: Math.ceil(1.8 / CELL_HEIGHT),
      walkableClimb: Math.ceil(0.6 / CELL_HEIGHT),
      walkableRadius: 0,
      maxVertsPerPoly: 6,
    });
    if (!r.success || !r.navMesh) throw new Error(`generateSoloNavMesh failed: ${String(r.error ?? 'no reason given')}`);
    const q = new core.NavMeshQuery(r.navMesh);
    let polys = 0;
    for (let t = 0; t < r.navMesh.getMaxTiles(); t++) {
      const header = r.navMesh.getTile(t).header();
      if (header) polys += header.polyCount();
    }
    const halfExtents = { x: 1, y: 2, z: 1 };
    return {
      nodes: polys,
      query: (a, b) => {
        const p = q.computePath({ x: a[0], y: a[1], z: a[2] }, { x: b[0], y: b[1], z: b[2] }, { halfExtents, maxPathPolys: 4096, maxStraightPathPoints: 4096 });
        return p.success && p.path.length > 0 && near(p.path[p.path.length - 1]!, b, 0.5);
      },
    };
  },
};

const navcatPeer: PathPeer = {
  name: 'navcat',
  async build(input) {
    const nav = await import('navcat');
    const blocks = await import('navcat/blocks');
    const r = blocks.generateSoloNavMesh(
      { positions: input.positions, indices: input.indices },
      {
        cellSize: CELL,
        cellHeight: CELL_HEIGHT,
        walkableRadiusWorld: 0,
        walkableRadiusVoxels: 0,
        walkableClimbWorld: 0.6,
        walkableClimbVoxels: Math.ceil(0.6 / CELL_HEIGHT),
        walkableHeightWorld: 1.8,
        walkableHeightVoxels: Math.ceil(1.8 / CELL_HEIGHT),
        walkableSlopeAngleDegrees: 70,
        borderSize: 0,
        minRegionArea: 8,
        mergeRegionArea: 20,
        maxSimplificationError: 1.3,
        maxEdgeLength: 12,
        maxVerticesPerPoly: 6,
        detailSampleDistance: CELL * 6,
        detailSampleMaxError: CELL_HEIGHT,
      },
    );
    const mesh = r.navMesh;
    let polys = 0;
    for (const tile of Object.values(mesh.tiles)) polys += tile.polys.length;
    const halfExtents: [number, number, number] = [1, 2, 1];
    return {
      nodes: polys,
      query: (a, b) => {
        const p = nav.findPath(mesh, a, b, halfExtents, nav.DEFAULT_QUERY_FILTER);
        return p.success && (p.flags & nav.FindPathResultFlags.COMPLETE_PATH) !== 0 && p.path.length > 0 && near(p.path[p.path.length - 1]!.position as [number, number, number], b, 0.5);
      },
    };
  },
};

async function pathRows(count: number): Promise<PathRow[]> {
  const rows: PathRow[] = [];
  for (const { game, sub, extensions } of GAMES) {
    const file = largest(listFixtures(sub, extensions));
    const name = fixtureName(file);
    const t0 = performance.now();
    let surface = pathSurfaceFor(loadDocument(file, readFixture(file), nodeFormatEnvironment), path.basename(file));
    const baked = surface instanceof Nwn2PathSurface && surface.baked ? surface : undefined;
    // Walkbench's own A*: a baked NWN2 walkmesh's tables marked stale.
    if (baked) surface = new Nwn2PathSurface({ ...baked.aswm, bakeStale: true }, path.basename(file));
    const buildMs = performance.now() - t0;
    // A file of several overlapping spaces (Skyrim) is compared on its largest space.
    const spaces = new Map<string, number>();
    for (const p of surface.parts) spaces.set(p.space, (spaces.get(p.space) ?? 0) + p.faceEnd - p.faceStart);
    const space = spaces.size > 1 ? [...spaces].sort((a, b) => b[1] - a[1])[0]![0] : undefined;
    const pairs = queryPairs(surface, count, space);
    const own = timeQueries(pairs, (a, b) => surface.findPath(a, b, { tolerance: 0 }).found);
    const base = { game, file: name + (space ? ` (${space})` : '') };
    rows.push({ ...base, who: 'Walkbench A* over faces', nodes: `${formatCount(surface.graph.nodeCount)} ${surface.graph.nodeNoun}`, buildMs, ms: own.ms, answered: `${own.answered}/${pairs.length}`, ratio: '1', note: '' });
    if (baked) {
      const tables = timeQueries(pairs, (a, b) => baked.findPath(a, b, { tolerance: 0 }).found);
      rows.push({ ...base, who: 'Walkbench, baked tables', nodes: '', buildMs: NaN, ms: tables.ms, answered: `${tables.answered}/${pairs.length}`, ratio: (tables.ms / own.ms).toFixed(2), note: 'the walk the game makes (nwn2-path.ts)' });
    }
    const unit = surface.snapTolerance;
    const input = peerInput(surface, unit, space);
    const peerPairs = pairs.map(([a, b]) => [toPeer(a, unit), toPeer(b, unit)] as [[number, number, number], [number, number, number]]);
    for (const peer of [recastPeer, navcatPeer]) {
      try {
        const b0 = performance.now();
        const built = await peer.build(input);
        const peerBuildMs = performance.now() - b0;
        // Warm-up, then the same pairs in the same order.
        for (const [a, b] of peerPairs.slice(0, 100)) built.query(a, b);
        const times: number[] = [];
        let answered = 0;
        for (const [a, b] of peerPairs) {
          const q0 = performance.now();
          if (built.query(a, b)) answered++;
          times.push(performance.now() - q0);
        }
        const ms = median(times);
        rows.push({ ...base, who: peer.name, nodes: `${formatCount(built.nodes)} polys`, buildMs: peerBuildMs, ms, answered: `${answered}/${pairs.length}`, ratio: (ms / own.ms).toFixed(2), note: `own navmesh, ${CELL} m cells, radius 0` });
      } catch (e) {
        rows.push({ ...base, who: peer.name, nodes: '-', buildMs: NaN, ms: NaN, answered: '-', ratio: '-', note: `cannot run: ${(e as Error).message.split('\n')[0]}` });
      }
    }
  }
  return rows;
}

/** Milliseconds per pass over all inputs: the median of `runs` passes after one warm-up pass and at least 250 ms. */
function timePass(run: () => void, runs: number): number {
  const start = performance.now();
  do run();
  while (performance.now() - start < 250);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function navRows(runs: number): Promise<string[][]> {
  const files = [...listFixtures('source', ['.nav']), ...listFixtures('source-maps', ['.nav'])];
  const inputs = files.map((f) => readFixture(f));
  const bytes = inputs.reduce((s, b) => s + b.byteLength, 0);
  const ms = timePass(() => {
    for (const b of inputs) readNav(b);
  }, Math.max(runs, 5));
  const rows = [['Walkbench readNav', String(files.length), (bytes / 1e6).toFixed(2), ms.toFixed(1), (bytes / 1e6 / (ms / 1000)).toFixed(0), '1', '']];
  // sourcenav (the JavaScript parser the issue measured) is not on the npm registry this machine reaches
  // (`npm view sourcenav` answers 404), so it cannot be a devDependency; the import below says so when run.
  try {
    await import(/* @vite-ignore */ 'sourcenav' as string);
    rows.push(['sourcenav', '-', '-', '-', '-', '-', 'installed, but no timing written for it yet']);
  } catch (e) {
    rows.push(['sourcenav (JS)', '-', '-', '-', '-', '-', `cannot run: not installable (npm view sourcenav: 404 on the registry); import: ${(e as Error).message.split('\n')[0]!.slice(0, 60)}`]);
  }
  rows.push(['gonav (Go)', '-', '-', '-', '-', '-', 'not an npm package (a Go module); the issue measured 3.7× slower than Walkbench']);
  return rows;
}

/**
 * CPU milliseconds the finished children of this process have used (Linux: cutime + cstime
 * of /proc/self/stat, in clock ticks of 10 ms), or NaN elsewhere. Unlike wall time it hardly
 * grows when other work loads the machine.
 */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    // After "(comm) ", fields[0] is state (field 3): cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

/** Median wall and child CPU milliseconds of `node args…` over `runs` runs (exit status must be 0). */
function processMs(args: string[], runs: number): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childrenCpuMs();
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    wall.push(performance.now() - t0);
    cpu.push(childrenCpuMs() - c0);
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 200)}`);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

function processRows(runs: number): { rows: string[][]; startup: string[][] } {
  const bin = path.join(repoRoot, 'electron', 'cli', 'bin.mjs');
  const dir = mkdtempSync(path.join(tmpdir(), 'walkbench-peers-'));
  const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(0));
  try {
    const rows: string[][] = [];
    let wall = 0;
    let cpu = 0;
    for (const file of listFixtures('nwn2', ['.trx'])) {
      const t = processMs([bin, 'bake', file, '-o', path.join(dir, 'out.trx')], runs);
      wall += t.wall;
      cpu += t.cpu;
      rows.push([fixtureName(file), (statSync(file).size / 1e6).toFixed(2), ms(t.wall), ms(t.cpu)]);
    }
    rows.push(['total', '', ms(wall), ms(cpu)]);
    const node = processMs(['-e', '0'], Math.max(runs, 5));
    const version = processMs([bin, '--version'], Math.max(runs, 5));
    const startup = [
      ['node -e 0', ms(node.wall), ms(node.cpu)],
      ['walkbench --version (node bin.mjs)', ms(version.wall), ms(version.cpu)],
    ];
    return { rows, startup };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runPeersBench(options: PeersBenchOptions = {}): Promise<void> {
  const out = options.out ?? ((text: string) => void process.stdout.write(text));
  const runs = options.runs ?? 3;
  out(`Walkbench beside its peers (issue 18): node ${process.version}, one core per measurement; load average at start ${load()}\n\n`);

  const paths = await pathRows(options.pairs ?? 300);
  const pathColumns: Column[] = [
    { header: 'game', align: 'left' },
    { header: 'file', align: 'left' },
    { header: 'who', align: 'left' },
    { header: 'nodes', align: 'left' },
    { header: 'build ms' },
    { header: 'median ms/query' },
    { header: 'answered' },
    { header: 'peer/Walkbench' },
    { header: 'note', align: 'left' },
  ];
  out('Path queries: the same pairs of walkable node centres (joined by Walkbench\'s A*) for every row of a file\n\n');
  out(`${renderTable(pathColumns, paths.map((r) => [r.game, r.file, r.who, r.nodes, Number.isNaN(r.buildMs) ? '-' : r.buildMs.toFixed(0), Number.isNaN(r.ms) ? '-' : r.ms.toFixed(4), r.answered, r.ratio, r.note]))}\n`);
  out('build ms: Walkbench reads the file and builds its path surface; a peer builds its navmesh from the walkable triangles. answered: queries\n');
  out('that found a complete path to the end (a peer\'s voxel navmesh may drop thin or steep parts). peer/Walkbench: above 1, Walkbench is faster.\n\n');

  const nav = await navRows(runs);
  out('Source .nav parsing, every fixture .nav (source/ and source-maps/), in process\n\n');
  out(`${renderTable([{ header: 'parser', align: 'left' }, { header: 'files' }, { header: 'MB' }, { header: 'ms per pass' }, { header: 'MB/s' }, { header: 'Walkbench/peer' }, { header: 'note', align: 'left' }], nav)}\n\n`);

  if (options.processes !== false) {
    const p = processRows(runs);
    out(`Native peers (nwn-lib-d nwn-trn, PyKotor, gonav) cannot be installed here: absolute figures to check the issue's ratios against.\n`);
    out(`Re-bake of each fixture TRX, one process per file (node electron/cli/bin.mjs bake FILE -o OUT), median of ${runs} runs:\n\n`);
    out(`${renderTable([{ header: 'file', align: 'left' }, { header: 'MB' }, { header: 'wall ms' }, { header: 'CPU ms' }], p.rows)}\n\n`);
    out(`${renderTable([{ header: 'start-up', align: 'left' }, { header: 'wall ms' }, { header: 'CPU ms' }], p.startup)}\n\n`);
    out('CPU ms: user + system time of the process (Linux, 10 ms ticks; all its threads, so it can exceed the wall time), which other load on\n');
    out('the machine hardly changes; wall ms is what a script waits.\n');
    out('nwn-trn aswm-bake (native D) over the same 24 files, from the issue: 3.55 s in all (one process per file). The bin runs the bundle\n');
    out('dist/cli/walkbench.mjs that `npm run build:node` builds: rebuild it first to measure the current sources.\n');
  }
  out(`load average at end ${load()}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { pairs: { type: 'string', default: '300' }, runs: { type: 'string', default: '3' }, 'no-processes': { type: 'boolean', default: false } } });
  await runPeersBench({ pairs: Number(values.pairs), runs: Number(values.runs), processes: !values['no-processes'] });
}
