import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMalformedInputError, type MalformedInputError } from '../../shared/binary/malformed-input-error';
import { applyEdit } from '../../shared/edits/apply-edit';
import type { EditCommand } from '../../shared/edits/edit-command';
import { copyWalkmesh } from '../../shared/edits/walkmesh-copy';
import { detectDocumentCodec, firstDifference, roundtripBytes } from '../../shared/formats/document-roundtrip';
import { portableEnvironment as env } from '../../shared/formats/format-environment';
import type { FormatHandler } from '../../shared/formats/format-handler';
import { formatHandlers } from '../../shared/formats/format-registry';
import type { BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../shared/formats/kotor/surface-materials';
import { ASWM_CURRENT_VERSION, cloneAswm, SURFACE_FLAGS } from '../../shared/formats/nwn2/aswm-document';
import { convertAswmVersion } from '../../shared/formats/nwn2/aswm-version';
import { aswmPacketOf, type TrxDocument } from '../../shared/formats/nwn2/trx-document';
import { TRI_EDGE_LINK_BITS, TRI_WATER, type NvnmDocument } from '../../shared/formats/skyrim/nvnm-document';
import type { PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { pluginNaviEntries, pluginNavmeshes } from '../../shared/formats/skyrim/plugin-navmeshes';
import { NavCorner, type NavDocument } from '../../shared/formats/source/nav-document';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { documentDifferences, pathOf, type FieldDifference } from '../support/document-diff';
import { fixtureName, fixturesRoot, readFixture } from '../support/fixtures';
import { mulberry32 } from '../support/seeded-random';

/*
 * Every real file under ../shared/fixtures, found by walking the folder (files added later
 * are picked up), identified by content and extension as the CLI does:
 * 1. document round trip (read, write in memory): byte-identical, archives with every held
 *    resource of a format Walkbench reads;
 * 2. walkmesh formats: the same through the common model (read, model, back onto the
 *    document, write), the path every edit takes;
 * 3. walkmesh formats: seeded random edits through applyEdit and the format's
 *    fromWalkmeshes, as the edit service applies them: a paint of one face (every format
 *    with edits) and a move of one vertex straight up (Source, Skyrim, whose stored faces a
 *    move leaves as they are). The file written is read again and every stored field but
 *    the edited values (and what the game derives from them) must be bit-identical to the
 *    original's; the undo must give the original bytes back.
 * Per stage and format, how many files were tried and passed is printed at the end.
 */

const SEED = 0x15c0ffee;

interface Tally {
  tried: number;
  passed: number;
}
const tallies = new Map<string, Tally>();
function tally(stage: string, format: string): Tally {
  const key = `${stage.padEnd(9)} ${format}`;
  let t = tallies.get(key);
  if (!t) tallies.set(key, (t = { tried: 0, passed: 0 }));
  return t;
}
const notRead = new Map<string, number>();

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...allFiles(full));
    else out.push(full);
  }
  return out;
}

/** FNV-1a of the file's name below the fixtures folder: a stable seed per file. */
function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return (h ^ SEED) >>> 0;
}

/**
 * A refusal counts as the file's damage (the deliberately corrupted PyKotor archives) only
 * when the reader names an offset, size or count field whose value cannot fit in the file
 * at all: such a file cannot be read by any tool. Any other refusal (an unsupported version,
 * a layout the reader does not know) is Walkbench's gap and fails the test.
 */
function isDamage(e: MalformedInputError, size: number): boolean {
  const found = Number(e.found);
  return /offset|size|count/i.test(e.field) && Number.isFinite(found) && found > size;
}

const walkmeshHandlers = new Set<unknown>(formatHandlers);

interface Corpus {
  file: string;
  name: string;
  /** The file's bytes, read when a test needs them (the fixtures add up to tens of megabytes). */
  bytes: () => Uint8Array;
  format: string;
  handler: FormatHandler<unknown> | undefined;
}

const corpus: Corpus[] = [];
for (const file of allFiles(fixturesRoot)) {
  const bytes = readFixture(file);
  const codec = detectDocumentCodec(file, bytes);
  if (!codec) {
    const ext = path.extname(file).toLowerCase() || '(none)';
    notRead.set(ext, (notRead.get(ext) ?? 0) + 1);
    continue;
  }
  corpus.push({ file, name: fixtureName(file), bytes: () => readFixture(file), format: codec.id, handler: walkmeshHandlers.has(codec) ? (codec as FormatHandler<unknown>) : undefined });
}

