/** Builds every href the API returns (docs/api-rules.md#compatibility: /rest/v1 for applications, /v1 for webhooks). */
export class Hrefs {
  constructor(readonly base: string) {}
  application(id: string): string {
    return `${this.base}/rest/v1/applications/${id}`;
  }
  environment(id: string | number): string {
    return `${this.base}/rest/v1/environments/${id}`;
  }
  user(id: string | number): string {
    return `${this.base}/rest/v1/users/${id}`;
  }
  /** An address of an application: /rest/v1/applications/:id/addresses/:type/:value (as Tropo shows it). */
  address(applicationId: string, type: string, value: string): string {
    return `${this.application(applicationId)}/addresses/${type}/${value}`;
  }
  webhook(id: string): string {
    return `${this.base}/v1/webhooks/${id}`;
  }
  /** One delivery attempt of a subscription (or a resend queued under that id). */
  webhookDelivery(id: string, deliveryId: string): string {
    return `${this.webhook(id)}/deliveries/${deliveryId}`;
  }
  /** One session delivery attempt of an application. */
  applicationDelivery(appId: string, deliveryId: string): string {
    return `${this.base}/v1/applications/${appId}/deliveries/${deliveryId}`;
  }
  recovery(id: string, taskId: string): string {
    return `${this.webhook(id)}/recoveries/${taskId}`;
  }
  /** The application-scoped form docs/api-rules.md#subscriptions shows in update responses (singular "application"). */
  applicationWebhook(appId: string, id: string): string {
    return `${this.base}/v1/application/${appId}/webhooks/${id}`;
  }
}
