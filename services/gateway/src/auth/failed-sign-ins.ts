// Failed sign-ins go to the audit log of the account they named (RecordAuditEvent): a wrong
// password for a username (HTTP Basic, the console's sign-in, the password change's `current`), a
// wrong or revoked key under a key id (Basic with the key id as username). A Bearer key that
// matches nothing names no account: it is counted (gateway_auth_requests_total), not logged.
// Bounded against floods of guesses: only a failure that was checked is recorded (a refusal during
// a lockout, or over the client address's budget, never reaches the check), and the applications
// service writes at most one entry per account, credential, action and address in
// AUDIT_FAILURE_WINDOW_MS whichever replica calls: the one place repeats are dropped.
import type { Logger } from '@switchboard/observability';
import type { TraceContext } from '@switchboard/observability/tracing';
import type { AuditClient } from '@switchboard/proto';

export type FailedSignIn =
  | { action: 'password.sign-in' | 'session.sign-in' | 'password.change'; username: string }
  | { action: 'api-key.sign-in'; keyId: string };

export class FailedSignIns {
  constructor(
    private readonly audit: AuditClient,
    private readonly logger: Logger,
  ) {}

  /** Records the failure from `ip`; never fails (a failure to record is logged). */
  async record(f: FailedSignIn, ip: string, call: { requestId: string; trace?: TraceContext }): Promise<void> {
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
