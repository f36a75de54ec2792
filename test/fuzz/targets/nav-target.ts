import { statSync } from 'node:fs';
import { NAV_FORMAT, NAV_READ_MEMORY, readNav } from '../../../shared/formats/source/nav-reader';
import { validateNav } from '../../../shared/formats/source/nav-validate';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import type { NavDocument } from '../../../shared/formats/source/nav-document';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { navAsOldVersion } from '../../support/nav-test-files';
import type { CountField, FuzzTarget } from '../fuzz-target';
import { navStructureMutators } from '../structure-mutators';
import { hasNonFiniteNav } from './non-finite-oracle';

/**
 * Source `.nav`: readNav on the mutated bytes. An accepted input must be written back
 * byte for byte (the reader keeps everything, trailing bytes included), which also proves
 * the written bytes read again; and validateNav must run on the document without throwing.
 */
export const navTarget: FuzzTarget<NavDocument> = {
  name: 'nav',
  description: 'Source .nav reader (readNav), with writeNav round trip and validateNav on accepted inputs',
  format: NAV_FORMAT,
  memoryFactor: NAV_READ_MEMORY.perInputByte,
  inflatedFactor: NAV_READ_MEMORY.perDecompressedByte,
  loadCorpus({ maxSize, all }) {
    const files = [...listFixtures('source', ['.nav']), ...listFixtures('source-maps', ['.nav'])];
    const real = files.filter((file) => all || statSync(file).size <= maxSize).map((file) => ({ name: fixtureName(file), bytes: readFixture(file) }));
    return [...real, ...oldVersionSeeds(files)];
  },
  countFields(bytes) {
    const fields: CountField[] = [];
    readNav(bytes, { onCount: (offset, byteWidth, kind) => fields.push({ offset, byteWidth, kind }) });
    return fields;
  },
  structure: () => ({}),
  structureMutators: navStructureMutators,
  parse: (bytes) => readNav(bytes),
  check(doc, bytes) {
    const written = writeNav(doc);
    const at = firstDifference(written, bytes);
    if (at !== -1) {
      throw new Error(`writeNav(readNav(input)) differs from the input at byte ${at} (${written.length} vs ${bytes.length} bytes)`);
    }
    // The written bytes equal the accepted input, so reading them again (readNav is a pure
    // function of its bytes) is already known to succeed with the same document.
    const findings = validateNav(doc);
    if (hasNonFiniteNav(doc) && !findings.some((f) => f.severity === 'error')) {
      throw new Error('readNav: the document has a non-finite area corner but validateNav reports no error');
    }
  },
};

/**
 * Seeds of versions 1 and 2, which no real file is known to have: the smallest real file of
 * version 3 to 5 rewritten by the loaders' rules (navAsOldVersion), so mutations reach the
 * v1 hiding-spot and the pre-v3 encounter layouts. Versions 3 and 4 have real seeds.
 */
function oldVersionSeeds(files: readonly string[]): { name: string; bytes: Uint8Array }[] {
  let smallest: { file: string; doc: NavDocument; size: number } | undefined;
  for (const file of files) {
    const bytes = readFixture(file);
    const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
    if (version < 3 || version > 5 || (smallest && bytes.length >= smallest.size)) continue;
    smallest = { file, doc: readNav(bytes), size: bytes.length };
  }
  if (!smallest) return [];
  const from = smallest;
  return ([1, 2] as const).map((v) => ({ name: `generated/v${v}-from-${fixtureName(from.file)}`, bytes: writeNav(navAsOldVersion(from.doc, v)) }));
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  // memcmp first; the byte loop only runs to locate a difference.
  if (Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
