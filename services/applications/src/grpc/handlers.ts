// Transport only: decode the request, run one use case in its own EntityManager, encode.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Cidr, GrpcServer, SecretBox } from '@switchboard/platform';
import { AppError } from '@switchboard/platform';
import { applicationsProto } from '@switchboard/proto';
import { getAccount, verifyCredentials } from '../accounts/accounts';
import { createApplication } from '../applications/create-application';
import { deleteApplication } from '../applications/delete-application';
import { getApplicationSecret } from '../applications/get-secret';
import { listApplications } from '../applications/list-applications';
import { toMessage } from '../applications/mapper';
import { readById, readOwned } from '../applications/repository';
import { rotateApplicationSecret } from '../applications/rotate-secret';
import { readSigningSecrets } from '../applications/secret-store';
import { updateApplication } from '../applications/update-application';
import { EnvironmentSchema } from '../db/entities';

export function registerHandlers(
  server: GrpcServer,
  orm: MikroORM,
  allowedCidrs: readonly Cidr[],
  afterWrite: () => void,
  /** SECRETS_KEY: seals and opens the applications' session secrets. */
  secrets: SecretBox,
): void {
  const proto = applicationsProto();
  const em = () => orm.em.fork();
  // The hot reads are raw prepared statements on the pool (repository.ts): they use no identity map,
  // so they skip the per-call fork.
  const reads = orm.em;

  server.add(proto.AccountsService.service, {
    VerifyCredentials: async (req) => {
      const a = await verifyCredentials(em(), req.username, req.password);
      return { account: { id: a.id, username: a.username, createdAt: a.createdAt.toISOString() } };
    },
    GetAccount: async (req) => {
      const a = await getAccount(em(), req.id);
      return { account: { id: a.id, username: a.username, createdAt: a.createdAt.toISOString() } };
    },
  });

  server.add(proto.ApplicationsService.service, {
    CreateApplication: async (req) => {
      const app = await createApplication(em(), req, allowedCidrs, secrets);
      afterWrite();
      return { application: toMessage(app) };
    },
    GetApplication: async (req) => ({ application: toMessage(await readOwned(reads, req.accountId, req.id)) }),
    ListApplications: async (req) => {
      const page = await listApplications(reads, req.accountId, req.limit, req.cursor);
      return { applications: page.items.map(toMessage), nextCursor: page.nextCursor };
    },
    UpdateApplication: async (req) => {
      const app = await updateApplication(em(), req, allowedCidrs);
      afterWrite();
      return { application: toMessage(app) };
    },
    DeleteApplication: async (req) => {
      await deleteApplication(em(), req.accountId, req.id);
      afterWrite();
      return {};
    },
    GetEnvironment: async (req) => {
      const env = /^\d{1,18}$/.test(req.id) ? await em().findOne(EnvironmentSchema, { id: req.id }) : null;
      if (!env) throw AppError.notFound('environment');
      return { environment: { id: env.id, name: env.name, billable: env.billable } };
    },
    LookupApplication: async (req) => {
      const app = await readById(reads, req.id);
      if (!app) throw AppError.notFound('application');
      return { application: toMessage(app), signingSecrets: await readSigningSecrets(reads, secrets, app.id) };
    },
    GetApplicationSecret: async (req) => ({ secret: await getApplicationSecret(reads, secrets, req.accountId, req.id) }),
    RotateApplicationSecret: async (req) => {
      const secret = await rotateApplicationSecret(em(), secrets, req.accountId, req.id);
      afterWrite();
      return { secret };
    },
  });
}
