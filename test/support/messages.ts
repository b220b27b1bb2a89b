// Waits on NATS messages a test does not publish itself (change events of the services), so a test
// waits for the event it means instead of a fixed time.
import type { NatsConnection } from '@switchboard/messaging';

export interface SubjectWatch<T> {
  /**
   * The first message matching since the watch began, once a round trip to the server has
   * followed it: the server writes a message to every subscriber before it answers that round
   * trip, so by then each in-process subscriber (a dispatcher's cache) has had it too.
   */
  seen(timeoutMs?: number): Promise<T>;
}

/** Watches `subject` from the moment it resolves (the server has the subscription); start it before the action that publishes. */
export async function watchSubject<T = Record<string, unknown>>(
  nc: NatsConnection,
  subject: string,
  match: (body: T) => boolean = () => true,
): Promise<SubjectWatch<T>> {
  let found: ((body: T) => void) | undefined;
  const first = new Promise<T>((resolve) => (found = resolve));
  const sub = nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return;
      const body = msg.json<T>();
      if (!match(body)) return;
      sub.unsubscribe();
      found!(body);
    },
  });
  await nc.flush();
  return {
    async seen(timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`no ${subject} message within ${timeoutMs} ms`)), timeoutMs)),
      );
      try {
        const body = await Promise.race([first, timeout]);
        await nc.flush();
        return body;
      } finally {
        clearTimeout(timer);
        sub.unsubscribe();
      }
    },
  };
}
