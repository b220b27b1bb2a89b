// Names a tenant gives, through the real gateway, the applications and webhooks services and
// Postgres: a control or bidirectional formatting character in the name of an application, a
// subscription (either level) or an API key is a 400 naming the field, on create and update, on /v1
// and /rest/v1, and nothing is stored; names in any script are kept as sent.
import { describe, expect, it } from 'vitest';
import type { JsonBody, Services } from '../../../test/support';
import { useGatewayStack } from './harness';

let stack: Services<{ gateway: true; webhooks: true }>;

useGatewayStack({ webhooks: true }, (f) => ({ stack } = f));

type Body = Record<string, JsonBody>;
const json = async (res: Response) => (await res.json()) as Body;
const HOOK = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/hook' };
const UNSAFE = {
  'a right-to-left override': 'invoice\u202Efdp.exe',
  'a left-to-right isolate': 'ops\u2066x\u2069',
  'a right-to-left mark': 'billing\u200F',
  'an Arabic letter mark': 'x\u061Cy',
  'an escape': 'red\u001b[31m',
  'a newline': 'two\nlines',
  'a C1 control': 'next\u0085line',
};

async function expectNameRefused(res: Response, what: string): Promise<void> {
  expect(res.status, what).toBe(400);
  const body = await json(res);
  expect(body.code, what).toBe('invalid_request');
  expect(body.errors, what).toEqual([
    { field: 'name', message: 'must not contain control or bidirectional formatting characters' },
  ]);
}

describe('names', () => {
  it('when a name holds a control or bidirectional formatting character, then the create or update is a 400 naming the field and nothing is stored', async () => {
    const me = await stack.createAccount('names');
    const app = String(
      (
        await json(
          await stack.request(me, 'POST', '/v1/applications', { name: 'ok', voiceUrl: 'https://example.com/v' }),
        )
      ).href,
    )
      .split('/')
      .pop()!;
    const hook = String((await json(await stack.request(me, 'POST', '/v1/webhooks', HOOK))).href)
      .split('/')
      .pop()!;
    for (const [what, name] of Object.entries(UNSAFE)) {
      for (const prefix of ['/v1', '/rest/v1']) {
        await expectNameRefused(
          await stack.request(me, 'POST', `${prefix}/applications`, { name, voiceUrl: 'https://example.com/v' }),
          `application create, ${what}, ${prefix}`,
        );
        await expectNameRefused(
          await stack.request(me, 'PUT', `${prefix}/applications/${app}`, { name }),
          `application update, ${what}, ${prefix}`,
        );
      }
      await expectNameRefused(
        await stack.request(me, 'POST', '/v1/webhooks', { ...HOOK, name }),
        `subscription create, ${what}`,
      );
      await expectNameRefused(
        await stack.request(me, 'POST', `/v1/applications/${app}/webhooks`, { ...HOOK, name }),
        `application subscription create, ${what}`,
      );
      await expectNameRefused(
        await stack.request(me, 'PUT', `/v1/webhooks/${hook}`, { name }),
        `subscription update, ${what}`,
      );
      await expectNameRefused(
        await stack.request(me, 'POST', '/v1/api-keys', { name, scope: 'read' }),
        `key create, ${what}`,
      );
    }
    expect((await stack.listAll(me, '/v1/applications')).map((a) => a.name)).toEqual(['ok']);
    expect((await stack.listAll(me, '/v1/webhooks')).map((h) => h.name ?? null)).toEqual([null]);
    expect(await stack.listAll(me, '/v1/api-keys')).toEqual([]);
  });

  it('when a name is text in any script, with emoji or a joiner, then it is kept as sent', async () => {
    const me = await stack.createAccount('scripts');
    for (const name of ['מוקד שירות', 'خدمة العملاء', 'Café ☕', '👩\u200D💻 team']) {
      const created = await stack.request(me, 'POST', '/v1/applications', { name, voiceUrl: 'https://example.com/v' });
      expect(created.status, name).toBe(200);
      expect((await json(await stack.request(me, 'POST', '/v1/api-keys', { name, scope: 'read' }))).name).toBe(name);
      expect((await stack.request(me, 'POST', '/v1/webhooks', { ...HOOK, name })).status, name).toBe(200);
    }
    expect((await stack.listAll(me, '/v1/applications')).map((a) => a.name).sort()).toEqual(
      ['מוקד שירות', 'خدمة العملاء', 'Café ☕', '👩\u200D💻 team'].sort(),
    );
  });
});
