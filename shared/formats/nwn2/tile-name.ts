/**
 * How every message, legend and hover names an NWN2 tile: "tile 8,10", its column and row
 * in the area's grid (the toolset's tile grid, column = index % grid width). One form
 * everywhere, so a finding, the bake report and the viewport's hover name a tile alike.
 */
export function nwn2TileName(index: number, gridWidth: number): string {
  if (!(gridWidth >= 1)) return `tile #${index}`;
  return `tile ${index % gridWidth},${Math.floor(index / gridWidth)}`;
}

/**
 * How every message, hover and inspector names an island the file stores (the pathing
 * island a TRX triangle belongs to, numbered as stored from 0): "baked island 43". The
 * islands Walkbench computes are ranked by size and named "island #1" (views/game-place-names.ts),
 * so the two are never mistaken for each other.
 */
export function nwn2BakedIslandName(index: number): string {
  return index === 0xffff ? 'no baked island' : `baked island ${index}`;
}
