// Failed sign-ins go to the audit log of the account they named (RecordAuditEvent): a wrong
// password for a username (HTTP Basic, the console's sign-in), a wrong or revoked key under a key id
// (Basic with the key id as username). A Bearer key that matches nothing names no account: it is
// counted (gateway_auth_requests_total), not logged. Bounded against floods of guesses: only a
// failure that was checked is recorded (a refusal during a lockout, or over the client address's
// budget, never reaches the check), this replica calls at most once per credential, action and
// address in AUDIT_FAILURE_WINDOW_MS, and the applications service writes at most one entry per
// account, credential, action and address in that window whichever replica calls.
import { AUDIT_FAILURE_WINDOW_MS, type Logger } from '@switchboard/platform';
import type { TraceContext } from '@switchboard/platform/tracing';
import type { AuditClient } from '@switchboard/proto';
import { BoundedMap } from '../bounded-map.ts';

export type FailedSignIn =
  | { action: 'password.sign-in' | 'session.sign-in' | 'password.change'; username: string }
  | { action: 'api-key.sign-in'; keyId: string };

export class FailedSignIns {
  /** When this replica last recorded each failure (by action, credential and address). */
  private readonly recent: BoundedMap<number>;
  private readonly now: () => number;

  constructor(
    private readonly audit: AuditClient,
    private readonly logger: Logger,
    opts: { maxBytes?: number; now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.recent = new BoundedMap({ maxEntries: 100_000, maxBytes: opts.maxBytes ?? 16 * 1024 * 1024 }, 16);
  }

  /** Estimated bytes of the table of recent failures (for metrics). */
  get bytes(): number {
    return this.recent.bytes;
  }

  /** Records the failure from `ip` unless this replica did in the window; never fails (a failure is logged). */
  async record(f: FailedSignIn, ip: string, call: { requestId: string; trace?: TraceContext }): Promise<void> {
    const credential = 'keyId' in f ? f.keyId : f.username;
    const key = `${f.action}\0${credential}\0${ip}`;
    const now = this.now();
    const last = this.recent.get(key);
    if (last !== undefined && now - last < AUDIT_FAILURE_WINDOW_MS) return;
    this.recent.set(key, now);
    try {
      await this.audit.recordAuditEvent(
        { action: f.action, outcome: 'failure', ...('keyId' in f ? { keyId: f.keyId } : { username: f.username }) },
        // The account and the actor, unknown here, are named by the applications service.
        { ...call, audit: { actor: { type: 'password', id: '' }, ip, requestId: call.requestId } },
      );
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, requestId: call.requestId }, 'recording a failed sign-in failed');
    }
  }
}
