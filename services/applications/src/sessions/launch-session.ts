import { randomBytes } from 'node:crypto';
import { AppError, publishJson, SUBJECTS } from '@switchboard/platform';
import type { LaunchSessionRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/LaunchSessionRequest';
import { resolveToken } from '../addresses/repository';
import type { Deps } from '../context';
import { natsUnavailable } from './unavailable';
import { checkParameters } from './rules';

export interface LaunchedSession {
  sessionId: string;
  applicationId: string;
  accountId: string;
}

/**
 * Starts a session for the application that holds the token (Tropo's Session API): a sessions.new
 * event with userType NONE, the token's channel, no caller or callee, and the request's other
 * fields as `parameters`. The dispatcher delivers it to the application's voiceUrl or messagingUrl
 * like any session. The session is registered for signals first, then its event is published;
 * the answer waits for JetStream to have stored both, so a launch that answers is never lost and
 * one that fails (503) launched nothing. There is no database change to commit with the event, so
 * it needs no outbox: a launch while NATS is away is refused, not held for a late delivery.
 */
export async function launchSession(deps: Deps, req: LaunchSessionRequest__Output): Promise<LaunchedSession> {
  const parameters = checkParameters(req.parameters ?? {});
  const owner = await resolveToken(deps.orm.em, req.token);
  if (!owner) throw AppError.notFound('token');
  const sessionId = randomBytes(16).toString('hex');
  const channel = owner.channel === 'voice' ? 'VOICE' : 'TEXT';
  await deps.sessions.remember(sessionId, { applicationId: owner.applicationId, accountId: owner.accountId, source: 'launched' }).catch(natsUnavailable);
  const session = {
    id: sessionId,
    accountId: owner.accountId,
    callId: null,
    timestamp: new Date().toISOString(),
    userType: 'NONE',
    initialText: null,
    // Nobody called and nobody is called: the endpoints carry only the token's channel.
    from: { id: null, channel },
    to: { id: null, channel },
    headers: {},
    parameters,
  };
  // The message id makes a publish retried by the client library a duplicate, not a second session.
  await publishJson(deps.js, SUBJECTS.sessionNew, { applicationId: owner.applicationId, accountId: owner.accountId, session }, `launch:${sessionId}`).catch(natsUnavailable);
  return { sessionId, applicationId: owner.applicationId, accountId: owner.accountId };
}
