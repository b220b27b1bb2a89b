// Transport only: decode the request, run one use case, encode.
import type { GrpcServer } from '@switchboard/platform';
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

const accountMessage = (a: Account) => ({ id: a.id, username: a.username, createdAt: a.createdAt.toISOString() });

export function registerHandlers(server: GrpcServer, deps: Deps): void {
  const proto = applicationsProto();

  server.add(proto.AccountsService.service, {
    VerifyCredentials: async (req) => ({ account: accountMessage(await verifyCredentials(deps, req)) }),
    GetAccount: async (req) => ({ account: accountMessage(await getAccount(deps, req)) }),
  });

  server.add(proto.ApplicationsService.service, {
    CreateApplication: async (req) => ({ application: toMessage(await createApplication(deps, req)) }),
    GetApplication: async (req) => ({ application: toMessage(await getApplication(deps, req)) }),
    ListApplications: async (req) => {
      const page = await listApplications(deps, req);
      return { applications: page.items, nextCursor: page.nextCursor };
    },
    UpdateApplication: async (req) => ({ application: toMessage(await updateApplication(deps, req)) }),
    DeleteApplication: async (req) => {
      await deleteApplication(deps, req);
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
    GetApplicationSecret: async (req) => ({ secret: await getApplicationSecret(deps, req) }),
    RotateApplicationSecret: async (req) => ({ secret: await rotateApplicationSecret(deps, req) }),
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
