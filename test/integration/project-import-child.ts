/**
 * Child process of the crash test: imports the Source fixtures again and again into new
 * modules until it is killed, printing a line after each committed batch.
 */
import path from 'node:path';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { fixturesRoot } from '../support/fixtures';

const file = process.argv[2];
if (!file) throw new Error('usage: project-import-child.ts PROJECT');
const store = ProjectStore.open(file);
for (let round = 0; ; round++) {
  await importSources(store, [path.join(fixturesRoot, 'source')], {
    module: `round-${round}`,
    onProgress: (p) => void process.stdout.write(`committed ${round} ${p.done}\n`),
  });
}
