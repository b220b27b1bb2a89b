// What the deploy files assume about the services: names, ports, environment variables and metric
// names. Service code must honour these (they come from the system design and docs/api-rules.md#configuration);
// the deploy tests check every manifest, alert and dashboard against them.

export const SERVICE_NAMES = ['gateway', 'applications', 'webhooks', 'dispatcher'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceSpec {
  /** Container ports by name. */
  ports: Record<string, number>;
  /** The port serving /healthz, /readyz and /metrics. */
  opsPort: number;
  /** The gRPC port, when the service serves gRPC (liveness is a gRPC health probe on it). */
  grpcPort?: number;
  /** Environment variables the service reads; nothing else may be set on its containers. */
  env: readonly string[];
  /** Variables a Kubernetes Deployment of the service must set. */
  requiredEnv: readonly string[];
  /** Which env variable carries which named port. */
  portEnv: Record<string, string>;
}

const COMMON_ENV = ['LOG_LEVEL', 'NODE_ENV'] as const;

/**
 * What the gRPC services with a database of their own (applications, webhooks) both read: their
 * ports, database and NATS (with its own NATS user and the INTERNAL_RPC_TOKEN of its internal RPCs
 * in prod), migrations, stream replicas, the allowed delivery CIDRs and the SECRETS_KEY.
 */
const DATABASE_SERVICE_ENV = [
  'GRPC_PORT',
  'OPS_PORT',
  'DATABASE_URL',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'INTERNAL_RPC_TOKEN',
  'MIGRATE_ON_START',
  'NATS_STREAM_REPLICAS',
  'DELIVERY_ALLOWED_CIDRS',
  'SECRETS_KEY',
  ...COMMON_ENV,
] as const;
/** What a Deployment of either of them must set. */
const DATABASE_SERVICE_REQUIRED_ENV = [
  'GRPC_PORT',
  'OPS_PORT',
  'DATABASE_URL',
  'NATS_URL',
  'MIGRATE_ON_START',
  'SECRETS_KEY',
];

/** The ports of a gRPC service with a database (applications, webhooks), and the variables that carry them. */
const grpcServicePorts = (grpc: number, ops: number) => ({
  ports: { grpc, ops },
  opsPort: ops,
  grpcPort: grpc,
  portEnv: { GRPC_PORT: 'grpc', OPS_PORT: 'ops' },
});

export const SERVICES: Record<ServiceName, ServiceSpec> = {
  gateway: {
    ports: { http: 8080, ops: 8084 },
    opsPort: 8084,
    // TRUSTED_PROXIES: the ingress controller's pods, whose X-Forwarded-For names the client.
    env: [
      'PORT',
      'OPS_PORT',
      'PUBLIC_BASE_URL',
      'APPLICATIONS_GRPC_URL',
      'WEBHOOKS_GRPC_URL',
      'TRUSTED_PROXIES',
      'NATS_URL',
      'NATS_USER',
      'NATS_PASSWORD',
      // Replicas of the bucket of the shared limits (SWITCHBOARD_LIMITS).
      'NATS_STREAM_REPLICAS',
      // The applications service's GATEWAY_RPC_TOKEN, for its account and credential RPCs (prod).
      'APPLICATIONS_RPC_TOKEN',
      ...COMMON_ENV,
    ],
    requiredEnv: ['PORT', 'OPS_PORT', 'PUBLIC_BASE_URL', 'APPLICATIONS_GRPC_URL', 'WEBHOOKS_GRPC_URL', 'NATS_URL'],
    portEnv: { PORT: 'http', OPS_PORT: 'ops' },
  },
  applications: {
    ...grpcServicePorts(50051, 8081),
    // DELIVERY_ALLOWED_CIDRS: application URLs are checked against it at create/update.
    // SECRETS_KEY: from the Secret switchboard-secrets-key, seals the session secrets at rest.
    // INTERNAL_RPC_TOKEN: the token LookupApplication requires (prod).
    env: [
      ...DATABASE_SERVICE_ENV,
      // The token its account and credential RPCs require: the gateway's alone (prod).
      'GATEWAY_RPC_TOKEN',
    ],
    requiredEnv: DATABASE_SERVICE_REQUIRED_ENV,
  },
  webhooks: {
    ...grpcServicePorts(50052, 8082),
    // DELIVERY_ALLOWED_CIDRS: target URLs are checked against it at create/update (docs/events.md#delivery).
    // SECRETS_KEY: from the Secret switchboard-secrets-key, seals the subscription secrets at rest.
    // INTERNAL_RPC_TOKEN: the token MatchSubscriptions and GetDeliveryTarget require (prod).
    env: [
      ...DATABASE_SERVICE_ENV,
      'APPLICATIONS_GRPC_URL',
      // DELIVERY_DISABLE_AFTER and PUBLIC_BASE_URL: the webhookDisabled event (docs/events.md#webhook-disabled).
      'DELIVERY_DISABLE_AFTER',
      'PUBLIC_BASE_URL',
    ],
    requiredEnv: [...DATABASE_SERVICE_REQUIRED_ENV, 'APPLICATIONS_GRPC_URL'],
  },
  dispatcher: {
    ports: { ops: 8083 },
    opsPort: 8083,
    env: [
      'OPS_PORT',
      'NATS_URL',
      // Its NATS user, and the internal RPC tokens of the applications and webhooks services (prod).
      'NATS_USER',
      'NATS_PASSWORD',
      'APPLICATIONS_RPC_TOKEN',
      'WEBHOOKS_RPC_TOKEN',
      'APPLICATIONS_GRPC_URL',
      'WEBHOOKS_GRPC_URL',
      'DELIVERY_TIMEOUT_MS',
      'DELIVERY_RETRY_SCHEDULE',
      'DELIVERY_ALLOWED_CIDRS',
      'NATS_STREAM_REPLICAS',
      'SESSION_DEADLINE_MS',
      'SESSION_TIMEOUT_MS',
      ...COMMON_ENV,
    ],
    requiredEnv: ['OPS_PORT', 'NATS_URL', 'APPLICATIONS_GRPC_URL', 'WEBHOOKS_GRPC_URL'],
    portEnv: { OPS_PORT: 'ops' },
  },
};

/** Secrets created by hand before the first release (deploy/README.md), by name, with their keys. */
export const RELEASE_SECRETS: Record<string, readonly string[]> = {
  'switchboard-secrets-key': ['key'],
  // Each service's NATS password (prod).
  'switchboard-nats-users': ['applications', 'webhooks', 'dispatcher', 'core', 'gateway'],
  // The tokens of the RPCs that answer signing secrets, by serving service (prod).
  'switchboard-internal-rpc': ['applications', 'webhooks', 'gateway'],
};

/** Variables a migration Job (src/migrate.ts of applications or webhooks) may set. */
export const MIGRATION_ENV = ['DATABASE_URL', 'SECRETS_KEY', 'LOG_LEVEL', 'NODE_ENV'] as const;

/** Variables the third-party containers of the manifests may set, by image repository. */
export const INFRA_ENV: Record<string, readonly string[]> = {
  // $SERVER_NAME is referenced by nats.conf; GOMEMLIMIT is read by the Go runtime.
  // NATS_*_PASSWORD: the services' passwords, referenced by the prod nats.conf.
  nats: [
    'SERVER_NAME',
    'GOMEMLIMIT',
    'NATS_APPLICATIONS_PASSWORD',
    'NATS_WEBHOOKS_PASSWORD',
    'NATS_DISPATCHER_PASSWORD',
    'NATS_CORE_PASSWORD',
    'NATS_GATEWAY_PASSWORD',
  ],
  // The official image's entrypoint.
  postgres: ['POSTGRES_DB', 'POSTGRES_USER', 'POSTGRES_PASSWORD', 'PGDATA'],
};

/** Which Switchboard service an image runs ("registry/switchboard/gateway:1.0.0" -> gateway). */
export function serviceOfImage(image: string): ServiceName | undefined {
  const m = /(?:^|\/)switchboard[/-](gateway|applications|webhooks|dispatcher)(?::[^/]*|@sha256:[0-9a-f]+)?$/.exec(
    image,
  );
  return m ? (m[1] as ServiceName) : undefined;
}

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** Metrics the services export (prom-client, one registry per service). Labels in declaration order. */
export const METRICS: Record<string, { type: MetricType; labels: readonly string[]; service: ServiceName }> = {
  gateway_http_requests_total: { type: 'counter', labels: ['method', 'route', 'status'], service: 'gateway' },
  gateway_http_request_duration_seconds: {
    type: 'histogram',
    labels: ['method', 'route', 'status'],
    service: 'gateway',
  },
  gateway_grpc_client_calls_total: { type: 'counter', labels: ['service', 'method', 'code'], service: 'gateway' },
  gateway_grpc_client_duration_seconds: { type: 'histogram', labels: ['service', 'method'], service: 'gateway' },
  gateway_auth_cache_hits_total: { type: 'counter', labels: [], service: 'gateway' },
  gateway_table_bytes: { type: 'gauge', labels: ['table'], service: 'gateway' },
  gateway_auth_failures_total: { type: 'counter', labels: [], service: 'gateway' },
  gateway_auth_requests_total: { type: 'counter', labels: ['credential', 'outcome'], service: 'gateway' },
  gateway_shared_limits_up: { type: 'gauge', labels: [], service: 'gateway' },
  applications_grpc_server_handled_total: { type: 'counter', labels: ['method', 'code'], service: 'applications' },
  applications_grpc_server_duration_seconds: { type: 'histogram', labels: ['method'], service: 'applications' },
  webhooks_grpc_server_handled_total: { type: 'counter', labels: ['method', 'code'], service: 'webhooks' },
  webhooks_grpc_server_duration_seconds: { type: 'histogram', labels: ['method'], service: 'webhooks' },
  webhooks_delivery_outcomes_total: { type: 'counter', labels: ['outcome'], service: 'webhooks' },
  webhooks_delivery_outcomes_top: { type: 'gauge', labels: ['account', 'outcome'], service: 'webhooks' },
  webhooks_alerts_total: { type: 'counter', labels: ['code'], service: 'webhooks' },
  dispatcher_deliveries_total: { type: 'counter', labels: ['kind', 'outcome'], service: 'dispatcher' },
  dispatcher_attempt_duration_seconds: { type: 'histogram', labels: ['kind'], service: 'dispatcher' },
  dispatcher_retries_scheduled_total: { type: 'counter', labels: ['kind'], service: 'dispatcher' },
  dispatcher_breakers: { type: 'gauge', labels: ['state'], service: 'dispatcher' },
  dispatcher_consumer_pending: { type: 'gauge', labels: ['consumer'], service: 'dispatcher' },
  dispatcher_retries_waiting: { type: 'gauge', labels: [], service: 'dispatcher' },
  dispatcher_stream_used_ratio: { type: 'gauge', labels: ['stream'], service: 'dispatcher' },
  dispatcher_messages_terminated_total: { type: 'counter', labels: ['subject'], service: 'dispatcher' },
  dispatcher_delivery_backlog_fullest_ratio: { type: 'gauge', labels: [], service: 'dispatcher' },
  dispatcher_deliveries_ended_total: { type: 'counter', labels: ['reason'], service: 'dispatcher' },
};

/** Label values the alerts and dashboards match on. */
export const LABEL_VALUES = {
  'dispatcher_deliveries_total.kind': ['session', 'notification'],
  'dispatcher_deliveries_total.outcome': ['succeeded', 'retrying', 'failed'],
  'webhooks_delivery_outcomes_total.outcome': ['succeeded', 'retrying', 'failed'],
  'dispatcher_breakers.state': ['closed', 'open', 'half_open'],
  'gateway_auth_requests_total.credential': ['password', 'key', 'session'],
  'gateway_auth_requests_total.outcome': ['ok', 'unauthenticated', 'forbidden', 'rate_limited', 'error'],
} as const;
