/**
 * An import file that cannot be read, with the reason in the user's words (messages.importer). The
 * server answers it as invalid input; the browser shows it as it is.
 */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export const refuseFile = (message: string) => new ImportFileError(message);
