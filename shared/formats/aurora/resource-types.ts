/**
 * Resource type ids (ERF key entries, KEY/BIF, RIM) ↔ file extensions. NWN2 and KotOR
 * share the Aurora ids below 3000 but reuse 3000+ for different things (3002 is NWN2's
 * TRN and KotOR's RIM; 3008 is NWN2's CAM and KotOR's MDX), so each game has its own table.
 * Sources: nwn-lib-d `constants.d`, Skywing `BaseTypes.h` (NWN2; nwn2-trn-trx.md §8.3),
 * xoreos `types.h` and PyKotor `ResourceType` (KotOR; kotor-bwm.md §8.3).
 */

export type AuroraGame = 'nwn2' | 'kotor';

/** Ids common to the Aurora games (NWN1 heritage). */
const AURORA_COMMON: readonly (readonly [number, string])[] = [
  [0, 'res'], [1, 'bmp'], [2, 'mve'], [3, 'tga'], [4, 'wav'], [6, 'plt'], [7, 'ini'], [8, 'mp3'],
  [9, 'mpg'], [10, 'txt'], [2000, 'plh'], [2001, 'tex'], [2002, 'mdl'], [2003, 'thg'],
  [2005, 'fnt'], [2007, 'lua'], [2008, 'slt'], [2009, 'nss'], [2010, 'ncs'], [2011, 'mod'],
  [2012, 'are'], [2013, 'set'], [2014, 'ifo'], [2015, 'bic'], [2016, 'wok'], [2017, '2da'],
  [2018, 'tlk'], [2022, 'txi'], [2023, 'git'], [2024, 'bti'], [2025, 'uti'], [2026, 'btc'],
  [2027, 'utc'], [2029, 'dlg'], [2030, 'itp'], [2031, 'btt'], [2032, 'utt'], [2033, 'dds'],
  [2034, 'bts'], [2035, 'uts'], [2036, 'ltr'], [2037, 'gff'], [2038, 'fac'], [2039, 'bte'],
  [2040, 'ute'], [2041, 'btd'], [2042, 'utd'], [2043, 'btp'], [2044, 'utp'], [2045, 'dft'],
  [2046, 'gic'], [2047, 'gui'], [2048, 'css'], [2049, 'ccs'], [2050, 'btm'], [2051, 'utm'],
  [2052, 'dwk'], [2053, 'pwk'], [2054, 'btg'], [2055, 'utg'], [2056, 'jrl'], [2057, 'sav'],
  [2058, 'utw'], [2059, '4pc'], [2060, 'ssf'], [2061, 'hak'], [2062, 'nwm'], [2063, 'bik'],
  [2064, 'ndb'], [2065, 'ptm'], [2066, 'ptt'], [9997, 'erf'], [9998, 'bif'], [9999, 'key'],
];

const NWN2_ONLY: readonly (readonly [number, string])[] = [
  [5, 'wfx'], [2067, 'bak'],
  [3000, 'osc'], [3001, 'usc'], [3002, 'trn'], [3003, 'utr'], [3004, 'uen'], [3005, 'ult'],
  [3006, 'sef'], [3007, 'pfx'], [3008, 'cam'], [3009, 'lfx'], [3010, 'bfx'], [3011, 'upe'],
  [3012, 'ros'], [3013, 'rst'], [3014, 'ifx'], [3015, 'pfb'], [3016, 'zip'], [3017, 'wmp'],
  [3018, 'bbx'], [3019, 'tfx'], [3020, 'wlk'], [3021, 'xml'], [3022, 'scc'], [3033, 'ptx'],
  [3034, 'ltx'], [3035, 'trx'], [3036, 'tro'], [3037, 'try'], [4000, 'mdb'], [4001, 'mda'],
  [4002, 'spt'], [4003, 'gr2'], [4004, 'fxa'], [4005, 'fxe'], [4007, 'jpg'], [4008, 'pwc'],
  [9996, 'ids'],
];

const KOTOR_ONLY: readonly (readonly [number, string])[] = [
  [2076, 'jpg'], [2110, 'png'],
  [3000, 'lyt'], [3001, 'vis'], [3002, 'rim'], [3003, 'pth'], [3004, 'lip'], [3005, 'bwm'],
  [3006, 'txb'], [3007, 'tpc'], [3008, 'mdx'], [3009, 'rsv'], [3010, 'sig'], [3011, 'mab'],
  [3012, 'qst2'], [3013, 'sto'], [3017, 'txb2'], [3027, 'cwa'], [3028, 'bip'],
];

export interface ResourceTypeTable {
  readonly game: AuroraGame;
  /** Lower-case extension (no dot) of a type id, or undefined when unknown. */
  extension(type: number): string | undefined;
  /** Type id of an extension (any case, with or without the dot), or undefined. */
  typeId(extension: string): number | undefined;
  readonly entries: ReadonlyMap<number, string>;
}

function table(game: AuroraGame, rows: readonly (readonly [number, string])[]): ResourceTypeTable {
  const byId = new Map<number, string>();
  const byExt = new Map<string, number>();
  for (const [id, ext] of rows) {
    byId.set(id, ext);
    if (!byExt.has(ext)) byExt.set(ext, id);
  }
  return {
    game,
    entries: byId,
    extension: (type) => byId.get(type),
    typeId: (extension) => byExt.get(extension.replace(/^\./, '').toLowerCase()),
  };
}

export const NWN2_RESOURCE_TYPES = table('nwn2', [...AURORA_COMMON, ...NWN2_ONLY]);
export const KOTOR_RESOURCE_TYPES = table('kotor', [...AURORA_COMMON, ...KOTOR_ONLY]);

export function resourceTypes(game: AuroraGame): ResourceTypeTable {
  return game === 'nwn2' ? NWN2_RESOURCE_TYPES : KOTOR_RESOURCE_TYPES;
}

/** The ids Walkbench uses by name. */
export const Nwn2ResType = {
  ARE: 2012,
  IFO: 2014,
  TWODA: 2017,
  GIT: 2023,
  GIC: 2046,
  DWK: 2052,
  PWK: 2053,
  HAK: 2061,
  TRN: 3002,
  TRX: 3035,
  MDB: 4000,
  PWC: 4008,
  ERF: 9997,
} as const;

export const KotorResType = {
  MDL: 2002,
  ARE: 2012,
  IFO: 2014,
  WOK: 2016,
  TWODA: 2017,
  GIT: 2023,
  UTD: 2042,
  UTP: 2044,
  DWK: 2052,
  PWK: 2053,
  LYT: 3000,
  VIS: 3001,
  RIM: 3002,
  PTH: 3003,
  TPC: 3007,
  MDX: 3008,
  ERF: 9997,
} as const;
