import type { Logger } from './logger.ts';

/** A further signal this soon after the first is the same stop, not a request to hurry. */
const SAME_STOP_MS = 2000;

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. A second signal (more than 2 s after the first),
 * or a drain that takes longer than `timeoutMs`, exits at once. Ctrl-C in a terminal reaches every
 * process of the group and a supervisor (`npm start`) forwards SIGTERM as well: that pair still drains.
 */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>, timeoutMs = 25_000): void {
  let stoppingSince: number | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < SAME_STOP_MS) return;
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'draining');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'drain timed out, exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop()
      .then(() => {
        logger.info('stopped');
        logger.flush?.();
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

/** Starts a process from its main module: parse config, start, log failures in JSON and exit non-zero. */
export async function runMain(
  name: string,
  start: () => Promise<{ logger: Logger; stop: () => Promise<void> }>,
): Promise<void> {
  try {
    const { logger, stop } = await start();
    onShutdownSignal(logger, stop);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', service: name, time: new Date().toISOString(), msg: `cannot start: ${message}` })}\n`,
    );
    process.exit(1);
  }
}
