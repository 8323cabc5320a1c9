# syntax=docker/dockerfile:1
# One Hub in one image: the gateway and its console on port 3000, data in the /app/data volume.
#   docker build -t one-hub .
#   docker run -d -p 3000:3000 -v one-hub-data:/app/data one-hub
# The steps are the commands CI runs (.ci/run): `npm ci`, then `npm run build`.

ARG NODE_IMAGE=node:20.20-bookworm-slim

# What installing packages needs: a compiler for better-sqlite3 when no prebuilt binary fits, and
# the npm CI uses (npm 10, which Node 20 ships, ignores the allowScripts list in package.json and
# would run the install scripts it denies).
FROM ${NODE_IMAGE} AS install
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
RUN npm install -g npm@11.19.1
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/

# Every package, development tools included, to build the server bundle and the console.
FROM install AS build
RUN npm ci
COPY . .
RUN npm run build

# The server's run-time packages only: no development tools (--omit=dev), nor packages that are
# only optional peers of run-time ones (--omit=optional: TypeScript, an optional peer of i18next,
# and pg's Cloudflare socket). better-sqlite3 keeps its compiled binding, not the SQLite sources
# and object files it was built from.
FROM install AS server-packages
RUN npm ci --omit=dev --omit=optional --workspace apps/server \
  && cd node_modules/better-sqlite3 \
  && rm -rf deps src build/Release/obj build/Release/obj.target build/Release/.deps build/Release/sqlite3.a \
    build/Release/test_extension.node

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=server-packages /app ./
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY scripts/backup.mjs scripts/command-line.mjs scripts/commands.mjs scripts/
RUN mkdir -p data && chown node:node data
USER node
VOLUME /app/data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/api/status`).then((answer) => process.exit(answer.ok ? 0 : 1), () => process.exit(1))"]
# The built server with the memory flags `npm start` passes (docs/configuration.md, "Memory"); node, not npm, is
# process 1, so `docker stop`'s SIGTERM reaches the server and it shuts down gracefully.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=20", "apps/server/dist/main.js"]