/** What one seeded edit changes, and what the file written after it must keep. */
interface EditPlan {
  mesh: number;
  command: EditCommand;
  /** Stored values the edit must change: a typed array of the original document and its element. */
  changes: { column: ArrayBufferView; element: number }[];
  /** Stored columns the game derives from what the edit changed, so any of their elements may change. */
  derived: ArrayBufferView[];
  /** The original document as the edited one is expected to be, apart from `changes` and `derived`. */
  expected: unknown;
  /** Fields that are not stored data (a reader's source offset, bytes cached from the file as read). */
  ignore: (key: string, parent: Record<string, unknown>) => boolean;
  describe: string;
}

const pick = <T,>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function randomFace(meshes: readonly Walkmesh[], rand: () => number): { mesh: Walkmesh; meshIndex: number; face: number } | undefined {
  const candidates = meshes.map((m, i) => ({ m, i })).filter(({ m }) => faceCount(m) > 0);
  if (candidates.length === 0) return undefined;
  const { m: mesh, i: meshIndex } = pick(rand, candidates);
  return { mesh, meshIndex, face: Math.floor(rand() * faceCount(mesh)) };
}

/** The navmesh (NVNM) behind the plugin's i-th walkmesh, and its NAVI entry's floats (vertex mean, preferred fraction). */
function pluginNavmesh(doc: PluginDocument, meshIndex: number): { nvnm: NvnmDocument; naviFloats: Uint32Array[] } {
  const n = pluginNavmeshes(doc).filter((x) => x.nvnm !== undefined)[meshIndex]!;
  const naviFloats = pluginNaviEntries(doc).flatMap((r) => r.entries.filter((e) => e.navmesh === n.formId).map((e) => e.floats));
  return { nvnm: n.nvnm!, naviFloats };
}

/** A seeded paint of one face that keeps its walkability: only that face's stored attribute may change. */
function planPaint(format: string, doc: unknown, meshes: readonly Walkmesh[], rand: () => number): EditPlan | undefined {
  const at = randomFace(meshes, rand);
  if (!at) return undefined;
  const { mesh, meshIndex, face } = at;
  const old = mesh.faceMaterial[face]!;
  switch (format) {
    case 'nwn2-trx': {
      // Another surface bit, walkable bit kept: baked tables stay valid, only the triangle's flags change.
      const packet = aswmPacketOf(doc as TrxDocument)!;
      const bits = Array.from({ length: 11 }, (_, k) => 0x08 << k).filter((b) => b & SURFACE_FLAGS && (old & SURFACE_FLAGS) !== b);
      const material = ((old & ~SURFACE_FLAGS) | pick(rand, bits)) >>> 0;
      const aswm = packet.aswm.version === ASWM_CURRENT_VERSION ? packet.aswm : convertAswmVersion(cloneAswm(packet.aswm), ASWM_CURRENT_VERSION);
      // Every edit writes ASWM 0x6C (trx-from-walkmesh.ts): an older file is expected as converted.
      const expected = aswm === packet.aswm ? doc : { ...(doc as TrxDocument), packets: (doc as TrxDocument).packets.map((p) => (p === packet ? { ...packet, aswm } : p)) };
      return {
        mesh: meshIndex,
        command: { kind: 'paint-faces', faces: [face], material },
        changes: [{ column: packet.aswm.triFlags, element: face }],
        derived: [],
        expected,
        ignore: (key, parent) => parent.kind === 'aswm' && (key === 'payload' || key === 'inflated'),
        describe: `paint triangle ${face}: flags 0x${old.toString(16)} → 0x${material.toString(16)}`,
      };
    }
    case 'kotor-bwm': {
      // Another material of the same walkability: the face stays in its group, so no face moves.
      const walkable = isWalkableMaterial(DEFAULT_WALKABILITY, old);
      const same = Array.from({ length: DEFAULT_WALKABILITY.walkable.length }, (_, k) => k).filter((k) => k !== old && isWalkableMaterial(DEFAULT_WALKABILITY, k) === walkable);
      const material = pick(rand, same);
      return {
        mesh: meshIndex,
        command: { kind: 'paint-faces', faces: [face], material },
        changes: [{ column: (doc as BwmDocument).materials, element: face }],
        derived: [],
        expected: doc,
        ignore: (key) => key === 'original',
        describe: `paint face ${face}: material ${old} → ${material}`,
      };
    }
    case 'source-nav': {
      // One of the low 8 attribute bits, which every version stores; paint covers the face's whole area.
      const material = (old ^ (1 << Math.floor(rand() * 8))) >>> 0;
      return {
        mesh: meshIndex,
        command: { kind: 'paint-faces', faces: [face], material },
        changes: [{ column: (doc as NavDocument).areas.attributes, element: face >> 1 }],
        derived: [],
        expected: doc,
        ignore: () => false,
        describe: `paint area ${mesh.faceOwner[face]} (faces ${face & ~1}, ${face | 1}): attributes 0x${old.toString(16)} → 0x${material.toString(16)}`,
      };
    }
    case 'skyrim-plugin': {
      // The water bit: neither an edge-link bit (owned by the link lists) nor preferred (which NAVI summarises).
      const linkBits = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];
      const material = (old ^ TRI_WATER) >>> 0;
      expect(material & linkBits).toBe(old & linkBits);
      return {
        mesh: meshIndex,
        command: { kind: 'paint-faces', faces: [face], material },
        changes: [{ column: pluginNavmesh(doc as PluginDocument, meshIndex).nvnm.triFlags, element: face }],
        derived: [],
        expected: doc,
        ignore: (key) => key === 'sourceOffset',
        describe: `paint ${mesh.name} triangle ${face}: flags 0x${old.toString(16)} → 0x${material.toString(16)}`,
      };
    }
    default:
      return undefined;
  }
}

