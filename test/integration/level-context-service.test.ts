import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import { LEVEL_CONTEXT_BAKER } from '../../electron/services/level-context-service';
import { createEventHub } from '../../shared/ipc/event-hub';
import type { ContractHandlers } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/dispatch';
import { levelContextTriangleCount } from '../../shared/model/level-context';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { PLUGIN_FORMAT } from '../../shared/formats/skyrim/plugin-document';
import { bspLevelContextPieces } from '../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../shared/formats/source/bsp-reader';
import { fixturesRoot, readFixture } from '../support/fixtures';

/**
 * Issue 19: `context.load` finds a Source map's BSP beside the `.nav` it was imported from,
 * reads it off the main thread, caches it in the project, and says what is missing.
 */
const MAPS = `${fixturesRoot}/source-maps/cs16-cslinux`;

describe('context.load (Source: the BSP beside the .nav)', () => {
  let tmp = '';
  let project = '';
  let service: ContractHandlers & { close?: () => Promise<void> };
  let closeAll: (() => Promise<void>) | undefined;
  let session = '';
  const ids: Record<string, number> = {};
  const progress: string[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-level-context-'));
    project = path.join(tmp, 'source.wbproj');
    const store = ProjectStore.create(project, { name: 'Level context', game: 'source' });
    try {
      for (const name of ['aim_map.nav', 'de_dust2_v4.nav']) {
        ids[name] = store.upsertFile({ module: 'maps', area: name.replace(/\.nav$/, ''), name, kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(`${MAPS}/${name}`), sourcePath: `${MAPS}/${name}` }).fileId;
      }
    } finally {
      store.close();
    }
    const events = createEventHub();
    events.subscribe((event, payload) => {
      if (event === 'context.progress') progress.push((payload as { stage: string }).stage);
    });
    service = createWalkbenchService({ events, onClose: (c) => (closeAll = c) });
    session = (await service['project.open']({ path: project })).session;
  }, 60_000);
  afterAll(async () => {
    await closeAll?.();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('reads the map beside the .nav into the same pieces as the reader gives, then answers from the cache', async () => {
    const first = await service['context.load']({ session, fileId: ids['aim_map.nav']! });
    const expected = bspLevelContextPieces(readBsp(readFixture(`${MAPS}/aim_map.bsp`), 'maps/aim_map.bsp'));
    expect(first.cached).toBe(false);
    expect(first.context.game).toBe('source');
    expect(first.context.pieces.map((p) => p.label)).toEqual(expected.map((p) => p.label));
    expect(levelContextTriangleCount(first.context)).toBe(expected.reduce((n, p) => n + p.triangles.length / 3, 0));
    expect(levelContextTriangleCount(first.context)).toBeGreaterThan(100);
    expect(first.sources.some((s) => s.endsWith('aim_map.bsp (beside the .nav it was imported from)'))).toBe(true);
    expect(progress.some((s) => s.includes('aim_map.bsp'))).toBe(true);
    const again = await service['context.load']({ session, fileId: ids['aim_map.nav']! });
    expect(again.cached).toBe(true);
    expect(Array.from(again.context.pieces[0]!.positions.subarray(0, 30))).toEqual(Array.from(first.context.pieces[0]!.positions.subarray(0, 30)));
    const store = ProjectStore.open(project);
    try {
      expect(store.listBakes().filter((b) => b.bakerId === LEVEL_CONTEXT_BAKER)).toHaveLength(1);
    } finally {
      store.close();
    }
  }, 60_000);

  it('a .nav without its map is a gap naming the map and where it was looked for', async () => {
    const r = await service['context.load']({ session, fileId: ids['de_dust2_v4.nav']! });
    expect(r.context.pieces).toHaveLength(0);
    expect(r.context.gaps).toHaveLength(1);
    expect(r.context.gaps[0]!.what).toBe('maps/de_dust2_v4.bsp');
    expect(r.context.gaps[0]!.why).toContain(MAPS);
  }, 60_000);

  it('refuses bad arguments before the service sees them', async () => {
    const bad = await dispatch(service, 'context.load', { session, fileId: -1 });
    expect(bad.ok).toBe(false);
    const extra = await dispatch(service, 'context.load', { session, fileId: 1, path: '/etc/passwd' });
    expect(extra.ok).toBe(false);
    const stale = await dispatch(service, 'context.load', { session: 'not-the-session', fileId: 1 });
    expect(stale.ok === false && stale.error.code).toBe('stale');
    const missing = await dispatch(service, 'context.load', { session, fileId: 99_999 });
    expect(missing.ok === false && missing.error.code).toBe('not-found');
  });
});

describe('context.load (Skyrim: the plugin\'s placed objects and landscape)', () => {
  let tmp = '';
  let closeAll: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await closeAll?.();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('draws the placed objects of the plugin\'s navmesh cells as bounds, and names the master their base objects are in', async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-level-context-skyrim-'));
    const project = path.join(tmp, 'skyrim.wbproj');
    const name = 'DawnOfTheSilverHand_376c8f3.esp';
    const store = ProjectStore.create(project, { name: 'Level context', game: 'skyrim' });
    let fileId = 0;
    try {
      fileId = store.upsertFile({ module: 'plugins', name, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: readFixture(`${fixturesRoot}/skyrim-land/${name}`) }).fileId;
    } finally {
      store.close();
    }
    const service = createWalkbenchService({ onClose: (c) => (closeAll = c) });
    const { session } = await service['project.open']({ path: project });
    const r = await service['context.load']({ session, fileId });
    expect(r.context.game).toBe('skyrim');
    expect(r.context.pieces.length).toBeGreaterThan(0);
    expect(r.context.pieces.every((p) => p.kind === 'bounds' || p.kind === 'terrain')).toBe(true);
    expect(r.context.gaps.some((g) => /Skyrim\.esm, which is not loaded/.test(g.why))).toBe(true);
  }, 60_000);
});
