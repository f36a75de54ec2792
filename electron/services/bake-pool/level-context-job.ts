import { decodeFrame, encodeFrame } from '../../../shared/ipc/mesh-payload';
import { checkLevelContextPiece, levelContextTriangleCount, type LevelContext, type LevelContextPiece } from '../../../shared/model/level-context';
import { assembleLevelContext, type LevelContextInput } from '../../../shared/views/level-context-assemble';
import { levelContextReaders } from '../../../shared/views/level-context-readers';
import { nodeFormatEnvironment } from '../node-format-environment';
import type { JobRunner } from './bake-job-types';

export const LEVEL_CONTEXT_JOB = 'level-context';

/**
 * Bumped whenever the pieces read from the same bytes can change (a reader learns a lump,
 * colours change), so a project's cached contexts are read again.
 */
export const LEVEL_CONTEXT_VERSION = '2';

export function encodeLevelContextInput(input: LevelContextInput): Uint8Array {
  return encodeFrame(input);
}

function decodeInput(frame: Uint8Array): LevelContextInput {
  const v = decodeFrame(frame) as Partial<LevelContextInput> | null;
  if (!v || typeof v.game !== 'string' || !Array.isArray(v.gaps)) throw new TypeError('level-context input: expected a LevelContextInput frame');
  return v as LevelContextInput;
}

/** The context as a frame (also what the project caches). */
export function encodeLevelContext(context: LevelContext): Uint8Array {
  return encodeFrame(context);
}

/**
 * A LevelContext frame from the worker or the project's cache, checked before the page
 * gets it: each piece's arrays of the right kind and agreeing with each other (a texture
 * bounded in size and matching its pixels, UVs one pair per vertex). A frame that fails is
 * a TypeError (the cache then reads the context again).
 */
export function decodeLevelContext(frame: Uint8Array): LevelContext {
  const v = decodeFrame(frame) as Partial<LevelContext> | null;
  if (!v || typeof v.game !== 'string' || !Array.isArray(v.pieces) || !Array.isArray(v.gaps)) throw new TypeError('level context: expected a LevelContext frame');
  v.pieces.forEach((p: Partial<LevelContextPiece> | null, i) => {
    if (!p || typeof p.label !== 'string' || !(p.positions instanceof Float32Array) || !(p.triangles instanceof Uint32Array)) throw new TypeError(`level context: piece #${i} is not a LevelContextPiece`);
    if (p.vertexColours !== undefined && !(p.vertexColours instanceof Uint8Array)) throw new TypeError(`level context: piece #${i} (${p.label}) colours are not bytes`);
    try {
      checkLevelContextPiece(p as LevelContextPiece);
    } catch (e) {
      throw new TypeError(`level context: piece #${i}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return v as LevelContext;
}

/** LevelContextInput frame → LevelContext frame, read by the format readers in this worker. */
export const levelContextJob: JobRunner = (input, _options, progress) => {
  const context = assembleLevelContext(decodeInput(input), levelContextReaders(nodeFormatEnvironment), progress);
  return { output: encodeLevelContext(context), summary: { pieces: context.pieces.length, triangles: levelContextTriangleCount(context), gaps: context.gaps.length } };
};
