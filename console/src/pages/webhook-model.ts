// The shapes of the webhook API the console reads (docs/api.md#webhook-subscriptions, #delivery-tools).

export interface Webhook {
  href: string;
  id: string;
  name?: string;
  event: string;
  resource: string;
  targetUrl: string;
  payload?: Record<string, unknown>;
  headers?: Record<string, string>;
  enabled: boolean;
  applicationId?: string;
  createdAt: string;
  updatedAt: string;
  consecutiveFailures: number;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  disabledReason: string | null;
  /** Delivery settings (docs/api.md#delivery-settings), each present only when set; secrets read as ***. */
  timeoutMs?: number;
  ordering?: { key: string; maxHoldSeconds: number };
  rateLimit?: { perSecond: number };
  auth?: { type: 'oauth2_client_credentials'; tokenUrl: string; clientId: string; clientSecret: '***'; scope?: string };
  tls?: { clientCertificate: string; privateKey: '***' };
}

export interface EventType {
  name: string;
  description: string;
  resources: string[];
  applicationLevel: boolean;
}

export interface Delivery {
  id: string;
  messageId: string;
  kind: 'session' | 'notification';
  subscriptionId?: string;
  applicationId?: string;
  event: string;
  targetUrl: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  outcome: 'succeeded' | 'retrying' | 'failed' | 'cancelled' | 'pending';
  trigger: 'event' | 'test' | 'resend' | 'recovery';
  createdAt: string;
  /** One record's view only: the body sent (its first 16 KiB), null when no longer kept. */
  request?: { body: string; bytes: number; truncated: boolean } | null;
  response?: { contentType: string; excerpt: string; truncated: boolean } | null;
}

export interface TestResult {
  status: number | null;
  durationMs: number;
  error?: string;
  href: string;
}

export interface Recovery {
  href: string;
  id: string;
  state: 'running' | 'completed' | 'cancelled';
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  since: string;
  until: string;
  createdAt: string;
  completedAt: string | null;
}

/** A dry run of a recovery: how many deliveries it would take, and how many of those it would skip. */
export interface RecoveryCount {
  dryRun: true;
  matched: number;
  skipped: number;
}

/** A subscription's name as the console shows it. */
export const webhookName = (w: Webhook) => w.name || `${w.event} → ${w.targetUrl}`;

/** The last segment of an href: the id it names. */
export const idOf = (href: string) => href.split('?')[0]!.split('/').pop()!;
