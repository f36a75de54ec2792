import type { Walkmesh } from '../../../shared/model/walkmesh';
import type { SourcePlacesView } from '../../../shared/views/game-structure';
import { keyColour, type FaceColouring, type LegendEntry, type Rgb } from './face-colours';

/** Faces of areas with no place: a neutral grey that no place colour takes. */
export const NO_PLACE_RGB: Rgb = [0.5, 0.5, 0.5];

/** The colour of place `p` (1-based as areas name it): steps along the colour-blind-safe ramp. */
export function placeColour(p: number): Rgb {
  return p === 0 ? NO_PLACE_RGB : keyColour(p - 1);
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
