// Work a service does in the background, one round at a time (the outbox relay, the resend relay,
// the sweep of deleted subscriptions' records): a round runs when kicked (after a commit that left
// work) and every `intervalMs` (work left by another replica or by a restart). A kick during a round
// runs another right after it; a failed round is logged and tried again at the next kick or tick.
import type { Logger } from './logger.ts';

export interface BackgroundLoop {
  /** Asks for a round soon. */
  kick(): void;
  /** No more rounds; resolves when the current one ended. */
  stop(): Promise<void>;
}

/**
 * Starts the loop. `batch` does one unit of work and says whether more may be waiting (then it is
 * called again at once); `failure` is the warning logged when a batch throws.
 */
export function startBackgroundLoop(
  batch: () => Promise<boolean>,
  opts: { intervalMs: number; logger: Logger; failure: string },
): BackgroundLoop {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const round = async (): Promise<void> => {
    while (!stopped && (await batch()));
  };
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch((err: unknown) => opts.logger.warn({ err: (err as Error).message }, opts.failure))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  const timer = setInterval(kick, opts.intervalMs);
  timer.unref();
  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
