// What the console shows of a session's outcome (docs/api.md#sessions).
import type { SessionSummary } from '../api.ts';

export const OUTCOME_TEXT: Record<SessionSummary['outcome'], string> = {
  answered: 'Answered',
  fallback: 'Answered by the fallback',
  failed: 'Failed',
};
