// Publishes one well-formed inbound event (docs/events.md#inbound) to NATS_URL, so a person can watch a
// session reach their application or a notification reach their webhook.
//
//   npm run simulate -- session --application <id> [--channel VOICE|TEXT] [--text "hi"] [--from <id>] [--to <id>] [--account <id>]
//   npm run simulate -- cdr.created|cdr.rated|sms.dlr --account <id> [--application <id>] [--resource call|sms|transcription]
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { ensureStreams } from '@switchboard/messaging';
import { STREAMS } from '@switchboard/events';
import { parseEvent } from './events/schemas.ts';
import { buildEvent, USAGE } from './simulate-event.ts';

function fail(message: string): never {
  process.stderr.write(`${message ? `${message}\n\n` : ''}${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let built: ReturnType<typeof buildEvent>;
  try {
    built = buildEvent(process.argv.slice(2));
  } catch (err) {
    fail((err as Error).message);
  }
  const { subject, body } = built;
  try {
    parseEvent(subject, JSON.stringify(body));
  } catch (err) {
    fail((err as Error).message);
  }
  const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  const nc = await connect({ servers: url.split(','), timeout: 5000 }).catch((err: Error) =>
    fail(`cannot connect to NATS at ${url}: ${err.message}`),
  );
  try {
    const js = jetstream(nc);
    const ack = await js.publish(subject, JSON.stringify(body)).catch(async () => {
      // No stream yet (nothing has started): create it, as every service does at start.
      await ensureStreams(await jetstreamManager(nc), [STREAMS.events], Number(process.env.NATS_STREAM_REPLICAS || 1));
      return js.publish(subject, JSON.stringify(body));
    });
    process.stdout.write(
      `${JSON.stringify({ published: { subject, stream: ack.stream, seq: ack.seq }, body }, null, 2)}\n`,
    );
  } finally {
    await nc.close();
  }
}

await main();
