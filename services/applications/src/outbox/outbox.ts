// Transactional outbox: events are written in the same transaction as the change they announce,
// and a relay publishes them to JetStream afterwards. A crash or a NATS outage delays events,
// never loses them.
// (The relay and the message ids are shared with the webhooks service: @switchboard/db outbox.ts.)
import type { EntityManager } from '@mikro-orm/postgresql';
import { uuidv7 } from '@switchboard/db';
import { OutboxSchema, type OutboxEvent } from '../db/entities.ts';

export { uuidv7 };

/** An event's outbox row before it is written (the id comes from the table). */
export type NewOutboxEvent = Omit<OutboxEvent, 'id'>;

export function outboxEvent(subject: string, payload: Record<string, unknown>): NewOutboxEvent {
  const createdAt = new Date();
  return { messageId: uuidv7(createdAt.getTime()), subject, payload, createdAt };
}

/** Persists the event with the entity manager's next flush (the changes it announces are in the same transaction). */
export function enqueueEvent(em: EntityManager, subject: string, payload: Record<string, unknown>): void {
  em.persist(em.create(OutboxSchema, outboxEvent(subject, payload)));
}
