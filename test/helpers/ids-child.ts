/**
 * A process that takes ids from its runtime's allocator, as an API process would (test/integration/
 * ids.test.ts runs several at once). Env: the deployment's LDS_TOPIC_PREFIX and the rest of the
 * configuration; IDS_COUNT ids, taken by IDS_WORKERS concurrent callers, from GO_AT (epoch ms) on.
 * Prints one JSON line: { ids (in the order they were issued), leases }.
 */
import { createRuntime } from '../../bin/runtime.js'

const rt = createRuntime()
const count = Number(process.env.IDS_COUNT ?? 1000)
const workers = Number(process.env.IDS_WORKERS ?? 4)
const goAt = Number(process.env.GO_AT ?? 0)
await new Promise((r) => setTimeout(r, Math.max(0, goAt - Date.now())))
const ids: number[] = []
let left = count
await Promise.all(Array.from({ length: workers }, async () => {
  while (left-- > 0) ids.push(await rt.ids.next())
}))
process.stdout.write(`${JSON.stringify({ ids, leases: rt.ids.leases })}\n`)
await rt.close()
