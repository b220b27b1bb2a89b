// Builds the event that `npm run simulate` publishes (docs/events.md#inbound).
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

export const USAGE = `usage:
  npm run simulate -- session --application <id> [--channel VOICE|TEXT] [--text "hi"] [--from <id>] [--to <id>] [--account <id>]
  npm run simulate -- session --to <number|sip URI> [...]   (no --application: routed to the address's owner)
  npm run simulate -- cdr.created|cdr.rated|sms.dlr --account <id> [--application <id>] [--resource call|sms|transcription]
environment: NATS_URL (default nats://127.0.0.1:4222)`;

function fail(message: string): never {
  throw new UsageError(message);
}

export function buildEvent(argv: string[], now = new Date()): { subject: string; body: Record<string, unknown> } {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      application: { type: 'string' },
      account: { type: 'string' },
      channel: { type: 'string' },
      text: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      resource: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const kind = positionals[0];
  if (values.help || !kind) fail('');
  if (kind === 'session') {
    if (!values.application && !values.to)
      fail('--application (or --to, to route by the address dialled) is required for a session');
    const channel = (values.channel ?? (values.text !== undefined ? 'TEXT' : 'VOICE')).toUpperCase();
    if (channel !== 'VOICE' && channel !== 'TEXT') fail('--channel must be VOICE or TEXT');
    const voice = channel === 'VOICE';
    const endpoint = (id: string, network: string) => ({
      id,
      e164Id: id,
      name: 'unknown',
      channel,
      network: /^sips?:/i.test(id) ? 'SIP' : network,
    });
    return {
      subject: 'sessions.new',
      body: {
        ...(values.application ? { applicationId: values.application } : {}),
        session: {
          id: randomUUID(),
          ...(values.account ? { accountId: values.account } : {}),
          callId: randomUUID().replaceAll('-', ''),
          timestamp: now.toISOString(),
          userType: 'HUMAN',
          initialText: voice ? null : (values.text ?? 'hello'),
          from: endpoint(values.from ?? (voice ? '+14155550100' : 'alice'), voice ? 'PSTN' : 'SMS'),
          to: endpoint(values.to ?? '+14155550199', voice ? 'PSTN' : 'SMS'),
          headers: voice ? { 'x-sbc-call-id': randomUUID() } : {},
          parameters: {},
        },
      },
    };
  }
  if (kind === 'cdr.created' || kind === 'cdr.rated' || kind === 'sms.dlr') {
    if (!values.account) fail('--account is required for a notification event');
    const resource = values.resource ?? (kind === 'sms.dlr' ? 'sms' : 'call');
    const data =
      kind === 'sms.dlr'
        ? { messageId: randomUUID(), to: '+14155550199', status: 'delivered', deliveredAt: now.toISOString() }
        : {
            callId: randomUUID().replaceAll('-', ''),
            from: '+14155550100',
            to: '+14155550199',
            startedAt: now.toISOString(),
            durationSeconds: 42,
            ...(kind === 'cdr.rated' ? { price: '0.0042', currency: 'USD' } : {}),
          };
    return {
      subject: kind,
      body: {
        id: randomUUID(),
        accountId: values.account,
        ...(values.application ? { applicationId: values.application } : {}),
        resource,
        timestamp: now.toISOString(),
        data,
      },
    };
  }
  fail(`unknown event kind ${JSON.stringify(kind)}`);
}
