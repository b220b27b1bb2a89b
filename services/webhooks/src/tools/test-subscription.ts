import { randomBytes } from 'node:crypto';
import { recordAlone } from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { TestSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/TestSubscriptionRequest';
import type { Deps, Traced } from '../context.ts';
import { findOwned, requireAccount, webhookPath } from '../subscriptions/repository.ts';
import { newDeliveryId } from '../subscriptions/ids.ts';
import { countRecentTests, insertTestSend } from './repository.ts';

export const DEFAULT_TEST_MESSAGE = 'This is a test notification from Switchboard.';
const MESSAGE_MAX = 1000;

export interface TestResult {
  status: number;
  durationMs: number;
  error?: string;
  deliveryId: string;
}

/**
 * Sends a signed `test` notification to the subscription's target now, through a dispatcher (its
 * signed sender, SSRF guard and circuit breakers), and answers how the attempt ended. At most
 * `testsPerMinute` per subscription (429 with Retry-After beyond). The attempt is recorded like any
 * other, as trigger "test"; it leaves the subscription's delivery health as it was. The audit entry
 * is written with the count of test sends, before the send.
 */
export async function testSubscription(
  deps: Deps,
  req: Traced<TestSubscriptionRequest__Output>,
  audit?: AuditContext,
): Promise<TestResult> {
  const accountId = requireAccount(req.accountId);
  const message = req.message ?? DEFAULT_TEST_MESSAGE;
  if (message.length > MESSAGE_MAX)
    throw AppError.invalid([{ field: 'message', message: `must be at most ${MESSAGE_MAX} characters` }]);
  const deliveryId = newDeliveryId();
  const sub = await deps.orm.em.fork().transactional(async (em) => {
    const s = await findOwned(em, accountId, req.id);
    const recent = await countRecentTests(em, deps.schema, s.id);
    if (recent.n >= deps.testsPerMinute) {
      const waitS = recent.oldest
        ? Math.max(1, Math.ceil((new Date(recent.oldest).getTime() + 60_000 - Date.now()) / 1000))
        : 60;
      throw new AppError(
        'rate_limited',
        `at most ${deps.testsPerMinute} test sends per subscription per minute; retry in ${waitS} s`,
        undefined,
        { retryAfterS: waitS },
      );
    }
    await insertTestSend(em, deps.schema, s.id);
    await recordAlone(
      em,
      {
        accountId,
        action: 'webhook.test',
        target: `${webhookPath(s.id)}/deliveries/${deliveryId}`,
        outcome: 'success',
      },
      audit,
    );
    return s;
  });
  const reply = await deps.dispatchers.test({
    accountId,
    subscriptionId: sub.id,
    deliveryId,
    webhookId: `msg_${randomBytes(18).toString('base64url')}`,
    message,
  });
  return { ...reply, deliveryId };
}
