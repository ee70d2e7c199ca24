import t from 'tap'
import { parse } from 'csv-parse/sync'
import { CopyCsvParser } from '../../../connectors/bulk/parser.js'
import { createRng } from '../../../connectors/sample/random.js'

/** Parse `text` fed in pieces cut at `cuts`; returns plain data for comparisons. */
function parseAll(text: string, cuts: number[] = [], opts = {}) {
  const p = new CopyCsvParser(opts)
  const at = [0, ...cuts, text.length]
  const recs = []
  for (let i = 0; i < at.length - 1; i++) recs.push(...p.push(text.slice(at[i], at[i + 1])))
  recs.push(...p.end())
  return recs.map((r) => ({ fields: r.fields, line: r.line, error: r.error, ...p.rawOf(r) }))
}

const SAMPLE = [
  'id,a,b',
  '`1`,,``',
  '`2`,`x\ny``z`,`c,d`\r',
  '`3`,`bad`q`,`ok`',
  '',
  '`4`,`a`,`x`y`',
  '`5`,`last`,',
].join('\n')

t.test('NULL and empty string, doubled backticks, embedded newlines and commas, CRLF', async (t) => {
  const r = parseAll(SAMPLE)
  t.same(r[0].fields, ['id', 'a', 'b'], 'an unquoted header')
  t.same(r[1].fields, ['1', null, ''], 'unquoted empty is NULL, quoted empty is the empty string')
  t.same(r[2].fields, ['2', 'x\ny`z', 'c,d'])
  t.equal(r[2].raw, '`2`,`x\ny``z`,`c,d`', 'raw text without its CRLF')
  t.equal(r[2].error, undefined)
  t.same([r[1].line, r[2].line, r[3].line, r[4].line, r[5].line, r[6].line], [2, 3, 5, 6, 7, 8], 'physical start lines')
  t.match(r[3], { error: /unexpected "q" after a closing backtick/, fields: ['3', 'bad`q', 'ok'] }, 'a stray backtick spoils only its own record')
  t.same(r[4].fields, [null], 'a blank line is one NULL field')
  t.match(r[5], { error: /unexpected "y" after a closing backtick/, fields: ['4', 'a', 'x`y'] }, 'an unescaped backtick inside a value: the value is still read whole')
  t.same(r[6].fields, ['5', 'last', null], 'a last record without newline, ending in a NULL')
})

t.test('the same records wherever the input is cut', async (t) => {
  const whole = JSON.stringify(parseAll(SAMPLE))
  let same = 0
  for (let k = 1; k < SAMPLE.length; k++) {
    if (JSON.stringify(parseAll(SAMPLE, [k])) === whole) same++
    else t.fail(`cut at ${k}`)
  }
  t.equal(same, SAMPLE.length - 1)
  // One character at a time.
  t.equal(JSON.stringify(parseAll(SAMPLE, Array.from({ length: SAMPLE.length - 1 }, (_, i) => i + 1))), whole)
})

t.test('malformed records: unquoted backtick, quote left open at the end', async (t) => {
  const r = parseAll('id,v\n`1`,ab`c\n`2`,`open\nand on\n')
  t.match(r[1], { error: 'backtick inside an unquoted field', line: 2 })
  t.match(r[2], { error: 'unterminated backtick quote at end of file', line: 3, raw: '`2`,`open\nand on\n' })
})

t.test('record size limit and raw truncation', async (t) => {
  const big = 'x'.repeat(5000)
  const text = `id,v\n\`1\`,\`${big}\`\n\`2\`,\`small\`\n`
  const r = parseAll(text, [10, 100, 2000], { maxRecordChars: 1000, maxRawChars: 50 })
  t.match(r[1], { error: 'record longer than 1000 characters', line: 2, truncated: true })
  t.equal(r[1].raw.length, 50)
  t.same(r[2], { fields: ['2', 'small'], line: 3, error: undefined, raw: '`2`,`small`', truncated: false }, 'the next record is intact')
})

