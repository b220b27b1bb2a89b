// Transactional outbox: events are written in the same transaction as the change they announce,
// and a relay publishes them to JetStream afterwards. A crash or a NATS outage delays events,
// never loses them.
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxSchema } from '../db/entities';

export function enqueueEvent(em: EntityManager, subject: string, payload: Record<string, unknown>): void {
  em.persist(em.create(OutboxSchema, { subject, payload, createdAt: new Date() }));
}
