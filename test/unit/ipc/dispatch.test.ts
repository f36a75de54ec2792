import { describe, expect, it } from 'vitest';
import { methods, type ContractHandlers } from '../../../shared/ipc/contract';
import { dispatch } from '../../../shared/ipc/dispatch';
import { ServiceError } from '../../../shared/ipc/rpc-error';

function handlers(overrides: Partial<ContractHandlers>): ContractHandlers {
  const unused = () => Promise.reject(new Error('not used by this test'));
  // Every method of the contract, so a method added later needs no change here.
  return { ...(Object.fromEntries(methods.map((m) => [m, unused])) as unknown as ContractHandlers), ...overrides };
}

describe('dispatch', () => {
  it('refuses unknown methods before anything runs', async () => {
    const out = await dispatch(handlers({}), 'files.delete', {});
    expect(out).toEqual({ ok: false, error: { code: 'unknown-method', message: expect.stringContaining('files.delete') } });
    expect((await dispatch(handlers({}), 'toString', {})).ok).toBe(false);
  });

  it('validates parameters and never calls the service with bad ones', async () => {
    let called = false;
    const h = handlers({
      'files.inspect': async () => {
        called = true;
        throw new Error('unreachable');
      },
    });
    const out = await dispatch(h, 'files.inspect', { path: 7 });
    expect(called).toBe(false);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.code).toBe('invalid-params');
      expect(out.error.parameter).toBe('params.path');
      expect(out.error.message).toContain('params.path');
    }
  });

  it('hands the service a validated copy and returns its result', async () => {
    let seen: unknown;
    const h = handlers({
      'files.inspect': async (p) => {
        seen = p;
        return { file: p.path, format: null, game: null, ok: false, summary: null, errors: [], warnings: [], readFailure: null };
      },
    });
    const params = { path: '/x.nav' };
    const out = await dispatch(h, 'files.inspect', params);
    expect(out).toMatchObject({ ok: true, value: { file: '/x.nav' } });
    expect(seen).toEqual(params);
    expect(seen).not.toBe(params);
  });

  it('reports service errors with their code and unexpected errors as internal', async () => {
    const logged: string[] = [];
    const h = handlers({
      'files.open': async () => {
        throw new ServiceError('not-found', '/x.nav: no such file');
      },
      'app.info': async () => {
        throw new TypeError('boom');
      },
    });
    expect(await dispatch(h, 'files.open', { path: '/x.nav' })).toEqual({ ok: false, error: { code: 'not-found', message: '/x.nav: no such file' } });
    const internal = await dispatch(h, 'app.info', {}, (m) => logged.push(m));
    expect(internal).toEqual({ ok: false, error: { code: 'internal', message: 'app.info failed: boom' } });
    expect(logged).toEqual(['app.info']);
  });
});
