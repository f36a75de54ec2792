import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { applyDocumentEdit, type DocumentEditResult, type EditableDocument } from '../../../shared/edits/apply-document-edit';
import { applyEdit } from '../../../shared/edits/apply-edit';
import type { DocumentEditCommand } from '../../../shared/edits/document-edit-command';
import type { EditCommand, EditResult } from '../../../shared/edits/edit-command';
import { EditError } from '../../../shared/edits/edit-error';
import { parseDocumentEditCommand } from '../../../shared/edits/parse-document-edit-command';
import { parseEditCommand } from '../../../shared/edits/parse-edit-command';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import type { GffDocument } from '../../../shared/formats/aurora/gff-document';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import type { FormatEnvironment } from '../../../shared/formats/format-environment';
import type { FormatHandler } from '../../../shared/formats/format-handler';
import { detectFormat, handlerById } from '../../../shared/formats/format-registry';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { nodeFormatEnvironment } from '../node-format-environment';
import { ProjectFileError } from './project-file-error';
import type { ProjectStore } from './project-store';
import type { HistorySummary } from './project-types';
import {
  describeDocumentEdit,
  describeEdit,
  isStoredEdit,
  parseStoredEdit,
  storedFiles,
  type DocumentEditPart,
  type StoredDocumentEdit,
  type StoredWalkmeshEdit,
} from './stored-edits';

export { describeEdit, describeDocumentEdit } from './stored-edits';

/** An edit applied to a project file: what changed and the file's bytes now. */
export interface EditOutcome {
  fileId: number;
  mesh: number;
  /** The history entry (for apply, undo and redo alike). */
  seq: number;
  label: string;
  /**
   * The file's bytes after the edit (its own bytes again when every edit is undone);
   * absent when they are written behind (ProjectEditsOptions.writeBehind).
   */
  bytes?: Uint8Array;
  /** What the edit touched; absent after an undo or redo that replayed a file opened for it, and for document edits. */
  result?: EditResult;
  /** Other files the same step changed (a link fixed on both sides), with their bytes. */
  others?: { fileId: number; bytes: Uint8Array }[];
  /** Every file the history entry names (its revision moved), when more than these. */
  touched?: number[];
  /** What a document edit left as stored and may be stale, one line each. */
  notes?: string[];
}

export interface ProjectEditsOptions {
  /**
   * Write the bytes of edits that keep the faces as they are (paint, attributes, moves)
   * behind: the history entry is committed with the edit and the file is marked
   * (ProjectStore.markEditWritePending); `flushWrites` writes the marked files. For the
   * app, where a brush stroke on a large walkmesh must not wait for the whole file to be
   * written. Edits that add or remove faces, and document edits, are always written at
   * once, so one that cannot be written is refused.
   */
  writeBehind?: boolean;
}

/** A file whose edited bytes could not be written when they were flushed. */
export interface WriteFailure {
  fileId: number;
  name: string;
  message: string;
}

interface OpenFile {
  fileId: number;
  name: string;
  /** A walkmesh file, or an NWN2 GIT (placements: cutters and placeables), which has no walkmesh. */
  kind: 'walkmesh' | 'git';
  handler: FormatHandler<unknown> | undefined;
  /**
   * The document the edited model is written on: the file's own at first; a document edit
   * replaces it with the edited document as written at that point.
   */
  doc: unknown;
  /**
   * `doc` is what the format would write from the meshes now, so writing skips deriving it
   * again (a Source area table takes a quarter of a second on a 2,500-area map). True for
   * the file's own document (read → model → write gives the file back) and after a
   * document edit; a walkmesh edit clears it.
   */
  docIsWritten: boolean;
  original: Uint8Array;
  meshes: Walkmesh[];
}

interface AppliedPart {
  file: OpenFile;
  part: DocumentEditPart;
  before: unknown;
  result: DocumentEditResult;
}

