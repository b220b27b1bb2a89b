// The memory of refused launches reported this minute (sessions/launch-refusals.ts), against a real
// NATS server: one report per account and minute, and past its bound of accounts, none more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, ensureStreams, type NatsHandle } from '@switchboard/messaging';
import { STREAMS } from '@switchboard/events';
import { createLogger } from '@switchboard/observability';
import { startNatsServer, waitFor, type NatsServer } from '../../../test/support';
import { createLaunchRefusals } from '../src/sessions/launch-refusals';

let nats: NatsServer;
let bus: NatsHandle;
beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectNats(nats.url, createLogger('test', 'silent'), 'test');
  await ensureStreams(bus.jsm, [STREAMS.internal], 1);
});
afterAll(async () => {
  await bus?.close();
  await nats?.destroy();
});

const stored = async () => (await bus.jsm.streams.info(STREAMS.internal.name)).state.messages;

describe('reporting refused launches', () => {
  it('when three accounts are refused many times in a minute with room for two, then two reports are stored, one per account', async () => {
    const refusals = createLaunchRefusals(bus.js, createLogger('test', 'silent'), 2);
    for (let i = 0; i < 20; i++)
      for (const accountId of ['1', '2', '3']) refusals.report({ accountId, applicationId: 'a', message: 'no' });
    await waitFor(async () => (await stored()) >= 2, { what: 'the reports' });
    // A later report of a new account would have been stored by the time a round trip ends.
    await bus.nc.flush();
    expect(await stored()).toBe(2);
  });
});
