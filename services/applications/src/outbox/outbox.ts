// Transactional outbox: events are written in the same transaction as the change they announce,
// and a relay publishes them to JetStream afterwards. A crash or a NATS outage delays events,
// never loses them.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxSchema, type OutboxEvent } from '../db/entities';

/** A UUIDv7 (RFC 9562): 48 bits of Unix time in ms, version 7, then random bits and the variant. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

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