/**
 * Edits of a project's walkmesh files as undoable commands. The edited model of a file is
 * its own bytes' model with every done command of the history replayed on it, so undo and
 * redo work the same after the project is closed and opened again: face indices in the
 * history refer to that model, never to a re-read of the edited bytes (a KotOR bake, for
 * one, orders faces its own way). Each edit writes the file with its format's writer on
 * the file's own document and saves the bytes as the file's edit; an edit that cannot be
 * written is refused and leaves nothing behind.
 *
 * Document edits (shared/edits/document-edit-command.ts) change what the model does not
 * hold: they apply to the document as it would be written now, which then becomes the
 * base the model is written on, so walkmesh and document edits interleave in one history.
 * An NWN2 GIT is a file of its own with document edits only.
 */
export class ProjectEdits {
  private readonly files = new Map<number, OpenFile>();

  private readonly writeBehind: boolean;

  constructor(
    private readonly store: ProjectStore,
    private readonly env: FormatEnvironment = nodeFormatEnvironment,
    options: ProjectEditsOptions = {},
  ) {
    this.writeBehind = options.writeBehind ?? false;
  }

  /**
   * Writes the files whose edited bytes are behind their history (this editor's marks,
   * and those a crashed session left). A file that cannot be written keeps its mark and
   * is returned with the reason; the others are written.
   */
  flushWrites(): WriteFailure[] {
    const failures: WriteFailure[] = [];
    for (const fileId of this.store.editWritesPending()) {
      const record = this.store.fileById(fileId);
      const name = record ? `${record.module}/${record.name}` : `file ${fileId}`;
      try {
        const file = this.open(fileId);
        this.store.transaction(() => this.save(file, 'write'));
      } catch (e) {
        if (!(e instanceof EditError || e instanceof ProjectFileError)) throw e;
        failures.push({ fileId, name, message: e.message });
      }
    }
    return failures;
  }

  /** Drops the models kept in memory (of one file, or all): the next use replays them from the project. */
  forget(fileId?: number): void {
    if (fileId === undefined) this.files.clear();
    else this.files.delete(fileId);
  }

  /** The file's walkmeshes as edited (do not change them; apply a command instead). */
  meshes(fileId: number): readonly Walkmesh[] {
    return this.open(fileId).meshes;
  }

  /** The file's document as it is written now (do not change it; apply a document edit instead). */
  document(fileId: number): unknown {
    const file = this.open(fileId);
    return file.kind === 'git' ? file.doc : this.writtenDocument(file, 'document');
  }

  history(): HistorySummary[] {
    return this.store.listHistory();
  }

  /** Applies an edit, saves the file's new bytes and records the edit with its inverse. */
  apply(fileId: number, mesh: number, command: EditCommand, label = describeEdit(command)): EditOutcome {
    const file = this.open(fileId);
    if (file.kind !== 'walkmesh') throw new EditError(command.kind, `${file.name} is a GIT: it has no walkmesh to edit, only placements (document edits)`);
    const target = this.meshOf(file, mesh);
    parseEditCommand(command, `edit of ${file.name}`);
    return this.store.transaction(() => {
      const result = applyEdit(target, command);
      file.docIsWritten = false;
      try {
        const bytes = this.saveOrMark(file, command.kind, result);
        const stored = (edit: EditCommand): StoredWalkmeshEdit => ({ type: 'walkmesh-edit', v: 1, fileId, mesh, edit });
        const seq = this.store.pushHistory({ label, command: stored(command), inverse: stored(result.inverse), files: [fileId] });
        const outcome: EditOutcome = { fileId, mesh, seq, label, result };
        if (bytes) outcome.bytes = bytes;
        return outcome;
      } catch (e) {
        applyEdit(target, result.inverse);
        file.docIsWritten = false;
        throw e;
      }
    });
  }

  /** Applies a document edit to one file (see applyDocumentParts). */
  applyDocument(fileId: number, mesh: number, command: DocumentEditCommand, label = describeDocumentEdit(command)): EditOutcome {
    return this.applyDocumentParts([{ fileId, mesh, edit: command }], label);
  }

