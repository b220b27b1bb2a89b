// The sessions this platform started or routed in the last 24 h (KV bucket SWITCHBOARD_SESSIONS):
// written when the Session API launches a session and when the dispatcher delivers one, read when
// a signal arrives. An entry expires with the bucket's max age, 24 h after it was last written.
import { createHash } from 'node:crypto';
import { KV_BUCKETS } from '@switchboard/events';
import { kvStream, type JetStreamClient, type JetStreamManager } from '@switchboard/messaging';

export interface SessionEntry {
  applicationId: string;
  accountId: string | null;
  /** 'launched': by the Session API; 'routed': delivered by the dispatcher. */
  source: 'launched' | 'routed';
  at: string;
}

/** Session ids that are KV keys as they are; any other id is keyed by its SHA-256 (after "="). */
const PLAIN_KEY = /^[A-Za-z0-9_-]{1,200}$/;

export function sessionKey(sessionId: string): string {
  return PLAIN_KEY.test(sessionId) ? sessionId : `=${createHash('sha256').update(sessionId).digest('hex')}`;
}

export class SessionRegistry {
  private readonly stream: string;
  private readonly prefix: string;

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
  ) {
    ({ stream: this.stream, prefix: this.prefix } = kvStream(KV_BUCKETS.sessions));
  }

  /** Records (or refreshes) a session; resolves once JetStream has stored it. */
  async remember(sessionId: string, entry: Omit<SessionEntry, 'at'>): Promise<void> {
    const body: SessionEntry = { ...entry, at: new Date().toISOString() };
    await this.js.publish(this.prefix + sessionKey(sessionId), JSON.stringify(body));
  }

  /** The session's entry, or undefined when it was not started or routed here in the last 24 h. */
  async lookup(sessionId: string): Promise<SessionEntry | undefined> {
    const m = await this.jsm.streams.getMessage(this.stream, { last_by_subj: this.prefix + sessionKey(sessionId) });
    if (!m || m.data.length === 0) return undefined;
    return m.json<SessionEntry>();
  }
}
