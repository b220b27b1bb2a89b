// The handler of a signing secret's read or rotation: an application's session secret
// (application-secrets.ts) and a subscription's (webhooks.ts) are read and rotated alike.
import type { Request } from 'express';
import { auditOptions, principal, writeOptions } from './context.ts';
import { noStore, requireFull } from './exposure.ts';
import { type Handler, sendJson } from './routing.ts';

/**
 * `read`: a `full` credential only, and the read is audited (auditOptions); `rotate`: a write
 * (writeOptions: it may carry an Idempotency-Key). Either way the service is called with the
 * account and the path's `id`, and the answer `{secret}` is never cached.
 */
export function secretHandler<D>(
  action: 'read' | 'rotate',
  call: (
    deps: D,
    request: { accountId: string; id: string },
    options: ReturnType<typeof writeOptions>,
  ) => Promise<{ secret: string }>,
): (deps: D) => Handler {
  return (deps) => async (req: Request, res) => {
    if (action === 'read') requireFull(req);
    const { secret } = await call(
      deps,
      { accountId: principal(req).accountId, id: String(req.params.id) },
      action === 'read' ? auditOptions(req) : writeOptions(req),
    );
    noStore(res);
    sendJson(res, { secret });
  };
}
