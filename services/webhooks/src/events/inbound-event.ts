// The events this service raises itself (alert.raised, alert.triggered, usage.triggered,
// sessionStatus, webhookDisabled) in the envelope of docs/events.md#inbound: queued on its outbox
// in the caller's transaction; the dispatcher validates and fans them out like a CDR event.
import { enqueueOutbox, type TransactionQuery, uuidv7 } from '@switchboard/db';

/** An event of the account (of one of its applications, or none), about every resource. */
export interface InboundEvent {
  accountId: string;
  applicationId: string | null;
  timestamp: string;
  data: Record<string, unknown>;
  /** Further fields of the envelope (e.g. a session's statusCallbackUrl, for the dispatcher alone). */
  [field: string]: unknown;
}

/** Queues `event` on `subject` under a new id, which is also its message id (duplicates are dropped by it). */
export async function enqueueInboundEvent(
  query: TransactionQuery,
  schema: string,
  subject: string,
  event: InboundEvent,
): Promise<void> {
  const { accountId, applicationId, timestamp, data, ...more } = event;
  const id = uuidv7();
  await enqueueOutbox(
    query,
    schema,
    subject,
    { id, accountId, applicationId, resource: 'all', timestamp, data, ...more },
    id,
  );
}
