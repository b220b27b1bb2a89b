// The session loop across a crash: the dispatcher process is killed with SIGKILL while sessions
// are running and started again; every session is answered, and sessions.instructions holds one
// message per session however many times a session was POSTed.
import { describe, expect, it } from 'vitest';
import { sessionBuckets } from '../../webhooks/src/sessions/repository';
import { jetstreamManager } from '@nats-io/jetstream';
import { STREAMS } from '@switchboard/events';
import { randomName, waitFor, type Receiver } from '../../../test/support';
import { watchSessionOutcomes, useHarness, type Harness } from './harness';

let h: Harness;
let rx: Receiver;

useHarness((f) => ({ h, rx } = f));

const TOTAL = 400;

describe('crash of the dispatcher during sessions', () => {
  it('when the dispatcher is killed -9 mid-way and restarted, then every session is instructed exactly once and has exactly one session record, counted once', async () => {
    const account = await h.newAccount();
    const { application } = await h.applications.client.createApplication({
      accountId: account,
      name: 'app',
      voiceUrl: rx.url('/answer'),
    });
    rx.on('/answer', (req) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tropo: [{ say: { value: req.body.session.id } }] }),
    }));
    const outcomes = watchSessionOutcomes(h.bus);
    // The kill lands while hundreds of sessions are queued or running: some were POSTed and not yet acknowledged.
    const first = await h.spawnDispatcher({ SESSION_TIMEOUT_MS: '3000', SESSION_DEADLINE_MS: '6000' });
    const ids = Array.from({ length: TOTAL }, () => randomName('session'));
    const publishing = (async () => {
      for (let i = 0; i < TOTAL; i += 50) {
        await Promise.all(
          ids.slice(i, i + 50).map((id) =>
            h.publish('sessions.new', {
              applicationId: application!.id,
              session: { id, from: { id: '+1', channel: 'VOICE' } },
            }),
          ),
        );
      }
    })();
    await waitFor(() => outcomes.seen.length >= 60, {
      what: '60 sessions instructed before the crash',
      timeoutMs: 30_000,
      intervalMs: 2,
    });
    await first.kill9();
    const atCrash = outcomes.seen.length;
    expect(atCrash).toBeLessThan(TOTAL);
    await publishing;

    await h.spawnDispatcher({ SESSION_TIMEOUT_MS: '3000', SESSION_DEADLINE_MS: '6000' });
    await waitFor(() => new Set(outcomes.seen.map((o) => o.body.sessionId)).size === TOTAL, {
      what: `${TOTAL} sessions instructed`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    outcomes.stop();

    // The stream is what the core reads: one message per session.
    const jsm = await jetstreamManager(h.bus.nc);
    const info = await jsm.streams.info(STREAMS.core.name, { subjects_filter: 'sessions.instructions' });
    expect(info.state.subjects?.['sessions.instructions']).toBe(TOTAL);
    expect(outcomes.seen.every((o) => o.subject === 'sessions.instructions')).toBe(true);
    const posts = rx.at('/answer').length;
    expect(posts).toBeGreaterThanOrEqual(TOTAL);
    // Each session has exactly one record in the session inspector, and its rollups count each once.
    const listed = await waitFor(
      async () => {
        const page = await h.webhooks.client.listSessions({
          accountId: account,
          applicationId: application!.id,
          limit: 1000,
        });
        return page.sessions.length >= TOTAL && page.sessions;
      },
      { what: 'every session record stored', timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(new Set(listed.map((s) => s.id))).toEqual(new Set(ids));
    expect(listed.length).toBe(TOTAL);
    const buckets = await sessionBuckets(
      h.webhooks.app.orm.em,
      'webhooks',
      application!.id,
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() + 86_400_000),
      3600,
    );
    const sum = (k: 'answered' | 'fallback' | 'failed') => buckets.reduce((n, b) => n + b[k], 0);
    expect([sum('answered'), sum('fallback'), sum('failed')]).toEqual([TOTAL, 0, 0]);
    console.log(
      `session crash test: ${atCrash} instructed before kill -9; ${posts} POSTs for ${TOTAL} sessions (${posts - TOTAL} re-sent after the crash), ${TOTAL} instructions in the stream`,
    );
  }, 120_000);
});
