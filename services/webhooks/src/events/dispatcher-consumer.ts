// A consumer loop on a durable consumer the dispatchers own (they create the deliveries stream and
// its consumers): until the consumer exists this service looks for it every few seconds, then pulls
// from it. Stopping before it exists stops the looking.
import { runConsumerLoop, type ConsumerLoop, type JsMsg, type NatsHandle } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';

const LOOK_FOR_CONSUMER_EVERY_MS = 2000;

export interface DispatcherConsumerOptions {
  stream: string;
  durable: string;
  logger: Logger;
  /** Messages processed at the same time. */
  concurrency: number;
  handle(msg: JsMsg): Promise<void>;
  /** Logged (debug) each time the consumer is not there yet. */
  missing: string;
}

export function runOnDispatcherConsumer(nats: NatsHandle, opts: DispatcherConsumerOptions): ConsumerLoop {
  let stopped = false;
  let loop: ConsumerLoop | undefined;
  let timer: NodeJS.Timeout | undefined;
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((r) => (markStarted = r));
  const lookForConsumer = async () => {
    timer = undefined;
    if (stopped) return;
    try {
      await nats.jsm.consumers.info(opts.stream, opts.durable);
    } catch (err) {
      opts.logger.debug({ err: (err as Error).message }, opts.missing);
      timer = setTimeout(() => void lookForConsumer(), LOOK_FOR_CONSUMER_EVERY_MS);
      return;
    }
    if (stopped) return;
    loop = runConsumerLoop({
      js: nats.js,
      stream: opts.stream,
      durable: opts.durable,
      logger: opts.logger,
      concurrency: opts.concurrency,
      handle: opts.handle,
    });
    void loop.started.then(markStarted);
  };
  void lookForConsumer();
  return {
    started,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await loop?.stop();
    },
  };
}
