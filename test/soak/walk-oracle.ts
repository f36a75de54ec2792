import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { bakeStateOf } from '../../electron/services/project/file-bake-state';
import { kotorLayoutOfRoom, isKotorRoomWalkmesh } from '../../electron/services/project/kotor-room-layout';
import { areaTrxOf, notCarriedEdits } from '../../electron/services/project/not-carried-edits';
import { editTargetOf, undoScopeOf } from '../../electron/services/project/project-file-view';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { FileRecord, HistorySummary } from '../../electron/services/project/project-types';
import { meshDigest, type AppHookState } from '../../renderer/src/tools/state-hook';
import { editRefusals, type EditRefusals } from '../../shared/edits/edit-capabilities';
import { EditError } from '../../shared/edits/edit-error';
import type { GffDocument } from '../../shared/formats/aurora/gff-document';
import { writeGff } from '../../shared/formats/aurora/gff-writer';
import { handlerById } from '../../shared/formats/format-registry';
import { inspectBytes } from '../../shared/formats/inspect-file';
import type { BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { areaFromDocuments } from '../../shared/formats/kotor/kotor-area';
import { checkRoomLinks } from '../../shared/formats/kotor/kotor-room-links';
import type { NotCarriedEdit } from '../../shared/ipc/export-contract';
import type { Walkmesh } from '../../shared/model/walkmesh';
import { warning, type Finding } from '../../shared/validation/finding';
import type { PageSnapshot } from './walk-page';

/**
 * The random walk's oracle, in Node: it opens the project file read-only (the app's own
 * handle keeps writing) and derives what every panel must show from the project alone: each
 * file's bytes replayed from its history on the imported bytes, the edited model each tab
 * must hold, the findings of the bytes as the project holds them plus the project's own
 * (room links, edits the export drops), and the bake state. Then it compares that with the
 * page (walk-page.ts snapshot) and with what the step meant to do (its intent).
 *
 * It never writes: no write of pending edits, no export plan, no edit service of its own.
 * Results are cached per file by revision and content hash, so a step re-derives only the
 * files it changed.
 */

/** One thing the page shows that the project does not hold (or a step that did not do what it meant). */
export interface Divergence {
  check: string;
  where: string;
  expected: string;
  shown: string;
}

/** What the oracle knows about one project file after a step. */
export interface FileFacts {
  record: FileRecord;
  /** `module/name`. */
  label: string;
  /** Done history entries naming the file, oldest first. */
  doneSeqs: number[];
  /** Why the bytes the project holds are not its history replayed (null when they are). */
  bytesProblem: string | null;
  /**
   * Why the file's edited model cannot be written (an edit written behind that the format
   * cannot take): its bytes stay those last written, its mark stays, and its tab must say so
   * (edit.unwritable). Null when it can be written.
   */
  unwritable: string | null;
  /** The walkmeshes the edits act on (walkmesh and TRN files), the history replayed. */
  meshes: readonly Walkmesh[] | null;
  digest: string | null;
  /** The report the file's tab must show: its bytes' findings then the project's, as `code: message`. */
  errors: string[];
  warnings: string[];
  bake: { status: string; label: string } | null;
  /** The file whose bake that is (`module/name`: itself, or an NWN2 TRN's or GIT's area TRX). */
  bakeFile: string | null;
  undoScope: number[];
  refusals: EditRefusals;
  /** The file's document as edited (KotOR rooms: BwmDocument; GIT: GffDocument), for the action generator. */
  document: unknown;
}

export interface ProjectFacts {
  path: string;
  game: string;
  files: FileFacts[];
  history: HistorySummary[];
  pendingWrites: number[];
  /** Per TRX file id: the edits its export does not carry. */
  notCarried: Map<number, NotCarriedEdit[]>;
  /** A fingerprint of every file's bytes (edit hash, or imported hash): what a no-edit step must leave alone. */
  fingerprint: Map<number, string>;
}

export function fileFacts(p: ProjectFacts, id: number): FileFacts | undefined {
  return p.files.find((f) => f.record.id === id);
}

const asText = (f: Finding) => `${f.code}: ${f.message}`;

/** The cause in the words of an edit refused for its writer (`…, so the edit is refused: CAUSE`). */
function causeOf(message: string): string {
  const m = /refused: (.*)$/s.exec(message);
  return m ? m[1]! : message;
}

/** Findings lists equal, where an expected `code: …CAUSE…` matches a shown finding of that code whose text holds CAUSE. */
function sameFindings(expected: readonly string[], shown: readonly string[]): boolean {
  if (expected.length !== shown.length) return false;
  return expected.every((e, i) => {
    const m = /^([\w.-]+): …(.*)…$/s.exec(e);
    return m ? shown[i]!.startsWith(`${m[1]}: `) && shown[i]!.includes(m[2]!) : shown[i] === e;
  });
}

function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `first difference at byte ${i} (${a[i]} vs ${b[i]}), sizes ${a.length} and ${b.length}`;
  return `sizes ${a.length} and ${b.length}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface CachedFile {
  key: string;
  bytesProblem: string | null;
  unwritable: string | null;
  meshes: readonly Walkmesh[] | null;
  digest: string | null;
  document: unknown;
  ownErrors: string[];
  ownWarnings: string[];
}

export class WalkOracle {
  private readonly cache = new Map<string, CachedFile>();
  private readonly linkCache = new Map<string, Finding[]>();

  /** Reads the project as it is now (read-only) and derives what the page must show. */
  read(path: string): ProjectFacts {
    const store = ProjectStore.open(path);
    try {
      return this.readStore(store);
    } finally {
      store.close();
    }
  }

  /** The files with edited bytes still to be written behind (the app writes them when idle). */
  pendingWrites(path: string): number[] {
    const store = ProjectStore.open(path);
    try {
      return store.editWritesPending();
    } finally {
      store.close();
    }
  }

  /** Whether a file's edited model cannot be written (so its write-behind mark stays: the app is idle all the same). */
  unwritable(path: string, fileId: number): boolean {
    return (fileFacts(this.read(path), fileId)?.unwritable ?? null) !== null;
  }

  private readStore(store: ProjectStore): ProjectFacts {
    const game = store.info().game;
    const records = store.listFiles();
    const history = store.listHistory();
    const edits = new ProjectEdits(store, env);
    const files: FileFacts[] = [];
    const fingerprint = new Map<number, string>();
    for (const r of records) fingerprint.set(r.id, `${r.edited ? (r.editSha256 ?? 'pending') : r.sha256}${r.editWritePending ? '+pending' : ''}`);
    const keyOf = (r: FileRecord) => `${store.file}\0${r.id}\0${r.revision}\0${r.sha256}\0${r.editSha256 ?? ''}\0${store.doneEntriesOf(r.id).map((e) => e.seq).join(',')}`;
    const notCarried = new Map<number, NotCarriedEdit[]>();
    for (const r of records) notCarried.set(r.id, notCarriedEdits(store, r));
    for (const r of records) {
      const label = `${r.module}/${r.name}`;
      const doneSeqs = store.doneEntriesOf(r.id).map((e) => e.seq);
      const key = keyOf(r);
      let c = this.cache.get(key);
      if (!c) {
        c = this.derive(store, edits, r, doneSeqs);
        c.key = key;
        this.cache.set(key, c);
        if (this.cache.size > 400) this.cache.delete(this.cache.keys().next().value!);
      }
      const extra = this.projectFindings(store, edits, r, records, keyOf, notCarried);
      // The service's words for an unwritable file end with its cause: matched by it (see sameFindings).
      const unwritable = c.unwritable !== null ? [`edit.unwritable: …${c.unwritable}…`] : [];
      const errors = [...c.ownErrors, ...extra.filter((f) => f.severity === 'error' && f.code.startsWith('kotor.')).map(asText), ...unwritable, ...extra.filter((f) => f.severity === 'error' && !f.code.startsWith('kotor.')).map(asText)];
      const warnings = [...c.ownWarnings, ...extra.filter((f) => f.severity !== 'error').map(asText)];
      const bake = bakeStateOf(store, r);
      const editable = r.kind === 'walkmesh' || r.kind === 'trn' || r.kind === 'git';
      files.push({
        record: r,
        label,
        doneSeqs,
        bytesProblem: c.bytesProblem,
        unwritable: c.unwritable,
        meshes: c.meshes,
        digest: c.digest,
        errors,
        warnings,
        bake: bake ? { status: bake.status, label: bake.label } : null,
        bakeFile: bake ? bake.file : null,
        undoScope: editable ? undoScopeOf(store, r).map((x) => x.id) : [r.id],
        refusals: editRefusals(editTargetOf(store, r)),
        document: c.document,
      });
    }
    return { path: store.file, game, files, history, pendingWrites: store.editWritesPending(), notCarried, fingerprint };
  }

  /** Replays a file's history and checks its bytes; its model, digest and own findings. */
  private derive(store: ProjectStore, edits: ProjectEdits, r: FileRecord, doneSeqs: number[]): CachedFile {
    const current = store.loadCurrentBytes(r);
    const original = store.loadFileBytes(r.id);
    let bytesProblem: string | null = null;
    let unwritable: string | null = null;
    let meshes: readonly Walkmesh[] | null = null;
    let document: unknown = null;
    const editable = r.kind === 'walkmesh' || r.kind === 'trn' || r.kind === 'git';
    if (editable) {
      try {
        if (r.kind !== 'git') meshes = edits.meshes(r.id);
      } catch (e) {
        bytesProblem = `the history does not replay: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (bytesProblem === null) {
        try {
          document = edits.document(r.id);
        } catch (e) {
          if (!(e instanceof EditError)) throw e;
          unwritable = causeOf(e.message);
        }
      }
    }
    if (bytesProblem === null && unwritable === null) {
      if (doneSeqs.length > 0 && editable) {
        let expected: Uint8Array | null = null;
        if (r.kind === 'git') expected = writeGff(document as GffDocument);
        else {
          const handler = r.format ? handlerById(r.format) : undefined;
          if (!handler) throw new Error(`${r.name}: no format handler for ${r.format}`);
          try {
            expected = handler.write(document, env);
          } catch (e) {
            unwritable = e instanceof Error ? e.message : String(e);
          }
        }
        if (expected && !sameBytes(expected, current)) bytesProblem = `the bytes the project holds are not its history (${doneSeqs.join(', ')}) replayed on the imported bytes: ${firstDifference(current, expected)}`;
      } else {
        const edit = store.loadEdit(r.id);
        if (edit && !sameBytes(edit.bytes, original)) bytesProblem = `the file has an edit (${edit.bytes.length} bytes) but no done history entry`;
      }
    }
    const report = inspectBytes(r.name, current, env);
    if (unwritable !== null && !r.editWritePending) bytesProblem = `the edited model cannot be written (${unwritable}), yet the file is not marked as still to be written`;
    return {
      key: '',
      bytesProblem,
      unwritable,
      meshes,
      digest: meshes ? meshDigest(meshes) : null,
      document,
      ownErrors: report.errors.map(asText),
      ownWarnings: report.warnings.map(asText),
    };
  }

  /** What the project adds to a file's findings (edit-service projectFindingsOf), derived here on its own. */
  private projectFindings(
    store: ProjectStore,
    edits: ProjectEdits,
    r: FileRecord,
    records: FileRecord[],
    keyOf: (r: FileRecord) => string,
    notCarried: Map<number, NotCarriedEdit[]>,
  ): Finding[] {
    const out: Finding[] = [];
    if (isKotorRoomWalkmesh(r)) out.push(...this.roomLinks(store, edits, r, records, keyOf));
    const trx = areaTrxOf(store, r);
    if (trx && trx.id === r.id) {
      for (const e of notCarried.get(r.id) ?? []) {
        out.push(warning('project.edit-not-exported', `"${e.label}" (${e.editedFile}) will not be in the exported ${trx.name}: ${e.reason}`));
      }
    }
    return out;
  }

  private roomLinks(store: ProjectStore, edits: ProjectEdits, room: FileRecord, records: FileRecord[], keyOf: (r: FileRecord) => string): Finding[] {
    const key = `${room.id}\0${records.filter((f) => f.kind === 'walkmesh' || f.kind === 'lyt').map(keyOf).join('\n')}`;
    const known = this.linkCache.get(key);
    if (known) return known;
    const found = kotorLayoutOfRoom(store, room);
    let out: Finding[] = [];
    if (found) {
      const docs = new Map<string, BwmDocument>();
      let index: number | undefined;
      found.layout.rooms.forEach((lr, i) => {
        const name = lr.name.toLowerCase();
        const f = found.rooms.get(name);
        if (!f || docs.has(name)) return;
        docs.set(name, edits.document(f.id) as BwmDocument);
        if (f.id === room.id) index = i;
      });
      if (index !== undefined) out = checkRoomLinks(areaFromDocuments(found.layout, docs)).filter((f) => f.room === index);
    }
    this.linkCache.set(key, out);
    if (this.linkCache.size > 200) this.linkCache.delete(this.linkCache.keys().next().value!);
    return out;
  }
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function listDiff(expected: readonly string[], shown: readonly string[]): { expected: string; shown: string } {
  const missing = expected.filter((e) => !shown.includes(e));
  const extra = shown.filter((s) => !expected.includes(s));
  if (missing.length === 0 && extra.length === 0) return { expected: `${expected.length} in this order: ${expected.join(' | ')}`, shown: `${shown.length} in this order: ${shown.join(' | ')}` };
  return { expected: `${expected.length}, of which not shown: ${missing.join(' | ') || '(none)'}`, shown: `${shown.length}, of which not expected: ${extra.join(' | ') || '(none)'}` };
}

