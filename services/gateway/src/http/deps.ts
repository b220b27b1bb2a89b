import type { Logger } from '@switchboard/observability';
import type { AccountsClient, AddressesClient, ApplicationsClient, WebhooksClient } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';

/** What every route module needs. */
export interface RouteDeps {
  hrefs: Hrefs;
  accounts: AccountsClient;
  applications: ApplicationsClient;
  addresses: AddressesClient;
  webhooks: WebhooksClient;
  logger: Logger;
}
