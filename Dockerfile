# syntax=docker/dockerfile:1
# Jotline: web app, API and background jobs in one Node 20 process, run as an unprivileged user.
#   docker build -t jotline .
#   docker run --env-file .env -p 3000:3000 jotline
# See docs/deploy.md for the environment, migrations and running several instances.

# Every dependency, to build the web app.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime dependencies only (the server runs its TypeScript through tsx, a runtime dependency).
FROM node:20-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
# Voice notes are probed and decoded by Debian's ffmpeg (kept up to date by Debian's security updates).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY --from=build /app/dist/web ./dist/web
# DATA_DIR holds a SQLite database when DATABASE_URL is not set; owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: in-flight requests, texts and sends finish within 20 s (give it 30).
STOPSIGNAL SIGTERM
CMD ["node", "bin/jotline.mjs", "serve"]
