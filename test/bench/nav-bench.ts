import path from 'node:path';
import { readNav } from '../../shared/formats/source/nav-reader';
import { writeNav } from '../../shared/formats/source/nav-writer';
import type { NavDocument } from '../../shared/formats/source/nav-document';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import type { BenchGroup, BenchSuite } from './bench-suite';

/** Source `.nav` fixtures, one row per game folder (cs16, css, csgo, hl2dm, tf2). */
export const navBench: BenchSuite<NavDocument> = {
  name: 'source .nav',
  groups() {
    const byFolder = new Map<string, BenchGroup>();
    for (const file of listFixtures('source', ['.nav'])) {
      const label = path.dirname(fixtureName(file)).split(path.sep).slice(1).join('/') || 'source';
      let group = byFolder.get(label);
      if (!group) byFolder.set(label, (group = { label, inputs: [] }));
      group.inputs.push({ name: path.basename(file), bytes: readFixture(file) });
    }
    return [...byFolder.values()].sort((a, b) => a.label.localeCompare(b.label));
  },
  read: readNav,
  write: writeNav,
};
