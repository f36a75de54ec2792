import { NO_ADJACENT } from './bwm-adjacency';

export interface PerimeterTables {
  /** face*3 + localEdge of each perimeter edge, in walk order. */
  edgeIndex: Uint32Array;
  /** Cumulative 1-based end of each loop. */
  perimeters: Uint32Array;
}

/**
 * Perimeter edges and loops by the "face walk" that reproduces the game's tables (spec
 * §5.3): from each unvisited border slot, emit it and step to the next edge of the same
 * face; on an interior edge pivot into the neighbour around the shared vertex; stop when a
 * slot already emitted comes round again. Each step is O(1); a loop that never closes (a
 * broken adjacency) is cut after every slot has been visited.
 */
export function walkPerimeters(adjacency: Int32Array): PerimeterTables {
  const slots = adjacency.length;
  const emitted = new Uint8Array(slots);
  const edges: number[] = [];
  const perimeters: number[] = [];
  for (let start = 0; start < slots; start++) {
    if (adjacency[start] !== NO_ADJACENT || emitted[start]) continue;
    let face = (start / 3) | 0;
    let edge = start - face * 3;
    // A guard so a corrupt adjacency (a cycle with no border edge) cannot loop forever.
    let steps = 0;
    const limit = 4 * slots + 4;
    while (steps++ < limit) {
      const slot = face * 3 + edge;
      const n = adjacency[slot]!;
      if (n === NO_ADJACENT || n < 0 || n >= slots) {
        if (emitted[slot]) break;
        emitted[slot] = 1;
        edges.push(slot);
        edge = edge === 2 ? 0 : edge + 1;
      } else {
        face = (n / 3) | 0;
        const ne = n - face * 3;
        edge = ne === 2 ? 0 : ne + 1;
      }
    }
    perimeters.push(edges.length);
  }
  return { edgeIndex: Uint32Array.from(edges), perimeters: Uint32Array.from(perimeters) };
}
