import { isMethod, paramSchemas, type ContractHandlers, type Method, type Params, type Result } from './contract';
import { ServiceError, type RpcOutcome } from './rpc-error';
import { validate } from './schema';

type Checked<M extends Method> = { ok: true; call: () => Promise<Result<M>> } | { ok: false; path: string; message: string };

function check<M extends Method>(handlers: ContractHandlers, method: M, params: unknown): Checked<M> {
  const checked = validate<Params<M>>(paramSchemas[method], params);
  if (!checked.ok) return { ok: false, ...checked.issue };
  const handler: (p: Params<M>) => Promise<Result<M>> = handlers[method];
  return { ok: true, call: () => handler(checked.value) };
}

/**
 * The single entry point both transports use: checks the method name, validates the
 * parameters against the contract's schema, calls the service, and turns failures into an
 * outcome. Unexpected errors are passed to `onInternalError` (for the log) and reported
 * to the renderer by message only.
 */
export async function dispatch(
  handlers: ContractHandlers,
  method: unknown,
  params: unknown,
  onInternalError?: (method: string, error: unknown) => void,
): Promise<RpcOutcome<unknown>> {
  if (!isMethod(method)) {
    const name = typeof method === 'string' ? JSON.stringify(method.slice(0, 80)) : 'a non-string method name';
    return { ok: false, error: { code: 'unknown-method', message: `${name} is not a Walkbench method` } };
  }
  const checked = check(handlers, method, params);
  if (!checked.ok) {
    const { path, message } = checked;
    return { ok: false, error: { code: 'invalid-params', message: `${method}: ${path} ${message}`, parameter: path } };
  }
  try {
    return { ok: true, value: await checked.call() };
  } catch (e) {
    if (e instanceof ServiceError) return { ok: false, error: e.toInfo() };
    onInternalError?.(method, e);
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { code: 'internal', message: `${method} failed: ${message}` } };
  }
}
