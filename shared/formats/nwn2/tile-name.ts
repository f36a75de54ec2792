/**
 * How every message, legend and hover names an NWN2 tile: "tile 8,10", its column and row
 * in the area's grid (the toolset's tile grid, column = index % grid width). One form
 * everywhere, so a finding, the bake report and the viewport's hover name a tile alike.
 */
export function nwn2TileName(index: number, gridWidth: number): string {
  if (!(gridWidth >= 1)) return `tile #${index}`;
  return `tile ${index % gridWidth},${Math.floor(index / gridWidth)}`;
}
