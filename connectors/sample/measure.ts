/**
 * Measures the generator alone (no Kafka): `npx tsx connectors/sample/measure.ts [opinions] [seed] [today]`.
 * Prints the records of each resource, records/s, opinions/s, the CPU time and the heap at the end.
 */
import { loadCourts } from './courts.js'
import { DEFAULT_OPINIONS, generateSample } from './generator.js'

const opinions = Number(process.argv[2] ?? DEFAULT_OPINIONS)
const seed = Number(process.argv[3] ?? 1)
const today = process.argv[4]
const courts = loadCourts()
const counts: Record<string, number> = { courts: courts.length }
let records = 0
let textBytes = 0
const started = performance.now()
const cpu = process.cpuUsage()
for (const { resource, record } of generateSample({ courts, opinions, seed, today })) {
  counts[resource] = (counts[resource] ?? 0) + 1
  records++
  if (resource === 'opinions') textBytes += Buffer.byteLength(String(record.plain_text)) + Buffer.byteLength(String(record.html))
}
const seconds = (performance.now() - started) / 1000
const used = process.cpuUsage(cpu)
console.log(JSON.stringify(counts))
console.log(`${records} generated records in ${seconds.toFixed(1)} s (${((used.user + used.system) / 1e6).toFixed(1)} s CPU): ${Math.round(records / seconds)} records/s, ${Math.round((counts.opinions ?? 0) / seconds)} opinions/s`)
console.log(`opinion text ${(textBytes / 1e6).toFixed(0)} MB (${Math.round(textBytes / Math.max(1, counts.opinions ?? 0))} bytes each); heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`)
