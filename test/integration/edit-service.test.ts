import { projectResolver } from '../support/project-resolver';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditService, type EditService } from '../../electron/services/edit-service';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import { areaConnections } from '../../shared/edits/source-connections';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitPlaceables, readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { NAV_FORMAT, readNav } from '../../shared/formats/source/nav-reader';
import { editRefusals } from '../../shared/edits/edit-capabilities';
import { paramSchemas } from '../../shared/ipc/contract';
import type { EditsOutcome, RebakeResult } from '../../shared/ipc/edits-contract';
import { validate } from '../../shared/ipc/schema';
import { ServiceError } from '../../shared/ipc/rpc-error';
import type { Point3 } from '../../shared/pathing/path-result';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import type { RoomLinkFinding } from '../../shared/formats/kotor/kotor-room-links';
import { fixturesRoot, readFixture } from '../support/fixtures';
import type { FileReport } from '../../shared/formats/file-report';
import { reportOfHeldBytes } from '../support/held-report';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { projectTempDir } from '../unit/project/project-test-files';

const projectPath = projectTempDir('edit-service');
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** A project holding the given fixtures, in one module and area. */
function makeProject(name: string, game: 'source' | 'kotor' | 'nwn2', files: { fixture: string; kind: 'walkmesh' | 'trn' | 'git' }[]): { file: string; ids: number[] } {
  const file = projectPath(`${name}.walkbench`);
  const store = ProjectStore.create(file, { name, game });
  const ids = files.map((f) => store.upsertFile({ module: 'm', area: 'a', name: path.basename(f.fixture), kind: f.kind, bytes: readFixture(path.join(fixturesRoot, f.fixture)) }).fileId);
  store.close();
  return { file, ids };
}

function centre(mesh: Walkmesh, faces: number[]): Point3 {
  const c = [0, 0, 0];
  for (const f of faces) for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) c[a]! += mesh.positions[mesh.triangles[f * 3 + k]! * 3 + a]! / (faces.length * 3);
  return c as Point3;
}

function facesOfArea(mesh: Walkmesh, id: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < faceCount(mesh); f++) if (mesh.faceOwner[f] === id) out.push(f);
  return out;
}

