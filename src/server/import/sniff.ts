import { ImportFileError } from '../../shared/import/file-error';
import { sniffImport, type UploadKind } from '../../shared/import/sniff';
import { invalidInput } from '../errors';

// The rules are shared with the browser, which reads a Vault user's file itself (shared/import/sniff.ts).
export { SNIFF_BYTES, type UploadKind } from '../../shared/import/sniff';

/** An upload's first bytes judged (`whole` when they are all of it); a file that is no journal is the user's invalid input. */
export function sniffUpload(head: Buffer, whole: boolean): UploadKind {
  try {
    return sniffImport(head, whole);
  } catch (error) {
    throw error instanceof ImportFileError ? invalidInput(error.message) : error;
  }
}
