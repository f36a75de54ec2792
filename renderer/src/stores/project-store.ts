import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef } from 'vue';
import type { OpenedFile } from '../../../shared/ipc/contract';
import type { BakeState, ProjectFileState, ProjectTree } from '../../../shared/ipc/project-contract';
import type { EditRefusals } from '../../../shared/edits/edit-capabilities';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';
import { projectFileIdOf, projectSessionOf, projectTabKey } from '../tools/tab-file';
import { useDocumentStore, type OpenTab } from './document-store';
import { withFileFacts } from '../viewport/file-view-data';

/** Marks a state made from the tree, which does not carry the files' tools. */
const TOOLS_UNKNOWN: EditRefusals = Object.freeze({});

function sameBake(a: BakeState | null, b: BakeState | null): boolean {
  return a === b || (a !== null && b !== null && a.status === b.status && a.label === b.label && a.bakedAt === b.bakedAt && a.file === b.file);
}

function describe(e: unknown): string {
  return e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
}

/**
 * The project in the tree panel: its modules, areas and files (metadata only), the session
 * the services gave this opening of it, and each file's revision and bake state as the
 * services last reported them. Opening another project closes the tabs of the one before
 * (their file ids mean nothing in the new one); Save As moves them to the copy, whose file
 * ids are the same.
 */
