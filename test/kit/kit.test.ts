/** The shared kit: seeded numbers that stay the same, waits on facts, free ports, flags. */
import t from 'tap'
import net from 'node:net'
import { mulberry32, intBetween, pick, chance, waitFor, GiveUp, freePort, parseFlags } from './index.js'

t.test('mulberry32 gives the same sequence for a seed, in [0, 1)', async (t) => {
  // Frozen: the fuzz corpus and the benchmarks' data sets depend on these exact numbers.
  const r = mulberry32(42)
  t.same([r(), r(), r()], [0.6011037519201636, 0.44829055899754167, 0.8524657934904099])
  const a = mulberry32(7), b = mulberry32(7)
  const xs = Array.from({ length: 10_000 }, () => a())
  t.same(xs, Array.from({ length: 10_000 }, () => b()), 'same seed, same numbers')
  t.ok(xs.every((x) => x >= 0 && x < 1), 'all in [0, 1)')
  t.same(Array.from({ length: 5 }, mulberry32(-1)), Array.from({ length: 5 }, mulberry32(2 ** 32 - 1)), 'the seed is taken as 32 bits')
})

t.test('intBetween, pick and chance stay in range', async (t) => {
  const r = mulberry32(1)
  const ints = Array.from({ length: 5_000 }, () => intBetween(r, 3, 6))
  t.same([...new Set(ints)].sort(), [3, 4, 5, 6], 'both ends included')
  const picked = new Set(Array.from({ length: 1_000 }, () => pick(r, ['a', 'b', 'c'] as const)))
  t.same([...picked].sort(), ['a', 'b', 'c'])
  t.equal(Array.from({ length: 100 }, () => chance(r, 0)).some(Boolean), false)
  t.equal(Array.from({ length: 100 }, () => chance(r, 1)).every(Boolean), true)
})

t.test('waitFor returns the first truthy answer, names what timed out, stops at GiveUp', async (t) => {
  let n = 0
  t.equal(await waitFor(() => (++n >= 3 ? n : 0), 'three polls', 1_000, 1), 3)
  await t.rejects(waitFor(() => { throw new Error('not yet') }, 'the impossible', 30, 5), /timed out after 30 ms waiting for the impossible: not yet/)
  let polls = 0
  await t.rejects(waitFor(() => { polls++; throw new GiveUp('gone') }, 'anything', 10_000, 5), /gone/)
  t.equal(polls, 1, 'GiveUp ends the wait at once')
})

t.test('freePort gives a port that can be listened on', async (t) => {
  const port = await freePort()
  const server = net.createServer()
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve) })
  t.equal((server.address() as net.AddressInfo).port, port)
  await new Promise((r) => server.close(r))
})

t.test('parseFlags: defaults, numbers, defaults that depend on a boolean, and a clear error', async (t) => {
  const spec = ({ quick }: Record<string, boolean>) => ({
    quick: { type: 'boolean', help: 'small' },
    docs: { type: 'number', default: quick ? 10 : 1_000, help: 'documents' },
    db: { type: 'string', default: 'x', help: 'database' },
  } as const)
  t.same(parseFlags('cmd', spec, []), { quick: false, docs: 1_000, db: 'x' })
  t.same(parseFlags('cmd', spec, ['--quick']), { quick: true, docs: 10, db: 'x' })
  t.same(parseFlags('cmd', spec, ['--docs', '1_200', '--db=y']), { quick: false, docs: 1_200, db: 'y' })
  const errors: string[] = []
  const exit = process.exit
  const error = console.error
  process.exit = ((code: number) => { throw new Error(`exit ${code}`) }) as typeof process.exit
  console.error = (m: string) => { errors.push(m) }
  try {
    t.throws(() => parseFlags('cmd', spec, ['--dcos', '5']), /exit 2/, 'an unknown flag exits 2')
    t.throws(() => parseFlags('cmd', spec, ['--docs', 'many']), /exit 2/, 'so does a bad number')
  } finally {
    process.exit = exit
    console.error = error
  }
  t.match(errors[0], /--dcos[\s\S]*usage: cmd[\s\S]*--docs N\s+documents \(default 1000\)/)
  t.match(errors[1], /--docs needs a number, not "many"/)
})