describe('edit service: Source connections and path preview', () => {
  const fixture = 'source/tf2/itemtest.nav';
  const original = readFixture(path.join(fixturesRoot, fixture));
  const doc = readNav(original);

  it('connect → undo → redo → reopen, and path.query follows the edited connections', async () => {
    const { file, ids } = makeProject('source', 'source', [{ fixture, kind: 'walkmesh' }]);
    const fileId = ids[0]!;
    let service = createEditService({ resolveProject: projectResolver(() => file) });
    const h = service.handlers;

    // A connected pair a → b, and an area c that a does not reach directly.
    const ids2 = Array.from(doc.areas.id);
    const a = ids2.find((id) => areaConnections(doc, id).some((l) => l.length > 0))!;
    const dir = areaConnections(doc, a).findIndex((l) => l.length > 0);
    const b = areaConnections(doc, a)[dir]![0]!;
    const c = ids2.find((id) => id !== a && !areaConnections(doc, a).flat().includes(id))!;

    const meshBefore = (await h['edits.apply']({ fileId, command: { kind: 'source-connect', from: a, to: c, direction: 2 } })).walkmeshes[0]!;
    const stored = () => {
      const s = ProjectStore.open(file);
      try {
        const e = s.loadEdit(fileId);
        return e ? e.bytes : undefined;
      } finally {
        s.close();
      }
    };
    expect(areaConnections(readNav(stored()!), a)[2]).toContain(c);
    expect((await h['edits.history']({})).entries.map((e) => e.label)).toEqual([`Connect area ${a} to ${c} (south)`]);

    // Path a → b is found while a connects to b.
    const from = centre(meshBefore, facesOfArea(meshBefore, a));
    const to = centre(meshBefore, facesOfArea(meshBefore, b));
    const found = await h['path.query']({ fileId, from, to });
    expect(found.found).toBe(true);
    expect(found.facesCrossed).toBeGreaterThanOrEqual(2);
    expect(found.length).toBeGreaterThan(0);
    expect(found.points.length).toBeGreaterThanOrEqual(2);

    // Cut every way out of a: the same query finds no path and says why.
    for (let d = 0; d < 4; d++) {
      for (const t of areaConnections(doc, a)[d]!) await h['edits.apply']({ fileId, command: { kind: 'source-disconnect', from: a, to: t, direction: d } });
    }
    await h['edits.apply']({ fileId, command: { kind: 'source-disconnect', from: a, to: c, direction: 2 } });
    const cut = await h['path.query']({ fileId, from, to });
    expect(cut.found).toBe(false);
    // Other areas still lead into a, so only the way out is gone.
    expect(cut.code).toBe('one-way');
    expect(cut.reason).toMatch(new RegExp(`^area ${b} is in the same connected region as area ${a} but only reachable against a one-way link`));
    const steps = (await h['edits.history']({})).entries.length;
    expect(steps).toBeGreaterThan(2);

    // Undo everything: the file is its own bytes again, and the path is back.
    for (let i = 0; i < steps; i++) expect((await h['edits.undo']({})).outcome).not.toBeNull();
    expect((await h['edits.undo']({})).outcome).toBeNull();
    expect(stored()).toBeUndefined();
    expect((await h['path.query']({ fileId, from, to })).found).toBe(true);

    // Redo everything, close, reopen: the edits are still there and undo still works.
    for (let i = 0; i < steps; i++) await h['edits.redo']({});
    const redone = stored()!;
    expect(areaConnections(readNav(redone), a).flat()).toEqual([]);
    service.close();
    service = createEditService({ resolveProject: projectResolver(() => file) });
    expect((await service.handlers['path.query']({ fileId, from, to })).found).toBe(false);
    const undone = (await service.handlers['edits.undo']({})).outcome!;
    expect(undone.label).toBe(`Disconnect area ${a} from ${c} (south)`);
    expect(areaConnections(readNav(stored()!), a)[2]).toContain(c);
    service.close();
  });

  it('walkmesh and document edits interleave: split an area, connect the new half, undo, redo, reopen', async () => {
    const { file, ids } = makeProject('source-mixed', 'source', [{ fixture, kind: 'walkmesh' }]);
    const fileId = ids[0]!;
    let service = createEditService({ resolveProject: projectResolver(() => file) });
    const a = doc.areas.id[0]!;
    const nw = Array.from(doc.areas.corners.subarray(0, 8));
    const f32 = new Float32Array(new Uint32Array(nw).buffer);
    const at = (f32[0]! + f32[3]!) / 2;
    const split = await service.handlers['edits.apply']({ fileId, command: { kind: 'split-area', area: a, axis: 'x', at } });
    const newId = Math.max(...Array.from(split.walkmeshes[0]!.faceOwner).filter((o) => o !== 0xffffffff));
    const connected = await service.handlers['edits.apply']({ fileId, command: { kind: 'source-connect', from: a, to: newId, direction: 1, twoWay: true } });
    const bytesAfter = (() => {
      const st = ProjectStore.open(file);
      const b = st.loadEdit(fileId)!.bytes;
      st.close();
      return b;
    })();
    const nav = readNav(bytesAfter);
    expect(areaConnections(nav, a)[1]).toContain(newId);
    expect(areaConnections(nav, newId)[3]).toContain(a);
    expect(connected.label).toBe(`Connect area ${a} to ${newId} (east, both ways)`);

    await service.handlers['edits.undo']({});
    await service.handlers['edits.undo']({});
    let st = ProjectStore.open(file);
    expect(st.loadEdit(fileId)).toBeUndefined();
    st.close();
    await service.handlers['edits.redo']({});
    await service.handlers['edits.redo']({});
    service.close();

    // Reopened, the history replays to the same bytes, and one undo drops only the connection.
    service = createEditService({ resolveProject: projectResolver(() => file) });
    const undone = (await service.handlers['edits.undo']({})).outcome!;
    st = ProjectStore.open(file);
    const afterUndo = readNav(st.loadEdit(fileId)!.bytes);
    st.close();
    expect(undone.label).toBe(connected.label);
    expect(areaConnections(afterUndo, a)[1]).not.toContain(newId);
    expect(Array.from(afterUndo.areas.id)).toContain(newId);
    const redone = (await service.handlers['edits.redo']({})).outcome!;
    expect(redone.seq).toBe(connected.seq);
    st = ProjectStore.open(file);
    expect(same(st.loadEdit(fileId)!.bytes, bytesAfter)).toBe(true);
    st.close();
    service.close();
  });

  it('path.query reads a file on disk too, and wants exactly one of fileId and path', async () => {
    const service = createEditService({ resolveProject: projectResolver(() => null) });
    const mesh = readNav(original);
    const a = mesh.areas.id[0]!;
    const near = areaConnections(mesh, a).flat()[0]!;
    const corner = (id: number): Point3 => {
      const i = Array.from(mesh.areas.id).indexOf(id);
      const f = new Float32Array(new Uint32Array(mesh.areas.corners.subarray(i * 8, i * 8 + 8)).buffer);
      return [(f[0]! + f[3]!) / 2, (f[1]! + f[4]!) / 2, (f[2]! + f[5]!) / 2];
    };
    const r = await service.handlers['path.query']({ path: path.join(fixturesRoot, fixture), from: corner(a), to: corner(near) });
    expect(r.found).toBe(true);
    expect(r.nodeNoun).toBe('areas');
    expect(r.facesCrossed).toBeGreaterThanOrEqual(2);
    await expect(service.handlers['path.query']({ from: corner(a), to: corner(near) })).rejects.toThrow(/either params.fileId/);
    await expect(service.handlers['path.query']({ fileId: 1, from: corner(a), to: corner(near) })).rejects.toThrow(/name the project/);
    service.close();
  });

  it('a document edit for another game is refused with the reason the toolbar shows for it', async () => {
    const { file, ids } = makeProject('source-cross', 'source', [{ fixture, kind: 'walkmesh' }]);
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    const reason = editRefusals({ name: 'm/itemtest.nav', game: 'source', kind: 'walkmesh', format: NAV_FORMAT }).placements!;
    expect(reason).toMatch(/NWN2/);
    await expect(service.handlers['edits.apply']({ fileId: ids[0]!, command: { kind: 'nwn2-delete-cutter', index: 0 } })).rejects.toThrow(reason);
    await expect(service.handlers['edits.apply']({ fileId: ids[0]!, command: { kind: 'kotor-set-transition', face: 0, edge: 0, target: 1 } })).rejects.toThrow(/room links are KotOR/);
    service.close();
  });

  it('refuses a bad command with the field named, before anything changes', async () => {
    const { file, ids } = makeProject('source-bad', 'source', [{ fixture, kind: 'walkmesh' }]);
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    const bad = validate(paramSchemas['edits.apply'], { fileId: ids[0], command: { kind: 'source-connect', from: 1, to: 'x', direction: 0 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issue.message).toMatch(/field to/);
    await expect(service.handlers['edits.apply']({ fileId: ids[0]!, command: { kind: 'source-connect', from: 1, to: 999999, direction: 0 } })).rejects.toThrow(ServiceError);
    expect((await service.handlers['edits.history']({})).entries).toEqual([]);
    service.close();
  });
});

describe('edit service: KotOR transitions and walkmesh findings', () => {
  it('set transition → findings after a walkmesh edit → undo → redo → reopen', async () => {
    const fixture = 'kotor/k1-blackvulkar/m10aa_09a.wok';
    const original = readFixture(path.join(fixturesRoot, fixture));
    const { file, ids } = makeProject('kotor', 'kotor', [{ fixture, kind: 'walkmesh' }]);
    const fileId = ids[0]!;
    let service = createEditService({ resolveProject: projectResolver(() => file) });
    const doc = readBwm(original);
    const slot = doc.edgeIndex[0]!;
    const face = (slot / 3) | 0;
    const edge = slot % 3;

    const linked = await service.handlers['edits.apply']({ fileId, command: { kind: 'kotor-set-transition', face, edge, target: 5 } });
    expect(linked.label).toBe(`Link face ${face} edge ${edge} to room 5`);
    // A document edit is written at once: its reply has the report of the written bytes.
    const findingsOf = (r: FileReport) => [...r.errors, ...r.warnings];
    const findingsBefore = findingsOf(linked.report!).length;
    expect(linked.report).toEqual(reportOfHeldBytes(file, fileId));

    // Collapsing a face onto one of its corners is a degenerate face the validator reports.
    const m = linked.walkmeshes[0]!;
    const [v0, v1] = [m.triangles[3]!, m.triangles[4]!];
    const moved = await service.handlers['edits.apply']({ fileId, command: { kind: 'move-vertices', vertices: [v0], positions: [m.positions[v1 * 3]!, m.positions[v1 * 3 + 1]!, m.positions[v1 * 3 + 2]!] } });
    // A move is written behind: its report comes with edits.report, once the bytes are written.
    expect(moved.report).toBeNull();
    const movedReport = (await service.handlers['edits.report']({ fileId })).report;
    expect(findingsOf(movedReport).length).toBeGreaterThan(findingsBefore);
    expect(findingsOf(movedReport).some((f) => f.code === 'bwm.face.degenerate')).toBe(true);
    expect(movedReport).toEqual(reportOfHeldBytes(file, fileId));

    const undone = (await service.handlers['edits.undo']({})).outcome!;
    expect(undone.label).toMatch(/^Move/);
    expect(findingsOf((await service.handlers['edits.report']({ fileId })).report).length).toBe(findingsBefore);
    await service.handlers['edits.redo']({});
    service.close();

    service = createEditService({ resolveProject: projectResolver(() => file) });
    // Undo the move, then the link: the room's own bytes come back.
    await service.handlers['edits.undo']({});
    const store = ProjectStore.open(file);
    expect(readBwm(store.loadEdit(fileId)!.bytes).edgeTransition[0]).toBe(5);
    await service.handlers['edits.undo']({});
    expect(store.loadEdit(fileId)).toBeUndefined();
    store.close();
    const redo = (await service.handlers['edits.redo']({})).outcome!;
    expect(redo.label).toBe(`Link face ${face} edge ${edge} to room 5`);
    service.close();
  });
});

describe('edit service: deltas', () => {
  it('a paint answers with the changed faces only when asked; a delete sends the whole walkmesh', async () => {
    const { file, ids } = makeProject('delta', 'kotor', [{ fixture: 'kotor/k1-blackvulkar/m10aa_09a.wok', kind: 'walkmesh' }]);
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    const painted = await service.handlers['edits.apply']({ fileId: ids[0]!, delta: true, command: { kind: 'paint-faces', faces: [2, 5], material: 3 } });
    expect(painted.walkmeshes).toEqual([]);
    expect(Array.from(painted.delta!.faces).sort()).toEqual([2, 5]);
    expect(Array.from(painted.delta!.faceMaterial)).toEqual([3, 3]);
    const undone = (await service.handlers['edits.undo']({ delta: true })).outcome!;
    expect(undone.delta).not.toBeNull();
    expect(Array.from(undone.delta!.faceMaterial)).not.toContain(3);
    const deleted = await service.handlers['edits.apply']({ fileId: ids[0]!, delta: true, command: { kind: 'delete-faces', faces: [0] } });
    expect(deleted.delta).toBeNull();
    expect(deleted.walkmeshes).toHaveLength(1);
    const plain = await service.handlers['edits.apply']({ fileId: ids[0]!, command: { kind: 'paint-faces', faces: [1], material: 4 } });
    expect(plain.delta).toBeNull();
    expect(plain.walkmeshes[0]!.faceMaterial[1]).toBe(4);
    service.close();
  });
});

describe('edit service: KotOR room links', () => {
  it('a link broken on one side is reported one-way and fixed on request in the file of the room it leads to', async () => {
    const file = projectPath('kotor-area.walkbench');
    const store = ProjectStore.create(file, { name: 'bv', game: 'kotor' });
    store.upsertFile({ module: 'm10aa', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', bytes: writeLyt(blackVulkarLyt()) });
    const fileOf = new Map<number, number>();
    BLACK_VULKAR_ROOMS.forEach((room, i) => fileOf.set(i, store.upsertFile({ module: 'm10aa', area: 'm10aa', name: `${room}.wok`, kind: 'walkmesh', bytes: blackVulkarWok(room) }).fileId));
    store.close();
    const service = createEditService({ resolveProject: projectResolver(() => file) });

    // Room 4 (m10aa_09a): an edge that links to another fixture room.
    const doc = readBwm(blackVulkarWok(BLACK_VULKAR_ROOMS[4]));
    const row = Array.from(doc.edgeTransition).findIndex((t) => t >= 0 && t < BLACK_VULKAR_ROOMS.length && t !== 4);
    const target = doc.edgeTransition[row]!;
    const slot = doc.edgeIndex[row]!;
    const broken = await service.handlers['edits.apply']({ fileId: fileOf.get(4)!, command: { kind: 'kotor-set-transition', face: (slot / 3) | 0, edge: slot % 3, target: -1 } });
    // The room the link led to now links one way: its report says so, although its bytes did not change.
    expect(broken.reportsChanged).toContain(fileOf.get(target));
    const oneWayOf = async () => {
      const r = (await service.handlers['edits.report']({ fileId: fileOf.get(target)! })).report;
      return [...r.errors, ...r.warnings].filter((f): f is RoomLinkFinding => f.code === 'kotor.link.one-way' && (f as RoomLinkFinding).room === target);
    };
    const oneWay = await oneWayOf();
    expect(oneWay.length).toBeGreaterThan(0);

    const fixed = await service.handlers['edits.fixRoomLink']({ fileId: fileOf.get(target)!, face: oneWay[0]!.face, edge: oneWay[0]!.edge });
    // Reciprocating changes the room the link leads to, not the room it was asked on.
    expect(fixed.fileId).toBe(fileOf.get(4));
    expect(fixed.changedFiles).toEqual([]);
    expect(await oneWayOf()).toEqual([]);
    let s = ProjectStore.open(file);
    // Linked back exactly as it was: room 4 is its own bytes again.
    expect(s.loadEdit(fileOf.get(4)!)).toBeUndefined();
    s.close();

    const undone = (await service.handlers['edits.undo']({})).outcome!;
    expect(undone.label).toMatch(/^Link back/);
    s = ProjectStore.open(file);
    expect(readBwm(s.loadEdit(fileOf.get(4)!)!.bytes).edgeTransition[row]).toBe(-1);
    s.close();
    service.close();
  });
});

describe('edit service: NWN2 cutters re-bake the area', () => {
  it('add a cutter → the area is baked again with it → undo gives the GIT back', async () => {
    const { file, ids } = makeProject('nwn2', 'nwn2', [
      { fixture: 'nwn2/mordmansion/CSLMordMansion.TRN', kind: 'trn' },
      { fixture: 'nwn2/mordmansion/CSLMordMansion.GIT', kind: 'git' },
    ]);
    const gitId = ids[1]!;
    const gitBytes = readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT'));
    const cutters = readGitWalkmeshCutters(readGff(gitBytes)).length;
    const service = createEditService({ resolveProject: projectResolver(() => file) });

    // Move an existing cutter to where it changes nothing, to get the area's baseline bake.
    const first = readGitWalkmeshCutters(readGff(gitBytes))[0]!;
    const edit = await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-set-cutter', index: first.index, polygon: Array.from(first.polygon) } });
    expect(edit.rebakePending).not.toBeNull();
    const baseResult = await service.handlers['edits.rebakeResult']({ ticket: edit.rebakePending!.ticket });
    expect(baseResult.status).toBe('done');
    const base = { rebake: baseResult.rebake };
    expect(base.rebake!.sourceFileId).toBe(ids[0]);
    expect(base.rebake!.cutters).toBe(cutters);
    expect(base.rebake!.placeablesWithoutModel).toBeGreaterThan(0);
    expect(baseResult.findings.filter((f) => f.code === 'nwn2.bake.placeable-model-missing')).toHaveLength(base.rebake!.placeablesWithoutModel);
    // The first bake of the area has no earlier tables: every tile is baked.
    expect(base.rebake!.reusedTiles).toBe(0);
    // A fetched ticket is gone.
    expect((await service.handlers['edits.rebakeResult']({ ticket: edit.rebakePending!.ticket })).status).toBe('unknown');

    // The cutter goes on the walkable face nearest the mean of the vertices: a cutter over
    // unwalkable ground cuts nothing.
    const mesh = base.rebake!.walkmesh;
    const p = mesh.positions;
    const n = p.length / 3;
    let mx = 0, my = 0;
    for (let i = 0; i < n; i++) {
      mx += p[i * 3]! / n;
      my += p[i * 3 + 1]! / n;
    }
    let cx = mx, cy = my, best = Infinity;
    for (let f = 0; f < mesh.triangles.length / 3; f++) {
      if (!mesh.faceWalkable[f]) continue;
      let fx = 0, fy = 0;
      for (let k = 0; k < 3; k++) {
        fx += p[mesh.triangles[f * 3 + k]! * 3]! / 3;
        fy += p[mesh.triangles[f * 3 + k]! * 3 + 1]! / 3;
      }
      const d = (fx - mx) ** 2 + (fy - my) ** 2;
      if (d < best) [best, cx, cy] = [d, fx, fy];
    }
    const added = await baked(service, await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-add-cutter', polygon: [cx - 1, cy - 1, cx + 1, cy - 1, cx + 1, cy + 1, cx - 1, cy + 1] } }));
    expect(added.rebake!.cutters).toBe(cutters + 1);
    expect(added.rebake!.ms).toBeGreaterThan(0);
    expect(added.rebake!.waitMs).toBeGreaterThanOrEqual(added.rebake!.ms);
    // The cut adds the cutter's outline to the mesh (the flat merge may give back as many
    // triangles as before, so the vertices are compared, not the count).
    expect(Array.from(added.rebake!.walkmesh.positions)).not.toEqual(Array.from(base.rebake!.walkmesh.positions));
    // A 2 m cutter touches few tiles: the others keep their tables from the bake before.
    expect(added.rebake!.reusedTiles).toBeGreaterThan(0);
    expect(added.rebake!.reusedTiles).toBeLessThan(added.rebake!.tiles);
    // The result brings the GIT's cutter outlines as baked: one more than before.
    expect(added.overlays.find((o) => o.id === 'cutters')?.classes[0]?.count).toBe(cutters + 1);

    await service.handlers['edits.undo']({});
    const back = await baked(service, (await service.handlers['edits.undo']({})).outcome!);
    expect(back.rebake!.walkmesh.triangles.length).toBe(base.rebake!.walkmesh.triangles.length);
    expect(Array.from(back.rebake!.walkmesh.positions)).toEqual(Array.from(base.rebake!.walkmesh.positions));
    const store = ProjectStore.open(file);
    expect(store.loadEdit(gitId)).toBeUndefined();
    expect(same(store.loadFileBytes(gitId), gitBytes)).toBe(true);
    store.close();
    await service.close();
  });

  it('edits made while a bake runs collapse into the newest: the waiting ones are superseded, the last one is baked', async () => {
    const { file, ids } = makeProject('nwn2-burst', 'nwn2', [
      { fixture: 'nwn2/mordmansion/CSLMordMansion.TRN', kind: 'trn' },
      { fixture: 'nwn2/mordmansion/CSLMordMansion.GIT', kind: 'git' },
    ]);
    const gitId = ids[1]!;
    const cutter = readGitWalkmeshCutters(readGff(readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT'))))[0]!;
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    // A drag: five positions sent one after the other without waiting for any bake.
    const tickets: number[] = [];
    for (let k = 0; k < 5; k++) {
      const moved = Array.from(cutter.polygon, (v, i) => (i % 2 === 0 ? v + k * 0.25 : v));
      tickets.push((await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-set-cutter', index: cutter.index, polygon: moved } })).rebakePending!.ticket);
    }
    const results = await Promise.all(tickets.map((ticket) => service.handlers['edits.rebakeResult']({ ticket })));
    // The first starts at once; the second to fourth wait and are replaced by the next.
    expect(results.map((r) => r.status)).toEqual(['done', 'superseded', 'superseded', 'superseded', 'done']);
    // The last result is the area as edited: the same as a bake of the final GIT from scratch.
    const fresh = createEditService({ resolveProject: projectResolver(() => file) });
    const again = await baked(fresh, await fresh.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-set-cutter', index: cutter.index, polygon: Array.from(cutter.polygon, (v, i) => (i % 2 === 0 ? v + 4 * 0.25 : v)) } }));
    expect(Array.from(results[4]!.rebake!.walkmesh.positions)).toEqual(Array.from(again.rebake!.walkmesh.positions));
    expect(Array.from(results[4]!.rebake!.walkmesh.triangles)).toEqual(Array.from(again.rebake!.walkmesh.triangles));
    await service.close();
    await fresh.close();
  });

  it('a TRN the bake cannot read ends its ticket as failed, naming the file; the GIT edit itself stands', async () => {
    const file = projectPath('nwn2-bad-trn.walkbench');
    const store = ProjectStore.create(file, { name: 'bad', game: 'nwn2' });
    const trn = readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.TRN')).slice(0, 200);
    store.upsertFile({ module: 'm', area: 'a', name: 'CSLMordMansion.TRN', kind: 'trn', bytes: trn });
    const gitBytes = readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT'));
    const gitId = store.upsertFile({ module: 'm', area: 'a', name: 'CSLMordMansion.GIT', kind: 'git', bytes: gitBytes }).fileId;
    store.close();
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    const cutter = readGitWalkmeshCutters(readGff(gitBytes))[0]!;
    const edit = await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-set-cutter', index: cutter.index, polygon: Array.from(cutter.polygon, (v) => v + 1) } });
    const r = await service.handlers['edits.rebakeResult']({ ticket: edit.rebakePending!.ticket });
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/CSLMordMansion\.TRN/);
    expect((await service.handlers['edits.history']({})).entries).toHaveLength(1);
    await service.close();
  });
});

describe('edit service: an NWN2 GIT\'s placements for the cutter and placeable tools', () => {
  it('lists the cutters and placeables as edited; deleting a cutter renumbers the list; a non-GIT is refused', async () => {
    const { file, ids } = makeProject('nwn2-placements', 'nwn2', [
      { fixture: 'nwn2/mordmansion/CSLMordMansion.TRN', kind: 'trn' },
      { fixture: 'nwn2/mordmansion/CSLMordMansion.GIT', kind: 'git' },
    ]);
    const gitId = ids[1]!;
    const gff = readGff(readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT')));
    const cutters = readGitWalkmeshCutters(gff);
    const placeables = readGitPlaceables(gff);
    const service = createEditService({ resolveProject: projectResolver(() => file) });
    const before = await service.handlers['edits.placements']({ fileId: gitId });
    expect(before.cutters.map((c) => c.index)).toEqual(cutters.map((c) => c.index));
    expect(before.cutters[0]!.polygon).toEqual(Array.from(cutters[0]!.polygon));
    expect(before.placeables).toHaveLength(placeables.length);
    expect(before.placeables.map((p) => p.appearance)).toEqual(placeables.map((p) => p.appearance));
    expect(before.placeables[0]!.bearing).toBeCloseTo((placeables[0]!.bearing * 180) / Math.PI, 9);

    const gone = cutters[0]!;
    await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-delete-cutter', index: gone.index } });
    const after = await service.handlers['edits.placements']({ fileId: gitId });
    expect(after.cutters).toHaveLength(cutters.length - 1);
    expect(after.cutters.map((c) => c.polygon)).not.toContainEqual(Array.from(gone.polygon));
    await service.handlers['edits.undo']({});
    expect((await service.handlers['edits.placements']({ fileId: gitId })).cutters).toEqual(before.cutters);

    await expect(service.handlers['edits.placements']({ fileId: ids[0]! })).rejects.toThrow(/CSLMordMansion\.TRN is not a GIT/);
    await service.close();
  });
});

describe('edit service: NWN2 placeables from the project re-bake the area', () => {
  it('a placeable whose model is in the project cuts the walkmesh; turned, it cuts it differently', async () => {
    const file = projectPath('nwn2-placeable.walkbench');
    const store = ProjectStore.create(file, { name: 'mord', game: 'nwn2' });
    const add = (name: string, kind: 'trn' | 'git' | '2da' | 'mdb', fixture: string, area: string | null = 'a') =>
      store.upsertFile({ module: 'm', area, name, kind, bytes: readFixture(path.join(fixturesRoot, fixture)) }).fileId;
    add('CSLMordMansion.TRN', 'trn', 'nwn2/mordmansion/CSLMordMansion.TRN');
    const gitId = add('CSLMordMansion.GIT', 'git', 'nwn2/mordmansion/CSLMordMansion.GIT');
    add('placeables.2da', '2da', 'nwn2/2da/placeables.2da', null);
    add('PLC_MC_BALCONY3.MDB', 'mdb', 'nwn2/nwn-lib-d/PLC_MC_BALCONY3.MDB', null);
    store.close();
    const service = createEditService({ resolveProject: projectResolver(() => file) });

    // Row 1599 of placeables.2da is PLC_MC_BALCONY3.
    const first = readGitWalkmeshCutters(readGff(readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT'))))[0]!;
    const base = await baked(service, await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-set-cutter', index: first.index, polygon: Array.from(first.polygon) } }));
    const P = base.rebake!.walkmesh.positions;
    const walkable = base.rebake!.walkmesh.faceWalkable.indexOf(1);
    const at = [0, 1, 2].map((a) => (P[base.rebake!.walkmesh.triangles[walkable * 3]! * 3 + a]! + P[base.rebake!.walkmesh.triangles[walkable * 3 + 1]! * 3 + a]! + P[base.rebake!.walkmesh.triangles[walkable * 3 + 2]! * 3 + a]!) / 3) as [number, number, number];
    const placed = await baked(service, await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-add-placeable', appearance: 1599, templateResRef: 'plc_mc_balcony3', position: at } }));
    expect(placed.rebake!.placeablesWithoutModel).toBe(base.rebake!.placeablesWithoutModel);
    expect(placed.rebake!.walkmesh.triangles.length).not.toBe(base.rebake!.walkmesh.triangles.length);
    const index = readGitPlaceablesCount(file, gitId) - 1;
    const turnEdit = await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-rotate-placeable', index, bearing: 1 } });
    expect(turnEdit.label).toBe(`Rotate placeable ${index}`);
    const turned = await baked(service, turnEdit);
    expect(Array.from(turned.rebake!.walkmesh.positions)).not.toEqual(Array.from(placed.rebake!.walkmesh.positions));
    await service.close();
  });
});

/** The background re-bake an edit started, waited for (it must succeed). */
async function baked(service: EditService, outcome: EditsOutcome): Promise<RebakeResult> {
  expect(outcome.rebakePending).not.toBeNull();
  const r = await service.handlers['edits.rebakeResult']({ ticket: outcome.rebakePending!.ticket });
  expect(r.error).toBeNull();
  expect(r.status).toBe('done');
  return r;
}

function readGitPlaceablesCount(file: string, gitId: number): number {
  const s = ProjectStore.open(file);
  try {
    return readGitPlaceables(readGff(s.loadEdit(gitId)!.bytes)).length;
  } finally {
    s.close();
  }
}

describe('edits through the whole service', () => {
  it('edit the project the app opened; project.openFile then shows the edited file', async () => {
    const { file, ids } = makeProject('app', 'source', [{ fixture: 'source/tf2/itemtest.nav', kind: 'walkmesh' }]);
    const service = createWalkbenchService();
    await expect(service['edits.history']({})).rejects.toThrow(/name the project/);
    const { session } = await service['project.open']({ path: file });
    const before = await service['project.openFile']({ session, fileId: ids[0]! });
    const doc = readNav(readFixture(path.join(fixturesRoot, 'source/tf2/itemtest.nav')));
    const a = doc.areas.id[0]!;
    const b = Array.from(doc.areas.id).find((id) => id !== a && !areaConnections(doc, a)[0].includes(id))!;
    const out = await service['edits.apply']({ session, fileId: ids[0]!, command: { kind: 'source-connect', from: a, to: b, direction: 0 } });
    expect(out.walkmeshes).toHaveLength(before.walkmeshes.length);
    const after = await service['project.openFile']({ session, fileId: ids[0]! });
    expect(after.name).toMatch(/edited/);
    expect((await service['edits.history']({ session })).entries).toHaveLength(1);
    await service['edits.undo']({ session });
    expect((await service['project.openFile']({ session, fileId: ids[0]! })).name).not.toMatch(/edited/);
  });
});

