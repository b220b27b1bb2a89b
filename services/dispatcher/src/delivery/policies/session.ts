// Sessions (POSTs to an application's voice or messaging URL). For now they follow the same
// durable retry schedule as notifications; this is the place where real-time session delivery
// (fallback URLs, a deadline) will be decided.
import { notificationPolicy, type DurableRetrySettings } from './notification';
import type { DeliveryPolicy } from './policy';

export function sessionPolicy(s: DurableRetrySettings): DeliveryPolicy {
  return notificationPolicy(s);
}
