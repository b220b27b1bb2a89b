import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, DeliverPolicy } from '@nats-io/jetstream';
import { startServices, waitFor, type Services, type TestAccount } from '../../../test/support';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;

beforeAll(async () => {
  stack = await startServices({ gateway: true });
  alice = await stack.createAccount('alice');
});
afterAll(async () => stack?.stop());

/** Every message stored so far on the internal stream, as {subject, body}. */
async function internalEvents(): Promise<{ subject: string; body: Record<string, string> }[]> {
  const nc: NatsConnection = await connect({ servers: stack.nats.url });
  try {
    const js = jetstream(nc);
    const consumer = await js.consumers.get('SWITCHBOARD_INTERNAL', { deliver_policy: DeliverPolicy.All });
    const out: { subject: string; body: Record<string, string> }[] = [];
    for (;;) {
      const m = await consumer.next({ expires: 1000 });
      if (!m) return out;
      out.push({ subject: m.subject, body: m.json() });
    }
  } finally {
    await nc.close();
  }
}

describe('application events', () => {
  it('when an application is created, updated and deleted, then applications.changed and applications.deleted are published in order', async () => {
    const res = await stack.request(alice, 'POST', '/v1/applications', {
      name: 'evented',
      voiceUrl: 'https://example.com/v',
    });
    const id = ((await res.json()) as { href: string }).href.split('/').pop()!;
    await stack.request(alice, 'PUT', `/v1/applications/${id}`, { name: 'renamed' });
    await stack.request(alice, 'DELETE', `/v1/applications/${id}`);
    const events = await waitFor(async () => {
      const all = (await internalEvents()).filter((e) => e.body.applicationId === id);
      return all.length >= 3 ? all : undefined;
    });
    expect(events.map((e) => e.subject)).toEqual([
      'applications.changed',
      'applications.changed',
      'applications.deleted',
    ]);
    expect(events[2]!.body).toMatchObject({ applicationId: id, accountId: alice.id, deletedAt: expect.any(String) });
  });

  it('when NATS is down while an application is deleted, then the delete succeeds and the event is published once NATS is back', async () => {
    const res = await stack.request(alice, 'POST', '/v1/applications', {
      name: 'outage',
      voiceUrl: 'https://example.com/v',
    });
    const id = ((await res.json()) as { href: string }).href.split('/').pop()!;
    await waitFor(async () => (await internalEvents()).some((e) => e.body.applicationId === id));
    await stack.nats.stop();
    try {
      const del = await stack.request(alice, 'DELETE', `/v1/applications/${id}`);
      expect(del.status).toBe(200);
    } finally {
      await stack.nats.start();
    }
    const deleted = await waitFor(
      async () => {
        const found = (await internalEvents()).filter(
          (e) => e.body.applicationId === id && e.subject === 'applications.deleted',
        );
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 20_000, what: 'the deleted event after the outage' },
    );
    expect(deleted).toHaveLength(1);
  }, 40_000);
});
