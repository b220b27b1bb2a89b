// The stable codes of alerts (docs/api.md#alerts): what the webhooks service raises and the gateway
// documents and filters on.

export const ALERT_CODES = [
  'app.not_json',
  'app.timeout',
  'app.http_4xx',
  'app.http_5xx',
  'app.empty_body',
  'app.unreachable',
  'app.fallback_used',
  'app.ssrf_refused',
  'webhook.failing',
  'webhook.disabled',
  'launch.refused',
  'delivery.backlog_full',
] as const;
export type AlertCode = (typeof ALERT_CODES)[number];

export const ALERT_SEVERITIES = ['error', 'warning'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
