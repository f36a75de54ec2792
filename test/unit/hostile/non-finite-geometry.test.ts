import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { rebakeTrx } from '../../../shared/bakers/nwn2/trx-rebake';
import { bakeTrn } from '../../../shared/bakers/nwn2/trn-bake';
import { rebakePlugin } from '../../../shared/bakers/skyrim/plugin-rebake';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { readLyt } from '../../../shared/formats/kotor/lyt-reader';
import { validateLyt } from '../../../shared/formats/kotor/lyt-format';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { mdbFormat } from '../../../shared/formats/nwn2/mdb-format';
import { readMdb, readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { aswmPacketOf, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { validateNav } from '../../../shared/formats/source/nav-validate';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import type { Finding } from '../../../shared/validation/finding';
import {
  aswmWithNonFiniteVertices,
  bwmWithNonFinite,
  compressedNavmeshes,
  mdbWithNonFiniteWalk,
  NON_FINITE_BITS,
  nvnmWithNonFiniteVertices,
  pluginWithNvnm,
  trxWithAswm,
} from '../../fuzz/crafted-inputs';
import { listFixtures, readFixture } from '../../support/fixtures';

/**
 * Issue 14: geometry the game needs (vertices, normals, plane distances) that is NaN or
 * infinite is an error in every validator, naming the vertex or face, and every baker
 * refuses it with a ModelMappingError naming the vertex or face (the CLI prints it as one
 * line with the file name and exits non-zero, like a malformed input). Inputs are real
 * fixtures with their coordinates overwritten.
 */

const smallest = (folder: string, ext: readonly string[], ok: (b: Uint8Array) => boolean = () => true): Uint8Array => {
  for (const f of listFixtures(folder, ext).sort((a, b) => statSync(a).size - statSync(b).size)) {
    const b = readFixture(f);
    if (ok(b)) return b;
  }
  throw new Error(`no fixture in ${folder}`);
};

const errors = (findings: readonly Finding[]) => findings.filter((f) => f.severity === 'error');
const notFinite = (findings: readonly Finding[]) => errors(findings).filter((f) => /not-finite/.test(f.code));

function refusal(fn: () => unknown): ModelMappingError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ModelMappingError) return e;
    throw e;
  }
  throw new Error('the bake accepted non-finite geometry');
}

const names = ['NaN', '+Infinity', '-Infinity'];