t.test('agrees with csv-parse on random well-formed COPY output', async (t) => {
  const rng = createRng(7)
  const rnd = (n: number) => rng.int(0, n - 1)
  const alphabet = ['a', 'b', ' ', ',', '`', '\n', '\r\n', 'é', '—', '"', "'", '\\', '\t', '😀']
  const value = () => {
    if (rnd(6) === 0) return null
    let s = ''
    for (let i = rnd(12); i > 0; i--) s += alphabet[rnd(alphabet.length)]
    return s
  }
  const cols = 5
  const rows: (string | null)[][] = []
  for (let i = 0; i < 400; i++) rows.push(Array.from({ length: cols }, value))
  const quote = (v: string | null) => (v === null ? '' : '`' + v.replace(/`/g, '``') + '`')
  const text = 'c1,c2,c3,c4,c5\n' + rows.map((r) => r.map(quote).join(',')).join('\n') + '\n'
  const cuts = [3, 17, 100, 101, 102, 1000, 4096, text.length - 2].filter((c) => c < text.length)
  const ours = parseAll(text, cuts).slice(1)
  t.same(ours.map((r) => r.fields), rows, 'our parser gives back exactly what was written')
  t.notOk(ours.some((r) => r.error))
  const theirs = parse(text, { quote: '`', escape: '`', from_line: 2, record_delimiter: '\n' }) as string[][]
  t.same(ours.map((r) => r.fields.map((v) => v ?? '')), theirs, 'csv-parse reads the same values (it cannot tell NULL from empty)')
  // Line numbers: a record starts one line after the previous one ended.
  let line = 2
  for (let i = 0; i < rows.length; i++) {
    if (ours[i].line !== line) { t.fail(`record ${i} on line ${ours[i].line}, expected ${line}`); break }
    line += 1 + rows[i].reduce((n, v) => n + (v ? v.split('\n').length - 1 : 0), 0)
  }
  t.pass('line numbers follow the newlines inside values')
})

// ---------------------------------------------------------------------------------------------
// The three dialects: `backslash` (ESCAPE '\', the current files), `backtick`, plain `csv`.

type Dialect = 'backslash' | 'backtick' | 'csv'
const DIALECTS: Dialect[] = ['backslash', 'backtick', 'csv']

/** How PostgreSQL's COPY writes one value (FORCE_QUOTE *: every non-NULL value quoted) in each dialect. */
const WRITE: Record<Dialect, (v: string | null) => string> = {
  backslash: (v) => (v === null ? '' : '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"'),
  backtick: (v) => (v === null ? '' : '`' + v.replace(/`/g, '``') + '`'),
  csv: (v) => (v === null ? '' : '"' + v.replace(/"/g, '""') + '"'),
}
const fileOf = (d: Dialect, header: string, rows: (string | null)[][], eol = '\n') =>
  header + eol + rows.map((r) => r.map(WRITE[d]).join(',')).join(eol) + eol

t.test('new CopyCsvParser() still reads backticks: a double quote and a backslash are ordinary characters', async (t) => {
  const r = parseAll('id,v\n`1`,`say "hi" \\"x\\"`\n`2`,`C:\\`\n')
  t.same(r.slice(1).map((x) => x.fields), [['1', 'say "hi" \\"x\\"'], ['2', 'C:\\']])
  t.notOk(r.some((x) => x.error))
})

// A value of every kind the files hold, written by each dialect's writer and read back.
const TRICKY: (string | null)[][] = [
  ['1', null, '', 't', 'f'],
  ['2', 'say "hi"', 'a `tick` and ``two``', 'back\\slash', 'C:\\dir\\'],
  ['3', 'a\\"b', '\\\\', '"', '\\'],
  ['4', 'line\none', 'cr\rin', 'crlf\r\nin', '\n'],
  ['5', 'a,b', ',', '""', '\\n is not a newline'],
  ['6', 'é — “curly” 😀 中文', '\t tab ', ' ', 'NULL'],
  ['7', '', null, null, ''],
]
const TRICKY_HEADER = 'id,a,b,c,d'

t.test('each dialect gives back exactly what its writer wrote: NULL vs empty, quotes, escapes, CR/LF, unicode', async (t) => {
  for (const d of DIALECTS) {
    for (const eol of ['\n', '\r\n']) {
      const text = fileOf(d, TRICKY_HEADER, TRICKY, eol)
      const r = parseAll(text, [], { dialect: d })
      t.same(r[0].fields, TRICKY_HEADER.split(','), `${d}: the unquoted header`)
      t.same(r.slice(1).map((x) => x.fields), TRICKY, `${d}, ${JSON.stringify(eol)} line ends: the values read back`)
      t.same(r.filter((x) => x.error).map((x) => x.error), [], `${d}: no record reported malformed`)
      // Lines: each record starts after the newlines of the values before it.
      let line = 2
      const lines = TRICKY.map((row) => { const at = line; line += 1 + row.reduce((n, v) => n + (v ? v.split('\n').length - 1 : 0), 0); return at })
      t.same(r.slice(1).map((x) => x.line), lines, `${d}: physical start lines`)
      t.same(r.slice(1).map((x) => x.raw), rawsOf(d, TRICKY), `${d}: raw text of each record, as written, without its line end`)
    }
  }
})

function rawsOf(d: Dialect, rows: (string | null)[][]) {
  return rows.map((r) => r.map(WRITE[d]).join(','))
}

t.test('backslash dialect: how PostgreSQL reads ESCAPE \'\\\' inside and outside quotes', async (t) => {
  const text = [
    'id,v,w',
    String.raw`"1","say \"hi\"","back\\slash"`, // \" is ", \\ is \
    String.raw`"2","a\nb","a\tb"`, // \ before anything else stays: two characters
    '"3","a""b",""', // a doubled quote is also a quote; "" alone is the empty string
    String.raw`"4","a\",b","x"`, // the escaped quote does not close: the comma is inside the value
    String.raw`"5",C:\dir,"\\"`, // outside quotes a backslash is an ordinary character
    '"6","\\\n","x\\\r\n"', // a backslash before a newline or CR stays, and so does the line break
    '"7",,""',
  ].join('\n') + '\n'
  const r = parseAll(text, [], { dialect: 'backslash' })
  t.same(r.slice(1).map((x) => x.fields), [
    ['1', 'say "hi"', 'back\\slash'],
    ['2', 'a\\nb', 'a\\tb'],
    ['3', 'a"b', ''],
    ['4', 'a",b', 'x'],
    ['5', 'C:\\dir', '\\'],
    ['6', '\\\n', 'x\\\r\n'],
    ['7', null, ''],
  ])
  t.same(r.map((x) => x.error), r.map(() => undefined), 'all well formed')
  t.same(r.map((x) => x.line), [1, 2, 3, 4, 5, 6, 7, 10], "record 6 holds two line breaks")
})

t.test('plain CSV dialect: a backslash is an ordinary character, a doubled quote is a quote', async (t) => {
  const text = 'id,v,w\n"1","C:\\","a\\\\b"\n"2","say ""hi""",""\n"3",\\",x\n'
  const r = parseAll(text, [], { dialect: 'csv' })
  t.same(r.slice(1).map((x) => x.fields), [['1', 'C:\\', 'a\\\\b'], ['2', 'say "hi"', ''], ['3', '\\"', 'x']])
  t.match(r[3], { error: 'double quote inside an unquoted field', line: 4 }, 'a quote inside an unquoted field is an error (the value is kept as written)')
  t.same(r.slice(1, 3).map((x) => x.error), [undefined, undefined])
})

t.test('the same bytes mean different values in each dialect', async (t) => {
  const text = 'id,v\n"1","a\\\\b"\n'
  t.same(parseAll(text, [], { dialect: 'backslash' })[1].fields, ['1', 'a\\b'])
  t.same(parseAll(text, [], { dialect: 'csv' })[1].fields, ['1', 'a\\\\b'])
  t.same(parseAll(text, [], { dialect: 'backtick' })[1], { fields: ['"1"', '"a\\\\b"'], line: 2, error: undefined, raw: '"1","a\\\\b"', truncated: false },
    'read as backtick, double quotes and backslashes are ordinary characters of unquoted values')
  // A value ending in a backslash, written as plain CSV, is "C:\": read with \-escapes the quote does not close.
  const csvText = 'id,v\n"1","C:\\"\n"2","x"\n'
  t.same(parseAll(csvText, [], { dialect: 'csv' }).slice(1).map((x) => x.fields), [['1', 'C:\\'], ['2', 'x']])
  const misread = parseAll(csvText, [], { dialect: 'backslash' })
  t.ok(misread.slice(1).some((x) => x.error), 'read with \\-escapes it is malformed, not silently different')
})

// Hand-picked texts holding every split hazard: \ then ", \\, "", ``, CRLF after a closing quote, CR in a value.
const SPLIT_SAMPLES: Record<Dialect, string> = {
  backslash: 'id,a,b\r\n"1","x\\"y","\\\\"\r\n"2",,""\r\n"3","a""b","c\r\nd"\n"4","bad"q","\\z"\n"5","e\\\\\\"",\n',
  backtick: 'id,a,b\r\n`1`,`x``y`,`\\`\r\n`2`,,``\r\n`3`,`a""b`,`c\r\nd`\n`4`,`bad`q`,`z`\n`5`,````,\n',
  csv: 'id,a,b\r\n"1","x""y","\\"\r\n"2",,""\r\n"3","a\\b","c\r\nd"\n"4","bad"q","z"\n"5","""",\n',
}

t.test('every dialect: the same records wherever the input is cut, at one or two places', async (t) => {
  for (const d of DIALECTS) {
    const text = SPLIT_SAMPLES[d]
    const whole = parseAll(text, [], { dialect: d })
    t.equal(whole.length, 6, `${d}: header and five records`)
    t.match(whole[4], { error: /unexpected "q" after a closing/ }, `${d}: the bad record is reported`)
    t.equal(whole[5].error, undefined, `${d}: the record after it is intact`)
    const want = JSON.stringify(whole)
    let bad = 0
    for (let i = 1; i < text.length; i++) {
      for (let j = i; j < text.length; j++) {
        if (JSON.stringify(parseAll(text, i === j ? [i] : [i, j], { dialect: d })) !== want) bad++
      }
    }
    t.equal(bad, 0, `${d}: all ${(text.length - 1) * text.length / 2} ways of cutting agree`)
    t.equal(JSON.stringify(parseAll(text, Array.from({ length: text.length - 1 }, (_, i) => i + 1), { dialect: d })), want, `${d}: one character at a time`)
  }
  t.same(parseAll(SPLIT_SAMPLES.backslash, [], { dialect: 'backslash' }).map((x) => x.fields), [
    ['id', 'a', 'b'], ['1', 'x"y', '\\'], ['2', null, ''], ['3', 'a"b', 'c\r\nd'], ['4', 'bad"q', '\\z'], ['5', 'e\\"', null],
  ])
  t.same(parseAll(SPLIT_SAMPLES.csv, [], { dialect: 'csv' }).map((x) => x.fields), [
    ['id', 'a', 'b'], ['1', 'x"y', '\\'], ['2', null, ''], ['3', 'a\\b', 'c\r\nd'], ['4', 'bad"q', 'z'], ['5', '"', null],
  ])
  t.same(parseAll(SPLIT_SAMPLES.backtick, [], { dialect: 'backtick' }).map((x) => x.fields), [
    ['id', 'a', 'b'], ['1', 'x`y', '\\'], ['2', null, ''], ['3', 'a""b', 'c\r\nd'], ['4', 'bad`q', 'z'], ['5', '`', null],
  ])
  t.same(parseAll(SPLIT_SAMPLES.csv, [], { dialect: 'csv' }).map((x) => x.line), [1, 2, 3, 4, 6, 7], 'lines count the LF inside a value')
})

t.test('malformed records in the double-quote dialects: recovery at the next record, exact raw text', async (t) => {
  for (const d of ['backslash', 'csv'] as const) {
    const text = 'id,v\n"1",ab"c\n"2","x"\r"y"\n"3","ok"\n"4","open\nand on\n'
    const r = parseAll(text, [], { dialect: d })
    t.match(r[1], { error: 'double quote inside an unquoted field', line: 2, fields: ['1', 'ab"c'], raw: '"1",ab"c' }, `${d}: quote in an unquoted value`)
    t.match(r[2], { error: 'carriage return after a closing double quote', line: 3, fields: ['2', 'x"\r"y'] }, `${d}: junk after a closing quote`)
    t.same(r[3], { fields: ['3', 'ok'], line: 4, error: undefined, raw: '"3","ok"', truncated: false }, `${d}: the next record is intact`)
    t.match(r[4], { error: 'unterminated double quote at end of file', line: 5, raw: '"4","open\nand on\n', fields: ['4', 'open\nand on\n'] }, `${d}: quote left open`)
  }
  const esc = parseAll('id,v\n"1","open\\', [], { dialect: 'backslash' })
  t.match(esc[1], { error: 'unterminated double quote at end of file', fields: ['1', 'open\\'] }, 'a file ending on the escape character')
  const afterEsc = parseAll('id,v\n"1","a\\"\n"2","b"\n', [], { dialect: 'backslash' })
  t.match(afterEsc[1], { error: /unexpected "2" after a closing double quote/, line: 2 }, 'a plain-CSV value ending in \\ read as the current format is reported, not swallowed')
})

t.test('record size limit in the backslash dialect: the record is refused, the next one is whole', async (t) => {
  const big = 'x\\"'.repeat(2000)
  const text = `id,v\n"1","${big}"\n"2","small \\\\"\n`
  const r = parseAll(text, [10, 100, 2000, 5003], { dialect: 'backslash', maxRecordChars: 1000, maxRawChars: 50 })
  t.match(r[1], { error: 'record longer than 1000 characters', line: 2, truncated: true })
  t.equal(r[1].raw.length, 50)
  t.same(r[2], { fields: ['2', 'small \\'], line: 3, error: undefined, raw: '"2","small \\\\"', truncated: false })
})

t.test('agrees with csv-parse on random well-formed output of every dialect', async (t) => {
  const rng = createRng(11)
  const rnd = (n: number) => rng.int(0, n - 1)
  const alphabet = ['a', 'b', ' ', ',', '`', '``', '\n', '\r\n', '\r', 'é', '—', '"', '""', "'", '\\', '\\"', '\\\\', '\t', '😀']
  const value = () => {
    if (rnd(6) === 0) return null
    let s = ''
    for (let i = rnd(12); i > 0; i--) s += alphabet[rnd(alphabet.length)]
    return s
  }
  const rows: (string | null)[][] = []
  for (let i = 0; i < 400; i++) rows.push(Array.from({ length: 5 }, value))
  const csvParseOptions: Record<Dialect, object> = {
    backslash: { quote: '"', escape: '\\' },
    backtick: { quote: '`', escape: '`' },
    csv: { quote: '"', escape: '"' },
  }
  for (const d of DIALECTS) {
    const text = fileOf(d, 'c1,c2,c3,c4,c5', rows)
    const cuts = [3, 17, 100, 101, 102, 1000, 4096, text.length - 2].filter((c) => c < text.length)
    const ours = parseAll(text, cuts, { dialect: d }).slice(1)
    t.same(ours.map((r) => r.fields), rows, `${d}: our parser gives back exactly what was written`)
    t.notOk(ours.some((r) => r.error), `${d}: no errors`)
    const theirs = parse(text, { ...csvParseOptions[d], from_line: 2, record_delimiter: '\n' }) as string[][]
    t.same(ours.map((r) => r.fields.map((v) => v ?? '')), theirs, `${d}: csv-parse reads the same values`)
  }
})

t.test('the dead-letter raw text is the same wherever the input is cut, a CR at the raw limit included', async (t) => {
  for (const d of DIALECTS) {
    const q = d === 'backtick' ? '`' : '"'
    // Record 2: its 10th character is a CR inside a value; record 3: exactly 10 characters before its CRLF.
    const text = `id,v\n${q}1${q},${q}abcd\rXYZ${q}\n${q}2${q},${q}efgh${q}\r\n${q}3${q},${q}ok${q}\n`
    for (let cut = 1; cut < text.length; cut++) {
      const r = parseAll(text, [cut], { dialect: d, maxRawChars: 10 })
      const got = r.slice(1).map((x) => ({ raw: x.raw, truncated: x.truncated }))
      const want = [
        { raw: `${q}1${q},${q}abcd\r`, truncated: true },
        { raw: `${q}2${q},${q}efgh${q}`, truncated: false },
        { raw: `${q}3${q},${q}ok${q}`, truncated: false },
      ]
      if (JSON.stringify(got) !== JSON.stringify(want)) { t.same(got, want, `${d}, cut at ${cut}`); break }
    }
    t.pass(`${d}: every cut gives the same raw text`)
  }
})
