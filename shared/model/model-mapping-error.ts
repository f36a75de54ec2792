/**
 * A walkmesh that cannot become the target format (an area that is not a quad, a face with
 * no owner…). Like MalformedInputError it is the user's input at fault, so the CLI and the
 * app report its message in one line; unlike it there is no byte offset to give.
 */
export class ModelMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelMappingError';
  }
}
