import type { GffDocument } from '../formats/aurora/gff-document';
import type { BwmDocument } from '../formats/kotor/bwm-document';
import type { PluginDocument } from '../formats/skyrim/plugin-document';
import type { NavDocument } from '../formats/source/nav-document';
import type { Walkmesh } from '../model/walkmesh';
import type { DocumentBatchCommand, DocumentEditCommand, DocumentTarget } from './document-edit-command';
import { EditError } from './edit-error';
import { applyGitEdit, type GitEditCommand } from './git-placement-edits';
import { applyKotorTransition } from './kotor-transitions';
import { applySkyrimTriangleFlags } from './skyrim-triangle-flags';
import { applySkyrimAddDoorLinks, applySkyrimRemoveDoorLinks } from './skyrim-door-links';
import { applySkyrimLinkEdges, applySkyrimUnlinkEdges } from './skyrim-edge-links';
import { applySkyrimFinalize } from './skyrim-finalize';
import { applySourceAddLadder, applySourceRemoveLadder } from './source-ladders';
import { applySourceConnectionEdit } from './source-connections';
import { applySourceSetPlace } from './source-places';

/** A document an edit can change, tagged with what it is. */
export type EditableDocument =
  | { target: 'source-nav'; doc: NavDocument }
  /** `mesh`: the walkmesh the user sees, whose face indices the commands use. */
  | { target: 'kotor-bwm'; doc: BwmDocument; mesh?: Walkmesh }
  | { target: 'git'; doc: GffDocument }
  | { target: 'skyrim-plugin'; doc: PluginDocument };

export interface DocumentEditResult {
  /** The edited document (a new object, except a GIT, which is edited in place). */
  doc: EditableDocument['doc'];
  inverse: DocumentEditCommand;
  /** Lines for the user about what the edit left as stored (Skyrim NAVI data, for one). */
  notes: string[];
}

/** Which document each command kind edits. */
export function documentTargetOf(cmd: DocumentEditCommand): DocumentTarget | undefined {
  switch (cmd.kind) {
    case 'source-connect':
    case 'source-disconnect':
    case 'source-set-place':
      return 'source-nav';
    case 'kotor-set-transition':
      return 'kotor-bwm';
    case 'skyrim-set-triangle-flags':
    case 'skyrim-link-edges':
    case 'skyrim-unlink-edges':
    case 'skyrim-finalize':
    case 'skyrim-add-door-links':
    case 'skyrim-remove-door-links':
      return 'skyrim-plugin';
    case 'source-add-ladder':
    case 'source-remove-ladder':
      return 'source-nav';
    case 'document-batch':
      return cmd.commands.length > 0 ? documentTargetOf(cmd.commands[0]!) : undefined;
    default:
      return 'git';
  }
}

/**
 * Applies a document edit and returns the edited document with the command that undoes
 * it. Either the whole edit lands or, on an EditError, the document is as it was (a GIT,
 * edited in place, is put back by the inverses of the steps that landed).
 */
export function applyDocumentEdit(state: EditableDocument, cmd: DocumentEditCommand): DocumentEditResult {
  if (cmd.kind === 'document-batch') return applyBatch(state, cmd);
  const target = documentTargetOf(cmd);
  if (target !== state.target) throw new EditError(cmd.kind, `this edit is for a ${target} document, not a ${state.target} one`);
  switch (state.target) {
    case 'source-nav': {
      if (cmd.kind === 'source-add-ladder' || cmd.kind === 'source-remove-ladder') {
        const r = cmd.kind === 'source-add-ladder' ? applySourceAddLadder(state.doc, cmd) : applySourceRemoveLadder(state.doc, cmd);
        return { doc: r.doc, inverse: r.inverse, notes: [] };
      }
      if (cmd.kind === 'source-set-place') {
        const r = applySourceSetPlace(state.doc, cmd);
        return { doc: r.doc, inverse: r.inverse, notes: [] };
      }
      const r = applySourceConnectionEdit(state.doc, cmd as Parameters<typeof applySourceConnectionEdit>[1]);
      return { doc: r.doc, inverse: r.inverse, notes: [] };
    }
    case 'kotor-bwm': {
      const r = applyKotorTransition(state.doc, cmd as Parameters<typeof applyKotorTransition>[1], state.mesh);
      return { doc: r.doc, inverse: r.inverse, notes: [] };
    }
    case 'git':
      return { doc: state.doc, inverse: applyGitEdit(state.doc, cmd as GitEditCommand).inverse, notes: [] };
    case 'skyrim-plugin': {
      if (cmd.kind === 'skyrim-add-door-links' || cmd.kind === 'skyrim-remove-door-links') {
        const r = cmd.kind === 'skyrim-add-door-links' ? applySkyrimAddDoorLinks(state.doc, cmd) : applySkyrimRemoveDoorLinks(state.doc, cmd);
        return { doc: r.doc, inverse: r.inverse, notes: [] };
      }
      if (cmd.kind === 'skyrim-link-edges' || cmd.kind === 'skyrim-unlink-edges' || cmd.kind === 'skyrim-finalize') {
        if (cmd.kind === 'skyrim-finalize') {
          const r = applySkyrimFinalize(state.doc, cmd);
          return { doc: r.doc, inverse: r.inverse, notes: [finalizeNote(r.plan.counts, r.doorPortals.made)] };
        }
        const r = cmd.kind === 'skyrim-link-edges' ? applySkyrimLinkEdges(state.doc, cmd) : applySkyrimUnlinkEdges(state.doc, cmd);
        return { doc: r.doc, inverse: r.inverse, notes: [] };
      }
      const r = applySkyrimTriangleFlags(state.doc, cmd as Parameters<typeof applySkyrimTriangleFlags>[1]);
      return { doc: r.doc, inverse: r.inverse, notes: r.notes };
    }
  }
}

function applyBatch(state: EditableDocument, cmd: DocumentBatchCommand): DocumentEditResult {
  if (!Array.isArray(cmd.commands)) throw new EditError(cmd.kind, 'commands must be a list of document edits');
  const inverses: DocumentEditCommand[] = [];
  const notes: string[] = [];
  let current = state;
  try {
    for (const c of cmd.commands) {
      const r = applyDocumentEdit(current, c);
      inverses.push(r.inverse);
      notes.push(...r.notes);
      current = { ...current, doc: r.doc } as EditableDocument;
    }
  } catch (e) {
    // Only a GIT changes in place; other documents were never touched.
    if (state.target === 'git') for (let i = inverses.length - 1; i >= 0; i--) applyDocumentEdit(state, inverses[i]!);
    throw e;
  }
  return { doc: current.doc, inverse: { kind: 'document-batch', commands: inverses.reverse() }, notes };
}

function finalizeNote(c: { sharedEdges: number; reciprocals: number; crossNavmesh: number }, doorPortals: number): string {
  return `Finalize linked ${c.crossNavmesh} edge pair(s) across navmeshes, ${c.sharedEdges} shared edge pair(s) within a navmesh and ${c.reciprocals} missing way(s) back, and made ${doorPortals} door portal(s)`;
}
