/**
 * A live run that cannot go on: the target's dev API refused a call (`refused`), needs an admin
 * token it was not given or refused the one it was (`admin-token`), or did not answer (`network`).
 * The message is one line that names the call.
 */
export class LiveRunError extends Error {
  override readonly name = 'LiveRunError';
  constructor(
    message: string,
    readonly reason: 'refused' | 'admin-token' | 'network',
  ) {
    super(message);
  }
}

/** Whether a value is a {@link LiveRunError}. */
export function isLiveRunError(value: unknown): value is LiveRunError {
  return value instanceof LiveRunError;
}
