/**
 * Rebuilds the classic-zlib deflate that Walkbench runs as WebAssembly:
 *   build/zlib-wasm/zlib-deflate.wasm        the module (committed)
 *   shared/platform/zlib-deflate-wasm.ts     the same bytes as base64, so that Node, workers
 *                                            and the renderer load it without a file read
 *
 * Source: zlib 1.2.13, Debian bookworm's source package `zlib` 1:1.2.13.dfsg-1 (upstream
 * zlib 1.2.13 with only Debian's build patches, none of which touch deflate), fetched with
 * `apt-get source` and checked against the SHA-256 pinned below. Licence: the zlib licence
 * (Jean-loup Gailly and Mark Adler), which allows redistribution of altered builds; its
 * text is in the source's LICENSE and in zlib.h. Compiled: deflate.c, trees.c, adler32.c,
 * crc32.c, zutil.c, with deflate-glue.c beside this file, and one change to deflate.c,
 * chain4-longest-match.patch beside this file (built with WB_CHAIN4): longest_match() finds
 * the same match as zlib's through a second index on 4-byte prefixes instead of walking
 * the whole 3-byte hash chain, which is where zlib spends about 70 % of its time on
 * walkmeshes. The patch's comment says why the result is the same; the unit test
 * test/unit/deflate/exact-deflate.test.ts checks it against pako on every fixture stream
 * and on seeded random inputs at every level.
 *
 * Why classic zlib: the NWN2 toolset and the Creation Kit wrote their streams with it, and
 * pako 2.1.0 (a port of it) reproduces them; zlib 1.2.13 was checked to give pako's bytes
 * on every fixture stream (30 ASWM packets at level 6, 320 Skyrim records at level 9).
 * Node's own zlib is Chromium's fork, whose different hashing gives other bytes.
 *
 * Needs: clang-14 and lld-14 (Debian: `apt-get install -y clang-14 lld-14`), apt-get.
 *   node build/zlib-wasm/build-zlib-wasm.mjs           rebuild both outputs
 *   node build/zlib-wasm/build-zlib-wasm.mjs --check   rebuild in a temp folder and fail
 *                                                      unless it equals the committed ones
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const wasmOut = path.join(here, 'zlib-deflate.wasm');
const tsOut = path.join(root, 'shared/platform/zlib-deflate-wasm.ts');

const SOURCE_PACKAGE = 'zlib=1:1.2.13.dfsg-1';
const ORIG_TARBALL = 'zlib_1.2.13.dfsg.orig.tar.bz2';
const ORIG_SHA256 = '71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1';
const ZLIB_FILES = ['deflate.c', 'trees.c', 'adler32.c', 'crc32.c', 'zutil.c'];
const PATCHES = ['chain4-longest-match.patch'];

const check = process.argv.includes('--check');

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
}

function tool(name) {
  try {
    run('sh', ['-c', `command -v ${name}`]);
    return name;
  } catch {
    throw new Error(`${name} not found: apt-get install -y clang-14 lld-14`);
  }
}

/** Fetches the Debian source package without touching the system's apt configuration. */
function fetchZlibSource(work) {
  const apt = path.join(work, 'apt');
  mkdirSync(path.join(apt, 'lists/partial'), { recursive: true });
  writeFileSync(
    path.join(apt, 'zlib-src.sources'),
    'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n',
  );
  const opts = ['-o', 'APT::Sandbox::User=root', '-o', 'Dir::Etc::SourceList=/dev/null', '-o', `Dir::Etc::SourceParts=${apt}`, '-o', `Dir::State::Lists=${path.join(apt, 'lists')}`];
  run('apt-get', [...opts, '-qq', 'update'], work);
  run('apt-get', [...opts, '-qq', 'source', '--download-only', SOURCE_PACKAGE], work);
  const tarball = path.join(work, ORIG_TARBALL);
  const sha = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  if (sha !== ORIG_SHA256) throw new Error(`${ORIG_TARBALL}: SHA-256 ${sha}, expected ${ORIG_SHA256}`);
  run('tar', ['xjf', tarball], work);
  const dir = readdirSync(work).find((n) => n.startsWith('zlib-1.2.13'));
  if (!dir) throw new Error('the zlib source tarball did not unpack to zlib-1.2.13*');
  const src = path.join(work, dir);
  for (const p of PATCHES) run('patch', ['-p1', '--forward', '--quiet', '-i', path.join(here, p)], src);
  return src;
}

function compile(src, out) {
  const clang = tool('clang-14');
  tool('wasm-ld-14');
  run(
    clang,
    [
      '--target=wasm32',
      '-O3',
      '-nostdlib',
      // memory.copy/fill for zlib's zmemcpy/zmemzero loops (Node 20 and Chromium have bulk memory).
      '-mbulk-memory',
      '-DZ_SOLO',
      '-DWB_CHAIN4',
      `-I${src}`,
      '-fuse-ld=lld',
      '-Wl,--no-entry',
      '-Wl,--export=wb_begin',
      '-Wl,--export=wb_step',
      '-Wl,--export=wb_total_out',
      '-Wl,--export=wb_heap_base',
      '-Wl,--strip-all',
      '-o',
      out,
      path.join(here, 'deflate-glue.c'),
      ...ZLIB_FILES.map((f) => path.join(src, f)),
    ],
    src,
  );
}

function tsModule(wasm) {
  const sha = createHash('sha256').update(wasm).digest('hex');
  const b64 = wasm.toString('base64');
  const lines = [];
  for (let i = 0; i < b64.length; i += 100) lines.push(`  '${b64.slice(i, i + 100)}',`);
  return [
    '// Generated by build/zlib-wasm/build-zlib-wasm.mjs from build/zlib-wasm/zlib-deflate.wasm: do not edit.',
    '// zlib 1.2.13 (zlib licence, Jean-loup Gailly and Mark Adler) deflate, compiled to WebAssembly.',
    '',
    `/** SHA-256 of the module's bytes. */`,
    `export const ZLIB_DEFLATE_WASM_SHA256 = '${sha}';`,
    '',
    `/** The module, base64 (${wasm.length} bytes). */`,
    'export const ZLIB_DEFLATE_WASM_BASE64 = [',
    ...lines,
    "].join('');",
    '',
  ].join('\n');
}

const work = mkdtempSync(path.join(tmpdir(), 'zlib-wasm-'));
try {
  const src = fetchZlibSource(work);
  const built = path.join(work, 'zlib-deflate.wasm');
  compile(src, built);
  const wasm = readFileSync(built);
  const ts = tsModule(wasm);
  if (check) {
    const same = existsSync(wasmOut) && readFileSync(wasmOut).equals(wasm) && existsSync(tsOut) && readFileSync(tsOut, 'utf8') === ts;
    process.stdout.write(same ? 'zlib-deflate.wasm: the rebuild equals the committed files\n' : 'zlib-deflate.wasm: the rebuild DIFFERS from the committed files\n');
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(wasmOut, wasm);
    writeFileSync(tsOut, ts);
    process.stdout.write(`wrote ${path.relative(root, wasmOut)} (${wasm.length} bytes) and ${path.relative(root, tsOut)}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
