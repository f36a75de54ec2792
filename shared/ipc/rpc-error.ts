/**
 * How a failed call is reported, identically over both transports. Electron's IPC keeps
 * only the message of a thrown error, so handlers return an outcome object instead of
 * throwing, and the renderer's client turns a failed outcome back into an exception.
 */
export type RpcErrorCode =
  | 'invalid-params'
  | 'unknown-method'
  | 'not-found'
  | 'not-a-file'
  | 'too-large'
  | 'unreadable'
  | 'forbidden'
  /**
   * The request is about a project or a file revision that is no longer what the app has
   * open (another project was opened, or the file changed since the page read it).
   */
  | 'stale'
  /** The call exists but not in this transport (a native dialog in browser mode). */
  | 'unavailable'
  /** The file the call would write exists, and the call did not say to replace it (Save As). */
  | 'exists'
  | 'internal';

export interface RpcErrorInfo {
  code: RpcErrorCode;
  message: string;
  /** For `invalid-params`: the offending parameter, e.g. `params.path`. */
  parameter?: string;
}

export type RpcOutcome<T> = { ok: true; value: T } | { ok: false; error: RpcErrorInfo };

/** Thrown by a service for an expected failure the user should read (missing file…). */
export class ServiceError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  toInfo(): RpcErrorInfo {
    return this.parameter === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, parameter: this.parameter };
  }
}

/** Thrown in the renderer when a call fails; carries the same code on both transports. */
export class WalkbenchRpcError extends Error {
  readonly code: RpcErrorCode;
  readonly parameter: string | undefined;

  constructor(
    readonly method: string,
    info: RpcErrorInfo,
  ) {
    super(info.message);
    this.name = 'WalkbenchRpcError';
    this.code = info.code;
    this.parameter = info.parameter;
  }
}

const codes: readonly RpcErrorCode[] = [
  'invalid-params',
  'unknown-method',
  'not-found',
  'not-a-file',
  'too-large',
  'unreadable',
  'forbidden',
  'stale',
  'unavailable',
  'exists',
  'internal',
];

/** Narrows an error object received from a transport; anything odd becomes `internal`. */
export function toRpcErrorInfo(value: unknown): RpcErrorInfo {
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    const code = codes.find((c) => c === v['code']) ?? 'internal';
    const message = typeof v['message'] === 'string' ? v['message'] : 'the call failed without a message';
    return typeof v['parameter'] === 'string' ? { code, message, parameter: v['parameter'] } : { code, message };
  }
  return { code: 'internal', message: 'the call failed without a message' };
}
