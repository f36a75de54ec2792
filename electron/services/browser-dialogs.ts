import type { ContractHandlers } from '../../shared/ipc/contract';
import { dialogUnavailableMessage } from '../../shared/ipc/dialog-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';

export type DialogHandlers = Pick<ContractHandlers, 'dialog.openFile' | 'dialog.openProject' | 'dialog.openFolder' | 'dialog.saveFile'>;

/**
 * The dialogs where there is no native one (browser mode, tests): each call fails with
 * `unavailable` so the page falls back to a typed path or the browser's file input.
 * The Electron main process passes its own (electron/main-dialogs.ts).
 */
export const browserDialogs: DialogHandlers = {
  'dialog.openFile': () => Promise.reject(new ServiceError('unavailable', dialogUnavailableMessage('dialog.openFile'))),
  'dialog.openProject': () => Promise.reject(new ServiceError('unavailable', dialogUnavailableMessage('dialog.openProject'))),
  'dialog.openFolder': () => Promise.reject(new ServiceError('unavailable', dialogUnavailableMessage('dialog.openFolder'))),
  'dialog.saveFile': () => Promise.reject(new ServiceError('unavailable', dialogUnavailableMessage('dialog.saveFile'))),
};
