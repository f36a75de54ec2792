/// <reference lib="webworker" />
import type { LevelContext } from '../../../shared/model/level-context';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { levelFindings } from './level-check';

/**
 * The level check off the page's main thread: a large map's check takes seconds (an
 * 820,000-triangle map held the page 11 s when it ran there), during which the viewport
 * must stay interactive. One request at a time; the page ends the worker to cancel.
 */
interface Request {
  id: number;
  walkmeshes: Walkmesh[];
  context: LevelContext;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<Request>) => {
  const { id, walkmeshes, context } = event.data;
  try {
    scope.postMessage({ id, findings: levelFindings(walkmeshes, context) });
  } catch (e) {
    scope.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};
