/** `lds ingest bulk` through the pipeline: typed values in ClickHouse, NULL vs '' kept, bad rows dead-lettered by line. */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testStack, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors } from '../../bin/runtime.js'
import { ingestBulk } from '../../bin/commands/ingest-bulk.js'
import { sql, ident } from '../../core/sql.js'
import { projectFile } from '../../core/programs.js'

t.test('bulk files through the pipeline', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const deadLetterPath = path.join(mkdtempSync(path.join(tmpdir(), 'bulk-e2e-')), 'dead.jsonl')
  const s = await ingestBulk(rt, projectFile('test/fixtures/bulk/'), { deadLetterPath, progress: false })
  t.same(s.byResource, { courts: 1, dockets: 3, 'opinions-cited': 1 }, 'the reader refuses rows whose values do not fit the column types')
  t.equal(s.published, 5, '1 court, 3 dockets, 1 edge')
  t.same(s.skippedFiles, ['search_unknown-2024-08-31.csv'])
  const dead = readFileSync(deadLetterPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  t.same(dead.map((d) => d.line).sort((a, b) => a - b), [5, 6, 7, 8, 9], 'every refused row, by the line it starts on')
  t.match(dead.find((d) => d.line === 5), { reason: /date_filed: invalid date/ })
  t.match(dead.find((d) => d.line === 9), { reason: /source: not an integer/ })

  await waitFor(async () => (await countFinal(rt, 'dockets')) === 3, 'three dockets')
  const rows = await rt.db.query<{ id: number; docket_number: string | null; nature_of_suit: string; blocked: boolean; source: number }>(
    sql`SELECT id, docket_number, nature_of_suit, blocked, source FROM ${ident(rt.cfg.clickhouseDatabase)}.dockets FINAL ORDER BY id`)
  t.same(rows.map((r) => [Number(r.id), r.docket_number, r.nature_of_suit, r.blocked, Number(r.source)]), [
    [1, '21-1', '', false, 2], [2, null, 'Civil', true, 2], [7, '7', '', false, 2],
  ], 'NULL stays NULL, empty stays empty, t/f become booleans')
})
