# syntax=docker/dockerfile:1
# The image of every Switchboard service, chosen with the build argument SERVICE (gateway,
# applications, webhooks, dispatcher). Build from the repository root (the image needs the
# workspace root, packages/ and proto/):
#   docker build --build-arg SERVICE=gateway -t switchboard/gateway:dev .
#   docker build --build-arg SERVICE=applications -t switchboard/applications:dev .
#   docker build --build-arg SERVICE=webhooks -t switchboard/webhooks:dev .
#   docker build --build-arg SERVICE=dispatcher -t switchboard/dispatcher:dev .
# The applications and webhooks images also run their migrations: node --import tsx src/migrate.ts
# (= npx tsx src/migrate.ts). Runs the TypeScript sources with tsx (a runtime dependency) as uid 1000;
# Kubernetes runs it with a read-only root filesystem and an emptyDir at /tmp (tsx's cache).
ARG NODE_IMAGE=node:24-bookworm-slim
ARG SERVICE

# 1. The npm manifests alone, so the dependency layer below is rebuilt only when one changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages ./packages
COPY services ./services
RUN mkdir -p /manifests \
 && cp package.json package-lock.json /manifests/ \
 && for f in packages/*/package.json services/*/package.json; do \
      mkdir -p "/manifests/$(dirname "$f")" && cp "$f" "/manifests/$f"; \
    done

# 2. Production dependencies of the service's workspace and of the workspace packages it uses.
FROM ${NODE_IMAGE} AS deps
ARG SERVICE
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY --from=manifests /manifests/ ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --workspace @switchboard/${SERVICE} --include-workspace-root=false
# Sources: shared packages, the .proto files loaded at run time, and the service.
COPY proto ./proto
COPY packages ./packages
COPY services/${SERVICE} ./services/${SERVICE}

# 3. Runtime: the tree above, owned by root and read-only to the service's user.
FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
LABEL org.opencontainers.image.title="switchboard-${SERVICE}" \
      org.opencontainers.image.description="Switchboard ${SERVICE} service"
ENV NODE_ENV=production
COPY --from=deps /app /app
WORKDIR /app/services/${SERVICE}
# The image's "node" user, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# One process (no npm/npx wrapper), so SIGTERM reaches the service's own drain handler.
CMD ["node", "--import", "tsx", "src/main.ts"]

# 4. What differs by service: its ports, and the health check of its operations port.
# The public HTTP API (Express 5) on 8080; /healthz, /readyz and /metrics on the operations port 8084.
FROM runtime AS gateway
# The operations port (/healthz, /readyz, /metrics) the manifests and Prometheus use.
ENV OPS_PORT=8084
EXPOSE 8080 8084
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 8084) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# gRPC server for accounts and applications; ops HTTP server on 8081.
FROM runtime AS applications
EXPOSE 50051 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 8081) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# gRPC server for webhook subscriptions; ops HTTP server on 8082.
FROM runtime AS webhooks
EXPOSE 50052 8082
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 8082) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Delivers sessions and webhook notifications from NATS JetStream; ops HTTP server on 8083.
FROM runtime AS dispatcher
EXPOSE 8083
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 8083) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The image: the stage of the service named by SERVICE.
FROM ${SERVICE}
