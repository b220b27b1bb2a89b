// Test fixture of the dispatcher: the real applications and webhooks services in-process
// (test/support startServices) on a fresh database and a private NATS server; the tests start
// dispatchers in-process or as child processes (for kill -9) with a short retry schedule.
import { randomName, startServices, type Services } from '../../../test/support';
import { generateSecret } from '../src/delivery/signing';

export const SESSION_SECRET = generateSecret();

/** Environment every dispatcher of the tests starts with (short schedule, loopback allowed). */
export const TEST_DISPATCHER_ENV = {
  DELIVERY_RETRY_SCHEDULE: '200ms,400ms,800ms',
  DELIVERY_TIMEOUT_MS: '3000',
  JETSTREAM_ACK_WAIT: '8s',
  DELIVERY_BREAKER_VOLUME_THRESHOLD: '5',
  DELIVERY_BREAKER_RESET_TIMEOUT: '1s',
  DELIVERY_BREAKER_WINDOW: '5s',
  SESSION_SIGNING_SECRET: SESSION_SECRET,
  RECORD_FLUSH_INTERVAL: '20ms',
};

export type Harness = Services<{ webhooks: true }>;

export function startHarness(): Promise<Harness> {
  return startServices({ webhooks: true, env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' }, dispatcherEnv: TEST_DISPATCHER_ENV });
}

/** A docs/events.md#inbound notification event. */
export function cdrEvent(accountId: string, fields: Partial<{ id: string; applicationId: string; resource: string; data: unknown }> = {}) {
  return {
    id: fields.id ?? randomName('evt'),
    accountId,
    ...(fields.applicationId ? { applicationId: fields.applicationId } : {}),
    resource: fields.resource ?? 'call',
    timestamp: '2025-03-01T10:00:00.000Z',
    data: fields.data ?? { durationSeconds: 42 },
  };
}
