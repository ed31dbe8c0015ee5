# One image for every role of the distributed profile; SERVICE_ROLE picks api, projector or worker.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Compiles the service and the CLI to JavaScript (esbuild, a dev dependency); the image runs no TypeScript.
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY packages ./packages
COPY projections ./projections
COPY services ./services
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
# The browser scripts (Shift4.js, card fields, checkout) and the merchants' signing module are
# bundled from these sources by esbuild on their first request.
COPY tsconfig.json ./
COPY packages/client-side ./packages/client-side
COPY packages/checkout ./packages/checkout
USER node
EXPOSE 3000
# MALLOC_ARENA_MAX, --max-semi-space-size, --heap-growing-percent, --turbo-filter: see docs/operations.md, "Memory".
ENV MALLOC_ARENA_MAX=2
CMD ["node", "--enable-source-maps", "--max-semi-space-size=4", "--heap-growing-percent=50", "--turbo-filter=-parseSource", "dist/main.js"]
