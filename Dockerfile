# Tally's image: `npm start` in a container. Build with `npm run image` (Docker or Podman), or
#   docker build -t tally:local .
# and run with `docker run -p 127.0.0.1:3000:3000 -v tally-data:/data tally:local` (demo mode, no
# settings needed; the login is printed). docs/operations/deployment.md#container-image has the details.
#
# NODE_IMAGE builds: any Debian-based image with Node 24 and npm where the public node images keep
# them (/usr/local). RUN_IMAGE runs: the same Debian release without Node, which gets the build
# stage's one `node` binary (npm, its headers and a compiler are build-time only: ~80 MB less).
# `TALLY_IMAGE_BASE=local npm run image` makes both from Debian's archive and the npm registry, for
# machines that reach no container registry.
ARG NODE_IMAGE=node:24-trixie-slim
ARG RUN_IMAGE=debian:trixie-slim

# ---- build: install every dependency, build, and pick the files the run stage needs
FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source wherever no prebuilt binary can be fetched.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Native modules build against the base's own Node headers (no download); no telemetry, no nagging.
ENV npm_config_nodedir=/usr/local \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false \
    NEXT_TELEMETRY_DISABLED=1
# Dependencies first, in a layer of their own: it is rebuilt only when the lockfile changes. Of the
# install scripts only better-sqlite3's (it compiles) and esbuild's (it checks its binary) are needed:
# Prisma's would fetch engines Tally does not use (engine "js"), and the project's postinstall (prisma
# generate) needs the sources, so it runs after they are copied. Behind a
# TLS-inspecting proxy, pass its CA as a build secret (`--secret id=ca,src=ca.pem`; npm run image does
# when NODE_EXTRA_CA_CERTS is set): it is used for this step only and never stored in the image.
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=ca \
    NODE_EXTRA_CA_CERTS=/run/secrets/ca npm ci --ignore-scripts \
 && npm rebuild better-sqlite3 esbuild \
 && node -e "require('better-sqlite3')(':memory:').close()"
COPY . .
RUN npx prisma generate \
 && npx prisma generate --schema prisma/postgres/schema.prisma \
 && npm run build \
 && node scripts/image-files.mjs /out

# ---- run: Node, the built server and the traced run-time files; no npm, no compiler, no sources
FROM ${RUN_IMAGE}
COPY --from=build /usr/local/bin/node /usr/local/bin/node
# One volume holds all state: the SQLite file and the body store (with PostgreSQL or S3, only what is
# left of it). The server runs as an unprivileged user that owns /data and nothing else.
RUN groupadd --system --gid 10001 tally \
 && useradd --system --uid 10001 --gid tally --home-dir /data --no-create-home --shell /usr/sbin/nologin tally \
 && mkdir /data \
 && chown tally:tally /data
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATABASE_URL=file:/data/tally.db \
    TALLY_BODY_STORE=file:/data/bodies
WORKDIR /app
COPY --from=build /out /app
USER tally
VOLUME ["/data"]
EXPOSE 3000
# Readiness, not mere liveness: the container is healthy when it would take traffic (database answers,
# migrations current, body store writable, not stopping), which is what `depends_on: service_healthy`
# waits for. Node's fetch: the image has no curl. Six misses (30 s) before unhealthy cover the start:
# migrations and Next's start-up take a few seconds (no --start-period: dockerfilelint 1.8 rejects it).
HEALTHCHECK --interval=5s --timeout=4s --retries=6 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/ready`).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The migrations (`npm start`'s prestart, without its rebuild), then the server as PID 1: `exec` hands
# it the shell's place, and it handles SIGTERM itself (drains, exits 0 within TALLY_SHUTDOWN_GRACE_MS).
# The worker: `node .next/tally-worker.mjs` (what `npm run worker` runs).
CMD ["sh", "-c", "node .next/tally-prepare.mjs && exec node .next/tally-server.mjs"]
