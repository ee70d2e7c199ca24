import t from 'tap'
import { mkdtempSync, createWriteStream, statSync, readFileSync, writeFileSync, rmSync, mkdirSync, copyFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readBulkFile, type BulkProgress } from '../../../connectors/bulk/index.js'

const N = 200_000
const dir = mkdtempSync(path.join(tmpdir(), 'bulk-large-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const file = path.join(dir, 'citations-2024-08-31.csv')

/** Every 1000th row has a reporter spanning two lines; rows 777 and 150000 are bad. Returns the line of the last row. */
async function generate(): Promise<number> {
  const out = createWriteStream(file)
  out.write('id,volume,reporter,page,type,cluster_id,date_created,date_modified\n')
  let line = 2
  let buf = ''
  for (let i = 1; i <= N; i++) {
    const reporter = i % 1000 === 0 ? 'F.\n3d' : i % 7 === 0 ? 'S. Ct., ``Lawyers`` Ed.' : 'U.S.'
    const volume = i === 777 ? '`12a`' : `\`${i % 900}\``
    const id = i === 150_000 ? '' : `\`${i}\``
    buf += `${id},${volume},\`${reporter}\`,\`${i}\`,\`1\`,\`${i}\`,\`2024-01-01 00:00:00.${String(i % 1e6).padStart(6, '0')}+00\`,\`2024-01-01 00:00:00+00\`\n`
    if (i < N) line += reporter.includes('\n') ? 2 : 1
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await new Promise((r) => out.once('drain', r))
      buf = ''
    }
  }
  await new Promise((r) => out.end(buf, () => r(undefined)))
  return line
}

const lastLine = generate()

t.test('a large file streams through: every row yielded or refused, line numbers exact', async (t) => {
  const expectedLast = await lastLine
  const deadLetterPath = path.join(dir, 'dead.jsonl')
  let n = 0
  let last: { id: unknown; line: number } | undefined
  let multiLine = 0
  for await (const r of readBulkFile(file, 'citations', { deadLetterPath })) {
    n++
    last = { id: r.record.id, line: r.line }
    if (r.record.reporter === 'F.\n3d') multiLine++
  }
  t.equal(n, N - 2)
  t.equal(multiLine, N / 1000 - 1, 'row 150000 spans two lines but is refused')
  t.same(last, { id: N, line: expectedLast })
  const dead = readFileSync(deadLetterPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  t.same(dead.map((d) => d.reason), ['volume: not an integer: "12a"', 'row has no id'])
  t.equal(dead[0].line, 778)
  t.equal(dead[1].line, 150_000 + 1 + 149, 'after 149 two-line rows')
})

t.test('the consumer sets the pace: stopping early reads only the start of the file', async (t) => {
  await lastLine
  const size = statSync(file).size
  for (const f of [file, await compressedMany()]) {
    let p: BulkProgress | undefined
    let n = 0
    for await (const r of readBulkFile(f, 'citations', { deadLetterPath: path.join(dir, 'dead-early.jsonl'), onProgress: (x) => { p = x }, progressIntervalMs: 0 })) {
      if (++n === 1000 || !r) break
    }
    t.equal(n, 1000)
    t.ok(p!.bytes < p!.totalBytes / 2, `${path.basename(f)}: ${p!.bytes} of ${p!.totalBytes} bytes read when stopping (${size} uncompressed)`)
  }
  const early = readFileSync(path.join(dir, 'dead-early.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  t.same(early.map((d) => d.line), [778, 778], 'only the bad row among the first thousand, once per file')
})

/** Ten copies of the .bz2 file back to back (bzip2 reads concatenated streams): a file too big to be read ahead whole. */
async function compressedMany(): Promise<string> {
  const one = readFileSync(await compressed())
  const many = path.join(dir, 'bz', 'citations-2024-09-30.csv.bz2')
  writeFileSync(many, Buffer.concat(Array.from({ length: 10 }, () => one)))
  return many
}

let bz: Promise<string> | undefined
function compressed(): Promise<string> {
  bz ??= (async () => {
    const copy = path.join(dir, 'bz', 'citations-2024-08-31.csv')
    mkdirSync(path.dirname(copy), { recursive: true })
    copyFileSync(file, copy)
    execFileSync('bzip2', [copy])
    return copy + '.bz2'
  })()
  return bz
}

t.test('the same rows from the .bz2 version', async (t) => {
  await lastLine
  const f = await compressed()
  let n = 0
  let lastId: unknown
  for await (const r of readBulkFile(f, 'citations', { deadLetterPath: path.join(dir, 'dead-bz.jsonl') })) { n++; lastId = r.record.id }
  t.equal(n, N - 2)
  t.equal(lastId, N)
  t.equal(readFileSync(path.join(dir, 'dead-bz.jsonl'), 'utf8').trim().split('\n').length, 2)
})
