import { stat } from 'node:fs/promises';
import path from 'node:path';
import { STATIC_CONTENT_TYPES } from './content-security-policy';

export interface StaticFile {
  file: string;
  size: number;
  contentType: string;
}

/**
 * The file of the built renderer a URL path names, or null when there is none. Shared by
 * the browser-mode server and Electron's app protocol, so both refuse the same escapes:
 * `..` segments, encoded separators and NUL bytes never leave `rendererDir`.
 */
export async function resolveRendererFile(rendererDir: string, urlPath: string): Promise<StaticFile | null> {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  if (relative === '' || relative.endsWith('/')) relative += 'index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
  if (!file.startsWith(root + path.sep)) return null;
  const info = await stat(file).catch(() => null);
  if (!info || !info.isFile()) return null;
  const contentType = STATIC_CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  return { file, size: info.size, contentType };
}
