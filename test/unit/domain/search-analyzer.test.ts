import t from 'tap'
import { analyze, tokens, tokenCount, normalizeKeyword, fold, TokenTable } from '../../../domain/search/analyzer.js'
import { analyzeText, VALUE_GAP } from '../../../domain/search/document.js'

t.test('lower case, split on anything that is not a letter or digit, the period included', async (t) => {
  t.same(tokens('Smith v. Jones, 123 F.3d 456 (9th Cir. 1999)'), ['smith', 'v', 'jones', '123', 'f', '3d', '456', '9th', 'cir', '1999'])
  t.same(tokens("O'Connor's § 1983 claim; 21-cv-01234"), ['o', 'connor', 's', '1983', 'claim', '21', 'cv', '01234'])
  t.same(tokens('  '), [])
  t.same(tokens(''), [])
  t.same(tokens('the the THE'), ['the', 'the', 'the'], 'no stop words, no dedup')
})

t.test('diacritics and compatibility forms fold to plain letters', async (t) => {
  t.same(tokens('Müller Ångström café NIÑO'), ['muller', 'angstrom', 'cafe', 'nino'])
  t.same(tokens('ﬁrst Ｆ３ｄ'), ['first', 'f3d'])
  t.same(tokens('İstanbul'), ['istanbul'])
  t.same(tokens('Straße Łódź'), ['straße', 'łodz'], 'letters without a decomposition stay')
  t.same(tokens('日本 法律'), ['日本', '法律'])
  t.equal(fold('Émile'), 'emile')
})

t.test('ASCII and Unicode paths agree on ASCII text', async (t) => {
  const ascii = 'Brown v. Board of Education, 347 U.S. 483 (1954) -- "separate but equal"'
  t.same(tokens(ascii), tokens(`${ascii} é`).slice(0, -1))
})

t.test('positions are token indexes', async (t) => {
  t.same(analyze('A b, c.'), [{ token: 'a', pos: 0 }, { token: 'b', pos: 1 }, { token: 'c', pos: 2 }])
})

t.test('keywords are folded and trimmed, never split', async (t) => {
  t.equal(normalizeKeyword(' CA9 '), 'ca9')
  t.equal(normalizeKeyword('Publishéd-X'), 'published-x')
})

/** Texts that exercise both paths: mixed case, digits, punctuation runs, non-ASCII, NFKD expansions. */
function randomTexts(seed: number, count: number): string[] {
  let x = seed
  const r = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32)
  const pieces = ['Smith', 'smith', 'SMITH', 'v.', 'F.3d', '123', 'the', 'The', "O'Connor", '§', '-', ' ', '  ', ',', 'Müller', 'ﬁrst', 'Ｆ３ｄ', 'ℌ', 'İstanbul', '日本', 'a', 'A', 'ab', 'aB', 'Ab', 'x1', '\n']
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    let s = ''
    const n = Math.floor(r() * 12)
    for (let k = 0; k < n; k++) s += pieces[Math.floor(r() * pieces.length)] + (r() < 0.6 ? ' ' : '')
    out.push(s)
  }
  return out
}

t.test('the token table cuts texts exactly as tokens() and numbers each distinct token once', async (t) => {
  const table = new TokenTable()
  const texts = randomTexts(7, 3000)
  let mismatches = 0
  for (const text of texts) {
    table.reset()
    const k = table.scan(text)
    const got = Array.from(table.out.subarray(0, table.n), (g) => table.terms[g])
    if (k !== got.length || JSON.stringify(got) !== JSON.stringify(tokens(text)) || tokenCount(text) !== k) mismatches++
  }
  t.equal(mismatches, 0, 'every text: the same tokens in the same order, and tokenCount agrees')
  t.equal(new Set(table.terms).size, table.terms.length, 'no token numbered twice (ASCII and Unicode paths share numbers)')
  t.ok(table.terms.includes('smith') && table.terms.includes('muller') && table.terms.includes('H'), 'both paths fed the table')
})

t.test('the token table grows past its first size and keeps every number', async (t) => {
  const table = new TokenTable()
  const words = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}`)
  table.scan(words.join(' '))
  table.scan(words.map((w) => w.toUpperCase()).join(' '))
  t.equal(table.terms.length, words.length, 'upper-case repeats found the lower-case tokens')
  t.same(Array.from(table.out.subarray(words.length, words.length + 5)), [0, 1, 2, 3, 4])
})

t.test('a field\'s values: their tokens with -1 between values, as the analyzed field has VALUE_GAP', async (t) => {
  const table = new TokenTable()
  const texts = randomTexts(11, 2000)
  let mismatches = 0
  for (let i = 0; i + 3 <= texts.length; i += 3) {
    const values = [texts[i], '§ -', texts[i + 1], texts[i + 2]]
    table.reset()
    const count = table.scanValues(values)
    const field = analyzeText(values)
    const got = Array.from(table.out.subarray(0, table.n), (g) => (g < 0 ? VALUE_GAP : table.terms[g]))
    if (JSON.stringify(got) !== JSON.stringify(field.tokens) || count !== field.length) mismatches++
  }
  t.equal(mismatches, 0, 'the same sequence and length for every field (a value without tokens gets no gap)')
  table.reset()
  table.scanValues(['a b', 'c'])
  t.same(Array.from(table.out.subarray(0, table.n)).map((g) => g < 0), [false, false, true, false], 'a gap is -1')
})
