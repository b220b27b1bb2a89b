/** Builds every href the API returns (docs/api-rules.md#compatibility: /rest/v1 for applications, /v1 for webhooks). */
export class Hrefs {
  // The last environment and user href made: every item of a list names the same user and mostly
  // the same environment, so each list item reuses one string instead of building (and, in
  // JSON.stringify, flattening) its own.
  private environmentId: string | number | undefined;
  private environmentHref = '';
  private userId: string | number | undefined;
  private userHref = '';

  constructor(readonly base: string) {}
  application(id: string): string {
    return `${this.base}/rest/v1/applications/${id}`;
  }
  environment(id: string | number): string {
    if (id !== this.environmentId) {
      this.environmentHref = `${this.base}/rest/v1/environments/${id}`;
      this.environmentId = id;
    }
    return this.environmentHref;
  }
  user(id: string | number): string {
    if (id !== this.userId) {
      this.userHref = `${this.base}/rest/v1/users/${id}`;
      this.userId = id;
    }
    return this.userHref;
  }
  /** An address of an application: /rest/v1/applications/:id/addresses/:type/:value (as Tropo shows it). */
  address(applicationId: string, type: string, value: string): string {
    return `${this.application(applicationId)}/addresses/${type}/${value}`;
  }
  apiKey(id: string): string {
    return `${this.base}/v1/api-keys/${id}`;
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
  /** A session's record (the session inspector). */
  session(id: string): string {
    return `${this.base}/v1/sessions/${encodeURIComponent(id)}`;
  }
  recovery(id: string, taskId: string): string {
    return `${this.webhook(id)}/recoveries/${taskId}`;
  }
  /** The application-scoped form docs/api-rules.md#subscriptions shows in update responses (singular "application"). */
  applicationWebhook(appId: string, id: string): string {
    return `${this.base}/v1/application/${appId}/webhooks/${id}`;
  }
}
