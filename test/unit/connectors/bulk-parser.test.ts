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
