import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Walkbench folder (the one holding package.json), found by walking up from this
 * module: the same answer whether it runs from source (tests, tsx) or from the CLI bundle
 * in dist/cli.
 */
export function appRoot(fromUrl: string = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

/** Where `vite build` puts the renderer. */
export function rendererDirectory(root: string = appRoot()): string {
  return path.join(root, 'dist', 'renderer');
}
