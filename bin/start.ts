/**
 * `npm start`: local infrastructure up (if needed), tables migrated, schemas registered, the
 * sample data loaded on first run, then the API on PORT and every processor in this process.
 * Ctrl-C stops the API and processors, and the infrastructure services this run started
 * (services that were already running are left alone).
 */
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { infraUp, infraDown } from '../infra/cli.js'
import { createRuntime, prepare, startProcessors } from './runtime.js'
import { ingestSample, sampleAlreadyLoaded } from '../connectors/drivers/sample.js'
import { buildApp } from '../api/app.js'

const cfg = loadConfig()
const log = createLogger(cfg)
const startedInfra = await infraUp(cfg, (m) => log.info(m))
const rt = createRuntime(cfg, log)
await prepare(rt)
const streams = await startProcessors(rt)
if (!(await sampleAlreadyLoaded(rt))) {
  log.info('first run: loading the sample data set')
  const s = await ingestSample(rt, { opinions: 10_000, seed: 1 })
  log.info({ published: s.published, seconds: s.seconds }, 'sample data published; processors are applying it')
}
const app = await buildApp(rt)
await app.listen({ port: cfg.port, host: cfg.host })
log.info(`API ready on http://${cfg.host}:${cfg.port}/api/rest/v4/`)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  log.info('stopping API and processors')
  await app.close().catch(() => {})
  for (const s of streams) await s.stop().catch(() => {})
  await rt.close()
  if (startedInfra.length) await infraDown(cfg, (m) => log.info(m), startedInfra)
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
