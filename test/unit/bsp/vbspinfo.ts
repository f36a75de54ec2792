/**
 * Parses the output of Valve's `vbspinfo` (the `.info.txt` files beside the TF2 fixture
 * maps): one row per lump kind with its object count and its bytes.
 */
export interface VbspinfoRow {
  name: string;
  /** Object count, or undefined for `[variable]` rows. */
  objects: number | undefined;
  bytes: number;
}

export interface Vbspinfo {
  fileSize: number;
  rows: Map<string, VbspinfoRow>;
}

export function parseVbspinfo(text: string): Vbspinfo {
  const rows = new Map<string, VbspinfoRow>();
  let fileSize = -1;
  for (const line of text.split(/\r?\n/)) {
    const size = /^reading .*\((\d+)\)\s*$/.exec(line);
    if (size) fileSize = Number(size[1]);
    const counted = /^([A-Za-z_][\w ]*?)\s+(\d+)\/\d+\s+(\d+)\/\d+\s+\(/.exec(line);
    if (counted) {
      rows.set(counted[1]!, { name: counted[1]!, objects: Number(counted[2]), bytes: Number(counted[3]) });
      continue;
    }
    const variable = /^([A-Za-z_][\w ]*?)\s+\[variable\]\s+(\d+)\/\d+\s+\(/.exec(line);
    if (variable) rows.set(variable[1]!, { name: variable[1]!, objects: undefined, bytes: Number(variable[2]) });
  }
  if (fileSize < 0) throw new Error('vbspinfo output without its "reading NAME (SIZE)" line');
  return { fileSize, rows };
}
