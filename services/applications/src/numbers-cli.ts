// npm run numbers -- add <number|FIRST..LAST>... [--city C] [--state S] [--country CC] [--sms]
//                  | list | remove <number> [--force]
// The operator's number inventory. Works on this service's schema directly (migrating it first),
// so it needs no running service. Prints one JSON line per result.
import { parseArgs } from 'node:util';
import { AppError } from '@switchboard/errors';
import { commandError, openCommandDatabase } from './command-database.ts';
import { expandNumbers, normaliseNumber, RANGE_MAX } from './numbers/e164.ts';
import { addNumbers, listNumbers, removeNumber } from './numbers/inventory.ts';

const USAGE = `usage:
  npm run numbers -- add <+E164 | +FIRST..+LAST>... [--city <city>] [--state <state>] [--country <CC>] [--sms]
  npm run numbers -- list
  npm run numbers -- remove <+E164> [--force]
A range holds at most ${RANGE_MAX} numbers. remove refuses a number an application holds unless --force,
which releases it from the application first.`;

const parsed = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        city: { type: 'string' },
        state: { type: 'string' },
        country: { type: 'string' },
        sms: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
})();
const { positionals, values } = parsed;
const [command, ...args] = positionals;
if (
  values.help ||
  !command ||
  !['add', 'list', 'remove'].includes(command) ||
  (command === 'add' && args.length === 0) ||
  (command === 'remove' && args.length !== 1)
) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}

const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);
let code = 0;
try {
  // Arguments are checked before the database is opened: a typo costs no connection.
  const numbers = command === 'add' ? [...new Set(args.flatMap(expandNumbers))] : [];
  const removing = command === 'remove' ? normaliseNumber(args[0]!) : undefined;
  if (command === 'remove' && !removing) throw new AppError('invalid_request', `${args[0]}: not an E.164 number`);
  const blank = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
  const country = blank(values.country)?.toUpperCase();

  const orm = await openCommandDatabase('numbers');
  try {
    const em = orm.em.fork();
    if (command === 'add') {
      const added = await addNumbers(em, numbers, {
        city: blank(values.city),
        state: blank(values.state),
        country,
        smsEnabled: values.sms,
      });
      print({ added, alreadyPresent: numbers.length - added });
    } else if (command === 'list') {
      for (const n of await listNumbers(em)) print(n);
    } else if (await removeNumber(em, removing!, values.force)) {
      print({ removed: removing });
    } else {
      process.stderr.write(`${removing} is not in the inventory\n`);
      code = 1;
    }
  } finally {
    await orm.close(true);
  }
} catch (err) {
  process.stderr.write(commandError(err));
  code = 1;
}
process.exit(code);
