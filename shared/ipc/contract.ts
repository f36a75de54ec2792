/**
 * The typed contract between the renderer and the services: every call the renderer can
 * make, its parameters and its result, plus the events the main process may push. Both
 * transports (Electron IPC and the browser-mode HTTP server) implement exactly this, so
 * the renderer cannot tell them apart.
 */
import type { FileReport } from '../formats/file-report';
import type { GameId, Walkmesh } from '../model/walkmesh';
import * as s from './schema';
import type { Schema } from './schema';

/** Largest file the services read or accept as bytes (Skyrim.esm is about 250 MB). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** Longest path accepted (Windows long paths reach 32,767 UTF-16 units). */
export const MAX_PATH_LENGTH = 32_767;

export interface FormatInfo {
  id: string;
  game: GameId;
  label: string;
  extensions: string[];
}

export interface AppInfo {
  name: string;
  version: string;
  /** Every format the services read, for the open dialog filters and the drop hint. */
  formats: FormatInfo[];
  /** The file given on the command line (`--project`/`--file`), to open at start. */
  startupFile: string | null;
  maxFileBytes: number;
}

/** A file read into the common model: what the viewport draws and the inspector shows. */
export interface OpenedFile {
  /** The file name shown to the user. */
  name: string;
  /** Absolute path when the file came from disk; null when its bytes were sent. */
  path: string | null;
  byteLength: number;
  report: FileReport;
  /** One per navmesh/area/tile set in the file; empty when the file could not be read. */
  walkmeshes: Walkmesh[];
}

export interface WalkbenchContract {
  'app.info': { params: Record<string, never>; result: AppInfo };
  /** Reads and validates a file on disk without keeping anything. */
  'files.inspect': { params: { path: string }; result: FileReport };
  /** Reads a file on disk into the common model. */
  'files.open': { params: { path: string }; result: OpenedFile };
  /** Reads file contents the renderer already has (file input, drag and drop). */
  'files.openBytes': { params: { name: string; bytes: Uint8Array }; result: OpenedFile };
}

export type Method = keyof WalkbenchContract;
export type Params<M extends Method> = WalkbenchContract[M]['params'];
export type Result<M extends Method> = WalkbenchContract[M]['result'];

/** What a service implements: one async function per contract method. */
export type ContractHandlers = { [M in Method]: (params: Params<M>) => Promise<Result<M>> };

const absolutePath = s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH });

/** The schema each method's parameters must pass before they reach a service. */
export const paramSchemas: { readonly [M in Method]: Schema<Params<M>> } = {
  'app.info': s.object({}),
  'files.inspect': s.object({ path: absolutePath }),
  'files.open': s.object({ path: absolutePath }),
  'files.openBytes': s.object({
    name: s.string({ minLength: 1, maxLength: 1024 }),
    bytes: s.bytes({ maxLength: MAX_FILE_BYTES }),
  }),
};

export const methods = Object.keys(paramSchemas) as readonly Method[];

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.hasOwn(paramSchemas, name);
}

/** Events the main process pushes to the renderer (Electron only: browser mode has no menu). */
export interface WalkbenchEvents {
  /** The user chose a file from the File menu, a second launch or the OS: open it. */
  'app.openFileRequested': { path: string };
}

export type EventName = keyof WalkbenchEvents;

export const eventSchemas: { readonly [E in EventName]: Schema<WalkbenchEvents[E]> } = {
  'app.openFileRequested': s.object({ path: absolutePath }),
};

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(eventSchemas, name);
}
