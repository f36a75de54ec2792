import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pako from 'pako';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compressedStreamOf } from '../../../shared/formats/nwn2/aswm-packet';
import { readNwn2Container } from '../../../shared/formats/nwn2/nwn2-container';
import { RECORD_HEADER_SIZE, walkRecords } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { classicDeflate, classicDeflateEngine } from '../../../shared/platform/classic-deflate';
import { ZLIB_DEFLATE_WASM_BASE64, ZLIB_DEFLATE_WASM_SHA256 } from '../../../shared/platform/zlib-deflate-wasm';
import { nodeZlibCodec } from '../../../electron/services/node-zlib-codec';
import { fixtureName, listFixtures, readFixture, repoRoot } from '../../support/fixtures';
import { mulberry32 } from '../../support/seeded-random';

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** pako 2.1.0 stays the reference: it reproduces the toolsets' streams (trx/plugin round-trip tests). */
function reference(data: Uint8Array, level: number): Uint8Array {
  return pako.deflate(data, { level: level as Level });
}

/** Index of the first differing byte, or null when equal (a readable failure on megabytes). */
function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

function expectSameStream(data: Uint8Array, level: number): Uint8Array {
  const ours = classicDeflate(data, level);
  const ref = reference(data, level);
  expect({ length: ours.length, firstDifference: firstDifference(ours, ref) }).toEqual({ length: ref.length, firstDifference: null });
  return ours;
}

describe('classicDeflate (zlib 1.2.13 as WebAssembly) against pako 2.1.0', () => {
  it('runs the WebAssembly module in Node, not the pako fallback', () => {
    expect(classicDeflateEngine()).toBe('wasm');
  });

  it('is what the Node and portable codecs deflate with', () => {
    expect(nodeZlibCodec.deflate).toBe(classicDeflate);
    expect(portableEnvironment.zlib.deflate).toBe(classicDeflate);
  });

  describe('every compressed walkmesh packet of the NWN2 fixtures (level 6)', () => {
    const files = listFixtures('nwn2', ['.trx', '.trn']);
    it.each(files.map((f) => [fixtureName(f), f] as const))('%s', (_name, file) => {
      const container = readNwn2Container(readFixture(file), 'TRX');
      for (const packet of container.packets) {
        const stream = compressedStreamOf(packet.payload);
        if (!stream) continue;
        const raw = pako.inflate(stream);
        // And so the toolset's own bytes, as pako gives them.
        expect(firstDifference(expectSameStream(raw, 6), stream)).toBeNull();
      }
    });
    it('found compressed packets to check', () => {
      const total = files.reduce((n, f) => n + readNwn2Container(readFixture(f), 'TRX').packets.filter((p) => compressedStreamOf(p.payload)).length, 0);
      expect(total).toBeGreaterThan(10);
    });
  });

  describe('every compressed record of the Skyrim fixtures (level 9)', () => {
    const files = [...listFixtures('skyrim', ['.esp', '.esm']), ...listFixtures('skyrim-land', ['.esp', '.esm'])];
    it.each(files.map((f) => [fixtureName(f), f] as const))('%s', (_name, file) => {
      const bytes = readFixture(file);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let records = 0;
      for (const { record } of walkRecords(readPlugin(bytes, portableEnvironment).items)) {
        if (!record.compressed) continue;
        records++;
        const start = record.sourceOffset + RECORD_HEADER_SIZE;
        const stream = bytes.subarray(start + 4, start + view.getUint32(record.sourceOffset + 4, true));
        const raw = pako.inflate(stream);
        expect(firstDifference(expectSameStream(raw, 9), stream)).toBeNull();
      }
      expect(records).toBeGreaterThan(0);
    });
  });

  describe('seeded random inputs of varied sizes and entropy, levels 1–9', () => {
    const inputs = randomInputs(0x5eed);
    for (const { name, data, levels } of inputs) {
      it(`${name} (${data.length} bytes)`, () => {
        for (const level of levels) expectSameStream(data, level);
      });
    }
  });

  it('gives pako’s bytes for one input after another (the module is reused; sizes shrink and grow)', () => {
    const inputs = randomInputs(7)
      .filter((i) => i.data.length <= 70_000)
      .map((i) => i.data);
    for (const data of [...inputs, ...inputs.reverse()]) expectSameStream(data, 6);
  });

  it('hands level 0 to pako (stored blocks follow the output space) and refuses levels outside 0–9', () => {
    const data = randomInputs(3).find((i) => i.name === 'walkmesh-like floats')!.data;
    expectSameStream(data, 0);
    for (const bad of [-1, 10, 1.5, Number.NaN]) expect(() => classicDeflate(data, bad)).toThrow(RangeError);
  });

  it('embeds exactly build/zlib-wasm/zlib-deflate.wasm, the build script’s output', () => {
    const file = readFileSync(path.join(repoRoot, 'build/zlib-wasm/zlib-deflate.wasm'));
    expect(Buffer.from(ZLIB_DEFLATE_WASM_BASE64, 'base64').equals(file)).toBe(true);
    expect(createHash('sha256').update(file).digest('hex')).toBe(ZLIB_DEFLATE_WASM_SHA256);
  });
});