/** Model vertex of an area (navToWalkmesh: NW, NE, SE, SW) → its z word among the area's 8 corner words. */
const NAV_CORNER_Z = [NavCorner.NwZ, NavCorner.NeZ, NavCorner.SeZ, NavCorner.SwZ] as const;
/** Metres a moved vertex goes up: exact in float32 at every height a game uses. */
const LIFT = 0.25;

/**
 * A seeded move of one vertex straight up, where the game stores that height once and a
 * move leaves the stored faces as they are: a Source area corner, a Skyrim navmesh vertex.
 * (An NWN2 or KotOR move re-derives normals, edges and baked tables by design.)
 */
function planMove(format: string, doc: unknown, meshes: readonly Walkmesh[], rand: () => number): EditPlan | undefined {
  const at = randomFace(meshes, rand);
  if (!at) return undefined;
  const { mesh, meshIndex, face } = at;
  const v = mesh.triangles[face * 3 + Math.floor(rand() * 3)]!;
  const P = mesh.positions;
  const z = Math.fround(P[v * 3 + 2]! + LIFT);
  const command: EditCommand = { kind: 'move-vertices', vertices: [v], positions: [P[v * 3]!, P[v * 3 + 1]!, z] };
  const describe = `move ${mesh.name} vertex ${v} up ${LIFT} m to z = ${z}`;
  switch (format) {
    case 'source-nav':
      return {
        mesh: meshIndex,
        command,
        changes: [{ column: (doc as NavDocument).areas.corners, element: (v >> 2) * 8 + NAV_CORNER_Z[v & 3]! }],
        derived: [],
        expected: doc,
        ignore: () => false,
        describe: `${describe} (area ${mesh.faceOwner[face]})`,
      };
    case 'skyrim-plugin': {
      const { nvnm, naviFloats } = pluginNavmesh(doc as PluginDocument, meshIndex);
      return {
        mesh: meshIndex,
        command,
        changes: [{ column: nvnm.vertices, element: v * 3 + 2 }],
        // The NAVI entry's vertex mean, and the grid's height bounds when the vertex is the highest.
        derived: [...naviFloats, nvnm.gridBounds],
        expected: doc,
        ignore: (key) => key === 'sourceOffset',
        describe,
      };
    }
    default:
      return undefined;
  }
}

const EDITS = [
  ['paint', 'a seeded paint of one face', planPaint, new Set(['nwn2-trx', 'kotor-bwm', 'source-nav', 'skyrim-plugin'])],
  ['move', 'a seeded move of one vertex', planMove, new Set(['source-nav', 'skyrim-plugin'])],
] as const;

function render(list: readonly FieldDifference[]): string {
  if (list.length === 0) return '';
  const perField = new Map<string, number>();
  for (const d of list) perField.set(d.path, (perField.get(d.path) ?? 0) + 1);
  const counts = [...perField.entries()].map(([p, n]) => `${p} ${n}`).join(', ');
  const first = list.slice(0, 12).map((d) => `${d.path}${d.index >= 0 ? `[${d.index}]` : ''}: ${d.was} → ${d.now}`);
  return `${list.length} value(s) (${counts}); first: ${first.join('; ')}`;
}

