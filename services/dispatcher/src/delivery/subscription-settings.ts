// A subscription's delivery settings as the webhooks service hands them over (MatchedSubscription.settings_json,
// secrets in clear; docs/api.md#delivery-settings), and what they change in an attempt.
import type { PostOptions } from './http-sender.ts';

export interface SubscriptionSettings {
  /** Per-attempt timeout of this subscription (1,000 to 30,000 ms); the sender's DELIVERY_TIMEOUT_MS when absent. */
  timeoutMs?: number;
  ordering?: { key: string; maxHoldSeconds: number };
  rateLimit?: { perSecond: number };
  auth?: {
    type: 'oauth2_client_credentials';
    tokenUrl: string;
    clientId: string;
    clientSecret: string;
    scope?: string;
  };
  tls?: { clientCertificate: string; privateKey: string };
}

/** The settings of a MatchedSubscription; none when absent or unreadable (the webhooks service checked them on write). */
export function parseSettings(json: string | undefined): SubscriptionSettings {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SubscriptionSettings) : {};
  } catch {
    return {};
  }
}

/** The options of one attempt to a subscription: its own timeout and client certificate over the given options (the same object when it has neither). */
export function attemptOptions<O extends PostOptions>(options: O, settings: SubscriptionSettings | undefined): O {
  if (!settings?.timeoutMs && !settings?.tls) return options;
  return {
    ...options,
    ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.tls ? { clientTls: settings.tls } : {}),
  };
}
