// The shapes of the session inspector API (docs/api.md#sessions).

export interface SessionSummary {
  href: string;
  id: string;
  applicationId: string | null;
  channel: 'VOICE' | 'TEXT';
  from: string | null;
  to: string | null;
  startedAt: string;
  routedBy: { type: 'application' | 'address' | 'token'; value: string | null };
  outcome: 'answered' | 'fallback' | 'failed';
  attemptCount: number;
  failure: { reason: string } | null;
}

export interface SessionAttempt {
  at: string;
  url: string | null;
  role: 'primary' | 'fallback';
  status: number | null;
  durationMs: number;
  error: string | null;
  responseContentType: string | null;
  responseExcerpt: { text: string; truncated: boolean } | null;
}

export interface SessionDetail extends Omit<SessionSummary, 'attemptCount'> {
  attempts: SessionAttempt[];
  instructions: { at: string; bytes: number; excerpt: { text: string; truncated: boolean } } | null;
  signals: { at: string; value: string; status: string }[];
}

export const OUTCOME_TEXT: Record<SessionSummary['outcome'], string> = {
  answered: 'Answered',
  fallback: 'Answered by the fallback',
  failed: 'Failed',
};