  /**
   * Applies document edits to one or more files as one history step (undone together),
   * saves every changed file and records the step with its inverse. `alsoUndoneFrom`: files
   * the step is also undone from (see ProjectStore.undo) though it does not change them.
   */
  applyDocumentParts(parts: readonly DocumentEditPart[], label = describeDocumentEdit(parts[0]!.edit), alsoUndoneFrom: readonly number[] = []): EditOutcome {
    if (parts.length === 0) throw new EditError('edit', 'a document edit needs at least one part');
    for (const p of parts) {
      const file = this.open(p.fileId);
      parseDocumentEditCommand(p.edit, `edit of ${file.name}`);
      refuseModelHeldFields(file, p.edit);
    }
    return this.store.transaction(() => {
      const applied: AppliedPart[] = [];
      try {
        for (const part of parts) {
          const file = this.open(part.fileId);
          const before = file.doc;
          applied.push({ file, part, before, result: this.applyPart(file, part) });
        }
        const saved = this.saveAll(applied.map((a) => a.file), parts[0]!.edit.kind);
        const command: StoredDocumentEdit = { type: 'document-edit', v: 1, parts: parts.map((p) => ({ ...p })) };
        const inverse: StoredDocumentEdit = { type: 'document-edit', v: 1, parts: applied.map((a) => ({ fileId: a.part.fileId, mesh: a.part.mesh, edit: a.result.inverse })).reverse() };
        // A step asked for in one file's tab but made in another (a KotOR link back) is also
        // that tab's to undo: its file is listed with the files the step changed.
        const seq = this.store.pushHistory({ label, command, inverse, files: [...storedFiles(command), ...alsoUndoneFrom] });
        return this.documentOutcome(parts[0]!, seq, label, saved, applied.flatMap((a) => a.result.notes));
      } catch (e) {
        this.rollBack(applied);
        throw e;
      }
    });
  }

  /**
   * Undoes the latest done edit of the project, whichever file it changed; with `scope`,
   * the latest done edit of those files (a tab's own), see ProjectStore.undo.
   */
  undo(scope?: readonly number[]): EditOutcome | undefined {
    return this.step('undo', scope);
  }

  /** Redoes the earliest undone edit (of the files in `scope`, when given). */
  redo(scope?: readonly number[]): EditOutcome | undefined {
    return this.step('redo', scope);
  }

  private step(which: 'undo' | 'redo', scope: readonly number[] | undefined): EditOutcome | undefined {
    return this.store.transaction(() => {
      const step = which === 'undo' ? this.store.undo(scope) : this.store.redo(scope);
      if (!step) return undefined;
      const stored = parseStoredEdit(step.apply, `${this.store.file}: history entry ${step.seq} (${step.label})`);
      if (stored.type === 'document-edit') return { ...this.stepDocument(stored, step.seq, step.label), touched: step.files };
      const wasOpen = this.files.has(stored.fileId);
      // A file opened now is replayed from the history as it stands after this step.
      const file = this.open(stored.fileId);
      const target = this.meshOf(file, stored.mesh);
      let result: EditResult | undefined;
      if (wasOpen) {
        result = applyEdit(target, stored.edit);
        file.docIsWritten = false;
      }
      try {
        const bytes = result ? this.saveOrMark(file, stored.edit.kind, result) : this.save(file, stored.edit.kind);
        const outcome: EditOutcome = { fileId: stored.fileId, mesh: stored.mesh, seq: step.seq, label: step.label };
        if (bytes) outcome.bytes = bytes;
        if (result) outcome.result = result;
        return outcome;
      } catch (e) {
        if (result) applyEdit(target, result.inverse);
        else this.files.delete(stored.fileId);
        throw e;
      }
    });
  }

  private stepDocument(stored: StoredDocumentEdit, seq: number, label: string): EditOutcome {
    const wasOpen = new Set(stored.parts.map((p) => p.fileId).filter((id) => this.files.has(id)));
    const applied: AppliedPart[] = [];
    const files: OpenFile[] = [];
    try {
      for (const part of stored.parts) {
        const file = this.open(part.fileId);
        files.push(file);
        // A file opened just now already has this step replayed.
        if (!wasOpen.has(part.fileId)) continue;
        const before = file.doc;
        applied.push({ file, part, before, result: this.applyPart(file, part) });
      }
      const saved = this.saveAll(files, stored.parts[0]!.edit.kind);
      return this.documentOutcome(stored.parts[0]!, seq, label, saved, applied.flatMap((a) => a.result.notes));
    } catch (e) {
      this.rollBack(applied);
      for (const part of stored.parts) if (!wasOpen.has(part.fileId)) this.files.delete(part.fileId);
      throw e;
    }
  }

