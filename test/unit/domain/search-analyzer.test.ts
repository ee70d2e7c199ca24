import t from 'tap'
import { analyze, tokens, normalizeKeyword, fold } from '../../../domain/search/analyzer.js'

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
