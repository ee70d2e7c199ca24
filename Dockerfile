# One image for every role of the service (docker-compose.yml runs it as the API, each processor
# and the one-shot migration): `docker build -t legal-data-service:local .`
#
# Stage 1 installs the production dependencies only; stage 2 is the runtime, run as the
# unprivileged `node` user, with ffmpeg for the audio role, and a JDK with the broker's own jars
# for `lds consumers create|revoke|list` (Kafka's Java admin client manages SCRAM users; KafkaJS
# cannot): infra/scram-users.ts compiles its helper once into /data/lib on first use.
FROM apache/kafka:4.1.2 AS kafka

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# patches/: fixes to dependencies that npm ci's postinstall applies (patch-package).
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates openjdk-17-jdk-headless \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data/storage && chown -R node:node /data
WORKDIR /app
ENV NODE_ENV=production LDS_DATA_DIR=/data
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=kafka --chown=node:node /opt/kafka/libs /data/lib/kafka
COPY --chown=node:node . .
# `lds` on the PATH, as `npx lds` is locally: every service's command is an `lds …` line.
RUN ln -s /app/bin/lds.js /usr/local/bin/lds
USER node
CMD ["lds", "run", "--roles", "api"]
