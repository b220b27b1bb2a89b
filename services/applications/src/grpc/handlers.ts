// Transport only: decode the request, run one use case, encode.
import type { GrpcServer } from '@switchboard/rpc';
import { applicationsProto } from '@switchboard/proto';
import type { Account } from '../db/entities.ts';
import { claimAddress } from '../addresses/claim-address.ts';
import { getAddress } from '../addresses/get-address.ts';
import { listAddresses } from '../addresses/list-addresses.ts';
import { toMessage as addressMessage } from '../addresses/mapper.ts';
import { moveAddress } from '../addresses/move-address.ts';
import { releaseAddress } from '../addresses/release-address.ts';
import { resolveAddress } from '../addresses/resolve-address.ts';
import { getAccount } from '../accounts/get-account.ts';
import { verifyCredentials } from '../accounts/verify-credentials.ts';
import { createApplication } from '../applications/create-application.ts';
import { deleteApplication } from '../applications/delete-application.ts';
import { getApplicationSecret } from '../applications/get-secret.ts';
import { getApplication } from '../applications/get-application.ts';
import { listApplications } from '../applications/list-applications.ts';
import { lookupApplication } from '../applications/lookup-application.ts';
import { toMessage } from '../applications/mapper.ts';
import { rotateApplicationSecret } from '../applications/rotate-secret.ts';
import { updateApplication } from '../applications/update-application.ts';
import { launchSession } from '../sessions/launch-session.ts';
import { signalSession } from '../sessions/signal-session.ts';
import type { Deps } from '../context.ts';
import { getEnvironment } from '../environments/get-environment.ts';
import { listAvailableNumbers } from '../numbers/list-available-numbers.ts';
import { listExchanges } from '../numbers/list-exchanges.ts';
import { changePassword } from '../accounts/change-password.ts';
import { createApiKey } from '../api-keys/create-api-key.ts';
import { getApiKey } from '../api-keys/get-api-key.ts';
import { listApiKeys } from '../api-keys/list-api-keys.ts';
import { revokeApiKey } from '../api-keys/revoke-api-key.ts';
import { verifyApiKey } from '../api-keys/verify-api-key.ts';
import { listAuditEvents } from '../audit/list-audit-events.ts';
import { recordAuditEvent } from '../audit/record-audit-event.ts';
import { createConsoleSession } from '../console-sessions/create-console-session.ts';
import { endConsoleSession } from '../console-sessions/end-console-session.ts';
import { verifyConsoleSession } from '../console-sessions/verify-console-session.ts';

const accountMessage = (a: Account) => ({ id: a.id, username: a.username, createdAt: a.createdAt.toISOString() });

/**
 * The RPCs only the gateway calls (GATEWAY_RPC_TOKEN): every RPC of the accounts, API keys, browser
 * sessions and audit services, and the applications' signing secrets.
 */
export function gatewayOnlyRpcs(): string[] {
  const proto = applicationsProto();
  return [
    ...[proto.AccountsService, proto.ApiKeysService, proto.ConsoleSessionsService, proto.AuditService].flatMap((s) =>
      Object.keys(s.service),
    ),
    'GetApplicationSecret',
    'RotateApplicationSecret',
  ];
}

export function registerHandlers(server: GrpcServer, deps: Deps): void {
  const proto = applicationsProto();

  server.add(proto.AccountsService.service, {
    VerifyCredentials: async (req, ctx) => ({
      account: accountMessage(await verifyCredentials(deps, req, ctx.signal)),
    }),
    GetAccount: async (req) => ({ account: accountMessage(await getAccount(deps, req)) }),
    ChangePassword: async (req, ctx) => ({
      account: accountMessage(await changePassword(deps, req, ctx.audit, ctx.signal)),
    }),
  });

  server.add(proto.ApiKeysService.service, {
    CreateApiKey: async (req, ctx) => createApiKey(deps, req, ctx.audit),
    ListApiKeys: async (req) => ({ apiKeys: await listApiKeys(deps, req) }),
    GetApiKey: async (req) => ({ apiKey: await getApiKey(deps, req) }),
    RevokeApiKey: async (req, ctx) => ({ apiKey: await revokeApiKey(deps, req, ctx.audit) }),
    VerifyApiKey: async (req) => verifyApiKey(deps, req),
  });

  server.add(proto.AuditService.service, {
    ListAuditEvents: async (req) => listAuditEvents(deps, req),
    RecordAuditEvent: async (req, ctx) => {
      await recordAuditEvent(deps, req, ctx.audit);
      return {};
    },
  });

  server.add(proto.ConsoleSessionsService.service, {
    CreateConsoleSession: async (req, ctx) => createConsoleSession(deps, req, ctx.audit),
    VerifyConsoleSession: async (req) => verifyConsoleSession(deps, req),
    EndConsoleSession: async (req, ctx) => {
      await endConsoleSession(deps, req, ctx.audit);
      return {};
    },
  });

  server.add(proto.ApplicationsService.service, {
    CreateApplication: async (req, ctx) => ({ application: toMessage(await createApplication(deps, req, ctx.audit)) }),
    GetApplication: async (req) => ({ application: toMessage(await getApplication(deps, req)) }),
    ListApplications: async (req) => {
      const page = await listApplications(deps, req);
      return { applications: page.items, nextCursor: page.nextCursor };
    },
    UpdateApplication: async (req, ctx) => ({ application: toMessage(await updateApplication(deps, req, ctx.audit)) }),
    DeleteApplication: async (req, ctx) => {
      await deleteApplication(deps, req, ctx.audit);
      return {};
    },
    GetEnvironment: async (req) => {
      const env = await getEnvironment(deps, req);
      return { environment: { id: env.id, name: env.name, billable: env.billable } };
    },
    LookupApplication: async (req) => {
      const { application, signingSecrets } = await lookupApplication(deps, req);
      return { application: toMessage(application), signingSecrets };
    },
    GetApplicationSecret: async (req, ctx) => ({ secret: await getApplicationSecret(deps, req, ctx.audit) }),
    RotateApplicationSecret: async (req, ctx) => ({ secret: await rotateApplicationSecret(deps, req, ctx.audit) }),
  });

  server.add(proto.AddressesService.service, {
    ListAddresses: async (req) => ({ addresses: (await listAddresses(deps, req)).map(addressMessage) }),
    GetAddress: async (req) => ({ address: addressMessage(await getAddress(deps, req)) }),
    ClaimAddress: async (req, ctx) => ({ address: addressMessage(await claimAddress(deps, req, ctx.audit)) }),
    MoveAddress: async (req, ctx) => ({ address: addressMessage(await moveAddress(deps, req, ctx.audit)) }),
    ReleaseAddress: async (req, ctx) => {
      await releaseAddress(deps, req, ctx.audit);
      return {};
    },
    ListExchanges: async () => ({
      exchanges: (await listExchanges(deps)).map((e) => ({
        prefix: e.prefix,
        city: e.city ?? '',
        state: e.state ?? '',
        country: e.country ?? '',
      })),
    }),
    ListAvailableNumbers: async (req) => {
      const page = await listAvailableNumbers(deps, req);
      return { numbers: page.items.map(addressMessage), nextCursor: page.nextCursor };
    },
    ResolveAddress: async (req) => resolveAddress(deps, req),
  });

  server.add(proto.SessionsService.service, {
    LaunchSession: async (req) => launchSession(deps, req),
    SignalSession: async (req) => ({ queued: await signalSession(deps, req) }),
  });
}
