import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A fresh temporary folder for one test file's projects, removed when the file's tests end. */
export function projectTempDir(prefix: string): (name: string) => string {
  const dir = mkdtempSync(path.join(tmpdir(), `walkbench-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name: string) => path.join(dir, name);
}
