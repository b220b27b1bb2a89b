import { AppError } from '@switchboard/platform';

/** A failed read or write of JetStream (the session registry, a publish): retryable, nothing half-done. */
export function natsUnavailable(err: unknown): never {
  throw new AppError('unavailable', 'the session registry is unavailable; try again shortly', undefined, { cause: err });
}
