// npm run account -- create --username <u> [--password-stdin] | list | delete --username <u>
//   | keys create|list|revoke --username <u> [--name <n> --scope full|read | --id <key id>]
// Works on this service's schema directly (migrating it first), so it needs no running service.
// The password of `create` comes from a prompt without echo (stdin a terminal), from stdin
// (--password-stdin), from SWITCHBOARD_PASSWORD, or from --password (seen by `ps` and kept in the
// shell history: discouraged). A key revoked or an account deleted here is announced to the gateways
// (credentials.revoked on NATS_URL), which forget it at once, as after the same change through the API.
import { parseArgs } from 'node:util';
import { AppError } from '@switchboard/errors';
import { createAccount, listAccounts } from './accounts/accounts.ts';
import { deleteAccount } from './accounts/delete-account.ts';
import { setScryptN } from './accounts/password.ts';
import { commandError, openCommandDatabase } from './command-database.ts';
import { loadCommandConfig } from './config.ts';
import { runKeysCommand } from './api-keys/keys-command.ts';
import { commandAnnouncer } from './api-keys/announce.ts';

const USAGE = `usage:
  npm run account -- create --username <name>                   # asks for the password (no echo)
  npm run account -- create --username <name> --password-stdin  # reads it from stdin
  SWITCHBOARD_PASSWORD=<password> npm run account -- create --username <name>
  npm run account -- create --username <name> --password <password>  # discouraged: visible in ps and history
  npm run account -- list
  npm run account -- delete --username <name>
  npm run account -- keys create --username <name> --name <key name> --scope full|read   # prints the key once
  npm run account -- keys list --username <name>
  npm run account -- keys revoke --username <name> --id <key id>`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    name: { type: 'string' },
    scope: { type: 'string' },
    id: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const command = positionals[0];
if (values.help || !command || !['create', 'list', 'delete', 'keys'].includes(command)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}

/** Everything on stdin, without one trailing line break. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Reads one line from the terminal without echoing it. Ctrl-C or Ctrl-D aborts. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    // No echo from here on, before the question shows (an answer typed at once is not echoed).
    stdin.setRawMode(true);
    stdin.resume();
    process.stderr.write(question);
    let typed = '';
    const done = (err?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new AppError('invalid_request', 'aborted'));
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function passwordForCreate(): Promise<string> {
  const given = [values.password !== undefined, values['password-stdin'] === true].filter(Boolean).length;
  if (given > 1) throw new AppError('invalid_request', 'give either --password or --password-stdin, not both');
  if (values.password !== undefined) return values.password;
  if (values['password-stdin']) return readStdin();
  const fromEnv = process.env.SWITCHBOARD_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!process.stdin.isTTY) {
    throw new AppError(
      'invalid_request',
      'no password: type it at a terminal, or use --password-stdin or SWITCHBOARD_PASSWORD',
    );
  }
  const first = await promptHidden('Password: ');
  const again = await promptHidden('Repeat the password: ');
  if (first !== again) throw new AppError('invalid_request', 'the passwords do not match');
  return first;
}

let password: string | undefined;
if (command === 'create') {
  try {
    if (!values.username) throw new AppError('invalid_request', '--username is required');
    password = await passwordForCreate();
  } catch (err) {
    process.stderr.write(commandError(err));
    process.exit(1);
  }
}

const config = loadCommandConfig();
setScryptN(config.PASSWORD_SCRYPT_N);
const orm = await openCommandDatabase('account', config).catch((err: unknown) => {
  process.stderr.write(commandError(err));
  return process.exit(1);
});
const announcer = commandAnnouncer({ url: config.NATS_URL, user: config.NATS_USER, password: config.NATS_PASSWORD });
let code = 0;
try {
  const em = orm.em.fork();
  if (command === 'create') {
    const a = await createAccount(em, values.username!, password!);
    process.stdout.write(`${JSON.stringify({ id: Number(a.id), username: a.username })}\n`);
  } else if (command === 'keys') {
    const answer = await runKeysCommand(orm, config.SECRETS_KEY, positionals[1], values, announcer.announce);
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  } else if (command === 'list') {
    const all = await listAccounts(em);
    process.stdout.write(
      `${JSON.stringify(all.map((a) => ({ id: Number(a.id), username: a.username, createdAt: a.createdAt.toISOString() })))}\n`,
    );
  } else {
    if (!values.username) throw new AppError('invalid_request', '--username is required');
    // Its applications, addresses and webhook subscriptions go with it (delete-account.ts).
    const deleted = await deleteAccount(em, values.username);
    if (!deleted) {
      process.stderr.write(`no account named ${values.username}\n`);
      code = 1;
    } else {
      // Every key and the password of the account: the gateways forget them at once.
      announcer.announce({ accountId: deleted.id, allKeys: true, username: deleted.username });
      process.stdout.write(
        `${JSON.stringify({ deleted: deleted.username, id: Number(deleted.id), applications: deleted.applications })}\n`,
      );
    }
  }
} catch (err) {
  process.stderr.write(commandError(err));
  code = 1;
} finally {
  await orm.close(true);
}
const unsent = await announcer.close();
if (unsent)
  process.stderr.write(
    `warning: the gateways could not be told over NATS (${unsent}); they forget the credentials within API_KEY_CACHE_TTL_MS and AUTH_CACHE_TTL_MS\n`,
  );
process.exit(code);
