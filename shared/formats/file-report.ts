import type { GameId } from '../model/walkmesh';
import type { Finding } from '../validation/finding';
import type { FileSummary } from './format-handler';

/** Why a file could not be read, in the terms of the malformed-input error. */
export interface ReadFailure {
  message: string;
  offset: number | null;
  field: string | null;
}

/** What Walkbench knows about one file: the CLI's JSON object and the app's inspector. */
export interface FileReport {
  file: string;
  format: string | null;
  game: GameId | null;
  /** Read without error and no validation errors. */
  ok: boolean;
  summary: FileSummary | null;
  errors: Finding[];
  warnings: Finding[];
  readFailure: ReadFailure | null;
}
