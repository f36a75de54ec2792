import type { Walkmesh } from '../../../shared/model/walkmesh';
import type { SourcePlacesView } from '../../../shared/views/game-structure';
import { MATERIAL_COLOURS, keyColour, type FaceColouring, type LegendEntry, type Rgb } from './face-colours';

/** Faces of areas with no place: a neutral grey that no place colour takes. */
export const NO_PLACE_RGB: Rgb = [0.5, 0.5, 0.5];

/**
 * The qualitative palette of the material colouring first (Okabe–Ito, then lighter and
 * darker steps; the first seven told apart by protanopes and deuteranopes too), then
 * lighter and darker steps of it picked greedily so that all 29 differ pairwise, and from
 * the no-place grey, by ΔE00 ≥ 10 (normal vision; unit-tested). A ramp (one lightness
 * axis) gave a 9-place map near-identical blues and greens. Of the 26 Source fixture maps,
 * 8 name 9 to 29 places (de_heat_new 29); a map with more steps along the key ramp.
 */
const EXTRA: readonly Rgb[] = [
  [0.14, 0.28, 0.36], [0, 0.37, 0.27], [0.9, 0.74, 0.83], [0.56, 0.53, 0.16], [0.97, 0.95, 0.63], [0.38, 0.36, 0.1],
  [0.5, 0.22, 0], [0.37, 0.5, 0.58], [0.3, 0.2, 0], [0.75, 0.67, 0.5], [0.33, 0.52, 0.44], [0.78, 0.93, 0.87],
  [0.27, 0.12, 0.22], [0.73, 0.6, 0.68], [0.59, 0.48, 0.33], [0.99, 0.9, 0.78], [0.39, 0.32, 0.22],
];
export const PLACE_COLOURS: readonly Rgb[] = [...MATERIAL_COLOURS.slice(0, -1), ...EXTRA];

/**
 * The colour of place `p` (1-based as areas name it; 0 is no place), by its index in the
 * map's place directory so that painting areas never recolours other places.
 */
export function placeColour(p: number): Rgb {
  return p === 0 ? NO_PLACE_RGB : (PLACE_COLOURS[p - 1] ?? keyColour(p));
}

/**
 * Source faces coloured by their area's place (callout), with a legend line per place the
 * map uses (its name and face count), most used first, and one for areas with no place.
 */
export function colourByPlace(meshes: readonly Walkmesh[], places: SourcePlacesView): FaceColouring {
  const placeOfArea = new Map<number, number>();
  for (let i = 0; i < places.areaIds.length; i++) placeOfArea.set(places.areaIds[i]!, places.areaPlaces[i]!);
  const faces = new Map<number, number>();
  const faceRgb = meshes.map((m) => {
    const out = new Float32Array(m.faceOwner.length * 3);
    for (let f = 0; f < m.faceOwner.length; f++) {
      const p = placeOfArea.get(m.faceOwner[f]!) ?? 0;
      faces.set(p, (faces.get(p) ?? 0) + 1);
      const c = placeColour(p);
      out[f * 3] = c[0];
      out[f * 3 + 1] = c[1];
      out[f * 3 + 2] = c[2];
    }
    return out;
  });
  const legend: LegendEntry[] = [...faces.entries()]
    .sort((a, b) => (a[0] === 0 ? 1 : b[0] === 0 ? -1 : b[1] - a[1] || a[0] - b[0]))
    .map(([p, n]) => ({ label: p === 0 ? 'no place' : (places.names[p - 1] ?? `place ${p}`), colour: placeColour(p), faces: n, raw: `place index ${p}` }));
  return { faceRgb, legend };
}