  private documentOutcome(first: DocumentEditPart, seq: number, label: string, saved: Map<number, Uint8Array>, notes: string[]): EditOutcome {
    const outcome: EditOutcome = {
      fileId: first.fileId,
      mesh: first.mesh,
      seq,
      label,
      bytes: saved.get(first.fileId)!,
    };
    const others = [...saved].filter(([id]) => id !== first.fileId).map(([fileId, bytes]) => ({ fileId, bytes }));
    if (others.length > 0) outcome.others = others;
    if (notes.length > 0) outcome.notes = notes;
    return outcome;
  }

  private rollBack(applied: readonly AppliedPart[]): void {
    for (let i = applied.length - 1; i >= 0; i--) {
      const a = applied[i]!;
      // A GIT is edited in place; other documents were replaced, so the old object goes back.
      if (a.file.kind === 'git') applyDocumentEdit({ target: 'git', doc: a.file.doc as GffDocument }, a.result.inverse);
      else {
        a.file.doc = a.before;
        a.file.docIsWritten = false;
      }
    }
  }

  private applyPart(file: OpenFile, part: DocumentEditPart): DocumentEditResult {
    const result = applyDocumentEdit(this.editable(file, part.mesh, part.edit.kind), part.edit);
    file.doc = result.doc;
    file.docIsWritten = true;
    return result;
  }

  /** The file's document as it would be written now, tagged for the document edits. */
  private editable(file: OpenFile, mesh: number, kind: string): EditableDocument {
    if (file.kind === 'git') return { target: 'git', doc: file.doc as GffDocument };
    const doc = this.writtenDocument(file, kind);
    switch (file.handler?.id) {
      case 'source-nav':
        return { target: 'source-nav', doc: doc as Extract<EditableDocument, { target: 'source-nav' }>['doc'] };
      case 'kotor-bwm':
        return { target: 'kotor-bwm', doc: doc as Extract<EditableDocument, { target: 'kotor-bwm' }>['doc'], mesh: this.meshOf(file, mesh) };
      case 'skyrim-plugin':
        return { target: 'skyrim-plugin', doc: doc as Extract<EditableDocument, { target: 'skyrim-plugin' }>['doc'] };
      default:
        throw new EditError(kind, `${file.name}: ${file.handler?.label ?? 'this'} files have no document edits (area connections, room links, cover are Source, KotOR and Skyrim notions)`);
    }
  }

