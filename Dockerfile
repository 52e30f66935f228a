# Bullpen: build with the dev tools, run on the official Node 22 image with production dependencies only.
# test/deploy/dockerfile.test.ts runs this file's RUN, COPY and CMD steps in a clean copy of the repository.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY . .
# --ignore-scripts: the build needs no install script (esbuild ships its binary as a package), and the
# `node` dev package would download a second Node binary the image already has.
RUN npm ci --ignore-scripts --no-audit --no-fund
RUN npm run build

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    SERVICE_EMBEDDED_DIR=/data \
    MALLOC_ARENA_MAX=1
WORKDIR /app
COPY package.json package-lock.json ./
COPY client/package.json client/
# The image's Node runs the service: no dev tools, no second Node binary (the `node` package is a dev
# dependency), no link to the client workspace (--workspaces=false).
RUN npm ci --omit=dev --workspaces=false --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "--experimental-async-context-frame", "--max-semi-space-size=4", "dist/server/main.js"]
