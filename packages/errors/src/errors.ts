// One error type for the whole system. Errors are classified where they are thrown; one table maps
// them to gRPC status codes (services) and one to HTTP statuses (gateway).
import { status as GrpcStatus, Metadata, type ServiceError } from '@grpc/grpc-js';

export type ErrorCode =
  | 'invalid_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'insufficient_scope'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'limit_exceeded'
  | 'idempotency_in_progress'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'internal';

export interface FieldError {
  field: string;
  message: string;
}

interface CodeInfo {
  http: number;
  grpc: GrpcStatus;
  title: string;
}

export const ERROR_CODES: Record<ErrorCode, CodeInfo> = {
  invalid_request: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT, title: 'Invalid request' },
  unauthenticated: { http: 401, grpc: GrpcStatus.UNAUTHENTICATED, title: 'Unauthorized' },
  /** Authenticated, but the request is refused as it came (a browser write without the right Origin). */
  forbidden: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED, title: 'Forbidden' },
  /** The credential (a `read` API key) may not do this. */
  insufficient_scope: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED, title: 'Insufficient scope' },
  not_found: { http: 404, grpc: GrpcStatus.NOT_FOUND, title: 'Not found' },
  method_not_allowed: { http: 405, grpc: GrpcStatus.UNIMPLEMENTED, title: 'Method not allowed' },
  conflict: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION, title: 'Conflict' },
  limit_exceeded: { http: 409, grpc: GrpcStatus.RESOURCE_EXHAUSTED, title: 'Limit exceeded' },
  idempotency_in_progress: { http: 409, grpc: GrpcStatus.ABORTED, title: 'Request in progress' },
  idempotency_key_reused: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION, title: 'Idempotency key reused' },
  payload_too_large: { http: 413, grpc: GrpcStatus.INVALID_ARGUMENT, title: 'Payload too large' },
  unsupported_media_type: { http: 415, grpc: GrpcStatus.INVALID_ARGUMENT, title: 'Unsupported media type' },
  rate_limited: { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED, title: 'Too many requests' },
  unavailable: { http: 503, grpc: GrpcStatus.UNAVAILABLE, title: 'Service unavailable' },
  /** A dependency took too long to answer (the work may have happened): 504. */
  timeout: { http: 504, grpc: GrpcStatus.DEADLINE_EXCEEDED, title: 'Gateway timeout' },
  internal: { http: 500, grpc: GrpcStatus.INTERNAL, title: 'Internal error' },
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  /** Seconds the client should wait before trying again (the Retry-After header of a 429 or 503). */
  readonly retryAfterS: number | undefined;

  constructor(
    code: ErrorCode,
    detail: string,
    errors?: FieldError[],
    options?: { cause?: unknown; retryAfterS?: number },
  ) {
    super(detail, options);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.errors = errors && errors.length > 0 ? errors : undefined;
    this.retryAfterS = options?.retryAfterS;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code].http;
  }

  static invalid(errors: FieldError[], detail?: string): AppError {
    return new AppError('invalid_request', detail ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
  }

  static notFound(what: string): AppError {
    return new AppError('not_found', `${what} not found`);
  }
}

const PROBLEM_KEY = 'x-problem-bin';

/** Turns any thrown value into a gRPC ServiceError carrying the problem (code, detail, field errors). */
export function toGrpcError(err: unknown): Partial<ServiceError> {
  const app = err instanceof AppError ? err : new AppError('internal', 'internal error');
  const metadata = new Metadata();
  metadata.set(
    PROBLEM_KEY,
    Buffer.from(
      JSON.stringify({ code: app.code, detail: app.detail, errors: app.errors, retryAfterS: app.retryAfterS }),
      'utf8',
    ),
  );
  return { code: ERROR_CODES[app.code].grpc, details: app.detail, metadata };
}

/** Turns a gRPC client error back into an AppError. Transport failures become `unavailable`. */
export function fromGrpcError(err: unknown): AppError {
  const e = err as Partial<ServiceError> | undefined;
  const raw = e?.metadata?.get(PROBLEM_KEY)?.[0];
  if (raw instanceof Buffer) {
    try {
      const p = JSON.parse(raw.toString('utf8')) as {
        code: ErrorCode;
        detail: string;
        errors?: FieldError[];
        retryAfterS?: number;
      };
      const retryAfterS = typeof p.retryAfterS === 'number' ? p.retryAfterS : undefined;
      if (p.code in ERROR_CODES) return new AppError(p.code, p.detail, p.errors, { cause: err, retryAfterS });
    } catch {
      // fall through to the status code
    }
  }
  switch (e?.code) {
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
    case GrpcStatus.CANCELLED:
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return new AppError('unavailable', 'a dependency is unavailable, try again', undefined, { cause: err });
    case GrpcStatus.NOT_FOUND:
      return new AppError('not_found', 'not found', undefined, { cause: err });
    case GrpcStatus.UNAUTHENTICATED:
      return new AppError('unauthenticated', 'invalid credentials', undefined, { cause: err });
    default:
      return new AppError('internal', 'internal error', undefined, { cause: err });
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);

/**
 * True when a database error means "the database is not reachable right now" (retryable, 503),
 * rather than a bug or a constraint violation.
 */
export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const x = e as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
    const code = typeof x.code === 'string' ? x.code : '';
    if (CONNECTION_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash, cannot connect now), 53300 too many connections
    if (/^08...$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
    const message = typeof x.message === 'string' ? x.message : '';
    if (
      /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|terminating connection|Connection ended|not queryable|Transaction query already complete/i.test(
        message,
      )
    )
      return true;
    if (x.name === 'ConnectionException') return true;
    e = x.cause;
  }
  return false;
}

/** Maps an unknown failure inside a service to an AppError: connection failures become 503. */
export function classify(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isConnectionError(err))
    return new AppError('unavailable', 'the database is unavailable, try again', undefined, { cause: err });
  // SQLSTATE class 22 (data exception: bad characters, out-of-range numbers) is the client's input.
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) {
    return new AppError('invalid_request', 'a value contains characters or a size that cannot be stored', undefined, {
      cause: err,
    });
  }
  return new AppError('internal', 'internal error', undefined, { cause: err });
}
