/** A project file that cannot be opened as asked, worded for a user and naming the file. */
export class ProjectFileError extends Error {
  constructor(readonly file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'ProjectFileError';
  }
}
