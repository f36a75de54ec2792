// `prepare` runs after `npm install` in the repository, and also when `npx walkbench`
// links this folder into npm's exec cache. The first builds everything; the second must
// not rebuild the app (or fail on a half-edited renderer) just to run the command line.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const built = existsSync(new URL('../dist/cli/walkbench.mjs', import.meta.url));
if (process.env.npm_command === 'exec' && built) process.exit(0);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);
