import { randomBytes } from 'node:crypto';
import { checkDeliveryUrl } from '@switchboard/contracts';
import { AppError, type FieldError } from '@switchboard/errors';
import { publishJson } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import type { LaunchSessionRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/LaunchSessionRequest';
import { resolveToken } from '../addresses/repository.ts';
import type { Deps } from '../context.ts';
import { natsUnavailable } from './unavailable.ts';
import { checkParameters } from './rules.ts';
import { takeLaunch } from './launch-budget.ts';

export interface LaunchedSession {
  sessionId: string;
  applicationId: string;
  accountId: string;
}

/**
 * The launch's statusCallbackUrl, checked like every URL deliveries go to (an absolute https URL, or
 * http where allowed; no literal private address unless DELIVERY_ALLOWED_CIDRS allows it); a 400
 * naming `statusCallbackUrl` otherwise. Undefined when not given.
 */
function statusCallbackUrl(value: string | undefined, allowed: Deps['allowedCidrs']): string | undefined {
  if (!value) return undefined;
  const errors: FieldError[] = [];
  const url = checkDeliveryUrl(value, allowed, errors, 'statusCallbackUrl');
  if (errors.length > 0 || !url) throw AppError.invalid(errors);
  return url;
}

/** The first characters of a token: enough for its owner to tell their tokens apart, not enough to launch with. */
export const tokenHint = (token: string): string => `${token.slice(0, 8)}…`;

/**
 * Starts a session for the application that holds the token (Tropo's Session API): a sessions.new
 * event with userType NONE, the token's channel, no caller or callee, and the request's other
 * fields as `parameters`. The dispatcher delivers it to the application's voiceUrl or messagingUrl
 * like any session. The event and the session's entry in the registry of signallable sessions are
 * written at once, and the answer waits for both: a launch that answers is stored in JetStream
 * and can be signalled at once; one refused (503, NATS away) launched nothing. There is no
 * database change to commit with the event, so it needs no outbox.
 */
export async function launchSession(deps: Deps, req: LaunchSessionRequest__Output): Promise<LaunchedSession> {
  const parameters = checkParameters(req.parameters ?? {});
  const owner = await resolveToken(deps.orm.em, req.token);
  if (!owner) throw AppError.notFound('token');
  const callback = statusCallbackUrl(req.statusCallbackUrl, deps.allowedCidrs);
  try {
    await takeLaunch(deps.orm.em, owner.accountId, deps.limits);
  } catch (err) {
    // Refused by the account's budget: the launch.refused alert (at most once a minute).
    if (err instanceof AppError && err.code === 'rate_limited')
      deps.launchRefusals.report({
        accountId: owner.accountId,
        applicationId: owner.applicationId,
        message: err.message,
      });
    throw err;
  }
  const sessionId = randomBytes(16).toString('hex');
  const channel = owner.channel === 'voice' ? 'VOICE' : 'TEXT';
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
  const [registered, published] = await Promise.allSettled([
    deps.sessions.remember(sessionId, {
      applicationId: owner.applicationId,
      accountId: owner.accountId,
      source: 'launched',
    }),
    // The message id makes a publish repeated by the client library a duplicate, not a second session.
    publishJson(
      deps.js,
      SUBJECTS.sessionNew,
      // The session record shows it was launched with a token, and which one by its first characters.
      {
        applicationId: owner.applicationId,
        accountId: owner.accountId,
        session,
        launch: { token: tokenHint(req.token), ...(callback ? { statusCallbackUrl: callback } : {}) },
      },
      `launch:${sessionId}`,
    ),
  ]);
  if (published.status === 'rejected') natsUnavailable(published.reason);
  // Launched all the same: the dispatcher registers the session again when it delivers it.
  // The session id is a credential of its signals: only its first characters are logged.
  if (registered.status === 'rejected')
    deps.logger.warn(
      { err: (registered.reason as Error).message, session: `${sessionId.slice(0, 6)}…` },
      'launched session not registered for signals until delivered',
    );
  return { sessionId, applicationId: owner.applicationId, accountId: owner.accountId };
}
