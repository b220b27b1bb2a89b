// Transport only: decode the request, run one use case, encode.
import type { GrpcServer } from '@switchboard/platform';
import { applicationsProto } from '@switchboard/proto';
import type { Account } from '../db/entities';
import { claimAddress } from '../addresses/claim-address';
import { getAddress } from '../addresses/get-address';
import { listAddresses } from '../addresses/list-addresses';
import { toMessage as addressMessage } from '../addresses/mapper';
import { moveAddress } from '../addresses/move-address';
import { releaseAddress } from '../addresses/release-address';
import { resolveAddress } from '../addresses/resolve-address';
import { getAccount } from '../accounts/get-account';
import { verifyCredentials } from '../accounts/verify-credentials';
import { changePassword } from '../accounts/change-password';
import { createApiKey } from '../api-keys/create-api-key';
import { getApiKey } from '../api-keys/get-api-key';
import { listApiKeys } from '../api-keys/list-api-keys';
import { revokeApiKey } from '../api-keys/revoke-api-key';
import { verifyApiKey } from '../api-keys/verify-api-key';
import { listAuditEvents } from '../audit/list-audit-events';
import { recordAuditEvent } from '../audit/record-audit-event';
import { createConsoleSession } from '../console-sessions/create-console-session';
import { endConsoleSession } from '../console-sessions/end-console-session';
import { verifyConsoleSession } from '../console-sessions/verify-console-session';
import { createApplication } from '../applications/create-application';
import { deleteApplication } from '../applications/delete-application';
import { getApplicationSecret } from '../applications/get-secret';
import { getApplication } from '../applications/get-application';
import { listApplications } from '../applications/list-applications';
import { lookupApplication } from '../applications/lookup-application';
import { toMessage } from '../applications/mapper';
import { rotateApplicationSecret } from '../applications/rotate-secret';
import { updateApplication } from '../applications/update-application';
import { launchSession } from '../sessions/launch-session';
import { signalSession } from '../sessions/signal-session';
import type { Deps } from '../context';
import { getEnvironment } from '../environments/get-environment';
import { listAvailableNumbers } from '../numbers/list-available-numbers';
import { listExchanges } from '../numbers/list-exchanges';

const accountMessage = (a: Account) => ({ id: a.id, username: a.username, createdAt: a.createdAt.toISOString() });

export function registerHandlers(server: GrpcServer, deps: Deps): void {
  const proto = applicationsProto();

  server.add(proto.AccountsService.service, {
    VerifyCredentials: async (req) => ({ account: accountMessage(await verifyCredentials(deps, req)) }),
    GetAccount: async (req) => ({ account: accountMessage(await getAccount(deps, req)) }),
    ChangePassword: async (req, ctx) => ({ account: accountMessage(await changePassword(deps, req, ctx.audit)) }),
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
    CreateApplication: async (req) => ({ application: toMessage(await createApplication(deps, req)) }),
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
    ClaimAddress: async (req) => ({ address: addressMessage(await claimAddress(deps, req)) }),
    MoveAddress: async (req) => ({ address: addressMessage(await moveAddress(deps, req)) }),
    ReleaseAddress: async (req) => {
      await releaseAddress(deps, req);
      return {};
    },
    ListExchanges: async () => ({
      exchanges: (await listExchanges(deps)).map((e) => ({ prefix: e.prefix, city: e.city ?? '', state: e.state ?? '', country: e.country ?? '' })),
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
