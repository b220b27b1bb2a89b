// What a session's loop records of it as it runs: its steps and how it ended. Their own module, so
// the loop (session-loop.ts) and the record made of them (recording/session-record.ts) both read
// them without importing each other.
import type { Answer } from './http-sender.ts';
import type { SessionReason } from './policies/session.ts';

/** One step of a session: an HTTP attempt, or a URL passed over without one (status 0, no time). */
export interface SessionStep {
  url: string | null;
  status: number;
  error: string | null;
  durationMs: number;
}

/** A step with what the session record says of it besides: when, to which URL's role, and the answer. */
export interface RecordedStep extends SessionStep {
  at: Date;
  role: 'primary' | 'fallback';
  answer?: Answer | undefined;
}

/** How a session ended. */
export type Ending =
  | {
      kind: 'instructed';
      applicationId: string;
      status: number;
      contentType: string | null;
      body: unknown;
      receivedAt: Date;
      /** The answer's bytes (its excerpt goes to the session record). */
      raw: Buffer;
    }
  | { kind: 'failed'; reason: SessionReason };
