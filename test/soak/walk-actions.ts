import type { Page } from 'playwright-core';
import { refuseAll, type EditRefusals, type EditToolGroup } from '../../shared/edits/edit-capabilities';
import { meshEdgeOfRow } from '../../shared/edits/kotor-transitions';
import type { GffDocument } from '../../shared/formats/aurora/gff-document';
import { readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import type { BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { buildFaceAdjacency, NO_NEIGHBOR } from '../../shared/model/face-adjacency';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../shared/formats/kotor/surface-materials';
import { faceCount, vertexCount, type Walkmesh } from '../../shared/model/walkmesh';
import { fileFacts, type Divergence, type FileFacts, type ProjectFacts, type StepIntent } from './walk-oracle';
import { clickGamePoint, focusCanvas, forgetFraming, frameTop, onScreen, pollFor, screenOf, sleep, snapshot, textOf, useTool, type PageSnapshot } from './walk-page';
import type { WalkProject } from './walk-projects';
import type { WalkRng } from './walk-rng';
import { BLACK_VULKAR_ROOMS } from '../unit/kotor-area/black-vulkar-area';

/**
 * The random walk's actions: what a user does (open or switch a project, open, switch and
 * close tabs, select, paint, move, delete, create a face, set or fix a room link, add, move
 * and delete NWN2 cutters, switch the NWN2 view, undo and redo, bake, dry-run an export,
 * reload, and now and then try a tool the file does not offer), chosen by a seeded
 * generator from what the project holds (faces by index from the model, never from the
 * screen), and done through the page as a user would (clicks, fields, keys).
 */

type P3 = [number, number, number];
export type MoveDirection = 'up' | 'down' | 'east' | 'west' | 'north' | 'south';

export type Action =
  | { kind: 'switch-project'; to: string }
  | { kind: 'open-tab'; file: string }
  | { kind: 'switch-tab'; file: string }
  | { kind: 'close-tab'; file: string }
  | { kind: 'select'; tab: string; faces: number[] }
  | { kind: 'paint'; tab: string; faces: number[]; material?: number; setBits?: number; clearBits?: number; walkable?: 'yes' | 'no' }
  | { kind: 'move'; tab: string; faces: number[]; dir: MoveDirection; step: number; via: 'button' | 'key' }
  | { kind: 'delete'; tab: string; faces: number[]; via: 'button' | 'key' }
  | { kind: 'create-face'; tab: string; vertices: [number, number, number] }
  | { kind: 'room-link'; tab: string; face: number; edge: number; mode: 'set' | 'fix' | 'unlink'; target?: number; leadsTo: number }
  | { kind: 'cutter-add'; tab: string; faces: number[] }
  | { kind: 'cutter-move'; tab: string; cutter: number; how: 'drag'; dx: number; dy: number }
  | { kind: 'cutter-move'; tab: string; cutter: number; how: 'replace'; faces: number[] }
  | { kind: 'cutter-delete'; tab: string; cutter: number }
  | { kind: 'view'; tab: string; baked: boolean }
  | { kind: 'undo' | 'redo'; tab: string; via: 'button' | 'keys' }
  | { kind: 'bake'; scope: 'all' | 'module' | 'file'; force: boolean }
  | { kind: 'dry-run' }
  | { kind: 'reload' }
  | { kind: 'refused'; tab: string; group: EditToolGroup; faces: number[]; via: 'button' | 'key' };

export type ActionKind = Action['kind'];

/** A one-line description for the action log, e.g. `paint tab m10aa_09a.wok faces [12,13] material 3`. */
export function describeAction(a: Action): string {
  const faces = (f: number[]) => `faces [${f.join(',')}]`;
  switch (a.kind) {
    case 'switch-project':
      return `switch project to ${a.to}`;
    case 'open-tab':
    case 'switch-tab':
    case 'close-tab':
      return `${a.kind} ${a.file}`;
    case 'select':
      return `select tab ${a.tab} ${faces(a.faces)}`;
    case 'paint': {
      const what = [a.material !== undefined ? `material ${a.material}` : '', a.setBits !== undefined ? `set 0x${a.setBits.toString(16)}` : '', a.clearBits !== undefined ? `clear 0x${a.clearBits.toString(16)}` : '', a.walkable ? `walkable ${a.walkable}` : ''];
      return `paint tab ${a.tab} ${faces(a.faces)} ${what.filter(Boolean).join(' ')}`;
    }
    case 'move':
      return `move tab ${a.tab} ${faces(a.faces)} ${a.dir} by ${a.step} (${a.via})`;
    case 'delete':
      return `delete tab ${a.tab} ${faces(a.faces)} (${a.via})`;
    case 'create-face':
      return `create-face tab ${a.tab} vertices [${a.vertices.join(',')}]`;
    case 'room-link':
      return `room-link tab ${a.tab} face ${a.face} edge ${a.edge} ${a.mode}${a.target !== undefined ? ` to ${a.target}` : ''} (links to room ${a.leadsTo})`;
    case 'cutter-add':
      return `cutter-add tab ${a.tab} corners at the centroids of faces [${a.faces.join(',')}]`;
    case 'cutter-move':
      return a.how === 'drag' ? `cutter-move tab ${a.tab} cutter ${a.cutter} drag corner 0 by (${a.dx}, ${a.dy}) px` : `cutter-move tab ${a.tab} cutter ${a.cutter} corners re-placed at the centroids of faces [${a.faces.join(',')}]`;
    case 'cutter-delete':
      return `cutter-delete tab ${a.tab} cutter ${a.cutter}`;
    case 'view':
      return `view tab ${a.tab} ${a.baked ? 'as baked' : 'ground'}`;
    case 'undo':
    case 'redo':
      return `${a.kind} tab ${a.tab} (${a.via})`;
    case 'bake':
      return `bake ${a.scope}${a.force ? ' (re-bake unchanged)' : ''}`;
    case 'dry-run':
      return 'export dry run';
    case 'reload':
      return 'reload the page';
    case 'refused':
      return `try refused ${a.group} in tab ${a.tab}${a.faces.length ? ` ${faces(a.faces)}` : ''} (${a.via})`;
  }
}

/** How a step went, for the summary and the oracle. */
export interface StepResult {
  intent: StepIntent;
  /** done, refused, nothing, missed (the pick did not land), or a word of the action's own. */
  outcome: string;
  /** The page's message when refused (counted by reason). */
  reason?: string;
  /** The project the page should show now (a switch or a reload changes it). */
  project?: string;
  /** What the action itself saw go wrong (a refused tool offered, a wait that never ended). */
  divergences?: Divergence[];
}

export interface WalkWorld {
  page: Page;
  /**
   * Faces of the active tab's walkmesh whose centroid is on screen once framed from the top
   * (see visibleFaces); the generator picks among them. Null when not known.
   */
  visible: ReadonlySet<number> | null;
  projects: readonly WalkProject[];
  /** The project the page started on: a reload opens it again. */
  startup: WalkProject;
  facts: ProjectFacts;
  snap: PageSnapshot;
}

/**
 * App bug found by this walk (reported, not fixed here): in a KotOR room, a paint that
 * changes a face's walkability reorders the faces of the written WOK (walkable first), but
 * the edit service keeps the room's kotor.link.* findings cached across paints
 * (edit-service.ts outcome(): `seamsKept`), so the tab goes on showing the old face
 * numbers (e.g. `face 17 edge 0` where the project's bytes now say `face 16 edge 0`), even
 * in a tab opened afresh. While it stands, KotOR material paints keep each face's
 * walkability (a walkable material for a walkable face); set to false to walk into it.
 */
export const EXCLUDE_KOTOR_WALKABILITY_PAINTS = true;

/**
 * App bug found by this walk (reported, not fixed here): moving a corner of a KotOR room's
 * linked perimeter edge drops the link in the project (transitions are found again by edge
 * position, so a moved edge loses its room), and undoing or redoing a move comes back as a
 * delta, after which the page does not read the room again (edit-store.ts step(): "a delta
 * is a paint or a move … no need to read the file again"): the tab's room-link view (the
 * transitions overlay and the inspector's "Edge N: to room R") stays as it was when the tab
 * was read. Seed 1, step 615: a room opened after a move that dropped `face 17 edge 2 → room
 * 4`, the move undone in its tab, the project links the edge again, the inspector shows no
 * link. While it stands, KotOR moves leave the corners of linked edges alone.
 */
export const EXCLUDE_KOTOR_LINKED_EDGE_MOVES = true;

/** Corners of a room's perimeter edges that lead to another room (in the model's numbering). */
function linkedCorners(tab: ActiveTab, m: Walkmesh): Set<number> {
  const out = new Set<number>();
  const doc = tab.facts.document as BwmDocument | null;
  if (!doc) return out;
  for (let row = 0; row < doc.edgeTransition.length; row++) {
    if (doc.edgeTransition[row]! < 0) continue;
    const at = meshEdgeOfRow(doc, row, m);
    if (at) out.add(corner(m, at.face, at.edge)).add(corner(m, at.face, (at.edge + 1) % 3));
  }
  return out;
}

/**
 * App bug found by this walk (reported, not fixed here): in a KotOR room, a room-link edit
 * made after a reshape (a move, delete or create) is applied on the document as written
 * from the reshaped model, which becomes the base the model is written on
 * (project-edits.ts applyPart/writtenDocument); undoing both then writes the room with an
 * AABB tree rebuilt by Walkbench instead of the file's own, so with every edit undone the
 * project still holds an edit of the room, unlike the history replayed from the imported
 * bytes (seed 1, step 619: m10aa_08a.wok after Move, Unlink, Move all undone: 1,648 of
 * 3,509 AABB words differ; the tree marks it edited). While it stands, room links are
 * edited only in rooms whose history has no reshape.
 */
export const EXCLUDE_KOTOR_LINKS_AFTER_RESHAPE = true;

const RESHAPE_LABEL = /^(Move|Delete|Insert|Create face|Fill hole|Split edge|Weld|Flip)\b/;

/** Whether the file's history (done or undone) holds an edit of its faces' shape. */
function reshaped(w: WalkWorld, fileId: number): boolean {
  return w.facts.history.some((h) => h.files.includes(fileId) && RESHAPE_LABEL.test(h.label));
}

const BAKED_VIEW_REFUSAL = 'this is the area as baked from its TRN and GIT: switch the view to Ground to edit its walkmesh';

// ---------------------------------------------------------------- the model side

function corner(m: Walkmesh, f: number, k: number): number {
  return m.triangles[f * 3 + k]!;
}

function vertexOf(m: Walkmesh, v: number): P3 {
  return [m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!];
}

function centroid(m: Walkmesh, f: number): P3 {
  const a = vertexOf(m, corner(m, f, 0)), b = vertexOf(m, corner(m, f, 1)), c = vertexOf(m, corner(m, f, 2));
  return [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
}

function areaXY(m: Walkmesh, f: number): number {
  const a = vertexOf(m, corner(m, f, 0)), b = vertexOf(m, corner(m, f, 1)), c = vertexOf(m, corner(m, f, 2));
  return Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2;
}

/** Whether face `g` covers (x, y) from above a height `z` (so a click at f's centroid would hit g). */
function coversAbove(m: Walkmesh, g: number, x: number, y: number, z: number): boolean {
  const a = vertexOf(m, corner(m, g, 0)), b = vertexOf(m, corner(m, g, 1)), c = vertexOf(m, corner(m, g, 2));
  const s = (p: P3, q: P3) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const d1 = s(a, b), d2 = s(b, c), d3 = s(c, a);
  if (!((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0))) return false;
  const d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
  const h = Math.abs(d) < 1e-12 ? Math.max(a[2], b[2], c[2]) : (() => {
    const wa = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / d;
    const wb = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / d;
    return wa * a[2] + wb * b[2] + (1 - wa - wb) * c[2];
  })();
  return h > z + 0.01;
}

/** A face a click from the top view hits: large enough and nothing above its centroid. */
function isClear(m: Walkmesh, f: number, walkableOnly: boolean): boolean {
  if (f < 0 || f >= faceCount(m)) return false;
  if ((walkableOnly && !m.faceWalkable[f]) || areaXY(m, f) < 0.3) return false;
  const [x, y, z] = centroid(m, f);
  for (let g = 0; g < faceCount(m); g++) if (g !== f && coversAbove(m, g, x, y, z)) return false;
  return true;
}

/** Up to `n` distinct clear faces (on screen when that is known), drawn at random (a few tries each). */
function clearFaces(rng: WalkRng, m: Walkmesh, n: number, walkableOnly = false, accept: (f: number) => boolean = () => true, visible: ReadonlySet<number> | null = null): number[] {
  const out: number[] = [];
  const pool = visible ? [...visible].filter((f) => f < faceCount(m)) : null;
  const F = pool ? pool.length : faceCount(m);
  if (F === 0) return out;
  for (let tries = 0; tries < 40 && out.length < n; tries++) {
    const f = pool ? pool[rng.below(F)]! : rng.below(F);
    if (!out.includes(f) && accept(f) && isClear(m, f, walkableOnly)) out.push(f);
  }
  return out;
}

/**
 * Faces whose centroids make a cutter's corners: clear walkable faces on screen, 1.5 to 5
 * units from the first (far enough apart on screen that a click places a new point rather
 * than grabbing the last), in turning order round their middle.
 */
function cutterFaces(rng: WalkRng, m: Walkmesh, n: number, visible: ReadonlySet<number> | null): number[] | null {
  const [first] = clearFaces(rng, m, 1, true, () => true, visible);
  if (first === undefined) return null;
  const c0 = centroid(m, first);
  const near = (f: number) => {
    const c = centroid(m, f);
    const d = Math.hypot(c[0] - c0[0], c[1] - c0[1]);
    return d >= 1.5 && d <= 5;
  };
  const others: number[] = [];
  for (let tries = 0; tries < 6 && others.length < n - 1; tries++) {
    for (const f of clearFaces(rng, m, n - 1, true, (g) => near(g) && !others.includes(g), visible)) {
      const c = centroid(m, f);
      if (others.length < n - 1 && others.every((o) => Math.hypot(centroid(m, o)[0] - c[0], centroid(m, o)[1] - c[1]) >= 1.5)) others.push(f);
    }
  }
  if (others.length < n - 1) return null;
  const faces = [first, ...others];
  const mid = faces.map((f) => centroid(m, f)).reduce((a, c) => [a[0] + c[0] / n, a[1] + c[1] / n, 0], [0, 0, 0]);
  const angle = (f: number) => Math.atan2(centroid(m, f)[1] - mid[1], centroid(m, f)[0] - mid[0]);
  return faces.sort((a, b) => angle(a) - angle(b));
}

/** The faces whose centroid a click reaches, the camera framed from the top: one page call per tab and model. */
export async function visibleFaces(page: Page, m: Walkmesh): Promise<Set<number>> {
  await frameTop(page);
  const points: P3[] = [];
  for (let f = 0; f < faceCount(m); f++) points.push(centroid(m, f));
  const on = await onScreen(page, points);
  return new Set(on.flatMap((v, f) => (v ? [f] : [])));
}

/** A point from which a vertex pick lands on `v`: inside a clear face using it, near the corner. */
function vertexPickPoint(m: Walkmesh, v: number): P3 | null {
  for (let f = 0; f < faceCount(m); f++) {
    if (![0, 1, 2].some((k) => corner(m, f, k) === v) || !isClear(m, f, false)) continue;
    const c = centroid(m, f);
    const p = vertexOf(m, v);
    return [p[0] * 0.75 + c[0] * 0.25, p[1] * 0.75 + c[1] * 0.25, p[2] * 0.75 + c[2] * 0.25];
  }
  return null;
}

// ---------------------------------------------------------------- the generator

interface ActiveTab {
  name: string;
  facts: FileFacts;
  showBaked: boolean;
  hasBaked: boolean;
  refusals: EditRefusals;
}

function activeTab(w: WalkWorld): ActiveTab | null {
  const t = w.snap.state.tabs.find((x) => x.active);
  if (!t || t.fileId === null) return null;
  const f = fileFacts(w.facts, t.fileId);
  if (!f) return null;
  let refusals = f.refusals;
  if (t.showBaked) {
    const { placements: _p, ...walkmesh } = refuseAll(BAKED_VIEW_REFUSAL);
    refusals = f.refusals.placements === undefined ? walkmesh : { ...walkmesh, placements: f.refusals.placements };
  }
  return { name: t.name, facts: f, showBaked: t.showBaked, hasBaked: t.hasBaked, refusals };
}

const offered = (t: ActiveTab, g: EditToolGroup) => t.refusals[g] === undefined;

function paintAction(rng: WalkRng, tab: ActiveTab, faces: number[], game: string, m: Walkmesh | null): Action {
  const base = { kind: 'paint' as const, tab: tab.name, faces };
  const walkableOk = offered(tab, 'paint-walkable');
  const bit = (bits: readonly number[]) => rng.pick(bits);
  switch (game) {
    case 'kotor': {
      const r = rng.next();
      let material = r < 0.6 ? rng.below(20) : rng.pick([1, 3, 5, 7, 18, 19]);
      if (r >= 0.6 && r < 0.85 && walkableOk) return { ...base, walkable: rng.chance(0.5) ? 'yes' : 'no' };
      if (EXCLUDE_KOTOR_WALKABILITY_PAINTS && m) {
        // Keep each face's walkability (a material of the same kind): see the constant.
        const walkable = m.faceWalkable[faces[0]!] === 1;
        const same = faces.filter((f) => (m.faceWalkable[f] === 1) === walkable);
        const materials = [...Array(20).keys()].filter((x) => isWalkableMaterial(DEFAULT_WALKABILITY, x) === walkable);
        material = materials[material % materials.length]!;
        return { ...base, faces: same, material };
      }
      return { ...base, material };
    }
    case 'nwn2': {
      const surface = [0x08, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400, 0x800, 0x1000, 0x2000];
      const r = rng.next();
      if (r < 0.4 && walkableOk) return { ...base, walkable: rng.chance(0.5) ? 'yes' : 'no' };
      if (r < 0.75) return { ...base, setBits: bit(surface) };
      return { ...base, clearBits: bit(surface) };
    }
    case 'skyrim':
      return rng.chance(0.6) ? { ...base, setBits: bit([0x40, 0x200]) } : { ...base, clearBits: bit([0x40, 0x200]) };
    default: {
      const attributes = [0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200];
      return rng.chance(0.6) ? { ...base, setBits: bit(attributes) } : { ...base, clearBits: bit(attributes) };
    }
  }
}

/**
 * The next action: a kind drawn by weight among those that make sense now (mostly tools the
 * active file offers), its parameters from the project's model. Uses only `rng`, the
 * project's facts and the page's state, so a seed gives the same walk.
 */
export function chooseAction(rng: WalkRng, w: WalkWorld): Action {
  const { state } = w.snap;
  const project = w.projects.find((p) => p.file === w.facts.path)!;
  const tabs = state.tabs.filter((t) => t.fileId !== null);
  const openable = w.facts.files.filter((f) => (f.record.kind === 'walkmesh' || f.record.kind === 'trn') && f.meshes !== null);
  const unopened = openable.filter((f) => !tabs.some((t) => t.fileId === f.record.id));
  const tab = activeTab(w);
  const m = tab?.facts.meshes?.[0] ?? null;
  const game = w.facts.game;
  const kinds: [() => Action | null, number][] = [];
  const when = (ok: boolean, weight: number, make: () => Action | null) => {
    if (ok) kinds.push([make, weight]);
  };

  when(true, 3, () => ({ kind: 'switch-project', to: rng.pick(w.projects.filter((p) => p !== project)).key }));
  when(unopened.length > 0, tabs.length === 0 ? 40 : 7, () => ({ kind: 'open-tab', file: rng.pick(unopened).record.name }));
  when(tabs.length > 1, 5, () => ({ kind: 'switch-tab', file: rng.pick(tabs.filter((t) => !t.active)).name }));
  when(tabs.length > 0, 3, () => ({ kind: 'close-tab', file: rng.pick(tabs).name }));
  when(true, 3, () => ({ kind: 'bake', scope: rng.pick(tab ? (['all', 'module', 'file'] as const) : (['all', 'module'] as const)), force: rng.chance(0.15) }));
  when(true, 3, () => ({ kind: 'dry-run' }));
  when(true, 2, () => ({ kind: 'reload' }));

  if (tab && m) {
    const walkmeshEdits = !tab.showBaked;
    const pick = (n: number, walkableOnly = false) => clearFaces(rng, m, n, walkableOnly, () => true, w.visible);
    when(walkmeshEdits, 3, () => {
      const faces = pick(1 + rng.below(2));
      return faces.length ? { kind: 'select', tab: tab.name, faces } : null;
    });
    when(walkmeshEdits && offered(tab, 'paint'), 14, () => {
      const faces = pick(1 + rng.below(3));
      return faces.length ? paintAction(rng, tab, faces, game, m) : null;
    });
    when(walkmeshEdits && offered(tab, 'move'), 8, () => {
      const linked = EXCLUDE_KOTOR_LINKED_EDGE_MOVES && game === 'kotor' ? linkedCorners(tab, m) : null;
      const faces = linked ? clearFaces(rng, m, 1, false, (f) => ![0, 1, 2].some((k) => linked.has(corner(m, f, k))), w.visible) : pick(1);
      const dir = rng.pick(['up', 'down', 'east', 'west', 'north', 'south'] as const);
      return faces.length ? { kind: 'move', tab: tab.name, faces, dir, step: rng.pick([0.25, 0.5, 1]), via: rng.chance(0.8) ? 'button' : 'key' } : null;
    });
    when(walkmeshEdits && offered(tab, 'delete'), 5, () => {
      const faces = pick(1 + rng.below(2));
      return faces.length ? { kind: 'delete', tab: tab.name, faces, via: rng.chance(0.8) ? 'button' : 'key' } : null;
    });
    when(walkmeshEdits && offered(tab, 'create'), 4, () => {
      const vertices = createFaceVertices(rng, m, w.visible);
      return vertices ? { kind: 'create-face', tab: tab.name, vertices } : null;
    });
    when(walkmeshEdits && offered(tab, 'room-links') && game === 'kotor' && !(EXCLUDE_KOTOR_LINKS_AFTER_RESHAPE && reshaped(w, tab.facts.record.id)), 8, () => {
      const a = roomLinkAction(rng, tab, m, w.visible);
      // A link back is made in the room the edge leads to: that room must not be reshaped either.
      if (a?.kind === 'room-link' && a.mode === 'fix' && EXCLUDE_KOTOR_LINKS_AFTER_RESHAPE) {
        const target = w.facts.files.find((f) => f.record.kind === 'walkmesh' && roomIndexOf(f) === a.leadsTo);
        if (target && reshaped(w, target.record.id)) return null;
      }
      return a;
    });
    const git = gitOf(w, tab);
    when(offered(tab, 'placements') && git !== null, 5, () => {
      const faces = cutterFaces(rng, m, rng.chance(0.7) ? 3 : 4, w.visible);
      return faces ? { kind: 'cutter-add', tab: tab.name, faces } : null;
    });
    const cutters = git ? readGitWalkmeshCutters(git) : [];
    when(offered(tab, 'placements') && cutters.length > 0, 5, () => {
      const cutter = rng.pick(cutters).index;
      if (rng.chance(0.6)) return { kind: 'cutter-move', tab: tab.name, cutter, how: 'drag', dx: rng.pick([-30, -15, 15, 30]), dy: rng.pick([-20, -10, 10, 20]) };
      const faces = cutterFaces(rng, m, 3, w.visible);
      return faces ? { kind: 'cutter-move', tab: tab.name, cutter, how: 'replace', faces } : null;
    });
    when(offered(tab, 'placements') && cutters.length > 0, 3, () => ({ kind: 'cutter-delete', tab: tab.name, cutter: rng.pick(cutters).index }));
    when(game === 'nwn2' && (tab.hasBaked || tab.showBaked), 3, () => ({ kind: 'view', tab: tab.name, baked: !tab.showBaked }));
    when(true, 10, () => ({ kind: 'undo', tab: tab.name, via: rng.chance(0.8) ? 'button' : 'keys' }));
    when(true, 6, () => ({ kind: 'redo', tab: tab.name, via: rng.chance(0.8) ? 'button' : 'keys' }));
    const refusedGroups = (['paint', 'move', 'delete', 'flip', 'create', 'split-edge', 'weld'] as const).filter((g) => !offered(tab, g));
    when(refusedGroups.length > 0, 4, () => {
      const group = rng.pick(refusedGroups);
      const keyable = (group === 'delete' || group === 'move') && !tab.showBaked;
      const faces = keyable ? pick(1) : [];
      return { kind: 'refused', tab: tab.name, group, faces, via: keyable && faces.length > 0 && rng.chance(0.6) ? 'key' : 'button' };
    });
  }
  for (let tries = 0; tries < 8; tries++) {
    const make = rng.weighted(kinds);
    const a = make();
    if (a) return a;
  }
  return { kind: 'dry-run' };
}

/**
 * Three vertices for a new face: mostly one that closes an open edge (an edge of one face,
 * as a delete leaves) with a vertex near it whose edges to both ends have at most one face,
 * so the face can be made; else the corners of a face, which the edit refuses (non-manifold).
 */
function createFaceVertices(rng: WalkRng, m: Walkmesh, visible: ReadonlySet<number> | null): [number, number, number] | null {
  const F = faceCount(m);
  if (F === 0) return null;
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  const faces = new Map<string, number>();
  const around = new Map<number, Set<number>>();
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < 3; k++) {
      const a = corner(m, f, k), b = corner(m, f, (k + 1) % 3);
      faces.set(key(a, b), (faces.get(key(a, b)) ?? 0) + 1);
      if (!around.has(a)) around.set(a, new Set());
      around.get(a)!.add(b);
      if (!around.has(b)) around.set(b, new Set());
      around.get(b)!.add(a);
    }
  }
  const open = (a: number, b: number) => (faces.get(key(a, b)) ?? 0) <= 1;
  if (rng.chance(0.8)) {
    for (let tries = 0; tries < 30; tries++) {
      const f = rng.below(F);
      if ((visible && !visible.has(f)) || !isClear(m, f, false)) continue;
      const k = rng.below(3);
      const p = corner(m, f, k), q = corner(m, f, (k + 1) % 3), own = corner(m, f, (k + 2) % 3);
      if ((faces.get(key(p, q)) ?? 0) !== 1) continue;
      const near = [...new Set([...(around.get(p) ?? []), ...(around.get(q) ?? [])])].filter((r) => r !== p && r !== q && r !== own && open(p, r) && open(q, r)).sort((x, y) => x - y);
      if (near.length === 0) continue;
      // The new face runs the shared edge the other way round, as a neighbour's does.
      return [q, p, rng.pick(near)];
    }
  }
  const f = rng.below(F);
  return [corner(m, f, 0), corner(m, f, 2), corner(m, f, 1)];
}

function gitOf(w: WalkWorld, tab: ActiveTab): GffDocument | null {
  if (w.facts.game !== 'nwn2') return null;
  const scope = tab.facts.undoScope.filter((id) => id !== tab.facts.record.id);
  const git = scope.map((id) => fileFacts(w.facts, id)).find((f) => f?.record.kind === 'git');
  return (git?.document as GffDocument | undefined) ?? null;
}

function roomLinkAction(rng: WalkRng, tab: ActiveTab, m: Walkmesh, visible: ReadonlySet<number> | null): Action | null {
  const doc = tab.facts.document as BwmDocument | null;
  if (!doc) return null;
  // The inspector offers a link on the room's open boundary (no face across the edge), where
  // rooms meet; the file's other perimeter rows border walls.
  const adjacency = buildFaceAdjacency(m.triangles, vertexCount(m));
  const rows = [...Array(doc.edgeTransition.length).keys()];
  for (let tries = 0; tries < 24 && rows.length > 0; tries++) {
    const row = rows.splice(rng.below(rows.length), 1)[0]!;
    const at = meshEdgeOfRow(doc, row, m);
    if (!at || adjacency.neighbors[at.face * 3 + at.edge] !== NO_NEIGHBOR || (visible && !visible.has(at.face)) || !isClear(m, at.face, false)) continue;
    const link = doc.edgeTransition[row]!;
    const r = rng.next();
    const mode = link >= 0 && r < 0.5 ? (r < 0.3 ? 'fix' : 'unlink') : 'set';
    if (mode !== 'set') return { kind: 'room-link', tab: tab.name, face: at.face, edge: at.edge, mode, leadsTo: link };
    const target = rng.pick([-1, -1, rng.below(8), rng.below(8), 3, 4, 9, 31]);
    return { kind: 'room-link', tab: tab.name, face: at.face, edge: at.edge, mode, target, leadsTo: link };
  }
  return null;
}

// ---------------------------------------------------------------- doing it through the page

/** Waits until the page is not busy with an edit; then says what the edit came to. */
async function editOutcome(page: Page, revisionBefore: number, timeoutMs = 60_000): Promise<{ outcome: 'done' | 'refused' | 'nothing'; error?: string; message?: string }> {
  const s = await pollFor(async () => {
    const x = await snapshot(page);
    return x.state.edit.busy ? null : x;
  }, timeoutMs);
  if (!s) return { outcome: 'nothing', error: `the edit was still running after ${timeoutMs} ms` };
  if ((s.dom.revision ?? 0) > revisionBefore) return { outcome: 'done' };
  if (s.dom.editError) return { outcome: 'refused', error: s.dom.editError };
  return { outcome: 'nothing', ...(s.dom.editMessage ? { message: s.dom.editMessage } : {}) };
}

async function revisionNow(page: Page): Promise<number> {
  return Number((await page.getByTestId('edit-toolbar').getAttribute('data-revision')) ?? 0);
}

async function clearPicks(page: Page): Promise<void> {
  await focusCanvas(page);
  await page.keyboard.press('Escape');
}

/** Why a pick did not land (null when it did). */
type Miss = string | null;

/** Selects faces by clicking their centroids (Shift adds); null when the page shows exactly them selected. */
async function selectFaces(page: Page, m: Walkmesh, faces: readonly number[]): Promise<Miss> {
  await useTool(page, 'select');
  await clearPicks(page);
  await frameTop(page);
  for (let i = 0; i < faces.length; i++) {
    if (!(await clickGamePoint(page, centroid(m, faces[i]!), i > 0 ? ['Shift'] : []))) return `face ${faces[i]} is off screen or under the legend`;
  }
  const want = `${faces.length} face${faces.length === 1 ? '' : 's'}`;
  const last = String(faces[faces.length - 1]);
  const ok = await pollFor(async () => ((await textOf(page, 'edit-selection')) === want && (await textOf(page, 'inspector-face')) === last ? true : null), 2000);
  return ok ? null : `selection shows "${await textOf(page, 'edit-selection')}" with face ${await textOf(page, 'inspector-face')} in the inspector, not ${want} ending with ${last}`;
}

async function pickVertices(page: Page, m: Walkmesh, vertices: readonly number[]): Promise<Miss> {
  await useTool(page, 'vertices');
  await clearPicks(page);
  await frameTop(page);
  for (const v of vertices) {
    const p = vertexPickPoint(m, v);
    if (!p) return `vertex ${v} has no clear face to pick it from`;
    if (!(await clickGamePoint(page, p))) return `vertex ${v} is off screen or under the legend`;
  }
  const want = `· vertices ${vertices.join(', ')}`;
  const ok = await pollFor(async () => ((await textOf(page, 'edit-selection')).endsWith(want) ? true : null), 2000);
  return ok ? null : `picked "${await textOf(page, 'edit-selection')}", not ${want}`;
}

/** Places points with the place tool at the centroids of faces; null when all landed. */
async function placePoints(page: Page, m: Walkmesh, faces: readonly number[]): Promise<Miss> {
  await useTool(page, 'place');
  if (await page.getByTestId('clear-placed').isEnabled()) await page.getByTestId('clear-placed').click();
  await frameTop(page);
  for (const f of faces) if (!(await clickGamePoint(page, centroid(m, f)))) return `the centroid of face ${f} is off screen or under the legend`;
  const ok = await pollFor(async () => ((await textOf(page, 'placed-count')) === `${faces.length} points` ? true : null), 2000);
  return ok ? null : `placed ${await textOf(page, 'placed-count')}, not ${faces.length} points`;
}

/** Picks a cutter in the list once the list holds the GIT's cutters as the project has them. */
async function pickCutter(page: Page, cutter: number, count: number): Promise<Miss> {
  const list = page.getByTestId('cutter-list');
  const ready = await pollFor(async () => ((await list.locator('option').count()) === count + 1 ? true : null), 5000);
  if (!ready) return `the cutter list has ${(await list.locator('option').count()) - 1} cutters, the GIT ${count}`;
  await list.selectOption(String(cutter));
  return null;
}

const noEdit: StepIntent = { kind: 'none' };

/** An edit made by `act` in the active tab (file `fileId`), with the outcome the page shows. */
async function edit(page: Page, fileId: number, act: () => Promise<void>, alsoAllowed: number[] = []): Promise<StepResult> {
  const before = await revisionNow(page);
  await act();
  const r = await editOutcome(page, before);
  if (r.outcome === 'done') return { intent: { kind: 'edit', fileId, outcome: 'done', alsoAllowed }, outcome: 'done' };
  if (r.outcome === 'refused') return { intent: { kind: 'edit', fileId, outcome: 'refused', alsoAllowed, error: r.error! }, outcome: 'refused', reason: r.error! };
  // Neither done nor refused: nothing may have changed.
  return { intent: noEdit, outcome: 'nothing', ...(r.message ? { reason: r.message } : r.error ? { reason: r.error } : {}) };
}

async function fillPaint(page: Page, a: Extract<Action, { kind: 'paint' }>): Promise<void> {
  const want: Record<string, string> = {
    'paint-material': a.material !== undefined ? String(a.material) : '',
    'paint-set-bits': a.setBits !== undefined ? `0x${a.setBits.toString(16)}` : '',
    'paint-clear-bits': a.clearBits !== undefined ? `0x${a.clearBits.toString(16)}` : '',
  };
  const now = (await page.evaluate(`(() => Object.fromEntries(['paint-material', 'paint-set-bits', 'paint-clear-bits', 'paint-walkable'].map((id) => {
    const e = document.querySelector('[data-testid="' + id + '"]');
    return [id, e ? (e.disabled ? '(disabled)' : e.value) : '']; })))()`)) as Record<string, string>;
  for (const [id, value] of Object.entries(want)) if (now[id] !== value) await page.getByTestId(id).fill(value);
  // A walkability the file does not take leaves its field off (with the value it had).
  if (now['paint-walkable'] !== '(disabled)' && now['paint-walkable'] !== (a.walkable ?? 'keep')) await page.getByTestId('paint-walkable').selectOption(a.walkable ?? 'keep');
}

const NUDGE_KEY: Record<MoveDirection, string> = { up: 'PageUp', down: 'PageDown', east: 'ArrowRight', west: 'ArrowLeft', north: 'ArrowUp', south: 'ArrowDown' };

function diverged(check: string, where: string, expected: string, shown: string): Divergence {
  return { check, where, expected, shown };
}

/** Does the action through the page and reports what it came to. */
export async function performAction(a: Action, w: WalkWorld): Promise<StepResult> {
  const { page } = w;
  const tab = activeTab(w);
  const m = tab?.facts.meshes?.[0] ?? null;
  const missed: StepResult = { intent: noEdit, outcome: 'missed' };
  const miss = (why: string): StepResult => ({ intent: noEdit, outcome: 'missed', reason: why });
  let why: Miss;
  if (a.kind === 'open-tab' || a.kind === 'switch-tab' || a.kind === 'close-tab' || a.kind === 'reload' || a.kind === 'switch-project' || a.kind === 'view') forgetFraming(page);
  switch (a.kind) {
    case 'switch-project': {
      const target = w.projects.find((p) => p.key === a.to)!;
      await page.getByTestId('project-path').fill(target.file);
      await page.getByTestId('project-open').click();
      const ok = await pollFor(async () => {
        const s = await snapshot(page);
        return s.state.project?.path === target.file && s.state.tabs.every((t) => t.session === s.state.project!.session) ? true : null;
      }, 30_000);
      if (!ok) return { intent: noEdit, outcome: 'failed', divergences: [diverged('switch-project', 'project-open', `${target.file} open with only its tabs`, (await snapshot(page)).state.project?.path ?? 'none')] };
      return { intent: noEdit, outcome: 'done', project: target.file };
    }
    case 'open-tab': {
      await page.locator(`[data-testid="tree-file"][data-file-name="${a.file}"]`).click();
      const ok = await pollFor(async () => {
        const s = await snapshot(page);
        const t = s.state.tabs.find((x) => x.active);
        if (!t || !t.name.startsWith(a.file)) return null;
        return (await page.getByTestId('viewport').getAttribute('data-drawn')) === 'true' ? true : null;
      }, 30_000);
      if (!ok) return { intent: noEdit, outcome: 'failed', divergences: [diverged('open-tab', a.file, 'the tab active and drawn within 30 s', 'not shown')] };
      return { intent: noEdit, outcome: 'done' };
    }
    case 'switch-tab':
    case 'close-tab': {
      const t = page.getByTestId('tab').filter({ has: page.locator('.name', { hasText: a.file }) }).first();
      if (a.kind === 'switch-tab') await t.click();
      else await t.getByTestId('tab-close').click();
      await sleep(50);
      return { intent: noEdit, outcome: 'done' };
    }
    case 'select': {
      if (!m) return missed;
      return (why = await selectFaces(page, m, a.faces)) === null ? { intent: noEdit, outcome: 'done' } : miss(why);
    }
    case 'paint': {
      if (!m || !tab) return missed;
      if ((why = await selectFaces(page, m, a.faces)) !== null) return miss(why);
      await fillPaint(page, a);
      return edit(page, tab.facts.record.id, () => page.getByTestId('paint-fill').click());
    }
    case 'move': {
      if (!m || !tab) return missed;
      if ((why = await selectFaces(page, m, a.faces)) !== null) return miss(why);
      await page.getByTestId('grid-step').fill(String(a.step));
      if (await page.getByTestId('grid-snap').isChecked()) await page.getByTestId('grid-snap').uncheck();
      return edit(page, tab.facts.record.id, async () => {
        if (a.via === 'button') await page.getByTestId(`nudge-${a.dir}`).click();
        else {
          await focusCanvas(page);
          await page.keyboard.press(NUDGE_KEY[a.dir]);
        }
      });
    }
    case 'delete': {
      if (!m || !tab) return missed;
      if ((why = await selectFaces(page, m, a.faces)) !== null) return miss(why);
      return edit(page, tab.facts.record.id, async () => {
        if (a.via === 'button') await page.getByTestId('delete-faces').click();
        else {
          await focusCanvas(page);
          await page.keyboard.press('Delete');
        }
      });
    }
    case 'create-face': {
      if (!m || !tab) return missed;
      if ((why = await pickVertices(page, m, a.vertices)) !== null) {
        await clearPicks(page);
        return miss(why);
      }
      const r = await edit(page, tab.facts.record.id, () => page.getByTestId('create-face').click());
      await useTool(page, 'select');
      return r;
    }
    case 'room-link': {
      if (!m || !tab) return missed;
      if ((why = await selectFaces(page, m, [a.face])) !== null) return miss(why);
      const row = page.locator(`[data-testid="room-link-edge"][data-edge="${a.edge}"]`);
      if ((await row.count()) === 0 || (await row.getByTestId('room-link-set').count()) === 0) {
        return { ...missed, divergences: [diverged('room-link', `${a.tab} face ${a.face} edge ${a.edge}`, 'a perimeter edge in the inspector', 'not listed as one')] };
      }
      const leadsTo = await row.getAttribute('data-link');
      const want = a.leadsTo >= 0 ? `to room ${a.leadsTo}` : '';
      if (leadsTo !== want) return { ...missed, divergences: [diverged('room-link', `${a.tab} face ${a.face} edge ${a.edge} data-link`, want, leadsTo ?? '')] };
      // The rooms a link fix may also change: the one the edge leads to.
      const target = w.facts.files.find((f) => f.record.kind === 'walkmesh' && roomIndexOf(f) === a.leadsTo);
      const also = target ? [target.record.id] : [];
      if (a.mode === 'set') {
        const field = row.getByTestId('room-link-target');
        // With the room's layout in the project the target is picked among the rooms that share the edge.
        if ((await field.evaluate((e) => e.tagName)) === 'SELECT') {
          const offered = await field.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
          if (!offered.includes(String(a.target))) return miss(`room ${a.target} does not share this edge, so the picker does not offer it`);
          await field.selectOption(String(a.target));
        } else await field.fill(String(a.target));
        return edit(page, tab.facts.record.id, () => row.getByTestId('room-link-set').click(), also);
      }
      const button = row.getByTestId(a.mode === 'fix' ? 'room-link-fix' : 'room-link-unlink');
      if (await button.isDisabled()) return { ...missed, divergences: [diverged('room-link', `${a.tab} face ${a.face} edge ${a.edge} ${a.mode}`, 'enabled (the edge has a link)', 'disabled')] };
      return edit(page, tab.facts.record.id, () => button.click(), also);
    }
    case 'cutter-add': {
      if (!m || !tab) return missed;
      if ((why = await placePoints(page, m, a.faces)) !== null) return miss(why);
      const gitId = gitIdOf(w, tab);
      return edit(page, tab.facts.record.id, () => page.getByTestId('add-cutter').click(), gitId !== null ? [gitId] : []);
    }
    case 'cutter-move': {
      if (!m || !tab) return missed;
      const git = gitOf(w, tab);
      const cutters = git ? readGitWalkmeshCutters(git) : [];
      const c = cutters.find((x) => x.index === a.cutter);
      if (!c) return miss(`the GIT has no cutter ${a.cutter}`);
      if ((why = await pickCutter(page, a.cutter, cutters.length)) !== null) return miss(why);
      if (a.how === 'drag') {
        await page.getByTestId('edit-cutter-corners').click();
        const n = c.polygon.length / 2;
        const ok = await pollFor(async () => ((await textOf(page, 'placed-count')) === `${n} point${n === 1 ? '' : 's'}` ? true : null), 2000);
        if (!ok) return miss(`Edit corners placed ${await textOf(page, 'placed-count')}, not the cutter's ${n} corners`);
        await frameTop(page);
        const at = await screenOf(page, [c.polygon[0]!, c.polygon[1]!, c.position.z]);
        const box = await page.getByTestId('viewport-canvas').boundingBox();
        if (!at || !box || at.x + a.dx < box.x + 12 || at.y + a.dy < box.y + 12 || at.x + a.dx > box.x + box.width - 12 || at.y + a.dy > box.y + box.height - 12) return miss(`corner 0 of cutter ${a.cutter} or where it is dragged is off screen`);
        await page.mouse.move(at.x, at.y);
        await page.mouse.down();
        await page.mouse.move(at.x + a.dx / 2, at.y + a.dy / 2, { steps: 3 });
        await page.mouse.move(at.x + a.dx, at.y + a.dy, { steps: 3 });
        await page.mouse.up();
        if ((await textOf(page, 'placed-count')) !== `${n} points`) return miss(`the drag left ${await textOf(page, 'placed-count')}, not ${n} points`);
      } else if ((why = await placePoints(page, m, a.faces)) !== null) return miss(why);
      const gitId = gitIdOf(w, tab);
      return edit(page, tab.facts.record.id, () => page.getByTestId('update-cutter').click(), gitId !== null ? [gitId] : []);
    }
    case 'cutter-delete': {
      if (!tab) return missed;
      const git = gitOf(w, tab);
      const count = git ? readGitWalkmeshCutters(git).length : 0;
      if ((why = await pickCutter(page, a.cutter, count)) !== null) return miss(why);
      const gitId = gitIdOf(w, tab);
      return edit(page, tab.facts.record.id, () => page.getByTestId('delete-cutter').click(), gitId !== null ? [gitId] : []);
    }
    case 'view': {
      const button = page.getByTestId(a.baked ? 'nwn2-view-baked' : 'nwn2-view-ground');
      if (await button.isDisabled()) return miss('the view button is disabled');
      await button.click();
      await pollFor(async () => ((await page.getByTestId('viewport').getAttribute('data-drawn')) === 'true' ? true : null), 10_000);
      return { intent: noEdit, outcome: 'done' };
    }
    case 'undo':
    case 'redo': {
      if (!tab) return missed;
      const button = page.getByTestId(a.kind);
      const fileId = tab.facts.record.id;
      if (a.via === 'button' && (await button.isDisabled())) {
        // Offered nothing: a click on the disabled button must do nothing.
        await button.click({ force: true }).catch(() => undefined);
        await sleep(30);
        return { intent: { kind: a.kind, fileId, outcome: 'nothing' }, outcome: 'nothing', reason: 'button disabled' };
      }
      const before = await revisionNow(page);
      if (a.via === 'button') await button.click();
      else {
        await focusCanvas(page);
        await page.keyboard.press(a.kind === 'undo' ? 'Control+z' : 'Control+Shift+z');
      }
      const r = await editOutcome(page, before);
      if (r.outcome === 'done') return { intent: { kind: a.kind, fileId, outcome: 'done' }, outcome: 'done' };
      if (r.outcome === 'refused') return { intent: { kind: a.kind, fileId, outcome: 'refused', error: r.error! }, outcome: 'refused', reason: r.error! };
      return { intent: { kind: a.kind, fileId, outcome: 'nothing' }, outcome: 'nothing', ...(r.message ? { reason: r.message } : {}) };
    }
    case 'bake':
      return bake(page, a);
    case 'dry-run':
      return dryRun(w);
    case 'reload': {
      await page.reload();
      await page.getByTestId('project-tree').waitFor({ timeout: 30_000 });
      const ok = await pollFor(async () => ((await snapshot(page)).state.project?.path === w.startup.file ? true : null), 30_000);
      if (!ok) return { intent: noEdit, outcome: 'failed', project: w.startup.file, divergences: [diverged('reload', 'the page after a reload', `the startup project ${w.startup.file} open`, (await snapshot(page)).state.project?.path ?? 'none')] };
      return { intent: noEdit, outcome: 'done', project: w.startup.file };
    }
    case 'refused':
      return tryRefused(w, a);
  }
}

function gitIdOf(w: WalkWorld, tab: ActiveTab): number | null {
  const id = tab.facts.undoScope.find((x) => x !== tab.facts.record.id && fileFacts(w.facts, x)?.record.kind === 'git');
  return id ?? null;
}

/** A room's index in the walk's KotOR layout (walk-projects.ts writes the Black Vulkar rooms in this order). */
function roomIndexOf(f: FileFacts): number {
  return (BLACK_VULKAR_ROOMS as readonly string[]).indexOf(f.record.name.replace(/\.wok$/i, '').toLowerCase());
}

const REFUSED_BUTTON: Partial<Record<EditToolGroup, string>> = {
  paint: 'paint-fill',
  move: 'nudge-up',
  delete: 'delete-faces',
  flip: 'flip-faces',
  create: 'create-face',
  'split-edge': 'split-edge',
  weld: 'weld',
};

/** A tool the tab does not offer: its button is off with the reason as its title, and the key does nothing but say why. */
async function tryRefused(w: WalkWorld, a: Extract<Action, { kind: 'refused' }>): Promise<StepResult> {
  const { page } = w;
  const tab = activeTab(w);
  if (!tab) return { intent: noEdit, outcome: 'missed' };
  const reason = tab.refusals[a.group];
  const out: Divergence[] = [];
  if (a.via === 'key' && tab.facts.meshes?.[0] && a.faces.length > 0) {
    const why = await selectFaces(page, tab.facts.meshes[0], a.faces);
    if (why !== null) return { intent: noEdit, outcome: 'missed', reason: why };
    const before = await revisionNow(page);
    await focusCanvas(page);
    await page.keyboard.press(a.group === 'delete' ? 'Delete' : 'PageUp');
    const r = await editOutcome(page, before);
    if (r.outcome !== 'refused' || !r.error?.includes(reason ?? '\0')) out.push(diverged('refusal', `${a.group} by key in ${a.tab}`, `refused: ${reason}`, `${r.outcome}${r.error ? `: ${r.error}` : ''}`));
    return { intent: r.outcome === 'done' ? { kind: 'edit', fileId: tab.facts.record.id, outcome: 'done', alsoAllowed: [] } : { kind: 'edit', fileId: tab.facts.record.id, outcome: 'refused', alsoAllowed: [], error: r.error ?? '' }, outcome: 'refused', reason: r.error ?? r.outcome, divergences: out };
  }
  const id = REFUSED_BUTTON[a.group]!;
  const button = page.getByTestId(id);
  if ((await button.count()) === 0) return { intent: noEdit, outcome: 'missed' };
  const disabled = await button.isDisabled();
  const title = await button.getAttribute('title');
  if (!disabled) out.push(diverged('refusal', `${id} in ${a.tab}`, `disabled: ${reason}`, 'enabled'));
  if (title !== reason) out.push(diverged('refusal', `${id} title in ${a.tab}`, reason ?? '(none)', title ?? '(none)'));
  await button.click({ force: true, timeout: 2000 }).catch(() => undefined);
  await sleep(30);
  return { intent: { kind: 'edit', fileId: tab.facts.record.id, outcome: 'refused', alsoAllowed: [], error: reason ?? '' }, outcome: 'refused', reason: reason ?? '', divergences: out };
}

async function bake(page: Page, a: Extract<Action, { kind: 'bake' }>): Promise<StepResult> {
  const jobIds = async () => (await page.getByTestId('job').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-job-id'))))) as number[];
  const before = Math.max(0, ...(await jobIds()));
  const force = page.getByTestId('bake-force');
  if ((await force.isChecked()) !== a.force) await force.setChecked(a.force);
  const id = a.scope === 'all' ? 'bake-all' : a.scope === 'module' ? 'bake-module' : 'bake-selected';
  if ((await page.getByTestId(id).count()) === 0) return { intent: noEdit, outcome: 'missed' };
  await page.getByTestId(id).click();
  // The job ends, or the bake is refused at once (a file no baker takes): the panel says why.
  const state = await pollFor(async () => {
    const error = await textOf(page, 'jobs-error');
    if (error) return `refused: ${error}`;
    const jobs = await page.getByTestId('job').evaluateAll((els) => els.map((e) => ({ id: Number(e.getAttribute('data-job-id')), state: e.getAttribute('data-state') ?? '' })));
    const job = jobs.find((j) => j.id > before);
    return job && job.state !== 'running' ? job.state : null;
  }, 180_000, 100);
  if (a.force) await force.setChecked(false);
  if (!state) return { intent: noEdit, outcome: 'failed', divergences: [diverged('bake', `bake ${a.scope}`, 'the job ends within 180 s', 'still running or never listed')] };
  if (state.startsWith('refused: ')) return { intent: noEdit, outcome: 'refused', reason: state.slice('refused: '.length) };
  return { intent: noEdit, outcome: state, ...(state !== 'done' ? { reason: (await textOf(page, 'job-failure')) || state } : {}) };
}

async function dryRun(w: WalkWorld): Promise<StepResult> {
  const { page } = w;
  const project = w.projects.find((p) => p.file === w.facts.path)!;
  await page.getByTestId('export-open').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.waitFor({ timeout: 10_000 });
  if ((await page.getByTestId('export-back').count()) > 0) await page.getByTestId('export-back').click();
  await page.getByTestId('export-game-dir').fill(project.gameDir);
  await page.getByTestId('export-preview').click();
  const step = await pollFor(async () => {
    const s = await dialog.getAttribute('data-step');
    return s === 'planned' || (s === 'choose' && (await page.getByTestId('export-error').count()) > 0) ? s : null;
  }, 60_000, 50);
  if (step !== 'planned') {
    const error = await textOf(page, 'export-error');
    await page.getByTestId('export-close').click();
    return { intent: noEdit, outcome: 'failed', divergences: [diverged('dry-run', 'export dialog', 'a plan', error || 'no plan within 60 s')] };
  }
  const notCarried = await page.getByTestId('export-not-carried').evaluateAll((els) => els.map((e) => ({ seq: Number(e.getAttribute('data-seq')), text: (e.textContent ?? '').trim().replace(/\s+/g, ' ') })));
  const planned = await page.getByTestId('export-planned').evaluateAll((els) => els.map((e) => (e.querySelectorAll('td')[1]?.textContent ?? '').trim()));
  const refused = await page.getByTestId('export-refused').count();
  await page.getByTestId('export-close').click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  return { intent: { kind: 'dry-run', notCarried, planned }, outcome: refused > 0 ? 'planned with refusals' : 'planned' };
}
