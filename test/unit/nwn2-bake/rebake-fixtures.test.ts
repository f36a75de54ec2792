import { describe, expect, it } from 'vitest';
import { compareBakes } from '../../../shared/bakers/nwn2/bake-compare';
import { rebakeTrx, type BakeResult } from '../../../shared/bakers/nwn2/trx-rebake';
import { NODE_INDEX_MASK, NO_NODE, NONE16, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import type { TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { fixtureName, listFixtures } from '../../support/fixtures';
import { aswmOf, checkLineOfSight, env, loadTrx } from './bake-test-support';

const files = listFixtures('nwn2', ['.trx']);

const baked = new Map<string, { original: TrxDocument; result: BakeResult & { document: TrxDocument } }>();
function bakeOf(file: string) {
  let entry = baked.get(file);
  if (!entry) {
    const original = loadTrx(file);
    entry = { original, result: rebakeTrx(original) };
    baked.set(file, entry);
  }
  return entry;
}

/**
 * The tables with what a re-bake may change on purpose removed: line-of-sight bits, and
 * the weight and padding of self and unreachable island pairs (garbage in toolset files).
 */
function withoutLosAndGarbage(a: AswmDocument): AswmDocument {
  const next = a.islandPaths.next;
  return {
    ...a,
    tiles: { ...a.tiles, nodes: a.tiles.nodes.map((v) => (v === NO_NODE ? v : v & NODE_INDEX_MASK)) },
    islandPaths: {
      next,
      padding: a.islandPaths.padding.map((v, i) => (next[i] === NONE16 ? 0 : v)),
      weight: a.islandPaths.weight.map((v, i) => (next[i] === NONE16 ? 0 : v)),
    },
  };
}

describe('re-baking every fixture TRX', () => {
  it('finds the 24 fixture TRX files, including the Mord Mansion one', () => {
    expect(files).toHaveLength(24);
    expect(files.some((f) => f.endsWith('CSLMordMansion.TRX'))).toBe(true);
  });

  for (const file of files) {
    describe(fixtureName(file), () => {
      it('agrees with the toolset on everything but line of sight (every agreement fraction 1)', () => {
        const { original, result } = bakeOf(file);
        const c = compareBakes(result.aswm, aswmOf(original));
        const { lineOfSight, ...exact } = c.agreement;
        expect(exact).toEqual({ reachability: 1, nextHopOnShortestPath: 1, islands: 1, islandReachability: 1, islandNextHopOnShortestPath: 1 });
        expect(c.reference).toEqual({ nextHopOnShortestPath: 1, islandNextHopOnShortestPath: 1 });
        expect(c.counts.tilePairs).toBeGreaterThan(0);
        expect(c.counts.islands.ours).toBe(aswmOf(original).islands.count);
        expect(lineOfSight).toBeGreaterThan(0);
        expect(lineOfSight).toBeLessThan(1);
        expect(c.counts.lineOfSight.ours).toBe(result.counts.lineOfSightPairs);
      });

      it('reproduces the file byte for byte except line-of-sight bits and island-path garbage', () => {
        const { original, result } = bakeOf(file);
        const ours = writeAswm(withoutLosAndGarbage(result.aswm));
        const theirs = writeAswm(withoutLosAndGarbage(aswmOf(original)));
        expect(ours.length).toBe(theirs.length);
        expect(Buffer.compare(Buffer.from(ours), Buffer.from(theirs))).toBe(0);
      });

      it('sets only sound line-of-sight bits (sampled segments stay on the tile’s walkable triangles)', () => {
        const { result } = bakeOf(file);
        const stride = Math.max(1, Math.floor(result.counts.lineOfSightPairs / 2 / 250));
        const check = checkLineOfSight(result.aswm, stride);
        expect(check.checked).toBeGreaterThan(0);
        expect(check.violations).toBe(0);
      });

      it('validates without errors, survives the writer, and re-bakes to itself', () => {
        const { original, result } = bakeOf(file);
        const errors = validateTrx(result.document).filter((f) => f.severity === 'error');
        expect(errors).toEqual([]);
        // Warnings are the toolset's own (winding flags, a centre on a tile border): the bake adds none.
        const before = validateTrx(original).map((f) => f.code).sort();
        expect(validateTrx(result.document).map((f) => f.code).sort()).toEqual(before);

        const back = readTrx(writeTrx(result.document, env), env);
        expect(back.packets.map((p) => p.type)).toEqual(original.packets.map((p) => p.type));
        expect(Buffer.compare(Buffer.from(writeAswm(aswmOf(back))), Buffer.from(writeAswm(result.aswm)))).toBe(0);
        expect(aswmOf(back).bakeStale).toBe(false);

        const again = rebakeTrx(back);
        expect(Buffer.compare(Buffer.from(writeAswm(again.aswm)), Buffer.from(writeAswm(result.aswm)))).toBe(0);
        baked.delete(file);
      });
    });
  }
});
