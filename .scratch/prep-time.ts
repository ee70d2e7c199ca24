import { testConfig } from '../test/helpers/stack.js'
import { createRuntime, removeDeployment } from '../bin/runtime.js'
import { createLogger } from '../core/logger.js'
import { createDb } from '../core/clickhouse.js'
import { migrate } from '../core/migrate.js'
import { registerEntitySchemas } from '../core/schema-registration.js'
import { ensureEntityTopics } from '../schemas/topics.js'
for (let i = 0; i < 3; i++) {
  const cfg = testConfig()
  const rt = createRuntime(cfg, createLogger(cfg))
  const t0 = Date.now()
  const time = async (name: string, p: Promise<unknown>) => { await p; console.log(name, Date.now() - t0, 'ms') }
  const admin = createDb(cfg, { useDatabase: false })
  await Promise.all([
    time('migrate', migrate(admin, rt.catalogue, () => {}, () => {}, cfg.clickhouseCluster)),
    time('schemas', registerEntitySchemas(cfg, rt.registry, rt.catalogue)),
    time('topics', ensureEntityTopics(cfg, rt.kafka, rt.catalogue)),
  ])
  await admin.close()
  await removeDeployment(rt); await rt.close()
}
