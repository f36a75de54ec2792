import { NAV_FORMAT } from '../../../shared/formats/source/nav-reader';
import type { GameId } from '../../../shared/model/walkmesh';
import type { FileRecord } from '../project/project-types';

/**
 * Why a file or a whole run has nothing to bake, said in the game's terms: a bake that
 * refuses or ends as "0 of 0" without a reason reads as a bug (issue 13).
 */

const SOURCE_NAV = 'Source .nav files have no bake step in Walkbench: their connections, IDs and places are edited directly and exported as edited';
const BAKED = 'Walkbench bakes NWN2 area walkmeshes (.trx), KotOR walkmeshes (.wok, .pwk, .dwk) and Skyrim plugins (.esp)';

/** Why bakeKindOf takes no job for this file. */
export function whyNotBaked(file: FileRecord): string {
  if (file.kind === 'walkmesh') return file.format === NAV_FORMAT ? SOURCE_NAV : `no baker takes this format; ${BAKED}`;
  if (file.kind === 'master') return 'Skyrim masters are not baked: the plugins that link into them are, and their bakes do not depend on the masters';
  if (file.kind === 'trn') return "an NWN2 TRN is baked into its area's TRX: bake the .trx";
  return `it is read by the bake of a walkmesh beside it, not baked itself; ${BAKED}`;
}

/** The label of a bake-all or bake-module job that found nothing to bake, with the reason. */
export function nothingToBakeLabel(game: GameId, module?: string): string {
  const where = module !== undefined ? `module ${module}` : 'the project';
  switch (game) {
    case 'source':
      return 'Nothing to bake: Source .nav files are exported as edited (no bake step: their connections, IDs and places are edited directly)';
    case 'nwn2':
      return `Nothing to bake: ${where} holds no NWN2 area walkmesh (.trx)`;
    case 'kotor':
      return `Nothing to bake: ${where} holds no KotOR walkmesh (.wok, .pwk, .dwk)`;
    case 'skyrim':
      return `Nothing to bake: ${where} holds no Skyrim plugin (.esp); masters are not baked`;
  }
}
