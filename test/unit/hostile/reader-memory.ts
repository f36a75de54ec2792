import { statSync } from 'node:fs';
import { collectGarbage } from '../../bench/measure';
import { listFixtures, readFixture, fixtureName } from '../../support/fixtures';

/** Memory a read allocates (heap + ArrayBuffers, no GC during it), from a collected heap. */
export function allocation<T>(read: () => T): { bytes: number; result: T } {
  collectGarbage();
  const m0 = process.memoryUsage();
  const result = read();
  const m1 = process.memoryUsage();
  return { bytes: m1.heapUsed - m0.heapUsed + m1.arrayBuffers - m0.arrayBuffers, result };
}

export function fixtureInputs(folder: string, ext: readonly string[], maxSize = 3_000_000): { name: string; bytes: Uint8Array }[] {
  return listFixtures(folder, ext)
    .filter((f) => statSync(f).size <= maxSize)
    .map((f) => ({ name: fixtureName(f), bytes: readFixture(f) }));
}
