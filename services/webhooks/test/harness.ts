// Test fixture of the webhooks service: the real applications and webhooks services in-process
// (test/support startServices) on a fresh database and a private NATS server, loopback targets allowed.
import type { NatsHandle } from '@switchboard/platform';
import { startServices, type Services } from '../../../test/support';

export type { RunningWebhooks } from '../../../test/support';
export type Harness = Services<{ webhooks: true }>;

export function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  return startServices({ webhooks: true, env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128', ...env } });
}

/** Collects the bodies published on a subject from now on. */
export function watch(bus: NatsHandle, subject: string): { messages: Record<string, unknown>[]; stop(): void } {
  const messages: Record<string, unknown>[] = [];
  const sub = bus.nc.subscribe(subject);
  (async () => {
    for await (const m of sub) messages.push(m.json());
  })().catch(() => undefined);
  return { messages, stop: () => sub.unsubscribe() };
}

/** The AppError code a rejected client call carries. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'ok';
}

/** The field errors of a rejected client call. */
export async function fieldErrorsOf(p: Promise<unknown>): Promise<{ code: string; fields: string[]; messages: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code: string; errors?: { field: string; message: string }[] };
    return { code: e.code, fields: (e.errors ?? []).map((x) => x.field), messages: (e.errors ?? []).map((x) => x.message) };
  }
  return { code: 'ok', fields: [], messages: [] };
}
