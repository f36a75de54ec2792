/** Plain-text tables for the bench and fuzz summaries (aligned columns, no colours). */
export interface Column {
  header: string;
  /** Numbers read best right-aligned; names left-aligned. */
  align?: 'left' | 'right';
}

export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number) =>
    columns[i]!.align === 'left' ? text.padEnd(widths[i]!) : text.padStart(widths[i]!);
  const line = (cells: readonly string[]) => cells.map((t, i) => cell(t, i)).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(columns.map((c) => c.header)), rule, ...rows.map((r) => line(columns.map((_, i) => r[i] ?? '')))].join('\n');
}

export function formatMiB(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
