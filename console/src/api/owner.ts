// The delivery tools, the statistics and the signing secret of a webhook or of an application: the
// same operations under /v1/webhooks/{id} and /v1/applications/{id}, typed by the OpenAPI document.
import { client } from '../api.ts';
import type { paths } from './schema.gen.ts';

/** A webhook (subscription) or an application, by id. */
export interface Owner {
  kind: 'webhooks' | 'applications';
  id: string;
}

type DeliveriesQuery = NonNullable<paths['/v1/webhooks/{id}/deliveries']['get']['parameters']['query']>;
type StatsQuery = NonNullable<paths['/v1/webhooks/{id}/stats']['get']['parameters']['query']>;

const inPath = (o: Owner) => ({ path: { id: o.id } });
const oneDelivery = (o: Owner, deliveryId: string) => ({ path: { id: o.id, deliveryId } });

/** The owner's delivery records, one page. */
export const listDeliveries = (o: Owner, query: DeliveriesQuery) =>
  o.kind === 'webhooks'
    ? client.GET('/v1/webhooks/{id}/deliveries', { params: { ...inPath(o), query } })
    : client.GET('/v1/applications/{id}/deliveries', { params: { ...inPath(o), query } });

/** One delivery record with its request and response. */
export const getDelivery = (o: Owner, deliveryId: string) =>
  o.kind === 'webhooks'
    ? client.GET('/v1/webhooks/{id}/deliveries/{deliveryId}', { params: oneDelivery(o, deliveryId) })
    : client.GET('/v1/applications/{id}/deliveries/{deliveryId}', { params: oneDelivery(o, deliveryId) });

export const resendDelivery = (o: Owner, deliveryId: string) =>
  o.kind === 'webhooks'
    ? client.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/resend', { params: oneDelivery(o, deliveryId) })
    : client.POST('/v1/applications/{id}/deliveries/{deliveryId}/resend', { params: oneDelivery(o, deliveryId) });

export const getStats = (o: Owner, query: StatsQuery) =>
  o.kind === 'webhooks'
    ? client.GET('/v1/webhooks/{id}/stats', { params: { ...inPath(o), query } })
    : client.GET('/v1/applications/{id}/stats', { params: { ...inPath(o), query } });

export const readSecret = (o: Owner) =>
  o.kind === 'webhooks'
    ? client.GET('/v1/webhooks/{id}/secret', { params: inPath(o) })
    : client.GET('/v1/applications/{id}/secret', { params: inPath(o) });

export const rotateSecret = (o: Owner) =>
  o.kind === 'webhooks'
    ? client.POST('/v1/webhooks/{id}/secret/rotate', { params: inPath(o) })
    : client.POST('/v1/applications/{id}/secret/rotate', { params: inPath(o) });
