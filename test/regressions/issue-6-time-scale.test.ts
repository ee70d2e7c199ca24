/**
 * Issue 6, bug 3: LDS_TIME_SCALE never reached the API's clock (buildApp made a clock without the
 * configured scale), so the API's schedules ran in real time under a scaled test.
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { createLogger } from '../../core/logger.js'
import { createDb } from '../../core/clickhouse.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { buildApp } from '../../api/app.js'

t.test('the API clock divides scheduled delays by LDS_TIME_SCALE', async (t) => {
  const cfg = loadConfig({ LDS_TIME_SCALE: '600', LOG_LEVEL: 'silent' })
  const db = createDb(cfg)
  const app = await buildApp({ cfg, db, catalogue, log: createLogger(cfg) })
  t.teardown(async () => { await app.close(); await db.close() })
  t.equal(app.clock.scaled(60_000), 100, 'a scheduled minute takes 100 ms at scale 600')
  const started = Date.now()
  await app.clock.sleep(30_000)
  t.ok(Date.now() - started < 5_000, 'a scheduled 30 s sleep is over in about 50 ms')
})
