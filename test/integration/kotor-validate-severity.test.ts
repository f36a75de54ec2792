import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCommand } from '../../electron/cli/commands/validate-command';
import { bakeBwm } from '../../shared/bakers/kotor/bwm-bake';
import { AABB_NODE_WORDS, type BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { DEFAULT_WALKABILITY } from '../../shared/formats/kotor/surface-materials';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import { commandRunner } from '../support/run-command';
import { gridBakeInput } from '../unit/kotor/grid-walkmesh';

/**
 * `walkbench validate` on BWM files judges them as the game does: what the game refuses,
 * crashes on or cannot path through is an error (exit 1); what game-shipped rooms have and
 * the game loads is a warning with its reason (exit 0).
 */
const validate = commandRunner(validateCommand);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-kotor-validate-'));
const gameRooms = [...listFixtures('kotor/k1-blackvulkar', ['.wok']), ...listFixtures('kotor2', ['.wok'])];

interface Result {
  ok: boolean;
  errors: { code: string; message: string }[];
  warnings: { code: string; message: string }[];
}

async function check(file: string): Promise<Result & { status: number }> {
  const r = await validate(file, '--json');
  const [result] = JSON.parse(r.out) as Result[];
  return { ...result!, status: r.status };
}

function save(name: string, doc: BwmDocument | Uint8Array): string {
  const file = path.join(tmp, name);
  writeFileSync(file, doc instanceof Uint8Array ? doc : writeBwm(doc));
  return file;
}

const room = (): BwmDocument => bakeBwm(gridBakeInput(5, 3), DEFAULT_WALKABILITY).document;

describe('validate: BWM severity as the game sees it', () => {
  it('every game-shipped room (K1 and TSL) exits 0; its tolerated oddities are warnings that say why', async () => {
    expect(gameRooms.some((f) => f.includes('kotor2'))).toBe(true);
    const codes = new Map<string, string>();
    for (const file of gameRooms) {
      const r = await check(file);
      expect(r.errors, fixtureName(file)).toEqual([]);
      expect(r.status, fixtureName(file)).toBe(0);
      for (const w of r.warnings) if (!codes.has(w.code)) codes.set(w.code, w.message);
    }
    expect(codes.get('bwm.face.degenerate')).toMatch(/zero area; the game loads such faces/);
    expect(codes.get('bwm.edge.non-manifold')).toMatch(/shared by [34] faces .*the game loads such edges/);
  });

  it('a face naming a vertex that does not exist is an error: exit 1', async () => {
    const doc = room();
    doc.faces[7] = doc.vertices.length / 3 + 40;
    const r = await check(save('bad-index.wok', doc));
    expect(r.status).toBe(1);
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => e.code)).toContain('bwm.face.vertex-index');
  });

  it('a vertex that is not a finite number and an AABB child past the table are errors', async () => {
    const nan = room();
    nan.vertices[4] = 0x7fc00000;
    expect((await check(save('nan.wok', nan))).errors.map((e) => e.code)).toContain('bwm.vertex.not-finite');
    const child = room();
    child.aabb[9] = child.aabb.length / AABB_NODE_WORDS + 3;
    const r = await check(save('child.wok', child));
    expect(r.status).toBe(1);
    expect(r.errors.map((e) => e.code)).toContain('bwm.aabb.child');
  });

  it('what the game tolerates is a warning and exits 0: a zero-area face, a plane flag of 3, bytes after the end', async () => {
    const zero = room();
    // Face 0's last corner onto its second, as m10aa_03a face 39; its stored normal is (1, 0, 0) as the bake gives it.
    zero.faces[2] = zero.faces[1]!;
    const rebaked = bakeBwm({ type: zero.type, hooks: zero.hooks, vertices: zero.vertices, faces: zero.faces, materials: zero.materials, transitions: new Int32Array(zero.faces.length).fill(-1) }, DEFAULT_WALKABILITY).document;
    const z = await check(save('zero-area.wok', rebaked));
    expect(z.errors).toEqual([]);
    expect(z.status).toBe(0);
    expect(z.warnings.map((w) => w.code)).toContain('bwm.face.degenerate');

    const flag = room();
    flag.aabb[8] = 3; // the root node's flag, as PyKotor writes a Z split
    const f = await check(save('flag3.wok', flag));
    expect(f.status).toBe(0);
    expect(f.warnings.find((w) => w.code === 'bwm.aabb.plane')?.message).toMatch(/only orders its search/);

    const bytes = writeBwm(room());
    const padded = new Uint8Array(bytes.length + 6);
    padded.set(bytes);
    padded.set([0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd], bytes.length);
    const p = await check(save('padded.wok', padded));
    expect(p.status).toBe(0);
    expect(p.warnings.find((w) => w.code === 'bwm.padding.trailing')?.message).toMatch(/6 byte\(s\) after the last section/);
  });

  it('garbage between sections is a warning, and the file still comes back byte for byte', async () => {
    const bytes = writeBwm(room());
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Move the perimeter table 8 bytes later, leaving a gap of garbage before it.
    const at = view.getUint32(0x84, true);
    const gapped = new Uint8Array(bytes.length + 8);
    gapped.set(bytes.subarray(0, at));
    gapped.set([1, 2, 3, 4, 5, 6, 7, 8], at);
    gapped.set(bytes.subarray(at), at + 8);
    new DataView(gapped.buffer).setUint32(0x84, at + 8, true);
    const file = save('gap.wok', gapped);
    const r = await check(file);
    expect(r.status).toBe(0);
    expect(r.warnings.find((w) => w.code === 'bwm.padding.gap')?.message).toMatch(/^8 byte\(s\) between sections/);
    expect(Buffer.from(writeBwm(readBwm(readFixture(file)))).equals(Buffer.from(gapped))).toBe(true);
  });
});
