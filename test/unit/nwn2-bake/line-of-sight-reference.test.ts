import { describe, expect, it } from 'vitest';
import { bakeTrn } from '../../../shared/bakers/nwn2/trn-bake';
import { generateExteriorAswm } from '../../../shared/bakers/nwn2/exterior-generator';
import { NODE_LOS_BIT } from '../../../shared/formats/nwn2/aswm-document';
import { fixtureName, listFixtures } from '../../support/fixtures';
import { compareLineOfSight } from '../../support/nwn2-los-reference/compare-line-of-sight';
import { aswmOf, loadTrx } from './bake-test-support';
import { kaedrinAreas, kaedrinDir, loadArea, mordDir } from '../nwn2-trn-bake/bake-support';

/**
 * The line-of-sight step (line-of-sight.ts, pair-visibility.ts, tile-walls.ts) was made
 * faster in issue 18 without changing what it decides: on every fixture walkmesh, and on
 * the walkmesh of every fixture TRN baked with its GIT, it sets exactly the bits the
 * earlier all-pairs implementation (kept in test/support/nwn2-los-reference) sets.
 */
describe('line-of-sight bits against the pre-issue-18 implementation', () => {
  const trx = listFixtures('nwn2', ['.trx']);

  it.each(trx.map((f) => [fixtureName(f), f]))('%s: re-bake sets the same bits', (_name, file) => {
    const c = compareLineOfSight(aswmOf(loadTrx(file)));
    expect(c.reference).toBeGreaterThan(0);
    expect(c.current).toBe(c.reference);
    expect(c.differing).toBe(0);
  });

  const areas = [...kaedrinAreas.map((name) => ({ dir: kaedrinDir, name })), { dir: mordDir, name: 'CSLMordMansion' }];
  it.each(areas.map((a) => [a.name, a]))('%s: TRN bake with its GIT sets the same bits', (_name, a) => {
    const area = loadArea(a.dir, a.name);
    const baked = bakeTrn({ trn: area.trn, git: area.git, options: { lineOfSight: false } });
    expect(baked.aswm.tiles.nodes.some((v) => v !== 0xff && (v & NODE_LOS_BIT) !== 0)).toBe(false);
    const c = compareLineOfSight(baked.aswm);
    expect(c.reference).toBeGreaterThan(0);
    expect(c.current).toBe(c.reference);
    expect(c.differing).toBe(0);
  });

  it('sets the same bits on a generated exterior (open terrain, few walls)', () => {
    const c = compareLineOfSight(generateExteriorAswm({ tiles: 16, border: 2, patches: 24 }));
    expect(c.reference).toBeGreaterThan(0);
    expect(c.current).toBe(c.reference);
    expect(c.differing).toBe(0);
  });
});
