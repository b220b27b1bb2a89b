import { publishJson } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import type { SignalSessionRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/SignalSessionRequest';
import type { Deps } from '../context.ts';
import { natsUnavailable } from './unavailable.ts';
import { checkSessionId, checkSignalValue } from './rules.ts';

/**
 * Queues a signal for a running session: published on sessions.signal for the telephony core when
 * the session was started or routed by this platform in the last 24 h; false (nothing published)
 * for any other session id.
 */
export async function signalSession(deps: Deps, req: SignalSessionRequest__Output): Promise<boolean> {
  const sessionId = checkSessionId(req.sessionId);
  const value = checkSignalValue(req.value);
  const known = await deps.sessions.lookup(sessionId).catch(natsUnavailable);
  if (!known) return false;
  await publishJson(deps.js, SUBJECTS.sessionSignal, { sessionId, value }).catch(natsUnavailable);
  return true;
}
