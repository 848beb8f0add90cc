# syntax=docker/dockerfile:1
#
# The production image: used by `fly deploy` (fly.toml) for the app, the worker and the release
# command (migrations). Strict mode is on (APP_ENV=production): the app refuses to start unless
# every real service and secret is configured (see .env.example and docs/decisions/002-*).

# --- all dependencies, for the build --------------------------------------------------------
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The stand-in for crypto-js (ADR 027): node_modules/crypto-js links to it.
COPY vendor ./vendor
# Run after the install (package.json "postinstall"): exact changes to installed packages (ADR 101).
COPY scripts/patch-packages.mjs ./scripts/
RUN npm ci --no-audit --no-fund

# --- the build: build/index.js (the Remix server build), build/server/*.js (the start script, the
# worker, migrations, backup, restore and the storage check as plain JavaScript; ADR 080) and
# public/build/ (browser assets) -----------------------------------------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# --- production dependencies only ------------------------------------------------------------
# No TypeScript at run time: tsx and the compilers are development dependencies (ADR 080).
FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY vendor ./vendor
COPY scripts/patch-packages.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime ---------------------------------------------------------------------------------
FROM node:24-bookworm-slim AS runtime
ENV APP_ENV=production NODE_ENV=production PORT=3000
WORKDIR /app

COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/vendor ./vendor
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# The texts are read at run time (translations' base catalogue).
COPY --from=build /app/locales ./locales

# Files stay owned by root and read-only for the app. DATA_DIR (./data) is only written outside
# strict mode (embedded defaults, e.g. `docker run -e APP_ENV=development`), so give it to `node`.
RUN mkdir -p /app/data && chown node:node /app/data
USER node

EXPOSE 3000
CMD ["node", "--enable-source-maps", "build/server/start.js"]