describe('every real fixture file', () => {
  it('the walk found files of every family the fixtures README lists', () => {
    const formats = new Set(corpus.map((c) => c.format));
    for (const f of ['gff', '2da', 'erf', 'rim', 'kotor-lyt', 'nwn2-mdb', 'nwn2-trx', 'kotor-bwm', 'source-nav', 'skyrim-plugin']) expect(formats).toContain(f);
  });

  for (const c of corpus) {
    describe(c.name, () => {
      it('comes back byte for byte through its document (archives: every held resource too), or is refused as damaged', () => {
        const t = tally('document', c.format);
        t.tried++;
        const bytes = c.bytes();
        let outcome;
        try {
          outcome = roundtripBytes(c.file, bytes, env, { throughModel: false });
        } catch (e) {
          if (!isMalformedInputError(e) || !isDamage(e, bytes.length)) throw e;
          // Damage: one clear message naming the file, the offset and the field.
          expect(e.message).toContain(c.file);
          expect(e.message).toMatch(/at offset \d+ \(0x[0-9a-f]+\), \S/);
          const refused = tally('refused', c.format);
          refused.tried++;
          refused.passed++;
          t.passed++;
          return;
        }
        expect(outcome.resourceProblems ?? []).toEqual([]);
        expect(outcome, `first difference at byte ${outcome.firstDifference}`).toMatchObject({ identical: true, firstDifference: null, writtenSize: bytes.length });
        if (outcome.resourcesTried) {
          const held = tally('held', c.format);
          held.tried += outcome.resourcesTried;
          held.passed += outcome.resourcesIdentical ?? 0;
        }
        t.passed++;
      });

      if (!c.handler?.fromWalkmeshes) return;
      const handler = c.handler;

      it('comes back byte for byte through the common model', () => {
        const t = tally('model', c.format);
        t.tried++;
        const outcome = roundtripBytes(c.file, c.bytes(), env, { resources: false });
        expect(outcome.throughModel).toBe(true);
        expect(outcome.firstDifference, `${c.name} differs from byte ${outcome.firstDifference}`).toBeNull();
        t.passed++;
      });

      for (const [kind, what, plan, formats] of EDITS) {
        if (!formats.has(c.format)) continue;
        it(`keeps every stored field ${what} does not touch, and its undo gives the file back`, () => {
          const t = tally(`edit:${kind}`, c.format);
          t.tried++;
          const seed = seedOf(`${kind} ${c.name}`);
          const rand = mulberry32(seed);
          const bytes = c.bytes();
          const doc = handler.read(bytes, env);
          const meshes = handler.toWalkmeshes(doc, c.name).map(copyWalkmesh);
          const p = plan(c.format, doc, meshes, rand);
          expect(p, `no ${kind} is defined for ${c.format}`).toBeDefined();
          const label = `${c.name} (seed 0x${seed.toString(16)}, ${p!.describe})`;
          const changes = p!.changes.map(({ column, element }) => ({ path: pathOf(doc, column), element }));
          const derived = new Set(p!.derived.map((column) => pathOf(doc, column)));
          for (const ch of changes) expect(ch.path, label).toBeDefined();
          const isChange = (d: FieldDifference) => changes.some((ch) => ch.path === d.path && ch.element === d.index);

          const result = applyEdit(meshes[p!.mesh]!, p!.command);
          const written = handler.write(handler.fromWalkmeshes!(meshes, doc), env);
          const again = handler.read(written, env);
          const differences = documentDifferences(p!.expected, again, p!.ignore, 1_000_000);
          expect(differences.filter(isChange).length, `${label}: the edited values did not change`).toBe(changes.length);
          expect(render(differences.filter((d) => !isChange(d) && !derived.has(d.path))), `${label}: stored values the edit did not touch changed`).toBe('');

          applyEdit(meshes[p!.mesh]!, result.inverse);
          const undone = handler.write(handler.fromWalkmeshes!(meshes, doc), env);
          expect(firstDifference(undone, bytes), `${label}: after the undo`).toBeNull();
          t.passed++;
        });
      }
    });
  }

  afterAll(() => {
    const rows = [...tallies.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `  ${k.padEnd(28)} ${String(v.passed).padStart(4)} of ${String(v.tried).padStart(4)}`);
    const skipped = [...notRead.entries()].map(([ext, n]) => `${ext} ${n}`).join(', ');
    // Stage "refused" counts files refused as damaged (inside "document"); "held" counts resources inside archives.
    console.log(`fixture corpus (${corpus.length} files read by Walkbench):\n  stage     format                passed of tried\n${rows.join('\n')}\n  not a format Walkbench reads: ${skipped || 'none'}`);
  });
});
