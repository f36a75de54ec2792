import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { methodChannel } from '../../shared/ipc/bridge';
import { methods, type ContractHandlers } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/dispatch';
import type { RpcOutcome } from '../../shared/ipc/rpc-error';

/** Decides whether an IPC message comes from the app's own page. */
export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/**
 * One `ipcMain.handle` per contract method. Each checks the sender (the app's own
 * top-level page, not a frame it embedded or a page it navigated to), then hands the
 * untrusted parameters to `dispatch`, which validates them against the contract's
 * schema before the service sees them. Returns a function that removes the handlers.
 */
export function registerContractHandlers(
  service: ContractHandlers,
  isTrustedSender: SenderCheck,
  log: (line: string) => void,
): () => void {
  for (const method of methods) {
    ipcMain.handle(methodChannel(method), async (event, params: unknown): Promise<RpcOutcome<unknown>> => {
      if (!isTrustedSender(event)) {
        log(`walkbench: refused ${method} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
        return { ok: false, error: { code: 'forbidden', message: `${method} may only be called by the Walkbench window` } };
      }
      return dispatch(service, method, params, (m, e) =>
        log(`walkbench: ${m} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
      );
    });
  }
  return () => {
    for (const method of methods) ipcMain.removeHandler(methodChannel(method));
  };
}
