// Which alerts a session record raises (docs/api.md#alerts): one per distinct code among its failed
// attempts, linked to the first attempt that failed that way, and app.fallback_used when the
// fallback URL gave the instructions. The dispatchers write each failed attempt's error as
// `<reason>: <detail>` (dispatcher delivery/policies/session.ts).
import type { SessionRecord } from '@switchboard/contracts';
import type { AlertCode, AlertSeverity } from '@switchboard/events';

export interface RaisedAlert {
  code: AlertCode;
  severity: AlertSeverity;
  at: string;
  /** Index of the attempt it links to in the session. */
  attempt: number | null;
  message: string;
}

/** The alert code of a failed attempt, or null when nobody can act on it (a busy host, an open breaker). */
function attemptCode(a: SessionRecord['attempts'][number]): AlertCode | null {
  const reason = a.error?.split(':', 1)[0];
  switch (reason) {
    case 'not_json':
      return 'app.not_json';
    case 'timeout':
      return 'app.timeout';
    case 'http_5xx':
      return 'app.http_5xx';
    case 'http_status':
      return a.status >= 400 && a.status < 500 ? 'app.http_4xx' : null;
    case 'empty_body':
      return 'app.empty_body';
    case 'connection_error':
      return 'app.unreachable';
    case 'ssrf_refused':
      return 'app.ssrf_refused';
    default:
      return null;
  }
}

export function sessionAlerts(r: SessionRecord): RaisedAlert[] {
  const raised = new Map<AlertCode, RaisedAlert>();
  r.attempts.forEach((a, i) => {
    const code = attemptCode(a);
    if (!code || raised.has(code)) return;
    const where = a.role === 'fallback' ? 'fallback URL' : 'URL';
    raised.set(code, {
      code,
      severity: 'error',
      at: a.at,
      attempt: i,
      message: `The application's ${where}: ${a.error}`,
    });
  });
  if (r.outcome === 'fallback') {
    const i = r.attempts.findIndex((a) => a.role === 'fallback');
    raised.set('app.fallback_used', {
      code: 'app.fallback_used',
      severity: 'warning',
      at: r.attempts[i]?.at ?? r.startedAt,
      attempt: i >= 0 ? i : null,
      message: 'The primary URL gave no instructions; the fallback URL was used',
    });
  }
  return [...raised.values()];
}