  private writtenDocument(file: OpenFile, kind: string): unknown {
    if (file.docIsWritten) return file.doc;
    try {
      return file.handler!.fromWalkmeshes!(file.meshes, file.doc);
    } catch (e) {
      throw new EditError(kind, `${file.name} cannot be written as edited, so the edit is refused: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private open(fileId: number): OpenFile {
    const known = this.files.get(fileId);
    if (known) return known;
    const record = this.store.fileById(fileId);
    if (!record) throw new ProjectFileError(this.store.file, `no file with id ${fileId}`);
    const where = `${record.module}/${record.name}`;
    // An NWN2 TRN is edited as a walkmesh: its ground is painted, then baked with the GIT.
    if (record.kind !== 'walkmesh' && record.kind !== 'git' && record.kind !== 'trn') {
      throw new ProjectFileError(this.store.file, `${where} is a ${record.kind} file, not a walkmesh, TRN or GIT that can be edited`);
    }
    if (record.editStale) {
      throw new ProjectFileError(this.store.file, `${where} was imported again after it was edited; its edit history no longer matches its bytes (discard the edits to edit it anew)`);
    }
    const original = this.store.loadFileBytes(fileId);
    let file: OpenFile;
    if (record.kind === 'git') {
      let doc: GffDocument;
      try {
        doc = readGff(original);
      } catch (e) {
        if (isMalformedInputError(e)) throw new ProjectFileError(this.store.file, e.withFile(where).message);
        throw e;
      }
      file = { fileId, name: where, kind: 'git', handler: undefined, doc, docIsWritten: true, original, meshes: [] };
    } else {
      const handler = (record.format ? handlerById(record.format) : undefined) ?? detectFormat(record.name, original);
      if (!handler?.fromWalkmeshes) throw new ProjectFileError(this.store.file, `${where}: ${handler ? `${handler.label} files cannot be written from an edited walkmesh` : 'unknown format'}`);
      const doc = handler.read(original, this.env);
      const meshes = handler.toWalkmeshes(doc, record.name).map(copyWalkmesh);
      file = { fileId, name: where, kind: 'walkmesh', handler, doc, docIsWritten: true, original, meshes };
    }
    this.replay(file);
    this.files.set(fileId, file);
    return file;
  }

  /** Replays the history's done commands that touch the file, in order. */
  private replay(file: OpenFile): void {
    for (const done of this.store.listDoneCommands()) {
      if (!isStoredEdit(done.command)) continue;
      const entry = `history entry ${done.seq} (${done.label})`;
      const stored = parseStoredEdit(done.command, `${this.store.file}: ${entry}`);
      try {
        if (stored.type === 'walkmesh-edit') {
          if (stored.fileId !== file.fileId) continue;
          const mesh = file.meshes[stored.mesh];
          if (!mesh) throw new ProjectFileError(this.store.file, `${entry} edits walkmesh ${stored.mesh} of ${file.name}, which has ${file.meshes.length}`);
          applyEdit(mesh, stored.edit);
          file.docIsWritten = false;
        } else {
          for (const part of stored.parts) if (part.fileId === file.fileId) this.applyPart(file, part);
        }
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
        throw new ProjectFileError(this.store.file, `${entry} no longer applies to ${file.name}: ${e.message}`);
      }
    }
  }

  private meshOf(file: OpenFile, mesh: number): Walkmesh {
    const m = file.meshes[mesh];
    if (!m) throw new EditError('edit', `${file.name} has ${file.meshes.length} walkmesh(es); there is no walkmesh ${mesh}`);
    return m;
  }

  private saveAll(files: readonly OpenFile[], kind: string): Map<number, Uint8Array> {
    const saved = new Map<number, Uint8Array>();
    for (const f of files) if (!saved.has(f.fileId)) saved.set(f.fileId, this.save(f, kind));
    return saved;
  }

  /** Saves now, or with writeBehind marks the file when the edit kept its faces as they were. */
  private saveOrMark(file: OpenFile, kind: string, result: EditResult): Uint8Array | undefined {
    if (!this.writeBehind || result.topology) return this.save(file, kind);
    this.store.markEditWritePending(file.fileId);
    return undefined;
  }

  /** Writes the edited file and saves it as the file's edit (or drops the edit when the bytes are the file's own). */
  private save(file: OpenFile, kind: string): Uint8Array {
    let bytes: Uint8Array;
    try {
      bytes = file.kind === 'git' ? writeGff(file.doc as GffDocument) : file.handler!.write(this.writtenDocument(file, kind), this.env);
    } catch (e) {
      throw new EditError(kind, `${file.name} cannot be written after this edit, so it is refused: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (sameBytes(bytes, file.original)) this.store.discardEdit(file.fileId);
    else this.store.saveEdit(file.fileId, bytes);
    this.store.clearEditWritePending(file.fileId);
    return bytes;
  }

}

/**
 * Skyrim triangle flags are the walkmesh's face materials: the writer takes them from the
 * model, so a document edit of them would be overwritten by the next write. They are
 * painted with paint-faces; only cover words are a document edit.
 */
function refuseModelHeldFields(file: OpenFile, cmd: DocumentEditCommand): void {
  if (cmd.kind === 'document-batch') {
    cmd.commands.forEach((c) => refuseModelHeldFields(file, c));
    return;
  }
  if (cmd.kind === 'skyrim-set-triangle-flags' && cmd.flags !== undefined) {
    throw new EditError(cmd.kind, `${file.name}: triangle flags are the walkmesh's face materials here; paint them with paint-faces (material, setBits, clearBits) and set only cover with this edit`);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
