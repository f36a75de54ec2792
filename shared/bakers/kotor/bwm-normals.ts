/**
 * Face normals and planar distances as the game files hold them. KotOR 1's and TSL's
 * BioWare tools computed them with the same formula but different floating-point
 * arithmetic, so the rule is chosen by the game the room comes from (`BwmNormalRule`).
 *
 * Both take the unit vector of u × v with u = v2 − v1 and v = v3 − v2, each cross
 * component computed in double and rounded once to float32, the length taken in double
 * from the rounded components and divided into each of them (other edge pairs, products
 * rounded to float32, a float32 length or a multiplication by 1/length miss on up to a
 * third of the faces). They differ in where the differences are rounded:
 *
 * - `kotor1`: all six coordinate differences are rounded to float32 (stored, as separate
 *   float statements compile). Reproduces every normal of the game's rooms bit for bit,
 *   signed zeros included: 759 of 759 faces in k1-blackvulkar and 195 of 195 in test.wok.
 * - `kotor2`: only u.x and u.y are rounded to float32; u.z and all of v stay in double, as
 *   x87 code that spills two of the six to memory evaluates it. Reproduces 1,209 of 1,209
 *   faces of the game-shipped TSL room 203tell and 276 of 276 of zio006j, where the K1 rule
 *   misses 41 and 3 faces by 1–2 float32 ulps (and by more on near-zero components); the
 *   TSL rule in turn misses 39 of the 954 K1 faces. Found by trying every subset of the six
 *   differences rounded, six edge pairs, four cross-product and eight normalisation
 *   evaluations, exact (rational) products, Newell's formula and decimal-text vertices.
 *
 * A face with no area (two equal vertices) gets (1, 0, 0), as in m10aa_03a face 39.
 * d = −(n · v1) in double from the float32 normal, rounded once: under both rules that
 * reproduces every distance of the game files (the 11 files above) from their normals.
 */
export interface FacePlanes {
  /** Three float32 values per face. */
  normals: Float32Array;
  /** One float32 value per face. */
  distances: Float32Array;
}

/** The arithmetic of the BioWare tools of one game: KotOR 1 or KotOR 2 (TSL). */
export type BwmNormalRule = 'kotor1' | 'kotor2';

export const BWM_NORMAL_RULES: readonly BwmNormalRule[] = ['kotor1', 'kotor2'];

/** What a rule is called in reports. */
export const NORMAL_RULE_LABEL: Record<BwmNormalRule, string> = { kotor1: 'KotOR 1', kotor2: 'KotOR 2 (TSL)' };

const r = Math.fround;
const same = (x: number): number => x;

export function computeFacePlanes(positions: Float32Array, triangles: Uint32Array, rule: BwmNormalRule = 'kotor1'): FacePlanes {
  const faces = triangles.length / 3;
  const normals = new Float32Array(faces * 3);
  const distances = new Float32Array(faces);
  // Float32 differences are exact in double, so `same` keeps them unrounded.
  const rz = rule === 'kotor1' ? r : same;
  for (let f = 0; f < faces; f++) {
    const a = triangles[3 * f]! * 3;
    const b = triangles[3 * f + 1]! * 3;
    const c = triangles[3 * f + 2]! * 3;
    const bx = positions[b]!, by = positions[b + 1]!, bz = positions[b + 2]!;
    const ux = r(bx - positions[a]!), uy = r(by - positions[a + 1]!), uz = rz(bz - positions[a + 2]!);
    const vx = rz(positions[c]! - bx), vy = rz(positions[c + 1]! - by), vz = rz(positions[c + 2]! - bz);
    // Under kotor1 float32 × float32 is exact in double, so each component is rounded once.
    const nx = r(uy * vz - uz * vy);
    const ny = r(uz * vx - ux * vz);
    const nz = r(ux * vy - uy * vx);
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const o = 3 * f;
    if (len > 0) {
      normals[o] = nx / len;
      normals[o + 1] = ny / len;
      normals[o + 2] = nz / len;
    } else {
      normals[o] = 1;
    }
    distances[f] = -(normals[o]! * positions[a]! + normals[o + 1]! * positions[a + 1]! + normals[o + 2]! * positions[a + 2]!);
  }
  return { normals, distances };
}

/** Per rule, how many of a file's stored normals it reproduces bit for bit. */
export function normalRuleAgreement(positions: Float32Array, triangles: Uint32Array, storedNormals: Uint32Array): Record<BwmNormalRule, number> {
  const out = { kotor1: 0, kotor2: 0 };
  const faces = Math.min(triangles.length / 3, storedNormals.length / 3);
  for (const rule of BWM_NORMAL_RULES) {
    const bits = new Uint32Array(computeFacePlanes(positions, triangles.subarray(0, faces * 3), rule).normals.buffer);
    for (let f = 0; f < faces; f++) {
      if (bits[3 * f] === storedNormals[3 * f] && bits[3 * f + 1] === storedNormals[3 * f + 1] && bits[3 * f + 2] === storedNormals[3 * f + 2]) out[rule]++;
    }
  }
  return out;
}

/**
 * The rule whose arithmetic a file's own normals follow: the one reproducing more of them,
 * KotOR 1 on a tie (a file of other tools', e.g. MDLEdit's, follows neither closely).
 * Used when the game a room comes from is not known otherwise: its BioWare normals say it.
 */
export function inferNormalRule(positions: Float32Array, triangles: Uint32Array, storedNormals: Uint32Array): BwmNormalRule {
  // A face naming a vertex that does not exist says nothing about arithmetic.
  const vertices = positions.length / 3;
  for (let i = 0; i < triangles.length; i++) if (triangles[i]! >= vertices) return 'kotor1';
  const agree = normalRuleAgreement(positions, triangles, storedNormals);
  return agree.kotor2 > agree.kotor1 ? 'kotor2' : 'kotor1';
}