/**
 * Compares the page with the project: the open project, every tab (session, revision,
 * model, findings, bake state), the tree's bake marks, the history the toolbar counts and
 * whether Undo/Redo are offered; and every file's bytes with its history replayed.
 */
export function checkPage(facts: ProjectFacts, snap: PageSnapshot, expectedProject: string): Divergence[] {
  const out: Divergence[] = [];
  const { state, dom } = snap;
  const add = (check: string, where: string, expected: unknown, shown: unknown) => out.push({ check, where, expected: show(expected), shown: show(shown) });

  for (const f of facts.files) if (f.bytesProblem) add('bytes', f.label, 'the history replayed on the imported bytes', f.bytesProblem);

  if (state.project?.path !== expectedProject) add('project', 'open project', expectedProject, state.project?.path ?? 'none');
  if (!state.project) return out;
  if (state.edit.history !== facts.history.length) add('history', 'history entries the page knows', facts.history.length, state.edit.history);

  for (const t of state.tabs) {
    const where = `tab ${t.name}`;
    if (t.session !== state.project.session) {
      add('tab-session', where, `a tab of the open project (session ${state.project.session})`, `session ${t.session ?? 'none (file from disk)'}`);
      continue;
    }
    const f = t.fileId === null ? undefined : fileFacts(facts, t.fileId);
    if (!f) {
      add('tab-file', where, 'a file of the project', `file id ${t.fileId}`);
      continue;
    }
    if (t.revision !== f.record.revision) add('tab-revision', where, f.record.revision, t.revision);
    if (f.digest !== null && t.meshDigest !== f.digest) add('tab-mesh', where, `model digest ${f.digest} (${f.meshes!.reduce((n, m) => n + m.triangles.length / 3, 0)} faces)`, `digest ${t.meshDigest} (${t.faces} faces)`);
    if (!t.reportPending) {
      if (!sameFindings(f.errors, t.errors)) {
        const d = listDiff(f.errors, t.errors);
        add('findings', `${where} errors`, d.expected, d.shown);
      }
      if (!sameFindings(f.warnings, t.warnings)) {
        const d = listDiff(f.warnings, t.warnings);
        add('findings', `${where} warnings`, d.expected, d.shown);
      }
    }
    const bake = t.bake ? { status: t.bake.status, label: t.bake.label } : null;
    if (JSON.stringify(bake) !== JSON.stringify(f.bake)) add('bake-state', `${where} summary`, f.bake, bake);
    if (t.active && !t.showBaked) {
      if (!t.reportPending && dom.findingsPending !== 'true') {
        const title = `${f.errors.length} error${f.errors.length === 1 ? '' : 's'}, ${f.warnings.length} warning${f.warnings.length === 1 ? '' : 's'}`;
        if (dom.findingsTitle !== title) add('findings', `${where} findings panel title`, title, dom.findingsTitle);
      }
      // The summary names the file the bake is of when it is another (an NWN2 TRN's area TRX).
      const label = f.bake ? `${f.bakeFile !== f.label ? `${f.bakeFile!.replace(/^.*\//, '')}: ` : ''}${f.bake.label}` : null;
      if (f.bake && (dom.bakeStatus !== f.bake.status || dom.bakeLabel !== label)) add('bake-state', `${where} summary panel`, { status: f.bake.status, label }, { status: dom.bakeStatus, label: dom.bakeLabel });
    }
    if (t.active) {
      const scope = new Set(f.undoScope);
      const canUndo = facts.history.some((h) => !h.undone && h.files.some((x) => scope.has(x)));
      const canRedo = facts.history.some((h) => h.undone && h.files.some((x) => scope.has(x)));
      if (dom.undoDisabled !== null && dom.undoDisabled !== !canUndo && !state.edit.busy) add('undo-offered', `${where} Undo button`, canUndo ? 'enabled' : 'disabled', dom.undoDisabled ? 'disabled' : 'enabled');
      if (dom.redoDisabled !== null && dom.redoDisabled !== !canRedo && !state.edit.busy) add('undo-offered', `${where} Redo button`, canRedo ? 'enabled' : 'disabled', dom.redoDisabled ? 'disabled' : 'enabled');
    }
  }

  for (const f of facts.files) {
    const want = f.bake?.status ?? 'none';
    const hook = state.treeBake[f.record.id];
    if (hook !== want) add('tree-bake', `tree ${f.label} (state)`, want, hook ?? 'no mark');
    const row = dom.tree.find((x) => x.name === f.record.name);
    if (!row) add('tree', `tree ${f.label}`, 'listed', 'not listed');
    else {
      if (row.bake !== want) add('tree-bake', `tree ${f.label} (data-bake)`, want, row.bake);
      if (row.edited !== String(f.record.edited)) add('tree-edited', `tree ${f.label} (data-edited)`, String(f.record.edited), row.edited);
    }
  }
  return out;
}

/** What a step meant to do, as the action reports it once the page answered. */
export type StepIntent =
  /** Nothing in the project may change (open, switch, select, bake, dry run, reload…). */
  | { kind: 'none' }
  /** An edit asked in the tab of `fileId`: done (the page shows it) or refused (an error shown). */
  | { kind: 'edit'; fileId: number; outcome: 'done' | 'refused'; alsoAllowed: number[]; error?: string }
  /** Undo or redo in the tab of `fileId`. */
  | { kind: 'undo' | 'redo'; fileId: number; outcome: 'done' | 'nothing' | 'refused'; error?: string }
  /** A dry run: the rows of edits not carried the dialog listed, and the project files it planned. */
  | { kind: 'dry-run'; notCarried: { seq: number; text: string }[]; planned: string[] };

/** Before a step: the history and every file's fingerprint. */
export interface StepBefore {
  path: string;
  history: HistorySummary[];
  fingerprint: Map<number, string>;
  scopes: Map<number, number[]>;
}

export function beforeOf(facts: ProjectFacts): StepBefore {
  return { path: facts.path, history: facts.history, fingerprint: facts.fingerprint, scopes: new Map(facts.files.map((f) => [f.record.id, f.undoScope])) };
}

const entryText = (h: HistorySummary) => `#${h.seq} "${h.label}" files [${h.files.join(',')}]${h.undone ? ' (undone)' : ''}`;

function changedFiles(before: Map<number, string>, after: Map<number, string>): number[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter((id) => before.get(id) !== after.get(id));
}

/**
 * Checks that the step did what it meant and nothing else: a done edit added one history
 * entry whose files are the tab's undo scope (plus what the edit may also touch), a refused
 * one changed nothing, an undo or redo flipped the entry the tab's scope names, anything
 * else changed no history and no bytes; a dry run listed exactly the edits its files drop.
 */
export function checkIntent(intent: StepIntent, before: StepBefore, after: ProjectFacts, sameProjectAfter: ProjectFacts | null): Divergence[] {
  const out: Divergence[] = [];
  const add = (check: string, where: string, expected: unknown, shown: unknown) => out.push({ check, where, expected: show(expected), shown: show(shown) });
  // A step that switched projects is checked against the project it left.
  const now = sameProjectAfter ?? after;
  const histBefore = before.history.map(entryText);
  const histAfter = now.history.map(entryText);
  const bytesChanged = changedFiles(before.fingerprint, now.fingerprint);
  const unchanged = (why: string) => {
    if (JSON.stringify(histBefore) !== JSON.stringify(histAfter)) add('intent', why, `history unchanged: ${histBefore.slice(-4).join('; ') || '(empty)'}`, `history now: ${histAfter.slice(-4).join('; ') || '(empty)'}`);
    if (bytesChanged.length > 0) add('intent', why, 'no file changed', `files changed: ${bytesChanged.join(', ')}`);
  };

  if (intent.kind === 'none') {
    unchanged('a step that edits nothing');
    return out;
  }
  if (intent.kind === 'dry-run') {
    unchanged('an export dry run');
    const want: string[] = [];
    for (const f of after.files) {
      if (!intent.planned.includes(f.label)) continue;
      for (const e of after.notCarried.get(f.record.id) ?? []) want.push(`${e.seq} "${e.label}" on ${e.editedFile}, not in ${f.label}: ${e.reason}`);
    }
    const shown = intent.notCarried.map((n) => `${n.seq} ${n.text}`.replace(/\s+/g, ' '));
    for (let i = 0; i < want.length; i++) want[i] = want[i]!.replace(/\s+/g, ' ');
    if (JSON.stringify([...want].sort()) !== JSON.stringify([...shown].sort())) {
      const d = listDiff(want.sort(), shown.sort());
      add('dry-run', 'export-not-carried rows', d.expected, d.shown);
    }
    return out;
  }
  const scope = before.scopes.get(intent.fileId) ?? [intent.fileId];
  const inScope = (h: HistorySummary) => h.files.some((f) => scope.includes(f));
  if (intent.kind === 'edit') {
    if (intent.outcome === 'refused') {
      unchanged(`a refused edit (${intent.error ?? ''})`);
      return out;
    }
    const maxBefore = Math.max(0, ...before.history.map((h) => h.seq));
    const added = now.history.filter((h) => h.seq > maxBefore);
    if (added.length !== 1) {
      add('intent', `an edit shown done in the tab of file ${intent.fileId}`, 'one new history entry', `${added.length}: ${added.map(entryText).join('; ')}`);
      return out;
    }
    const entry = added[0]!;
    const allowed = new Set([...scope, ...intent.alsoAllowed]);
    if (entry.undone || !entry.files.every((f) => allowed.has(f))) {
      add('intent', `the new history entry of an edit in the tab of file ${intent.fileId}`, `a done entry of files within [${[...allowed].join(',')}]`, entryText(entry));
    }
    // Entries before it stay as they were, except the undone ones of its files (their redo is dropped).
    for (const h of before.history) {
      const kept = now.history.find((x) => x.seq === h.seq);
      if (!kept) {
        if (!(h.undone && h.files.some((f) => entry.files.includes(f)))) add('intent', `history entry #${h.seq}`, 'kept (only undone entries of the edited files are dropped)', 'dropped');
      } else if (kept.undone !== h.undone) add('intent', `history entry #${h.seq}`, h.undone ? 'undone' : 'done', kept.undone ? 'undone' : 'done');
    }
    const outside = bytesChanged.filter((id) => !entry.files.includes(id));
    if (outside.length > 0) add('intent', 'files changed by the edit', `only files of its entry [${entry.files.join(',')}]`, `also [${outside.join(',')}]`);
    return out;
  }
  // Undo or redo.
  const undo = intent.kind === 'undo';
  const candidates = before.history.filter((h) => h.undone === !undo && inScope(h));
  const expected = undo ? candidates[candidates.length - 1] : candidates[0];
  const flipped = before.history.filter((h) => {
    const x = now.history.find((y) => y.seq === h.seq);
    return x !== undefined && x.undone !== h.undone;
  });
  const gone = before.history.filter((h) => !now.history.some((y) => y.seq === h.seq));
  const where = `${intent.kind} in the tab of file ${intent.fileId} (scope [${scope.join(',')}])`;
  if (gone.length > 0 || now.history.length !== before.history.length) add('intent', where, 'the same history entries', `${now.history.length} entries, ${gone.length} gone`);
  if (intent.outcome === 'done') {
    if (!expected) add('intent', where, 'nothing to step (no entry in the scope)', `page shows it done; flipped ${flipped.map(entryText).join('; ')}`);
    else if (flipped.length !== 1 || flipped[0]!.seq !== expected.seq) add('intent', where, `entry ${entryText(expected)} flipped`, `flipped: ${flipped.map(entryText).join('; ') || '(none)'}`);
    else {
      const outside = bytesChanged.filter((id) => !expected.files.includes(id));
      if (outside.length > 0) add('intent', where, `only files of the entry [${expected.files.join(',')}] changed`, `also [${outside.join(',')}]`);
    }
  } else {
    unchanged(`${where}: ${intent.outcome}${intent.error ? ` (${intent.error})` : ''}`);
    if (intent.outcome === 'nothing' && expected) add('intent', where, `entry ${entryText(expected)} stepped`, 'the page said there is nothing to step');
    if (intent.outcome === 'refused' && !expected) add('intent', where, 'nothing to step, said as such', `refused: ${intent.error ?? ''}`);
  }
  return out;
}

/** The page problems recorded since the last step (console errors, page errors). */
export function checkProblems(problems: readonly string[], from: number, expected?: RegExp): Divergence[] {
  return problems.slice(from).filter((p) => !expected?.test(p)).map((p) => ({ check: 'page-error', where: 'the page', expected: 'no console or page error', shown: p }));
}

export type { AppHookState };
