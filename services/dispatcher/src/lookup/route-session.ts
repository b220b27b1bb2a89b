// Routing by address (docs/events.md#routing-by-address): a sessions.new without applicationId
// goes to the application that owns the address it was dialled at, `session.to.id` (an E.164
// number on PSTN, SMS and other networks, a SIP URI on SIP), found through the cached
// ResolveAddress of the applications service.
import { dialledAddress, type SessionNewEvent } from '../events/schemas.ts';
import type { Lookups } from './lookups.ts';

/**
 * The event with its application: the one it names, else the owner of its dialled address; left
 * without one when nobody owns the address (the session fails with unknown_address). Throws what
 * the lookup throws when the applications service is away: the event waits and comes back.
 */
export async function routeSession(event: SessionNewEvent, lookups: Lookups): Promise<SessionNewEvent> {
  if (event.applicationId) return event;
  const to = event.session.to;
  const dialled = dialledAddress(to?.id ?? '', to?.network);
  const owner = dialled ? await lookups.addressOwner(dialled) : null;
  return owner ? { ...event, applicationId: owner.applicationId } : event;
}
