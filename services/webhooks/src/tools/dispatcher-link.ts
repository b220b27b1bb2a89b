// The webhooks service's side of the delivery tools' transport: a test send is a NATS request that
// one dispatcher of the queue group answers once the attempt is over; resends are rows of the
// `resends` table that the relay (resend-relay.ts) publishes as JetStream jobs.
import { jetstreamManager } from '@nats-io/jetstream';
import { requestJson, type NatsConnection } from '@switchboard/messaging';
import {
  ORDERING_STREAM,
  orderingHeldFilter,
  testReplySchema,
  TEST_SUBJECT,
  type TestReply,
  type TestRequest,
} from '@switchboard/contracts';

export interface DispatcherLink {
  /** Sends a test through a dispatcher and answers how the attempt ended (503 none running, 504 no answer in time). */
  test(req: TestRequest): Promise<TestReply>;
  /** Resends were queued or attempted: publish what may go now rather than at the relay's next round. */
  resendsQueued(): void;
  /** The subscription's ordering keys held now (the dispatchers' bucket DELIVERY_ORDERING); undefined when it cannot be read. */
  heldKeys(subscriptionId: string): Promise<number | undefined>;
}

export function createDispatcherLink(nc: NatsConnection, replyTimeoutMs: number, wake: () => void): DispatcherLink {
  return {
    async test(req) {
      return testReplySchema.parse(await requestJson(nc, TEST_SUBJECT, req, replyTimeoutMs, 'dispatcher'));
    },
    resendsQueued: wake,
    async heldKeys(subscriptionId) {
      try {
        const jsm = await jetstreamManager(nc);
        const info = await jsm.streams.info(ORDERING_STREAM, { subjects_filter: orderingHeldFilter(subscriptionId) });
        return Object.keys(info.state.subjects ?? {}).length;
      } catch {
        return undefined;
      }
    },
  };
}
