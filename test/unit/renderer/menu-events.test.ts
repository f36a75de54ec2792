import { describe, expect, it } from 'vitest';
import type { EventName, WalkbenchEvents } from '../../../shared/ipc/contract';
import { bindMenuEvents } from '../../../renderer/src/transport/menu-events';
import type { Transport } from '../../../renderer/src/transport/transport';

/** A client whose transport lets the test push events, as the preload would. */
function pushable() {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const client: Pick<Transport, 'on'> = {
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => void set.delete(listener as (p: unknown) => void);
    },
  };
  const push = <E extends EventName>(event: E, payload: WalkbenchEvents[E]) => listeners.get(event)?.forEach((l) => l(payload));
  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);
  return { client, push, count };
}

describe('menu events', () => {
  it('opens files and projects and runs the commands the page handles', () => {
    const { client, push, count } = pushable();
    const calls: string[] = [];
    const doc = { activeElement: null, execCommand: (c: string) => calls.push(`exec ${c}`) > 0 };
    const off = bindMenuEvents(client, { openFile: (p) => calls.push(`file ${p}`), openProject: (p) => calls.push(`project ${p}`), commands: { undo: () => calls.push('model undo') } }, doc);
    push('app.openFileRequested', { path: '/a.nav' });
    push('app.openProjectRequested', { path: '/p.wbproj' });
    push('app.command', { command: 'undo' });
    push('app.command', { command: 'export' });
    expect(calls).toEqual(['file /a.nav', 'project /p.wbproj', 'model undo']);
    off();
    expect(count()).toBe(0);
  });

  it('leaves Undo and Redo to a focused text field', () => {
    const { client, push } = pushable();
    const calls: string[] = [];
    const doc = { activeElement: null as unknown as Element | null, execCommand: (c: string) => calls.push(`exec ${c}`) > 0 };
    bindMenuEvents(client, { openFile: () => {}, openProject: () => {}, commands: { undo: () => calls.push('model undo'), redo: () => calls.push('model redo') } }, doc);
    doc.activeElement = { tagName: 'INPUT', type: 'text' } as unknown as Element;
    push('app.command', { command: 'undo' });
    doc.activeElement = { tagName: 'TEXTAREA' } as unknown as Element;
    push('app.command', { command: 'redo' });
    doc.activeElement = { tagName: 'INPUT', type: 'checkbox' } as unknown as Element;
    push('app.command', { command: 'undo' });
    expect(calls).toEqual(['exec undo', 'exec redo', 'model undo']);
  });
});
