import t from 'tap'
import { analyzeDocument } from '../../../domain/search/document.js'
import { COMMON_WORDS } from '../../../domain/search/common-grams.js'
import { indexColumns } from '../../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../../streams/search/index-rows.js'

/**
 * A Native block decoded for the types the postings use, written from the format's description
 * (not from the encoder): VarUInt counts, then per column name, type and values.
 */
function decodeNative(chunks: readonly Uint8Array[]): Record<string, unknown[]> {
  const buf = Buffer.concat(chunks)
  let o = 0
  const varUInt = () => { let v = 0; let shift = 1; for (;;) { const b = buf[o++]; v += (b & 0x7f) * shift; if (b < 0x80) return v; shift *= 128 } }
  const str = () => { const n = varUInt(); const s = buf.toString('utf8', o, o + n); o += n; return s }
  const u64 = () => { const v = buf.readBigUInt64LE(o); o += 8; return Number(v) }
  const read = (type: string, n: number): unknown[] => {
    const inner = /^Array\((.*)\)$/.exec(type)?.[1]
    if (inner) {
      const ends = Array.from({ length: n }, u64)
      const flat = read(inner, ends.at(-1) ?? 0)
      return ends.map((e, i) => flat.slice(i ? ends[i - 1] : 0, e))
    }
    switch (type) {
      case 'String': return Array.from({ length: n }, str)
      case 'UInt64': return Array.from({ length: n }, u64)
      case 'Int64': return Array.from({ length: n }, () => { const v = buf.readBigInt64LE(o); o += 8; return Number(v) })
      case 'UInt32': return Array.from({ length: n }, () => { const v = buf.readUInt32LE(o); o += 4; return v })
      default: throw new Error(`type ${type}`)
    }
  }
  const columns = varUInt()
  const rows = varUInt()
  const out: Record<string, unknown[]> = {}
  for (let c = 0; c < columns; c++) { const name = str(); out[name] = read(str(), rows) }
  if (o !== buf.length) throw new Error(`${buf.length - o} bytes after the block`)
  return out
}

/** The postings block as rows [field, term, version, ids, tfs, dls, poss], sorted as the table orders them. */
function postingRows(chunks: readonly Uint8Array[]): unknown[][] {
  const b = decodeNative(chunks)
  t.same(Object.keys(b), ['field', 'term', 'version', 'ids', 'tfs', 'dls', 'poss'])
  return b.field.map((_, i) => ['field', 'term', 'version', 'ids', 'tfs', 'dls', 'poss'].map((k) => b[k][i]))
    .sort((x, y) => { const a = `${x[0]}\u0000${x[1]}\u0000${x[2]}`; const b = `${y[0]}\u0000${y[1]}\u0000${y[2]}`; return a < b ? -1 : a > b ? 1 : 0 })
}

t.test('index rows: document rows, and postings grouped per (field, term, version) over the batch, as a Native block', async (t) => {
  const a = analyzeDocument('o', { id: 7, case_name: 'Smith v. Smith', citation: ['1 U.S. 2', '3 F.3d 4'], court_id: 'CA9', date_filed: '2020-01-02T00:00:00Z', panel_ids: [3, 4], cite_count: null })
  const b = analyzeDocument('o', { id: 2 ** 40 + 3, case_name: 'Jones v. Smith', text: 'ünïcode ok' })
  const rows = toIndexRows('o', [{ doc: a, version: 5 }, { doc: b, version: 5 }, { doc: analyzeDocument('o', { id: 9, case_name: 'gone' }), version: 6, deleted: true }])
  const cols = indexColumns('o')
  const row = Object.fromEntries(cols.map((c, i) => [c, rows.docs[0][i]]))
  t.same([row.id, row.version, row.is_deleted, row.case_name_len, row.citation_len, row.text_len], [7, 5, 0, 3, 8, 0])
  t.same([row.court_id, row.date_filed, row.panel_ids, row.cite_count], ['ca9', '2020-01-02', [3, 4], null])
  t.same(rows.docs.map((r) => [r[0], r[1], r[2]]), [[7, 5, 0], [2 ** 40 + 3, 5, 0], [9, 6, 1]], 'one row per document, deleted ones too')
  const big = 2 ** 40 + 3
  const postings = postingRows(rows.postings)
  t.equal(rows.postingRows, postings.length)
  t.same(postings, [
    ['case_name', 'jones', 5, [big], [1], [3], [[0]]],
    ['case_name', 'smith', 5, [7, big], [2, 1], [3, 3], [[0, 2], [2]]],
    ['case_name', 'v', 5, [7, big], [1, 1], [3, 3], [[1], [1]]],
    ['case_name~2', 'jones v', 5, [big], [1], [3], [[0]]],
    ['case_name~2', 'smith v', 5, [7], [1], [3], [[0]]],
    ['case_name~2', 'v smith', 5, [7, big], [1, 1], [3, 3], [[1], [1]]],
    ['citation', '1', 5, [7], [1], [8], [[0]]], ['citation', '2', 5, [7], [1], [8], [[3]]], ['citation', '3', 5, [7], [1], [8], [[5]]],
    ['citation', '3d', 5, [7], [1], [8], [[7]]], ['citation', '4', 5, [7], [1], [8], [[8]]], ['citation', 'f', 5, [7], [1], [8], [[6]]],
    ['citation', 's', 5, [7], [1], [8], [[2]]], ['citation', 'u', 5, [7], [1], [8], [[1]]],
    ['citation~2', '1 u', 5, [7], [1], [8], [[0]]], ['citation~2', '3 f', 5, [7], [1], [8], [[5]]], ['citation~2', '3d 4', 5, [7], [1], [8], [[7]]],
    ['citation~2', 'f 3d', 5, [7], [1], [8], [[6]]], ['citation~2', 's 2', 5, [7], [1], [8], [[2]]], ['citation~2', 'u s', 5, [7], [1], [8], [[1]]],
    ['text', 'ok', 5, [big], [1], [2], [[1]]], ['text', 'unicode', 5, [big], [1], [2], [[0]]],
  ], 'positions skip the gap between values, no gram spans it; ids beyond 2³²; a deleted document has no postings')

  const twice = postingRows(toIndexRows('o', [{ doc: b, version: 1 }, { doc: b, version: 1 }, { doc: b, version: 2 }]).postings)
  t.same(twice.filter((r) => r[0] === 'case_name' && r[1] === 'jones'), [['case_name', 'jones', 1, [big, big], [1, 1], [3, 3], [[0], [0]]], ['case_name', 'jones', 2, [big], [1], [3], [[0]]]],
    'one row per version; a document given twice at a version has its postings twice')
  const none = toIndexRows('o', [{ doc: a, version: 3, deleted: true }])
  t.same([none.postingRows, decodeNative(none.postings).term], [0, []])
})

