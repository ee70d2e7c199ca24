/** A Kafka admin client for the duration of `fn`. */
import type { Admin } from 'kafkajs'
import type { Runtime } from '../../../bin/runtime.js'

export async function withAdmin<T>(rt: Pick<Runtime, 'kafka'>, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try { return await fn(admin) } finally { await admin.disconnect().catch(() => {}) }
}
