# syntax=docker/dockerfile:1
# The image of every Switchboard service, chosen with the build argument SERVICE (gateway,
# applications, webhooks, dispatcher). Build from the repository root (the image needs the
# workspace root, packages/ and proto/):
#   docker build --build-arg SERVICE=gateway -t switchboard/gateway:dev .
#   docker build --build-arg SERVICE=applications -t switchboard/applications:dev .
#   docker build --build-arg SERVICE=webhooks -t switchboard/webhooks:dev .
#   docker build --build-arg SERVICE=dispatcher -t switchboard/dispatcher:dev .
# The gateway's image also holds the built console (console/dist, served under /console/) and the
# one file of @scalar/api-reference that /docs serves (its standalone bundle, a devDependency).
# The image runs the service compiled to JavaScript (npm run build's output for that service and
# the workspace packages it imports) with plain node, as uid 1000: node dist/main.js. The
# applications and webhooks images also run their migrations: node dist/migrate.js. Neither
# TypeScript nor tsx is in the image; Kubernetes runs it with a read-only root filesystem.
ARG NODE_IMAGE=node:24-bookworm-slim
ARG SERVICE

# 1. The npm manifests alone, so the dependency layer below is rebuilt only when one changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages ./packages
COPY services ./services
COPY console/package.json ./console/package.json
RUN mkdir -p /manifests \
 && cp package.json package-lock.json /manifests/ \
 && for f in packages/*/package.json services/*/package.json console/package.json; do \
      mkdir -p "/manifests/$(dirname "$f")" && cp "$f" "/manifests/$f"; \
    done

# 2. The manifests, where npm installs the dependencies of the two stages below.
FROM ${NODE_IMAGE} AS npm
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY --from=manifests /manifests/ ./

# 3. Compiles the service and the workspace packages it references (tsc -b of its
#    tsconfig.build.json), with every dependency installed, TypeScript and the @types included.
#    /out receives the compiled dist/ folders alone (no declarations, no build info).
FROM npm AS build
ARG SERVICE
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts
COPY tsconfig.base.json tsconfig.emit.json tsconfig.build.json ./
COPY proto ./proto
COPY packages ./packages
COPY services/${SERVICE} ./services/${SERVICE}
COPY console ./console
RUN node_modules/.bin/tsc -b services/${SERVICE}/tsconfig.build.json \
 && if [ "${SERVICE}" = gateway ]; then (cd console && ../node_modules/.bin/vite build --logLevel warn) \
      && mkdir -p /out/node_modules/@scalar/api-reference/dist/browser \
      && cp node_modules/@scalar/api-reference/package.json /out/node_modules/@scalar/api-reference/ \
      && cp node_modules/@scalar/api-reference/dist/browser/standalone.js /out/node_modules/@scalar/api-reference/dist/browser/; fi \
 && for d in packages/*/dist services/${SERVICE}/dist console/dist; do \
      if [ -d "$d" ]; then mkdir -p "/out/$d" && cp -R "$d/." "/out/$d/"; fi; \
    done \
 && find /out \( -name '*.d.ts' -o -name '.tsbuildinfo' \) -delete

# 4. Production dependencies of the service's workspace and of the workspace packages it uses,
#    the compiled JavaScript, and the .proto files loaded at run time.
FROM npm AS deps
ARG SERVICE
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --workspace @switchboard/${SERVICE} --include-workspace-root=false
COPY proto ./proto
COPY --from=build /out/ ./

# 5. Runtime: the tree above, owned by root and read-only to the service's user.
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
CMD ["node", "dist/main.js"]

# 6. What differs by service: its ports, and the health check of its operations port.
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