t.test('index rows: terms and grams of any length and script keep their bytes', async (t) => {
  const long = 'x'.repeat(300)
  const doc = analyzeDocument('o', { id: 1, case_name: `the ${long} Ωmega 日本 the` })
  const terms = postingRows(toIndexRows('o', [{ doc, version: 1 }]).postings).map((r) => `${r[0]} ${r[1]}`)
  t.same(terms.sort(), [`case_name ${long}`, 'case_name the', 'case_name ωmega', 'case_name 日本', 'case_name~2 the ' + long, 'case_name~2 日本 the'].sort())
})

t.test('index rows of a large batch: every token and common gram once per document, positions ascending', async (t) => {
  const words = ['the', 'court', 'of', 'appeals', 'held', 'that', 'a', 'duty', 'f', '3d', 'v', 'x1', 'x2', 'x3', 'x4', 'x5']
  let seed = 7
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000 }
  const docs = Array.from({ length: 600 }, (_, i) => analyzeDocument('o', { id: 1000 + i, text: Array.from({ length: 1 + Math.floor(rnd() * 300) }, () => words[Math.floor(rnd() * words.length)]).join(' ') }))
  /** The same postings, one document at a time, from the analyzed tokens: "field term" → [id, positions][] */
  const expected = (batch: typeof docs) => {
    const want = new Map<string, [number, number[]][]>()
    for (const d of batch) {
      const toks = d.text.text.tokens
      const add = (key: string, p: number) => {
        const list = want.get(key) ?? []
        if (list.at(-1)?.[0] !== d.id) list.push([d.id, []])
        list.at(-1)?.[1].push(p)
        want.set(key, list)
      }
      toks.forEach((x, i) => {
        add(`text\u0000${x}`, i)
        if (i + 1 < toks.length && (COMMON_WORDS.has(x) || COMMON_WORDS.has(toks[i + 1]))) add(`text~2\u0000${x} ${toks[i + 1]}`, i)
      })
    }
    return want
  }
  const check = (batch: typeof docs, what: string) => {
    const got = postingRows(toIndexRows('o', batch.map((doc) => ({ doc, version: 1 }))).postings)
    const want = expected(batch)
    t.equal(got.length, want.size, `${what}: rows`)
    let same = 0
    for (const [field, term, , ids, tfs, dls, poss] of got as [string, string, number, number[], number[], number[], number[][]][]) {
      const w = want.get(`${field}\u0000${term}`) ?? []
      const ok = JSON.stringify(ids) === JSON.stringify(w.map((x) => x[0])) && JSON.stringify(poss) === JSON.stringify(w.map((x) => x[1]))
        && tfs.every((tf, k) => tf === poss[k].length) && dls.every((dl, k) => dl === docs[ids[k] - 1000].text.text.length)
      if (ok) same++
      else { t.fail(`${what}: ${field} ${term}`); break }
    }
    t.equal(same, want.size, `${what}: every row as computed document by document`)
  }
  check(docs, 'a large batch')
  check(docs.slice(0, 50).reverse(), 'a small batch after it (scratch arrays reused, not cleared)')
})

t.test('index rows: the postings block comes sorted by (field, term) in byte order, as the table orders it', async (t) => {
  // words of every length sharing prefixes (the order's numeric key is a term's first four characters),
  // non-ASCII ones, and grams whose first token is a prefix of another's ("the" / "then")
  const words = ['the', 'then', 'th', 'thereof', 'therein', 'theres', 'of', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdf', 'abcdea', 'é', 'éa', 'z9', '9z', '10', '1', 'ωmega', '日本', 'court', 'courts', 'cour']
  let seed = 11
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000 }
  const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ')
  const docs = Array.from({ length: 300 }, (_, i) => analyzeDocument('o', { id: 1 + i, case_name: pick(5), citation: [pick(3), pick(2)], text: pick(1 + Math.floor(rnd() * 200)) }))
  const rows = toIndexRows('o', docs.map((doc) => ({ doc, version: 1 })))
  const b = decodeNative(rows.postings)
  const keys = b.field.map((f, i) => Buffer.concat([Buffer.from(String(f)), Buffer.from([0]), Buffer.from(String(b.term[i]))]))
  let sorted = 0
  for (let i = 1; i < keys.length; i++) if (Buffer.compare(keys[i - 1], keys[i]) < 0) sorted++
  t.equal(sorted, keys.length - 1, 'each row after the one before it')
  t.ok(b.field.includes('text~2') && b.field.includes('citation~2'), 'grams included')
  t.equal(postingRows(rows.postings).length, keys.length)
})
