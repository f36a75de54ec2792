import { bakeEdges } from '../../../shared/bakers/nwn2/bake-edges';
import { bakeMeshOf } from '../../../shared/bakers/nwn2/bake-mesh';
import { bakeTilePaths } from '../../../shared/bakers/nwn2/bake-tile-paths';
import { markLineOfSight } from '../../../shared/bakers/nwn2/line-of-sight';
import { triangleCentres } from '../../../shared/bakers/nwn2/triangle-centres';
import { ASWM_CURRENT_VERSION, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { convertAswmVersion } from '../../../shared/formats/nwn2/aswm-version';
import { markLineOfSight as referenceMarkLineOfSight } from './line-of-sight';

export interface LineOfSightComparison {
  /** Bytes of all tile tables. */
  entries: number;
  /** Entries whose line-of-sight bit differs between the two. */
  differing: number;
  /** First differing entry, or −1. */
  firstDifference: number;
  /** Ordered pairs each marked (their return values). */
  reference: number;
  current: number;
  /** Milliseconds each took. */
  referenceMs: number;
  currentMs: number;
}

/**
 * Bakes the tile tables of `input`'s mesh as rebakeAswm does, then sets the line-of-sight
 * bits once with the reference (pre-issue-18) implementation and once with the current
 * one, on two copies of the same tables, and compares them entry by entry.
 */
export function compareLineOfSight(input: AswmDocument): LineOfSightComparison {
  const a = input.version === ASWM_CURRENT_VERSION ? input : convertAswmVersion(input, ASWM_CURRENT_VERSION);
  const e = bakeEdges(a.triVertices, a.vertices.length / 3, a.edges);
  const mesh = bakeMeshOf(a, e.triLinks, triangleCentres(a.vertices, a.triVertices));
  const paths = bakeTilePaths(mesh, a);
  const before = paths.nodes.slice();
  const t0 = performance.now();
  const reference = referenceMarkLineOfSight(mesh, paths, a.vertices, a.triVertices, e.triEdges, e.edges);
  const t1 = performance.now();
  const referenceNodes = paths.nodes.slice();
  paths.nodes.set(before);
  const t2 = performance.now();
  const current = markLineOfSight(mesh, paths, a.vertices, a.triVertices, e.triEdges, e.edges);
  const t3 = performance.now();
  let differing = 0;
  let firstDifference = -1;
  for (let i = 0; i < referenceNodes.length; i++) {
    if (referenceNodes[i] !== paths.nodes[i]) {
      differing++;
      if (firstDifference < 0) firstDifference = i;
    }
  }
  return { entries: referenceNodes.length, differing, firstDifference, reference, current, referenceMs: t1 - t0, currentMs: t3 - t2 };
}
