// Transactional outbox: events are written in the same transaction as the change they announce,
// and a relay publishes them to JetStream afterwards. A crash or a NATS outage delays events,
// never loses them.
// (The relay and the message ids are shared with the webhooks service: @switchboard/orm outbox.ts.)
import type { EntityManager } from '@mikro-orm/postgresql';
import { uuidv7 } from '@switchboard/orm';
import { OutboxSchema } from '../db/entities';

export { uuidv7 };

export function enqueueEvent(em: EntityManager, subject: string, payload: Record<string, unknown>): void {
  const createdAt = new Date();
  em.persist(em.create(OutboxSchema, { messageId: uuidv7(createdAt.getTime()), subject, payload, createdAt }));
}
