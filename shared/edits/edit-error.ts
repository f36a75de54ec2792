/**
 * An edit that cannot be applied to this mesh: an index out of range, a command the game's
 * data cannot take, a hole with no border. The mesh is left as it was.
 */
export class EditError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(`${kind}: ${message}`);
    this.name = 'EditError';
  }
}
