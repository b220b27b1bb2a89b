// Paths built from ids the console was given (a route parameter of the page's address, a query
// parameter, a field of an answer): the API client (api.ts) percent-encodes every path parameter of a
// call, and `encodedPath` every id of a console link, so a crafted link such as
// /console/applications/x%2F..%2F..%2Fwebhooks%2Fwh_… can never make the page's Delete act on another
// resource; and the route parameters must have their kind's format, or the page is not found.
import { APPLICATION_ID, DELIVERY_ID, SUBSCRIPTION_ID } from '../../packages/events/src/ids.ts';

/** `encodedPath\`/applications/${id}\``: the literal parts as written, every value encoded. */
export function encodedPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let path = strings[0]!;
  values.forEach((v, i) => {
    path += encodeURIComponent(String(v)) + strings[i + 1]!;
  });
  return path;
}

/** The parameters of a page's path (`:id` and the like), by name, as the router matched them (routes.tsx). */
export type RouteParams = Record<string, string>;

/** The format of each kind of id a console address names. */
export const ID_FORMATS = {
  application: APPLICATION_ID,
  webhook: SUBSCRIPTION_ID,
  delivery: DELIVERY_ID,
  // Session ids come from the telephony core: 1 to 200 visible ASCII characters (the Session API's rule).
  session: /^[\x21-\x7e]{1,200}$/,
} as const;
