// launch.refused (docs/api.md#alerts): the applications service reports, at most once per account
// and minute, that the Session API refused launches of the account for its launch budget
// (launches.refused); the alert links to the application whose token launched.
import type { z } from 'zod';
import type { launchRefusedSchema } from '@switchboard/events';
import { sqlTransaction, storeInPartitions } from '@switchboard/db';
import type { Deps } from '../context.ts';
import { raiseAlerts } from './raise-alerts.ts';
import { ALERTS_TABLE, alertMinutes } from './repository.ts';

/** Raises the alert; answers whether its event was written (the first of its minute, subscribed). */
export async function storeLaunchRefused(
  deps: Pick<Deps, 'orm' | 'schema' | 'dayMs' | 'publicBaseUrl' | 'outbox' | 'alertsRaised'>,
  e: z.output<typeof launchRefusedSchema>,
): Promise<boolean> {
  const store = () =>
    sqlTransaction(deps.orm.em, 'begin', (query) =>
      raiseAlerts(query, deps.schema, deps.publicBaseUrl, [
        {
          accountId: e.accountId,
          code: 'launch.refused',
          severity: 'warning',
          applicationId: e.applicationId,
          subscriptionId: null,
          sessionId: null,
          deliveryId: null,
          attempt: null,
          message: `Session launches were refused (429): ${e.message}`.slice(0, 4000),
          at: e.at,
        },
      ]),
    );
  // The alert's minute gets its partition first (a late report's day may have been dropped).
  const rows = [{ table: ALERTS_TABLE, instants: alertMinutes([new Date(e.at)]) }];
  const firsts = await storeInPartitions(deps.orm.em, deps.schema, rows, store, deps.dayMs);
  deps.alertsRaised('launch.refused');
  if (firsts.length > 0) deps.outbox.kick();
  return true;
}
