#!/usr/bin/env node
// `npm start` (after `npm run build`): the desktop app where Electron can run, otherwise
// browser mode (`walkbench serve`), saying in one line why. Arguments are passed on, e.g.
// `npm start -- --file level.nav`. WALKBENCH_BROWSER=1 asks for browser mode outright.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
/** An Electron that dies this soon after launch did not start (missing libraries…). */
const EARLY_EXIT_MS = 10_000;

/** The Electron executable, or why there is none. */
function findElectron() {
  if (process.env.WALKBENCH_BROWSER === '1') return { reason: 'WALKBENCH_BROWSER=1 asks for browser mode' };
  let binary;
  try {
    // The electron package exports the path of its binary, and throws when the binary
    // was never downloaded (its install script is not allowed to run here).
    binary = require('electron');
  } catch {
    return { reason: 'the Electron binary is not installed (node_modules/electron has no dist)' };
  }
  if (typeof binary !== 'string' || !existsSync(binary)) return { reason: `the Electron binary is missing (${String(binary)})` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  return { binary };
}

/** Runs a child with our terminal, passing on SIGINT/SIGTERM; resolves with its exit. */
function run(command, commandArgs) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code, signal });
    });
  });
}

async function serve(reason) {
  process.stdout.write(`walkbench: Electron cannot start here (${reason}); serving the app in browser mode instead.\n`);
  const result = await run(process.execPath, [path.join(root, 'electron/cli/bin.mjs'), 'serve', ...args]);
  return result.code ?? (result.signal ? 0 : 1);
}

async function main() {
  const found = findElectron();
  if (!found.binary) return serve(found.reason);
  const started = Date.now();
  const result = await run(found.binary, [root, ...args]);
  if (result.error) return serve(`launching ${found.binary} failed: ${result.error.message}`);
  if (result.code !== 0 && result.signal === null && Date.now() - started < EARLY_EXIT_MS) {
    return serve(`Electron exited with status ${result.code} while starting`);
  }
  return result.code ?? 0;
}

process.exitCode = await main();
