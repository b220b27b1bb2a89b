// The `event` filter of the deliveries lists on many records, through the real gateway, the webhooks
// service and Postgres: the answer is exact, and the statement the list makes is served by an index
// on the event (Migration018DeliveryEventFilter), not by walking every record of the subscription
// or application newest first until a page is found (all of them, for an event they never had).
import { describe, expect, it } from 'vitest';
import { fillDeliveries, queryDatabase, type Services } from '../../../test/support';
import { useGatewayStack } from '../../gateway/test/harness';

let stack: Services<{ gateway: true; webhooks: true }>;

useGatewayStack({ webhooks: true }, (f) => ({ stack } = f));

const RECORDS = 20_000;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  queryDatabase<T>(stack.databaseUrl, text, params);
const idOf = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { href: string }).href.split('/').pop()!;
};

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
/**
 * How the plan of a statement reads the daily partition that holds the records: the scan's type and
 * its index (empty partitions around it may be scanned whole, at no cost).
 */
async function scanOf(partition: string, text: string, params: unknown[]): Promise<string> {
  const [row] = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${text}`, params);
  const scans: string[] = [];
  const indexes = (n: PlanNode): string[] => [
    ...(n['Index Name'] ? [n['Index Name']] : []),
    ...(n.Plans ?? []).flatMap(indexes),
  ];
  const walk = (n: PlanNode) => {
    if (n['Relation Name'] === partition) scans.push([n['Node Type'], ...indexes(n)].join(' '));
    else for (const c of n.Plans ?? []) walk(c);
  };
  walk(row!['QUERY PLAN'][0].Plan);
  return scans.join(', ');
}

describe('the event filter of the deliveries lists', () => {
  it('when a subscription or an application has many records, then a list filtered by event answers exactly and its statement reads an index on the event', async () => {
    const me = await stack.createAccount('filter');
    const hook = await idOf(
      await stack.request(me, 'POST', '/v1/webhooks', {
        event: 'smsdlr',
        resource: 'sms',
        targetUrl: 'https://example.com/hook',
      }),
    );
    const app = await idOf(
      await stack.request(me, 'POST', '/v1/applications', { name: 'busy', voiceUrl: 'https://example.com/v' }),
    );
    await fillDeliveries(stack.databaseUrl, hook, me.id, RECORDS);
    // An application's session deliveries, and a few of another event among them.
    await sql(
      `insert into webhooks.deliveries (id, message_id, kind, application_id, account_id, event, target_url, attempt, status_code, duration_ms, outcome, created_at)
       select 'dl_s_' || g, 'msg_s_' || g, 'session', $1, $2, case when g % 5000 = 0 then 'sessionStatus' else 'session' end,
         'https://example.com/v', 1, 200, 12, 'succeeded', now()
       from generate_series(1, $3::int) g`,
      [app, me.id, RECORDS],
    );
    await sql('analyze webhooks.deliveries');

    const list = async (path: string) => {
      const res = await stack.request(me, 'GET', path);
      expect(res.status, path).toBe(200);
      return (await res.json()) as { event: string }[];
    };
    expect(await list(`/v1/webhooks/${hook}/deliveries?event=cdrCreated&limit=10`)).toEqual([]);
    const matching = await list(`/v1/webhooks/${hook}/deliveries?event=smsdlr&limit=10`);
    expect(matching.map((d) => d.event)).toEqual(Array(10).fill('smsdlr'));
    const rare = await list(`/v1/applications/${app}/deliveries?event=sessionStatus&limit=10`);
    expect(rare.map((d) => d.event)).toEqual(Array(RECORDS / 5000).fill('sessionStatus'));

    // The statements the lists make (MikroORM: the filters, newest first, a page and one more).
    const [{ partition }] = (await sql<{ partition: string }>(
      'select tableoid::regclass::text as partition from webhooks.deliveries where subscription_id = $1 limit 1',
      [hook],
    )) as [{ partition: string }];
    const local = partition.replace(/^webhooks\./, '');
    expect(
      await scanOf(
        local,
        'select * from webhooks.deliveries where subscription_id = $1 and event = $2 order by seq desc limit 11',
        [hook, 'cdrCreated'],
      ),
    ).toMatch(/^Index (Only )?Scan \S*subscription_id_event\S*$/);
    expect(
      await scanOf(
        local,
        `select * from webhooks.deliveries where application_id = $1 and kind = 'session' and event = $2 order by seq desc limit 11`,
        [app, 'sessionStatus'],
      ),
    ).toMatch(/^(Index (Only )?Scan|Bitmap Heap Scan) \S*application_id_event\S*$/);
  });
});
