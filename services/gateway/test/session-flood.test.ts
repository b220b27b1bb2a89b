// Unauthenticated floods of the Session API's signal path through the real gateway: a session id
// that cannot be one is refused before the gateway keeps anything for it, and the tables of valid
// ids stay within RATE_LIMIT_TABLE_BYTES (gateway_table_bytes on the ops port says how much).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices, type Services } from '../../../test/support';

const TABLE_BYTES = 64 * 1024;
let stack: Services<{ gateway: true }>;

beforeAll(async () => {
  stack = await startServices({ gateway: true, env: { RATE_LIMIT_TABLE_BYTES: String(TABLE_BYTES) } });
});
afterAll(async () => {
  await stack?.stop();
});

async function tableBytes(table: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${stack.gateway.opsPort}/metrics`)).text();
  const m = new RegExp(`^gateway_table_bytes\\{table="${table}"\\} (\\d+)`, 'm').exec(text);
  if (!m) throw new Error(`no gateway_table_bytes for ${table}`);
  return Number(m[1]);
}

/** Sends `n` requests, `width` at a time; answers the statuses. */
async function flood(n: number, width: number, path: (i: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += width) {
    const batch = Array.from({ length: Math.min(width, n - i) }, (_, j) =>
      fetch(`${stack.baseUrl}${path(i + j)}`, { method: 'POST' }).then(async (r) => (await r.arrayBuffer(), r.status)),
    );
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

describe('signals to session ids nobody was given', () => {
  it('when the id is 8 000 characters long, then the gateway answers 400 naming sessionId and keeps nothing for it', async () => {
    const long = 'x'.repeat(8000);
    const res = await fetch(`${stack.baseUrl}/1.0/sessions/${long}/signals?value=exit`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('sessionId');
    const statuses = await flood(300, 20, (i) => `/1.0/sessions/${i}${long}/signals?value=exit`);
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(await tableBytes('session_limiter')).toBe(0);
  });

  it('when 1 000 distinct valid ids are signalled, then the per-session table stays within RATE_LIMIT_TABLE_BYTES', async () => {
    const pad = 'y'.repeat(180);
    const statuses = await flood(1000, 25, (i) => `/1.0/sessions/${pad}${i}/signals?value=exit`);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const bytes = await tableBytes('session_limiter');
    expect(bytes).toBeGreaterThan(TABLE_BYTES / 2);
    expect(bytes).toBeLessThanOrEqual(TABLE_BYTES);
  });
});
