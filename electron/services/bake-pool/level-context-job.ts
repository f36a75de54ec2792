import { decodeFrame, encodeFrame } from '../../../shared/ipc/mesh-payload';
import { levelContextTriangleCount, type LevelContext } from '../../../shared/model/level-context';
import { assembleLevelContext, type LevelContextInput } from '../../../shared/views/level-context-assemble';
import { levelContextReaders } from '../../../shared/views/level-context-readers';
import { nodeFormatEnvironment } from '../node-format-environment';
import type { JobRunner } from './bake-job-types';

export const LEVEL_CONTEXT_JOB = 'level-context';

/**
 * Bumped whenever the pieces read from the same bytes can change (a reader learns a lump,
 * colours change), so a project's cached contexts are read again.
 */
export const LEVEL_CONTEXT_VERSION = '1';

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

export function decodeLevelContext(frame: Uint8Array): LevelContext {
  const v = decodeFrame(frame) as Partial<LevelContext> | null;
  if (!v || typeof v.game !== 'string' || !Array.isArray(v.pieces) || !Array.isArray(v.gaps)) throw new TypeError('level context: expected a LevelContext frame');
  return v as LevelContext;
}

/** LevelContextInput frame → LevelContext frame, read by the format readers in this worker. */
export const levelContextJob: JobRunner = (input, _options, progress) => {
  const context = assembleLevelContext(decodeInput(input), levelContextReaders(nodeFormatEnvironment), progress);
  return { output: encodeLevelContext(context), summary: { pieces: context.pieces.length, triangles: levelContextTriangleCount(context), gaps: context.gaps.length } };
};
