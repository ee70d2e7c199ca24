import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync, existsSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Checkpoints } from '../../../connectors/bulk/checkpoints.js'

t.test('a checkpoint survives the process, is keyed by the inputs, forgets a changed file, and goes when the run completes', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bulk-cp-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const a = path.join(dir, 'opinions-2025-03-31.csv'), b = path.join(dir, 'dockets-2025-03-31.csv')
  writeFileSync(a, 'id\n"1"\n')
  writeFileSync(b, 'id\n"1"\n')
  const cps = path.join(dir, 'checkpoints')
  const first = new Checkpoints(cps, [a, b])
  t.notOk(first.resuming)
  first.mark(a, 50_000)
  first.mark(b, 7, true)
  first.markStep('links:x')

  const again = new Checkpoints(cps, [b, a]) // the same inputs in another order
  t.ok(again.resuming)
  t.same(again.of(a), { records: 50_000, done: false })
  t.same(again.of(b), { records: 7, done: true })
  t.ok(again.stepDone('links:x'))
  t.notOk(new Checkpoints(cps, [a]).resuming, 'other inputs, another checkpoint')
  t.notOk(new Checkpoints(cps, [a, b], false, 'lds. other').resuming, 'another deployment, another checkpoint')
  t.notOk(new Checkpoints(cps, [a, b], true).resuming, '--restart ignores it')

  utimesSync(a, new Date(), new Date(Date.now() + 5000))
  t.same(again.of(a), { records: 0, done: false }, 'a file changed since starts over')
  again.clear()
  t.notOk(existsSync(again.path))
})
