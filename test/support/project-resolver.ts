import { ServiceError } from '../../shared/ipc/rpc-error';

/**
 * A service's project resolver for tests that drive one service on its own: a call names
 * its project by path, or gets the one the test has open (`open()`), the way the app's
 * resolver gives the project of a session; with none, the call is refused the same way.
 */
export function projectResolver(open: () => string | null): (params: { session?: string | undefined; project?: string | undefined }, method: string) => string {
  return (params, method) => {
    const file = params.project ?? open();
    if (file === null) throw new ServiceError('invalid-params', `${method}: name the project: params.session (the project open in the app, from project.open) or params.project (a project file)`, 'params.session');
    return file;
  };
}