describe.each(NON_FINITE_BITS.map((bits, i) => [names[i]!, bits] as const))('%s geometry', (_label, bits) => {
  it('Skyrim: the validator reports every non-finite vertex as an error, and the rebake refuses the navmesh', () => {
    const bytes = smallest('skyrim', ['.esp'], (b) => compressedNavmeshes(b).length > 0);
    const target = compressedNavmeshes(bytes)[0]!;
    const doc = readPlugin(pluginWithNvnm(bytes, [target], (n) => nvnmWithNonFiniteVertices(n, bits)), env);
    const bad = notFinite(validatePlugin(doc));
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]!.message).toMatch(/navmesh 0x[0-9A-F]{8} vertex \d+/);
    const e = refusal(() => rebakePlugin(doc));
    expect(e.message).toMatch(/navmesh 0x[0-9A-F]{8}.*vertex \d+/);
  });

  it('NWN2 TRX: the validator reports the vertex, the re-bake and the TRN bake refuse it', () => {
    const bytes = smallest('nwn2', ['.trx'], (b) => { try { return aswmPacketOf(readTrx(b, env)) !== undefined; } catch { return false; } });
    const doc = readTrx(trxWithAswm(bytes, (raw) => aswmWithNonFiniteVertices(raw, bits)), env);
    const bad = notFinite(validateTrx(doc));
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]!.message).toMatch(/vertex \d+/);
    expect(refusal(() => rebakeTrx(doc)).message).toMatch(/vertex \d+/);

    const trnFile = listFixtures('nwn2', ['.trn']).sort((a, b) => statSync(a).size - statSync(b).size)[0]!;
    const trn = readTrx(trxWithAswm(readFixture(trnFile), (raw) => aswmWithNonFiniteVertices(raw, bits, 7)), env);
    const git = readGff(readFixture(listFixtures('nwn2', ['.git'])[0]!));
    expect(refusal(() => bakeTrn({ trn, git })).message).toMatch(/TRN.*vertex \d+/);
  });

  it('NWN2 TRX: a non-finite triangle normal or plane distance is an error naming the triangle, and the re-bake refuses it', () => {
    const bytes = smallest('nwn2', ['.trx'], (b) => { try { return aswmPacketOf(readTrx(b, env)) !== undefined; } catch { return false; } });
    const doc = readTrx(bytes, env);
    const p = aswmPacketOf(doc)!;
    const triNormal = p.aswm.triNormal.slice();
    triNormal[3 * 5 + 2] = bits;
    const triDot = p.aswm.triDot.slice();
    triDot[9] = bits;
    const edited: TrxDocument = { ...doc, packets: doc.packets.map((q) => (q === p ? { ...p, aswm: { ...p.aswm, triNormal, triDot } } : q)) };
    const bad = notFinite(validateTrx(edited));
    expect(bad.map((f) => f.subject)).toEqual(expect.arrayContaining([{ kind: 'triangle', id: 5 }, { kind: 'triangle', id: 9 }]));
    expect(refusal(() => rebakeTrx(edited)).message).toMatch(/triangle (5|9)/);
  });

  it('NWN2 MDB: the validator reports the WALK vertex, and a TRN bake placing the model refuses it', () => {
    const bytes = smallest('nwn2', ['.mdb'], (b) => readMdbWalkmeshes(b).length > 0);
    const bad = mdbWithNonFiniteWalk(bytes, bits);
    expect(notFinite(mdbFormat.validate(readMdb(bad))).length).toBeGreaterThan(0);
    const walkmeshes = readMdbWalkmeshes(bad);
    const trnFile = listFixtures('nwn2', ['.trn']).find((f) => /mord/i.test(f)) ?? listFixtures('nwn2', ['.trn'])[0]!;
    const gitFile = listFixtures('nwn2', ['.git']).find((f) => f.toLowerCase().replace(/\.git$/, '') === trnFile.toLowerCase().replace(/\.trn$/, ''));
    expect(gitFile, 'a TRN fixture with its GIT').toBeDefined();
    const trn = readTrx(readFixture(trnFile), env);
    const git = readGff(readFixture(gitFile!));
    const e = refusal(() => bakeTrn({ trn, git, placeableModels: () => ({ name: 'plc_nan', walkmeshes }), options: { cutters: false } }));
    expect(e.message).toMatch(/plc_nan.*vertex \d+/);
  });

  it('KotOR BWM: non-finite vertices are errors naming the vertex, never "planar distance NaN should be NaN", and the bake refuses them', () => {
    const bytes = smallest('kotor', ['.wok']);
    const doc = readBwm(bwmWithNonFinite(bytes, bits));
    const findings = validateBwm(doc);
    const bad = notFinite(findings);
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]!.message).toMatch(/vertex \d+/);
    for (const f of findings) expect(f.message).not.toMatch(/NaN should be|Infinity should be|should be NaN|should be -?Infinity/);
    expect(refusal(() => bakeBwm(bakeInputOf(doc), DEFAULT_WALKABILITY)).message).toMatch(/vertex \d+/);
  });

  it('KotOR BWM: non-finite stored normals and plane distances are errors naming the face', () => {
    const doc = readBwm(bwmWithNonFinite(smallest('kotor', ['.wok']), bits, true));
    const good = readBwm(smallest('kotor', ['.wok']));
    const findings = validateBwm({ ...doc, vertices: good.vertices });
    const codes = new Set(notFinite(findings).map((f) => f.code));
    expect(codes).toContain('bwm.face.normal-not-finite');
    expect(codes).toContain('bwm.face.plane-not-finite');
    expect(notFinite(findings).every((f) => f.subject?.kind === 'face')).toBe(true);
    for (const f of findings) expect(f.message).not.toMatch(/should be/);
  });

  it('Source .nav: a non-finite area corner is an error naming the area', () => {
    const bytes = smallest('source', ['.nav']);
    const doc = readNav(bytes);
    doc.areas.corners[2] = bits;
    const again = readNav(writeNav(doc));
    const bad = notFinite(validateNav(again));
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]!.subject?.kind).toBe('area');
  });
});

describe('LYT positions', () => {
  it('a room position that overflows to infinity is an error naming the room', () => {
    const text = 'beginlayout\nroomcount 2\n  m01aa_01a 0 0 0\n  m01aa_01b 1e999 0 0\ndonelayout\n';
    const findings = validateLyt(readLyt(Uint8Array.from(text, (c) => c.charCodeAt(0))));
    expect(notFinite(findings).map((f) => f.subject)).toEqual([{ kind: 'room', id: 1 }]);
  });
});
