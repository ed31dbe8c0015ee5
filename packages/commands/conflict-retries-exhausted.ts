/**
 * A command lost the race for its stream on every attempt: other writers (another process, the
 * worker, the CLI) kept appending between its read and its append. Nothing of this command was
 * recorded, so the client may simply send the request again; the API answers 503 (docs/api.md).
 */
export class ConflictRetriesExhaustedError extends Error {
  constructor(
    readonly streamId: string,
    readonly attempts: number,
  ) {
    super(`Stream ${streamId} changed under each of ${attempts} attempts`);
    this.name = 'ConflictRetriesExhaustedError';
  }
}
