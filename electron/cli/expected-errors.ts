import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { ModelMappingError } from '../../shared/model/model-mapping-error';
import { UnknownFormatError } from '../../shared/formats/inspect-file';
import { FileAccessError } from '../services/file-access';

/**
 * The one-line message for an error caused by the user's input (a bad file, a missing
 * file, a mesh the target format cannot hold), or undefined for a bug in Walkbench.
 */
export function expectedErrorMessage(e: unknown, file?: string): string | undefined {
  if (isMalformedInputError(e)) return (file !== undefined ? e.withFile(file) : e).message;
  if (e instanceof FileAccessError || e instanceof UnknownFormatError) return e.message;
  if (e instanceof ModelMappingError) return file !== undefined ? `${file}: ${e.message}` : e.message;
  return undefined;
}
