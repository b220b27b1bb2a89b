// npm run account -- create --username <u> --password <p> | list | delete --username <u>
// Works on this service's schema directly (migrating it first), so it needs no running service.
import { parseArgs } from 'node:util';
import { initOrm, migrate } from '@switchboard/orm';
import { AppError, createLogger, SUBJECTS } from '@switchboard/platform';
import { createAccount, deleteAccount, listAccounts } from './accounts/accounts';
import { loadCommandConfig } from './config';
import { ApplicationSchema, AccountSchema } from './db/entities';
import { SCHEMA } from './db/schema';
import { enqueueEvent } from './outbox/outbox';

const USAGE = `usage:
  npm run account -- create --username <name> --password <password>
  npm run account -- list
  npm run account -- delete --username <name>`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { username: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const command = positionals[0];
if (values.help || !command || !['create', 'list', 'delete'].includes(command)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}

const config = loadCommandConfig();
const logger = createLogger('account', process.env.LOG_LEVEL ?? 'warn');
const orm = await initOrm({ ...SCHEMA, databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, poolMax: 2, logger, secrets: config.SECRETS_KEY }, 5_000);
let code = 0;
try {
  await migrate(orm, config.DB_SCHEMA, logger);
  const em = orm.em.fork();
  if (command === 'create') {
    if (!values.username || !values.password) throw new AppError('invalid_request', '--username and --password are required');
    const a = await createAccount(em, values.username, values.password);
    process.stdout.write(`${JSON.stringify({ id: Number(a.id), username: a.username })}\n`);
  } else if (command === 'list') {
    const all = await listAccounts(em);
    process.stdout.write(`${JSON.stringify(all.map((a) => ({ id: Number(a.id), username: a.username, createdAt: a.createdAt.toISOString() })))}\n`);
  } else {
    if (!values.username) throw new AppError('invalid_request', '--username is required');
    const deleted = await em.transactional(async (tx) => {
      const account = await tx.findOne(AccountSchema, { username: values.username! });
      if (account) {
        // Its applications go with it: announce each deletion so other services clean up too.
        for (const app of await tx.find(ApplicationSchema, { accountId: account.id })) {
          enqueueEvent(tx, SUBJECTS.applicationDeleted, { applicationId: app.id, accountId: app.accountId, deletedAt: new Date().toISOString() });
        }
      }
      return deleteAccount(tx, values.username!);
    });
    if (!deleted) {
      process.stderr.write(`no account named ${values.username}\n`);
      code = 1;
    } else process.stdout.write(`${JSON.stringify({ deleted: values.username })}\n`);
  }
} catch (err) {
  process.stderr.write(`${err instanceof AppError ? err.detail : err instanceof Error ? err.message : String(err)}\n`);
  code = 1;
} finally {
  await orm.close(true);
}
process.exit(code);
