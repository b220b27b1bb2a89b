// The OpenAPI 3.1 description of the public API, served at /openapi.json. Integration tests validate
// every response they receive against it, so it cannot drift from what the gateway answers.

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });

const problemResponse = (description: string, headers: Schema = {}): Schema => ({
  description,
  headers,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

const errors = {
  '400': problemResponse('Invalid request: malformed JSON, wrong types, missing or invalid fields.'),
  '401': problemResponse('No or bad credentials.', { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Basic realm="switchboard"' } }),
  '404': problemResponse('Unknown id, or a resource of another account.'),
  '405': problemResponse('Method not allowed on this path.', { Allow: { schema: { type: 'string' } } }),
  '409': problemResponse('A limit was reached (`limit_exceeded`) or the change conflicts (`conflict`).'),
  '413': problemResponse('Request body over the size limit.'),
  '415': problemResponse('POST/PUT without Content-Type: application/json.'),
  '429': problemResponse('Rate limited or locked out after failed logins.', { 'Retry-After': { schema: { type: 'string' } } }),
  '500': problemResponse('Unexpected error; quote the X-Request-Id.'),
  '503': problemResponse('A dependency is unavailable; retry. Nothing was half-written.', { 'Retry-After': { schema: { type: 'string' } } }),
};

type Status = keyof typeof errors;
const pick = (...codes: Status[]) => Object.fromEntries(codes.map((c) => [c, errors[c]]));
const readErrors = pick('401', '404', '405', '429', '500', '503');
const writeErrors = pick('400', '401', '404', '405', '409', '413', '415', '429', '500', '503');

const json = (schema: Schema, description: string, headers: Schema = {}): Schema => ({
  description,
  headers,
  content: { 'application/json': { schema } },
});
const listHeaders = { Link: { schema: { type: 'string' }, description: 'RFC 8288 link to the next page: <...>; rel="next"' } };
const hrefHeaders = { Location: { schema: { type: 'string', format: 'uri' } } };
const pathId = (name: string, description: string): Schema => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
const listParams: Schema[] = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
  { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'From the `Link` header of the previous page.' },
];
const webhookFilters: Schema[] = [
  { name: 'event', in: 'query', schema: ref('WebhookEvent') },
  { name: 'resource', in: 'query', schema: { type: 'string', enum: ['call', 'sms', 'transcription', 'all'] } },
];
const jsonBody = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });

const schemas: Record<string, Schema> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', pattern: '^urn:switchboard:problem:[a-z_]+$' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      code: {
        type: 'string',
        enum: ['invalid_request', 'unauthenticated', 'not_found', 'method_not_allowed', 'conflict', 'limit_exceeded', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'unavailable', 'internal'],
      },
      errors: {
        type: 'array',
        items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } }, additionalProperties: false },
      },
      instance: { type: 'string' },
    },
    additionalProperties: false,
  },
  Href: { type: 'object', required: ['href'], properties: { href: { type: 'string', format: 'uri' } }, additionalProperties: false },
  Message: { type: 'object', required: ['message'], properties: { message: { type: 'string' } }, additionalProperties: false },
  ApiType: { type: 'string', enum: ['scripting', 'webapi'] },
  Application: {
    type: 'object',
    required: ['href', 'id', 'name', 'environment', 'apiType', 'platform', 'userId', 'user'],
    anyOf: [{ required: ['voiceUrl'] }, { required: ['messagingUrl'] }],
    properties: {
      href: { type: 'string', format: 'uri' },
      id: { type: 'string' },
      name: { type: 'string' },
      voiceUrl: { type: 'string', format: 'iri' },
      messagingUrl: { type: 'string', format: 'iri' },
      environment: { type: 'string', format: 'uri', description: 'URL of the environment resource.' },
      apiType: ref('ApiType'),
      platform: { ...ref('ApiType'), description: 'Same value as apiType.' },
      userId: { type: 'integer' },
      user: { type: 'string', format: 'uri' },
      partition: { type: 'string', description: 'Only on applications created before environments existed.' },
    },
    additionalProperties: false,
  },
  ApplicationWrite: {
    type: 'object',
    description: 'Unknown fields are ignored; null means "not given". On PUT, fields left out stay unchanged.',
    properties: {
      name: nullable('string', { maxLength: 255 }),
      voiceUrl: nullable('string', { description: 'Absolute http(s) URL; an empty string clears it on PUT.' }),
      messagingUrl: nullable('string'),
      environment: { type: ['string', 'integer', 'null'], description: 'Environment id or environment URL.' },
      apiType: nullable('string', { description: 'scripting or webapi, any case. Default scripting.' }),
      platform: nullable('string', { description: 'Legacy alias of apiType.' }),
      partition: nullable('string', { description: 'Legacy: staging or production, used when environment is absent.' }),
    },
  },
  Environment: {
    type: 'object',
    required: ['href', 'id', 'name', 'billable'],
    properties: { href: { type: 'string', format: 'uri' }, id: { type: 'integer' }, name: { type: 'string' }, billable: { type: 'boolean' } },
    additionalProperties: false,
  },
  User: {
    type: 'object',
    required: ['href', 'id', 'username', 'createdAt'],
    properties: { href: { type: 'string', format: 'uri' }, id: { type: 'integer' }, username: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
    additionalProperties: false,
  },
  WebhookEvent: { type: 'string', enum: ['smsdlr', 'cdrCreated', 'cdrRated'] },
  Webhook: {
    type: 'object',
    required: ['href', 'id', 'event', 'resource', 'targetUrl', 'enabled', 'accountId', 'createdAt', 'updatedAt', 'consecutiveFailures', 'lastAttemptAt', 'lastStatus', 'disabledReason'],
    properties: {
      href: { type: 'string', format: 'uri' },
      id: { type: 'string' },
      name: { type: 'string' },
      event: ref('WebhookEvent'),
      resource: { type: 'string', description: 'Comma-separated, normalised: call, sms, transcription, or all.' },
      targetUrl: { type: 'string', format: 'iri' },
      payload: { type: 'object', description: 'Present only if set.' },
      enabled: { type: 'boolean' },
      accountId: { type: 'string' },
      applicationId: { type: 'string', description: 'Only on application-level subscriptions.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      consecutiveFailures: { type: 'integer', minimum: 0 },
      lastAttemptAt: nullable('string', { format: 'date-time' }),
      lastStatus: nullable('integer'),
      disabledReason: nullable('string'),
    },
    additionalProperties: false,
  },
  WebhookCreate: {
    type: 'object',
    required: ['event', 'resource', 'targetUrl'],
    properties: {
      event: ref('WebhookEvent'),
      resource: { type: 'string', examples: ['sms', 'call,sms', 'all'] },
      targetUrl: { type: 'string', format: 'uri' },
      name: { type: 'string' },
      payload: { type: 'object' },
      enabled: { type: 'boolean', default: true },
    },
  },
  WebhookUpdate: {
    type: 'object',
    description: 'Fields sent replace the stored values; `event` cannot change (409).',
    properties: {
      resource: { type: 'string' },
      targetUrl: { type: 'string', format: 'uri' },
      name: { type: 'string' },
      payload: { type: 'object' },
      enabled: { type: 'boolean' },
      event: { ...ref('WebhookEvent'), description: 'Accepted only when unchanged.' },
    },
  },
  WebhookCreated: {
    type: 'object',
    required: ['href', 'secret'],
    properties: { href: { type: 'string', format: 'uri' }, secret: { type: 'string', pattern: '^whsec_' } },
    additionalProperties: false,
  },
  Secret: { type: 'object', required: ['secret'], properties: { secret: { type: 'string', pattern: '^whsec_' } }, additionalProperties: false },
  Delivery: {
    type: 'object',
    required: ['id', 'messageId', 'kind', 'event', 'targetUrl', 'attempt', 'statusCode', 'durationMs', 'error', 'outcome', 'createdAt'],
    properties: {
      id: { type: 'string' },
      messageId: { type: 'string', description: 'The webhook-id header; the same on every attempt of one message.' },
      kind: { type: 'string', enum: ['session', 'notification'] },
      subscriptionId: { type: 'string' },
      applicationId: { type: 'string' },
      event: { type: 'string' },
      targetUrl: { type: 'string' },
      attempt: { type: 'integer', minimum: 1 },
      statusCode: nullable('integer'),
      durationMs: { type: 'integer', minimum: 0 },
      error: nullable('string'),
      outcome: { type: 'string', enum: ['succeeded', 'retrying', 'failed'] },
      createdAt: { type: 'string', format: 'date-time' },
    },
    additionalProperties: false,
  },
};

function webhookPaths(prefix: string, level: 'account' | 'application'): Record<string, Schema> {
  const appParam = level === 'application' ? [pathId('appId', 'Application id.')] : [];
  const tag = level === 'account' ? 'Webhooks' : 'Application webhooks';
  const what = level === 'account' ? 'account-level' : 'application-level';
  return {
    [`${prefix}/webhooks`]: {
      parameters: appParam,
      get: { tags: [tag], summary: `List ${what} subscriptions`, operationId: `list${level}Webhooks`, parameters: [...listParams, ...webhookFilters], responses: { '200': json({ type: 'array', items: ref('Webhook') }, 'Subscriptions.', listHeaders), ...pick('400'), ...readErrors } },
      post: { tags: [tag], summary: `Create an ${what} subscription`, operationId: `create${level}Webhook`, requestBody: jsonBody(ref('WebhookCreate')), responses: { '200': json(ref('WebhookCreated'), 'Created; the secret is shown once here and at /secret.', hrefHeaders), ...writeErrors } },
    },
    [`${prefix}/webhooks/{id}`]: {
      parameters: [...appParam, pathId('id', 'Subscription id.')],
      get: { tags: [tag], summary: 'Show a subscription', operationId: `get${level}Webhook`, responses: { '200': json(ref('Webhook'), 'The subscription.'), ...readErrors } },
      put: { tags: [tag], summary: 'Update a subscription', operationId: `update${level}Webhook`, requestBody: jsonBody(ref('WebhookUpdate')), responses: { '200': json(ref('Href'), 'Updated.', hrefHeaders), ...writeErrors } },
      delete: { tags: [tag], summary: 'Delete a subscription', operationId: `delete${level}Webhook`, responses: { '200': json(ref('Message'), 'Deleted.'), ...readErrors } },
    },
  };
}

export function buildOpenApi(baseUrl: string): Record<string, unknown> {
  const applicationPaths = (prefix: string, op: string): Record<string, Schema> => ({
    [`${prefix}/applications`]: {
      get: { tags: ['Applications'], summary: 'List applications', operationId: `list${op}Applications`, parameters: listParams, responses: { '200': json({ type: 'array', items: ref('Application') }, 'Applications in creation order.', listHeaders), ...pick('400'), ...readErrors } },
      post: { tags: ['Applications'], summary: 'Create an application', operationId: `create${op}Application`, requestBody: jsonBody(ref('ApplicationWrite')), responses: { '200': json(ref('Href'), 'Created.', hrefHeaders), ...writeErrors } },
    },
    [`${prefix}/applications/{id}`]: {
      parameters: [pathId('id', 'Application id.')],
      get: { tags: ['Applications'], summary: 'Show an application', operationId: `get${op}Application`, responses: { '200': json(ref('Application'), 'The application.'), ...readErrors } },
      put: { tags: ['Applications'], summary: 'Update an application', operationId: `update${op}Application`, requestBody: jsonBody(ref('ApplicationWrite')), responses: { '200': json(ref('Href'), 'Updated.', hrefHeaders), ...writeErrors } },
      delete: { tags: ['Applications'], summary: 'Delete an application', operationId: `delete${op}Application`, responses: { '200': json(ref('Message'), 'Deleted.'), ...readErrors } },
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description:
        'Applications, webhook subscriptions and session delivery, compatible with the Tropo REST API v1. Paths work with and without a trailing slash; /rest/v1 serves the same resources as /v1 (application, environment and user hrefs use it).',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Switchboard' },
    },
    servers: [{ url: baseUrl }],
    security: [{ basic: [] }],
    tags: [
      { name: 'Applications', description: 'SPEC 4.1' },
      { name: 'Webhooks', description: 'Account-level subscriptions, and any subscription by id (SPEC 4.2)' },
      { name: 'Application webhooks', description: 'Application-level subscriptions (SPEC 4.2)' },
      { name: 'Deliveries', description: 'Delivery attempts and signing secrets (CONTRACTS 5, 6)' },
      { name: 'Linked resources', description: 'Resources that hrefs point to' },
    ],
    paths: {
      ...applicationPaths('/v1', ''),
      ...applicationPaths('/rest/v1', 'Rest'),
      ...webhookPaths('/v1', 'account'),
      ...webhookPaths('/v1/applications/{appId}', 'application'),
      '/v1/application/{appId}/webhooks/{id}': {
        parameters: [pathId('appId', 'Application id.'), pathId('id', 'Subscription id.')],
        get: { tags: ['Application webhooks'], summary: 'Show a subscription (the singular form returned by updates)', operationId: 'getSingularApplicationWebhook', responses: { '200': json(ref('Webhook'), 'The subscription.'), ...readErrors } },
        put: { tags: ['Application webhooks'], summary: 'Update a subscription (singular form)', operationId: 'updateSingularApplicationWebhook', requestBody: jsonBody(ref('WebhookUpdate')), responses: { '200': json(ref('Href'), 'Updated.', hrefHeaders), ...writeErrors } },
        delete: { tags: ['Application webhooks'], summary: 'Delete a subscription (singular form)', operationId: 'deleteSingularApplicationWebhook', responses: { '200': json(ref('Message'), 'Deleted.'), ...readErrors } },
      },
      '/v1/webhooks/{id}/secret': {
        parameters: [pathId('id', 'Subscription id.')],
        get: { tags: ['Deliveries'], summary: "Read a subscription's signing secret", operationId: 'getWebhookSecret', responses: { '200': json(ref('Secret'), 'The current secret.'), ...readErrors } },
      },
      '/v1/webhooks/{id}/secret/rotate': {
        parameters: [pathId('id', 'Subscription id.')],
        post: { tags: ['Deliveries'], summary: 'Rotate the signing secret (the old one stays valid 24 h)', operationId: 'rotateWebhookSecret', responses: { '200': json(ref('Secret'), 'The new secret.'), ...writeErrors } },
      },
      '/v1/webhooks/{id}/deliveries': {
        parameters: [pathId('id', 'Subscription id.')],
        get: { tags: ['Deliveries'], summary: 'Delivery attempts of a subscription, newest first', operationId: 'listWebhookDeliveries', parameters: listParams, responses: { '200': json({ type: 'array', items: ref('Delivery') }, 'Attempts.', listHeaders), ...pick('400'), ...readErrors } },
      },
      '/v1/applications/{id}/deliveries': {
        parameters: [pathId('id', 'Application id.')],
        get: { tags: ['Deliveries'], summary: 'Session delivery attempts of an application, newest first', operationId: 'listApplicationDeliveries', parameters: listParams, responses: { '200': json({ type: 'array', items: ref('Delivery') }, 'Attempts.', listHeaders), ...pick('400'), ...readErrors } },
      },
      '/rest/v1/environments/{id}': {
        parameters: [pathId('id', 'Environment id: 1 Production, 2 Development.')],
        get: { tags: ['Linked resources'], summary: 'Show an environment', operationId: 'getEnvironment', responses: { '200': json(ref('Environment'), 'The environment.'), ...readErrors } },
      },
      '/rest/v1/users/{id}': {
        parameters: [pathId('id', 'User id; only your own.')],
        get: { tags: ['Linked resources'], summary: 'Show your user', operationId: 'getUser', responses: { '200': json(ref('User'), 'The user of the credentials.'), ...readErrors } },
      },
    },
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'Account username and password.' } },
      schemas,
    },
  };
}
