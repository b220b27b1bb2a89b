// Reporting launches the account's launch budget refused (launch-budget.ts) for the launch.refused
// alert, which the webhooks service raises from launches.refused (SWITCHBOARD_INTERNAL). A storm of
// refusals must not become a storm of messages: each process reports an account at most once a
// minute (it remembers the accounts reported in the current minute, at most MAX_ACCOUNTS of them,
// forgotten when the minute turns), and the message id of the account and minute makes JetStream
// keep one per minute whatever the number of replicas. Best effort: the 429 never waits for it; a
// failed publish is logged, and the next minute's refusals report again.
import { publishJson, type JetStreamClient } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';

/** Most accounts remembered in one minute; past it, refusals of further accounts go unreported that minute. */
export const MAX_ACCOUNTS = 10_000;

export interface LaunchRefusals {
  report(r: { accountId: string; applicationId: string | null; message: string }): void;
}

export function createLaunchRefusals(js: JetStreamClient, logger: Logger, maxAccounts = MAX_ACCOUNTS): LaunchRefusals {
  let minute = 0;
  const reported = new Set<string>();
  return {
    report({ accountId, applicationId, message }) {
      const now = Date.now();
      const m = Math.floor(now / 60_000);
      if (m !== minute) {
        minute = m;
        reported.clear();
      }
      if (reported.has(accountId) || reported.size >= maxAccounts) return;
      reported.add(accountId);
      const body = { accountId, applicationId, at: new Date(now).toISOString(), message };
      publishJson(js, SUBJECTS.launchRefused, body, `launch-refused:${accountId}:${m}`).catch((err: unknown) =>
        logger.warn({ err: (err as Error).message, accountId }, 'refused launches not reported (launch.refused alert)'),
      );
    },
  };
}
