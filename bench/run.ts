/** `npm run bench`: every benchmark in turn, each printing its own ratios. Pass --quick for small sizes. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseFlags } from '../test/kit/args.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const { quick } = parseFlags('npm run bench --', { quick: { type: 'boolean', help: 'small sizes' } })
const runs: [string, string[]][] = [
  ['citations.ts', quick ? ['--quick'] : []],
  ['ingest.ts', quick ? ['--opinions', '100000'] : []],
  ['bulk.ts', quick ? ['--mb', '50'] : ['--mb', '1024']],
  ['export.ts', quick ? ['--rows', '100000'] : []],
  ['api.ts', quick ? ['--quick'] : []],
  ['search.ts', quick ? ['--quick'] : []],
  ['webhooks.ts', quick ? ['--quick'] : []],
  ['feeds.ts', quick ? ['--quick'] : []],
  ['mirror.ts', quick ? ['--records', '5000'] : []],
  ['audio.ts', quick ? ['--quick'] : []],
  ['idle.ts', quick ? ['--seconds', '20'] : []],
  ['scale.ts', quick ? ['--quick'] : []],
]
let failed = 0
for (const [file, args] of runs) {
  console.log(`\n=== bench/${file} ${args.join(' ')}`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file), ...args], { stdio: 'inherit' })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
