import { AppError } from '@switchboard/errors';

/** A failed read or write of JetStream (the session registry, a publish): retryable, nothing half-done. */
export function natsUnavailable(err: unknown): never {
  // A stream at its max_bytes (publishJson's streamFull) says so itself.
  if (err instanceof AppError && err.code === 'unavailable') throw err;
  throw new AppError('unavailable', 'the session registry is unavailable; try again shortly', undefined, {
    cause: err,
  });
}