describe('classicDeflate where WebAssembly cannot run', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('falls back to pako when WebAssembly is absent', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    const fresh = await import('../../../shared/platform/classic-deflate');
    expect(fresh.classicDeflateEngine()).toBe('pako');
    const data = randomInputs(11).find((i) => i.name === 'text')!.data;
    expect(firstDifference(fresh.classicDeflate(data, 6), reference(data, 6))).toBeNull();
  });

  it('falls back to pako when compiling is refused (a page whose CSP lacks wasm-unsafe-eval)', async () => {
    vi.resetModules();
    const refusing = {
      Module: class {
        constructor() {
          throw new Error('WebAssembly.Module(): Refused to compile or instantiate WebAssembly module');
        }
      },
      Instance: WebAssembly.Instance,
    };
    vi.stubGlobal('WebAssembly', refusing);
    const fresh = await import('../../../shared/platform/classic-deflate');
    expect(fresh.classicDeflateEngine()).toBe('pako');
    const data = randomInputs(12).find((i) => i.name === 'noise 65537')!.data;
    expect(firstDifference(fresh.classicDeflate(data, 9), reference(data, 9))).toBeNull();
  });
});

interface RandomInput {
  name: string;
  data: Uint8Array;
  levels: readonly number[];
}

function randomInputs(seed: number): RandomInput[] {
  const rnd = mulberry32(seed);
  const all = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const out: RandomInput[] = [];
  const bytes = (n: number, f: (i: number) => number) => Uint8Array.from({ length: n }, (_, i) => f(i));
  // Uniform noise around the sizes where zlib's buffers turn over (16 Ki symbols, the 32 KiB window).
  for (const n of [0, 1, 2, 3, 4, 258, 259, 16383, 16384, 16385, 65535, 65536, 65537]) out.push({ name: `noise ${n}`, data: bytes(n, () => (rnd() * 256) | 0), levels: all });
  out.push({ name: 'low entropy', data: bytes(300_000, () => (rnd() < 0.9 ? 0 : (rnd() * 4) | 0)), levels: all });
  out.push({ name: 'zeros', data: new Uint8Array(200_000), levels: all });
  const words = ['walk', 'mesh', 'tile', 'edge', 'face', 'door', ' ', '\n', 'the', 'of', 'navigation'];
  out.push({ name: 'text', data: new TextEncoder().encode(Array.from({ length: 60_000 }, () => words[(rnd() * words.length) | 0]).join('')), levels: all });
  // Long matches at every distance up to the window, and a tail that repeats past the end of
  // the lookahead (where zlib compares bytes beyond the input's end before capping).
  const block = bytes(40_000, () => (rnd() * 256) | 0);
  const repeated = new Uint8Array(block.length * 5 + 123);
  for (let o = 0; o < repeated.length; o += block.length) repeated.set(block.subarray(0, Math.min(block.length, repeated.length - o)), o);
  for (let k = 0; k < 200; k++) repeated[(rnd() * repeated.length) | 0] = (rnd() * 256) | 0;
  out.push({ name: 'repeated blocks with edits', data: repeated, levels: all });
  // Like a walkmesh: little-endian f32 vertices on a grid, u32 indices, flags.
  const floats = new DataView(new ArrayBuffer(400_000));
  for (let o = 0; o + 16 <= floats.byteLength; o += 16) {
    floats.setFloat32(o, Math.round(rnd() * 64) * 0.5, true);
    floats.setFloat32(o + 4, Math.round(rnd() * 64) * 0.5, true);
    floats.setFloat32(o + 8, rnd() < 0.7 ? 0 : rnd() * 4, true);
    floats.setUint32(o + 12, ((o >> 4) + ((rnd() * 8) | 0)) & 0xffff, true);
  }
  out.push({ name: 'walkmesh-like floats', data: new Uint8Array(floats.buffer), levels: [1, 4, 6, 9] });
  return out;
}
