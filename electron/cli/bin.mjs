#!/usr/bin/env node
// Launcher for the `walkbench` command: runs the bundle that `npm install` builds
// (the `prepare` script). Kept as plain JavaScript so it needs no build itself.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = fileURLToPath(new URL('../../dist/cli/walkbench.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('walkbench: the command line is not built yet; run `npm run build` in the Walkbench folder.\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(bundle).href);
process.exitCode = await main(process.argv.slice(2));
