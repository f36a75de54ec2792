import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { menuTemplate, type MenuActions } from '../../../electron/menu';

function record() {
  const calls: string[] = [];
  const actions: MenuActions = {
    openProject: () => calls.push('openProject'),
    openFile: () => calls.push('openFile'),
    openRecent: (f) => calls.push(`openRecent ${f}`),
    reopenLast: () => calls.push('reopenLast'),
    clearRecent: () => calls.push('clearRecent'),
    command: (c) => calls.push(`command ${c}`),
    about: () => calls.push('about'),
  };
  return { calls, actions };
}

/** Every item of the menu, depth first. */
function items(menu: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return menu.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? items(i.submenu) : [])]);
}

const byLabel = (menu: readonly MenuItemConstructorOptions[], label: string) => {
  const found = items(menu).find((i) => i.label?.replaceAll('&', '') === label);
  if (!found) throw new Error(`no menu item ${label}`);
  return found;
};

const click = (item: MenuItemConstructorOptions) => (item.click as () => void)();

describe('the application menu', () => {
  it('has the usual shortcuts and runs each action', () => {
    const { calls, actions } = record();
    const menu = menuTemplate(actions, { recentProjects: [] }, 'linux', false);
    const expected: [string, string, string][] = [
      ['New Project…', 'CmdOrCtrl+N', 'command new-project'],
      ['Import into Project…', 'CmdOrCtrl+I', 'command add-to-project'],
      ['Open Project…', 'CmdOrCtrl+Shift+O', 'openProject'],
      ['Open File…', 'CmdOrCtrl+O', 'openFile'],
      ['Save Project As…', 'CmdOrCtrl+Shift+S', 'command save-as'],
      ['Export…', 'CmdOrCtrl+E', 'command export'],
      ['Undo', 'CmdOrCtrl+Z', 'command undo'],
      ['Redo', 'Ctrl+Y', 'command redo'],
      ['Toggle Jobs Panel', 'CmdOrCtrl+J', 'command toggle-jobs'],
      ['Top View', 'T', 'command top-view'],
      ['Bake Everything', 'CmdOrCtrl+B', 'command bake-all'],
    ];
    for (const [label, accelerator, call] of expected) {
      const item = byLabel(menu, label);
      expect(item.accelerator, label).toBe(accelerator);
      click(item);
      expect(calls.at(-1)).toBe(call);
    }
    const accelerators = items(menu).flatMap((i) => (i.accelerator && i.registerAccelerator !== false ? [String(i.accelerator)] : []));
    expect(new Set(accelerators).size).toBe(accelerators.length);
    expect(items(menu).some((i) => i.role === 'quit')).toBe(true);
  });

  it('reopens the last project only when there is one', () => {
    const { calls, actions } = record();
    expect(byLabel(menuTemplate(actions, { recentProjects: [] }, 'linux', false), 'Reopen Last Project').enabled).toBe(false);
    const item = byLabel(menuTemplate(actions, { recentProjects: ['/work/a.wbproj'] }, 'linux', false), 'Reopen Last Project');
    expect(item.enabled).toBe(true);
    click(item);
    expect(calls).toEqual(['reopenLast']);
  });

  it('lists recent projects newest first, opens one, and clears them', () => {
    const { calls, actions } = record();
    const menu = menuTemplate(actions, { recentProjects: ['/work/a & b.wbproj', 'C:\\levels\\c.wbproj'] }, 'win32', false);
    const recent = byLabel(menu, 'Open Recent').submenu as MenuItemConstructorOptions[];
    expect(recent[0]!.label).toBe('&1 a && b.wbproj — /work');
    expect(recent[1]!.label).toBe('&2 c.wbproj — C:\\levels');
    click(recent[1]!);
    expect(calls).toEqual(['openRecent C:\\levels\\c.wbproj']);
    click(byLabel(menu, 'Clear Recent Projects'));
    expect(calls.at(-1)).toBe('clearRecent');
    const empty = byLabel(menuTemplate(actions, { recentProjects: [] }, 'linux', false), 'Open Recent').submenu as MenuItemConstructorOptions[];
    expect(empty).toEqual([{ label: 'No recent projects', enabled: false }]);
  });

  it('offers the developer tools only in development', () => {
    const { actions } = record();
    const roles = (dev: boolean) => items(menuTemplate(actions, { recentProjects: [] }, 'linux', dev)).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('follows macOS conventions there', () => {
    const { actions } = record();
    const menu = menuTemplate(actions, { recentProjects: [] }, 'darwin', false);
    expect(menu[0]!.role).toBe('appMenu');
    expect(items(menu).some((i) => i.role === 'quit')).toBe(false);
    expect(byLabel(menu, 'Redo').accelerator).toBe('Cmd+Shift+Z');
  });
});
