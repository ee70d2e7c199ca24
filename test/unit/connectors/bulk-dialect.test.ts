import t from 'tap'
import type { Test } from 'tap'
import { detectDialect, dialectLabel, DIALECT_LABELS, DIALECTS, isDialect, type Dialect } from '../../../connectors/bulk/dialect.js'
import { CopyCsvParser } from '../../../connectors/bulk/parser.js'
import { createRng } from '../../../connectors/sample/random.js'

/** How PostgreSQL's COPY writes one value (FORCE_QUOTE *: every non-NULL value quoted) in each dialect. */
const WRITE: Record<Dialect, (v: string | null) => string> = {
  backslash: (v) => (v === null ? '' : '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"'),
  backtick: (v) => (v === null ? '' : '`' + v.replace(/`/g, '``') + '`'),
  csv: (v) => (v === null ? '' : '"' + v.replace(/"/g, '""') + '"'),
}
const HEADER = 'id,date_created,case_name'
const fileOf = (d: Dialect, rows: (string | null)[][], header = HEADER) =>
  header + '\n' + rows.map((r) => r.map(WRITE[d]).join(',')).join('\n') + '\n'

/** All records of `text` read in dialect `d`, header dropped. */
function readAs(d: Dialect, text: string) {
  const p = new CopyCsvParser({ dialect: d })
  return p.push(text).concat(p.end()).slice(1).map((r) => ({ fields: r.fields, error: r.error }))
}

/** Detects, and checks that reading the file the detected way gives back `rows`. */
function detectAndRead(t: Test, text: string, rows: (string | null)[][], want: Dialect, what: string) {
  const got = detectDialect(text)
  t.equal(got.dialect, want, `${what}: ${got.reason}`)
  t.same(readAs(got.dialect, text).map((r) => r.fields), rows, `${what}: read the detected way, the values come back as written`)
  return got
}

const ROWS: (string | null)[][] = [
  ['1', '2024-01-01 00:00:00+00', 'Roe v. Wade'],
  ['2', null, ''],
  ['3', '2024-01-02 00:00:00+00', 'Smith, Jones & Co.\nsecond line'],
]

t.test('a backtick first value: the backtick dialect', async (t) => {
  const got = detectAndRead(t, fileOf('backtick', [...ROWS, ['4', 'a `quoted` word', 'say "hi" \\ C:\\']]), [...ROWS, ['4', 'a `quoted` word', 'say "hi" \\ C:\\']], 'backtick', 'backtick file')
  t.match(got.reason, /backtick/)
})

t.test('the current format: \\" inside a value (plain CSV reading finds malformed records)', async (t) => {
  const rows = [...ROWS, ['4', 'he said "no"', 'x']]
  const text = fileOf('backslash', rows)
  t.ok(readAs('csv', text).some((r) => r.error), 'read as plain CSV it is malformed')
  const got = detectAndRead(t, text, rows, 'backslash', '\\" escapes')
  t.match(got.reason, /malformed/)
})

t.test('the current format: only \\\\ as evidence (both readings well formed, the values differ)', async (t) => {
  const rows = [...ROWS, ['4', 'C:\\dir\\file', 'x']]
  const text = fileOf('backslash', rows)
  t.notOk(readAs('csv', text).some((r) => r.error), 'read as plain CSV it is also well formed…')
  t.same(readAs('csv', text)[3].fields, ['4', 'C:\\\\dir\\\\file', 'x'], '…but with doubled backslashes')
  const got = detectAndRead(t, text, rows, 'backslash', '\\\\ escapes')
  t.match(got.reason, /\\-escape/)
})

t.test('the current format: a value ending in a quote (\\"" in the text is not a doubled quote)', async (t) => {
  const rows = [['1', 'quote at the end"', 'x'], ['2', '"', '""'], ['3', 'a', 'b']]
  detectAndRead(t, fileOf('backslash', rows), rows, 'backslash', 'escaped quote before the closing one')
})

t.test('a reading with more columns than the header loses, even without a parse error', async (t) => {
  // As plain CSV, \"" reads as a backslash and a doubled quote: the value goes on over the line
  // end and the sample ends inside it (which a cut sample may do), with one column too many.
  const rows = [['1', 'a"'], [null, ',']]
  const text = fileOf('backslash', rows, 'id,v')
  t.equal(text, 'id,v\n"1","a\\""\n,","\n')
  t.same(readAs('csv', text).map((r) => r.fields), [['1', 'a\\"\n,', '\n']])
  const got = detectAndRead(t, text, rows, 'backslash', 'column count')
  t.match(got.reason, /3 columns where the header has 2/)
})

t.test('plain CSV: a doubled quote inside a value (both readings well formed and equal)', async (t) => {
  const rows = [...ROWS, ['4', 'he said "no"', 'x']]
  const text = fileOf('csv', rows)
  t.same(readAs('backslash', text), readAs('csv', text), 'PostgreSQL reads "" as " with ESCAPE \'\\\' too: only the writer tells')
  const got = detectAndRead(t, text, rows, 'csv', 'doubled quotes')
  t.match(got.reason, /doubled quote/)
})

t.test('plain CSV: a value ending in a backslash (the \\-escaped reading is malformed)', async (t) => {
  const rows = [['1', 'C:\\', 'x'], ['2', 'y', 'z']]
  const text = fileOf('csv', rows)
  t.ok(readAs('backslash', text).some((r) => r.error))
  detectAndRead(t, text, rows, 'csv', 'trailing backslash')
})

t.test('plain CSV: both \\\\ and "" in well-formed readings: the doubled quote decides', async (t) => {
  const rows = [['1', 'C:\\\\share', 'x'], ['2', 'a "quoted" word', 'z']]
  const text = fileOf('csv', rows)
  t.notOk([...readAs('backslash', text), ...readAs('csv', text)].some((r) => r.error), 'both readings well formed')
  detectAndRead(t, text, rows, 'csv', 'both kinds of evidence')
})

t.test('no evidence either way: both readings are identical, the current format is chosen and said so', async (t) => {
  const rows = [...ROWS, ['4', '', null], ['5', 'plain, text', 'é — 😀']]
  for (const d of ['backslash', 'csv'] as const) {
    const text = fileOf(d, rows)
    t.same(readAs('backslash', text), readAs('csv', text), `${d}: the two readings give the same values`)
    const got = detectAndRead(t, text, rows, 'backslash', `${d} file without evidence`)
    t.match(got.reason, /same values.*current format/)
  }
})

t.test('only a header, or nothing: the current format, with the reason', async (t) => {
  for (const text of [HEADER + '\n', HEADER, HEADER + '\r\n', HEADER + '\n\n\n', '', '\ufeff' + HEADER + '\n']) {
    const got = detectDialect(text)
    t.equal(got.dialect, 'backslash', JSON.stringify(text))
    t.match(got.reason, /only a header/)
  }
})

t.test('NULL first fields, blank lines, CRLF and a byte order mark are looked past', async (t) => {
  t.equal(detectDialect(`${HEADER}\n,,\n\n,\`2024\`,\`x\`\n`).dialect, 'backtick', 'first non-NULL value on line 4')
  t.match(detectDialect(`${HEADER}\n,,\n\n,\`2024\`,\`x\`\n`).reason, /line 4/)
  t.equal(detectDialect(`\ufeff${HEADER}\r\n\r\n"1","a ""b""",""\r\n`).dialect, 'csv')
  t.equal(detectDialect(`${HEADER}\r\n"1","a \\"b\\"",""\r\n`).dialect, 'backslash')
})

t.test('an unquoted value is not force-quoted output: plain CSV', async (t) => {
  const text = `${HEADER}\n1,2024-01-01,"Smith, ""Jr."""\n2,,plain\n`
  const got = detectAndRead(t, text, [['1', '2024-01-01', 'Smith, "Jr."'], ['2', null, 'plain']], 'csv', 'not force-quoted')
  t.match(got.reason, /not quoted/)
})

/** A few hundred random rows in dialect `d`, the first one holding `evidence` (or nothing when null). */
function randomFile(d: Dialect, seed: number, evidence: string | null) {
  const rng = createRng(seed)
  const rnd = (n: number) => rng.int(0, n - 1)
  const words = ['the', 'court', 'F.3d', 'é', '—', ',', '\n', '\r\n', '`', '😀', ...(d === 'csv' ? ['"', '\\'] : []), ...(d === 'backslash' ? ['"', '\\'] : [])]
  const rows: (string | null)[][] = []
  for (let i = 1; i <= 300; i++) {
    let s = ''
    for (let k = rnd(10); k > 0; k--) s += words[rnd(words.length)]
    rows.push([String(i), rnd(4) ? '2024-01-01 00:00:00+00' : null, i === 1 && evidence !== null ? evidence : rnd(6) ? s : rnd(2) ? '' : null])
  }
  return { rows, text: fileOf(d, rows) }
}

t.test('a sample cut anywhere, even mid-record, inside a quote, an escape or a CRLF', async (t) => {
  // For each file: from where in the text on a cut sample must give the right answer.
  const cases: { d: Dialect; evidence: string | null; from: (text: string) => number }[] = [
    // The first data character settles it.
    { d: 'backtick', evidence: null, from: (x) => x.indexOf('\n') + 2 },
    // Every reading of a current-format sample, complete or not, says the current format.
    { d: 'backslash', evidence: 'say "hi"', from: (x) => x.indexOf('\n') + 2 },
    { d: 'backslash', evidence: null, from: (x) => x.indexOf('\n') + 2 },
    // Plain CSV is told once its first doubled quote is in the sample.
    { d: 'csv', evidence: 'say "hi"', from: (x) => x.indexOf('""') + 2 },
  ]
  for (const { d, evidence, from } of cases) {
    const { text } = randomFile(d, 3, evidence)
    const wrong: number[] = []
    for (let cut = from(text); cut <= Math.min(text.length, 4000); cut++) {
      if (detectDialect(text.slice(0, cut)).dialect !== d) wrong.push(cut)
    }
    t.same(wrong, [], `${d}${evidence === null ? '' : ' with ' + JSON.stringify(evidence)}: every cut from ${from(text)} on`)
  }
  // Before its evidence, a plain CSV sample reads the same both ways: the current format, said to be a default.
  const { text } = randomFile('csv', 3, 'say "hi"')
  const early = detectDialect(text.slice(0, text.indexOf('""') + 1))
  t.equal(early.dialect, 'backslash')
  t.match(early.reason, /same values/)
})

t.test('whole random files of every dialect are detected and read back exactly', async (t) => {
  for (const d of DIALECTS) {
    for (const seed of [1, 2, 3]) {
      const { rows, text } = randomFile(d, seed, d === 'csv' ? 'a "b"' : null)
      detectAndRead(t, text, rows, d, `${d} seed ${seed}`)
      // The first MiB of a bigger file: the same answer.
      t.equal(detectDialect(text.repeat(Math.ceil((1 << 20) / text.length) + 1).slice(0, 1 << 20)).dialect, d, `${d} seed ${seed}: a 1 MiB sample cut mid-record`)
    }
  }
})

t.test('labels and names', async (t) => {
  t.same([...DIALECTS].sort(), ['backslash', 'backtick', 'csv'])
  t.equal(new Set(Object.values(DIALECT_LABELS)).size, 3, 'three different labels')
  t.equal(dialectLabel('backslash'), 'current (\\-escaped)')
  t.equal(dialectLabel('backtick'), 'backtick (2024)')
  t.equal(dialectLabel('csv'), 'plain CSV (before 2024-07)')
  t.ok(isDialect('csv'))
  t.notOk(isDialect('tsv'))
})