export const useProjectStore = defineStore('project', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const doc = useDocumentStore();
  const tree = shallowRef<ProjectTree | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  /** What opening a project did to the tabs of the one before, for the tree panel. */
  const note = ref<string | null>(null);
  /** Per file id: revision, edited mark and bake state, newest known. */
  const states = shallowRef<ReadonlyMap<number, ProjectFileState>>(new Map());
  /** Bumped whenever states change, for views that key on it. */
  const stateRevision = ref(0);

  const session = computed(() => tree.value?.session ?? null);

  function statesOfTree(t: ProjectTree): Map<number, ProjectFileState> {
    const out = new Map<number, ProjectFileState>();
    for (const m of t.modules) {
      // The tree does not know the files' tools: a tab's own view has them until a state brings new ones.
      for (const f of [...m.files, ...m.areas.flatMap((a) => a.files)]) out.set(f.id, { fileId: f.id, revision: f.revision, edited: f.edited, bake: f.bake, refusals: TOOLS_UNKNOWN });
    }
    return out;
  }

  /** The tabs of a project session, as the document store keeps them. */
  function tabsOf(s: string): OpenTab[] {
    return doc.tabs.filter((t) => projectSessionOf(t.key) === s);
  }

  /** Re-reads the tabs of the session before in the new one (the same project file, or its Save As copy). */
  async function moveTabs(from: string, to: string): Promise<void> {
    const wasActive = doc.activeKey;
    for (const tab of tabsOf(from)) {
      const fileId = projectFileIdOf(tab.key)!;
      try {
        const file = markRaw(await client!.call('project.openFile', { session: to, fileId }));
        const key = projectTabKey(to, fileId);
        doc.tabs = doc.tabs.map((t) => (t.key === tab.key ? markRaw({ ...t, key, file, baked: null, showBaked: false, reportPending: false }) : t));
        if (wasActive === tab.key) doc.activeKey = key;
      } catch (e) {
        doc.closeWhere((t) => t.key === tab.key);
        note.value = `${tab.file.name} was closed: ${describe(e)}`;
      }
    }
  }

  function adopt(next: ProjectTree): string | null {
    const before = tree.value;
    tree.value = markRaw(next);
    states.value = statesOfTree(next);
    stateRevision.value++;
    return before?.session ?? null;
  }

  async function open(path: string): Promise<void> {
    loading.value = true;
    error.value = null;
    note.value = null;
    try {
      const before = tree.value;
      const next = await client!.call('project.open', { path });
      const old = adopt(next);
      if (old !== null && old !== next.session) {
        if (before && before.path === next.path) await moveTabs(old, next.session);
        else {
          // Their file ids mean nothing in the project opened now.
          const closed = doc.closeWhere((t) => projectSessionOf(t.key) === old);
          if (closed > 0) note.value = `Closed ${closed} tab${closed === 1 ? '' : 's'} of ${before?.name ?? 'the project before'}`;
        }
      }
    } catch (e) {
      error.value = describe(e);
    } finally {
      loading.value = false;
    }
  }

  /** Set when Save Project As needs a typed path (browser mode has no save dialog). */
  const saveAsAsked = ref(0);
  /**
   * A typed Save As path where a file exists: the page asks "Replace …?" (Replace / Cancel)
   * before anything is written; null when nothing is asked.
   */
  const replaceAsked = ref<string | null>(null);

  /**
   * Save Project As. An existing file is replaced only with `overwrite` (the user's Replace,
   * or a native save dialog, which asks itself); otherwise the services refuse with `exists`
   * and the page asks first.
   */
  async function saveAs(path: string, overwrite = false): Promise<void> {
    const s = session.value;
    if (s === null) return;
    loading.value = true;
    error.value = null;
    note.value = null;
    replaceAsked.value = null;
    try {
      const next = await client!.call('project.saveAs', { session: s, path, ...(overwrite ? { overwrite: true } : {}) });
      const old = adopt(next);
      // The copy has the same file ids: the tabs go on in it.
      if (old !== null && old !== next.session) await moveTabs(old, next.session);
      note.value = `Saved as ${next.path}; you are now working in the copy`;
    } catch (e) {
      if (e instanceof WalkbenchRpcError && e.code === 'exists' && !overwrite) replaceAsked.value = path;
      else error.value = describe(e);
    } finally {
      loading.value = false;
    }
  }

  /** The user's answer to "Replace …?": Replace saves over the file, Cancel leaves it as it is. */
  async function answerReplace(replace: boolean): Promise<void> {
    const path = replaceAsked.value;
    replaceAsked.value = null;
    if (replace && path !== null) await saveAs(path, true);
  }

  /** File ▸ Save Project As…: the native save dialog, or the typed path in browser mode. */
  async function saveAsFromMenu(): Promise<void> {
    if (!tree.value) return;
    try {
      const chosen = await client!.call('dialog.saveFile', { title: 'Save Project As', extensions: ['wbproj'] });
      // The native dialog has already asked before a file is replaced (showOverwriteConfirmation).
      if (chosen.path) await saveAs(chosen.path, true);
    } catch (e) {
      if (e instanceof WalkbenchRpcError && e.code === 'unavailable') saveAsAsked.value++;
      else error.value = describe(e);
    }
  }

  /**
   * Takes in newer file states (from an edit's answer, a report, a bake): the tree's marks
   * and every open tab of the file or naming it as related follow. Older revisions than
   * those known are ignored, so answers arriving out of order do no harm.
   */
  function mergeStates(list: readonly ProjectFileState[], forSession = session.value): void {
    if (forSession === null || forSession !== session.value || list.length === 0) return;
    const next = new Map(states.value);
    for (const s of list) {
      const known = next.get(s.fileId);
      if (known && known.revision > s.revision) continue;
      next.set(s.fileId, s);
    }
    states.value = next;
    stateRevision.value++;
    for (const tab of tabsOf(forSession)) {
      const view = tab.file.projectFile;
      if (!view) continue;
      const own = next.get(view.fileId);
      const related = view.related.map((r) => ({ ...r, revision: next.get(r.fileId)?.revision ?? r.revision }));
      const bake = own ? own.bake : view.bake;
      const refusals = own && own.refusals !== TOOLS_UNKNOWN ? own.refusals : view.refusals;
      const sameRelated = related.every((r, i) => r.revision === view.related[i]!.revision);
      if (sameBake(bake, view.bake) && sameRelated && JSON.stringify(refusals) === JSON.stringify(view.refusals)) continue;
      // The tab's own revision moves only with its content (staleTabs finds the tabs to read again).
      doc.updateTab(tab.key, (t) => ({ ...t, file: markRaw(withFileFacts(t.file, { projectFile: { ...view, related, bake, refusals } })) }));
    }
  }

  /** Tabs of the open project whose content is older than the project's file (changed from elsewhere). */
  function staleTabs(): OpenTab[] {
    const s = session.value;
    if (s === null) return [];
    return tabsOf(s).filter((t) => {
      const view = t.file.projectFile;
      const known = view ? states.value.get(view.fileId) : undefined;
      return view !== undefined && known !== undefined && known.revision !== view.revision;
    });
  }

  /** A file's newest known revision (a tab's file view, else the tree's). */
  function revisionOf(fileId: number): number | undefined {
    return states.value.get(fileId)?.revision;
  }

  function bakeOf(fileId: number): BakeState | null {
    return states.value.get(fileId)?.bake ?? null;
  }

  /** Reads every file's state again (after a bake job, whose results change bake states). */
  async function refreshStates(): Promise<void> {
    const s = session.value;
    if (s === null) return;
    try {
      const r = await client!.call('project.state', { session: s });
      // A state list is whole: older revisions than known are still skipped per file.
      mergeStates(r.files, r.session);
    } catch (e) {
      if (!(e instanceof WalkbenchRpcError && e.code === 'stale')) error.value = describe(e);
    }
  }

  /** The tab file of a project file as the services sent it (its view names the session it belongs to). */
  function isCurrent(file: OpenedFile): boolean {
    return file.projectFile !== undefined && file.projectFile.session === session.value;
  }

  return { tree, session, loading, error, note, states, stateRevision, open, saveAs, saveAsFromMenu, saveAsAsked, replaceAsked, answerReplace, mergeStates, staleTabs, revisionOf, bakeOf, refreshStates, isCurrent };
});
