import pako from 'pako';
import { ZLIB_DEFLATE_WASM_BASE64 } from './zlib-deflate-wasm';

/**
 * Deflate with classic zlib's exact output, about three times as fast as pako: zlib 1.2.13
 * compiled to WebAssembly (build/zlib-wasm/, rebuilt by build-zlib-wasm.mjs there), with
 * its match search sped up by a patch that finds the very same matches. pako 2.1.0 is a
 * port of the same algorithm and gives the same bytes (checked on every fixture ASWM packet
 * and Skyrim record, and on seeded random inputs at every level, by
 * test/unit/deflate/exact-deflate.test.ts, which keeps pako as the reference).
 *
 * Where WebAssembly cannot run (absent, or refused by a content security policy without
 * 'wasm-unsafe-eval', as the renderer's is today) this falls back to pako: same bytes,
 * pako's speed. The module is compiled once, on first use, synchronously (35 KB: allowed
 * on a browser's main thread too).
 */
export function classicDeflate(data: Uint8Array, level: number): Uint8Array {
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new RangeError(`zlib level ${level} is not 0–9`);
  // Level 0 (stored blocks only): since zlib 1.2.11, which pako 2 ports here, the block sizes
  // follow the output space, which pako hands out in 16 KiB pieces and the wasm all at once,
  // so the bytes differ (seen on fixture walkmeshes); the games never use it.
  if (level === 0 || data.length > WASM_MAX_INPUT) return pakoDeflate(data, level);
  return wasmEngine()?.deflate(data, level) ?? pakoDeflate(data, level);
}

/** Which implementation classicDeflate uses here: 'wasm', or 'pako' where WebAssembly cannot run. */
export function classicDeflateEngine(): 'wasm' | 'pako' {
  return wasmEngine() ? 'wasm' : 'pako';
}

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

function pakoDeflate(data: Uint8Array, level: number): Uint8Array {
  return pako.deflate(data, { level: level as Level });
}

/** Inputs above this go to pako: input plus output must fit in 32-bit wasm memory with room to spare. */
const WASM_MAX_INPUT = 512 * 1024 * 1024;
/** Memory grown past this for one call is released afterwards (a new instance next time). */
const KEEP_MEMORY_BYTES = 64 * 1024 * 1024;
const PAGE = 65536;
/**
 * Output bytes per call into the module. Each return to JS lets V8 swap in optimized code
 * for the next call; the first deflate of a process would otherwise run start to end in
 * the baseline tier. The bytes do not depend on it (levels 1–9; tested).
 */
const STEP_BYTES = 64 * 1024;

/** The few WebAssembly declarations used here (shared/ compiles without the DOM library). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
/** build/zlib-wasm/deflate-glue.c */
interface DeflateExports {
  memory: WasmMemory;
  wb_heap_base(): number;
  wb_begin(level: number, input: number, inputLength: number, output: number, outputCapacity: number): number;
  wb_step(maxBytes: number): number;
  wb_total_out(): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

interface Engine {
  /** The stream, or null when the memory for this input could not be had. */
  deflate(data: Uint8Array, level: number): Uint8Array | null;
}

let compiled: object | null | undefined;
let instance: DeflateExports | undefined;

/** The engine, or null when WebAssembly cannot run here (decided once). */
function wasmEngine(): Engine | null {
  if (compiled === undefined) {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    try {
      compiled = api ? new api.Module(decodeBase64(ZLIB_DEFLATE_WASM_BASE64)) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled === null ? null : engine;
}

const engine: Engine = {
  deflate(data, level) {
    const wasm = (instance ??= instantiate());
    // zlib's compressBound: the largest stream deflate can make of `data` (stored blocks).
    const bound = data.length + (data.length >>> 12) + (data.length >>> 14) + (data.length >>> 25) + 13;
    const input = wasm.wb_heap_base();
    const output = input + data.length;
    const need = output + bound;
    const have = wasm.memory.buffer.byteLength;
    if (need > have) {
      try {
        wasm.memory.grow(Math.ceil((need - have) / PAGE));
      } catch {
        instance = undefined;
        return null;
      }
    }
    new Uint8Array(wasm.memory.buffer, input, data.length).set(data);
    let rc = wasm.wb_begin(level, input, data.length, output, bound);
    while (rc === 0) rc = wasm.wb_step(STEP_BYTES);
    if (rc !== 1) throw new Error(`zlib deflate failed with code ${rc}`);
    const stream = new Uint8Array(wasm.memory.buffer, output, wasm.wb_total_out()).slice();
    if (wasm.memory.buffer.byteLength > KEEP_MEMORY_BYTES) instance = undefined;
    return stream;
  },
};

function instantiate(): DeflateExports {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly!;
  return new api.Instance(compiled!, {}).exports as DeflateExports;
}

/** Base64 to bytes without atob/Buffer, so the same code runs in Node, workers and pages. */
function decodeBase64(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const values = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  let end = text.length;
  while (end > 0 && text[end - 1] === '=') end--;
  const out = new Uint8Array((end * 3) >> 2);
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    acc = (acc << 6) | values[text.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
