// The applications service's account and credential RPCs are the gateway's alone when
// GATEWAY_RPC_TOKEN is set: the gateway, which sends it (APPLICATIONS_RPC_TOKEN), signs in, changes
// passwords and makes keys as before, while a caller without it (any other pod the network lets
// in), or with the dispatcher's INTERNAL_RPC_TOKEN, is refused every one of them, batched or not.
import { expect, it } from 'vitest';
import {
  accountsClient,
  apiKeysClient,
  applicationsClient,
  auditClient,
  callBatcher,
  consoleSessionsClient,
} from '@switchboard/proto';
import type { Services, TestAccount } from '../../../test/support';
import { consoleSignIn, useGatewayStack } from './harness';

const GATEWAY_TOKEN = 'gateway-only-token-0123456789abcdef';
const INTERNAL_TOKEN = 'dispatcher-internal-token-0123456789';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;

useGatewayStack(
  {
    env: {
      GATEWAY_RPC_TOKEN: GATEWAY_TOKEN,
      APPLICATIONS_RPC_TOKEN: GATEWAY_TOKEN,
      INTERNAL_RPC_TOKEN: INTERNAL_TOKEN,
    },
  },
  (f) => ({ stack, alice } = f),
);

/** grpc.status.PERMISSION_DENIED. */
const PERMISSION_DENIED = 7;
/** The gRPC status a call ended with (0: answered). */
const statusOf = async (call: () => Promise<unknown>) =>
  call().then(
    () => 0,
    (e: unknown) => (e as { cause?: { code?: number } }).cause?.code ?? (e as { code?: string }).code,
  );

it('when the gateway sends its token, then sign-in, keys and the password change work through the API', async () => {
  const { res: signIn } = await consoleSignIn(stack, alice);
  expect(signIn.status).toBe(200);
  const key = await stack.request(alice, 'POST', '/v1/api-keys', { name: 'ci', scope: 'read' });
  expect(key.status).toBe(200);
  const { key: secret } = (await key.json()) as { key: string };
  expect(
    (await fetch(`${stack.baseUrl}/v1/applications`, { headers: { authorization: `Bearer ${secret}` } })).status,
  ).toBe(200);
  const changed = await stack.request(alice, 'PUT', '/v1/users/me/password', {
    current: alice.password,
    new: 'alice-second-password',
  });
  expect(changed.status).toBe(200);
});

it("when another caller has no token, or the dispatcher's, then every account and credential RPC is refused, batched or not, while the others answer", async () => {
  const at = `127.0.0.1:${stack.applications.grpcPort}`;
  const accountId = await stack.newAccount();
  for (const token of [undefined, INTERNAL_TOKEN]) {
    for (const batch of [undefined, callBatcher(at, { target: 'applications' })]) {
      const opts = { ...(token ? { token } : {}), ...(batch ? { batch } : {}) };
      const calls: Record<string, () => Promise<unknown>> = {
        VerifyCredentials: () => accountsClient(at, opts).verifyCredentials({ username: 'x', password: 'y' }),
        ChangePassword: () => accountsClient(at, opts).changePassword({ accountId, current: 'a', new: 'bbbbbbbbbb' }),
        CreateApiKey: () => apiKeysClient(at, opts).createApiKey({ accountId, name: 'stolen', scope: 'full' }),
        VerifyApiKey: () => apiKeysClient(at, opts).verifyApiKey({ key: `sbk_${'A'.repeat(43)}` }),
        CreateConsoleSession: () => consoleSessionsClient(at, opts).createConsoleSession({ accountId }),
        RecordAuditEvent: () => auditClient(at, opts).recordAuditEvent({ action: 'x', outcome: 'failure' }),
        GetApplicationSecret: () => applicationsClient(at, opts).getApplicationSecret({ accountId, id: 'x' }),
      };
      for (const [name, call] of Object.entries(calls))
        expect(await statusOf(call), `${name} token=${token} batched=${!!batch}`).toBe(PERMISSION_DENIED);
      // An RPC outside the guarded set still answers.
      expect(await statusOf(() => applicationsClient(at, opts).listApplications({ accountId }))).toBe(0);
    }
  }
});
