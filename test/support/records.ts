// Delivery records written straight into the webhooks schema: what months of deliveries leave
// behind, for tests and benchmarks of what the services do with many of them.
import { queryDatabase } from './infra';

/** Inserts `n` delivery records of a subscription directly. */
export async function fillDeliveries(
  databaseUrl: string,
  subscriptionId: string,
  accountId: string,
  n: number,
): Promise<void> {
  await queryDatabase(
    databaseUrl,
    `insert into webhooks.deliveries (id, message_id, kind, subscription_id, account_id, event, target_url, attempt, status_code, duration_ms, outcome, created_at)
     select 'dl_' || $1 || '_' || g, 'msg_' || g, 'notification', $1, $2, 'smsdlr', 'https://example.com/hook', 1, 200, 12, 'succeeded', now()
     from generate_series(1, $3::int) g`,
    [subscriptionId, accountId, n],
  );
}
