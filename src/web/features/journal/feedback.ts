import { toast } from 'sonner';
import { ApiError } from '../../api/errors';
import { journalCopy } from './copy';

/** The server's own words when it gave some (spec 8: 'Error' with the error message), else the fallback. */
function describeError(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** Spec 8's failure toast: titled 'Error'. */
export function toastFailure(error: unknown, fallback: string): void {
  toast.error(journalCopy.errorTitle, { description: describeError(error, fallback) });
}
