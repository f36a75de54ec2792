/** One row of a findings list: what the file check (FindingsPanel) and the level check (LevelFindings) both show (FindingList.vue). */
export interface FindingRow {
  severity: 'error' | 'warning';
  message: string;
  code: string;
  /** After the code: " · face 12", " · on a hidden walkmesh". */
  meta?: string;
  focusable: boolean;
  /** Extra data-* attributes the tests and the random walk's oracle read. */
  data?: Record<string, string | undefined>;
}
