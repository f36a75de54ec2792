import type { FormatHandler } from './format-handler';
import { navFormat } from './source/nav-format';
import { trxFormat } from './nwn2/trx-format';
import { mdbFormat } from './nwn2/mdb-format';
import { bwmFormat } from './kotor/bwm-format';
import { lytFormat } from './kotor/lyt-format';
import { pluginFormat } from './skyrim/plugin-format';

/** Every format Walkbench reads; later games add their handlers here. */
export const formatHandlers: readonly FormatHandler<unknown>[] = [navFormat, trxFormat, mdbFormat, bwmFormat, lytFormat, pluginFormat];

function extensionOf(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

/** The handler for a file, by its magic number first and its extension second. */
export function detectFormat(fileName: string, bytes: Uint8Array | undefined): FormatHandler<unknown> | undefined {
  const ext = extensionOf(fileName);
  const byExtension = formatHandlers.filter((h) => h.extensions.includes(ext));
  if (bytes) {
    const sniffed = byExtension.find((h) => h.sniff(bytes)) ?? formatHandlers.find((h) => h.sniff(bytes));
    if (sniffed) return sniffed;
  }
  return byExtension[0];
}

export function handlerById(id: string): FormatHandler<unknown> | undefined {
  return formatHandlers.find((h) => h.id === id);
}

export function handlerForExtension(fileName: string): FormatHandler<unknown> | undefined {
  const ext = extensionOf(fileName);
  return formatHandlers.find((h) => h.extensions.includes(ext));
}

export { extensionOf };
