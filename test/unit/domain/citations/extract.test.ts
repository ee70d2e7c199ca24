import t from 'tap'
import { extractCitations, normalizeReporter, type FoundCitation } from '../../../../domain/citations/index.js'

const one = (text: string, kind?: FoundCitation['kind']): FoundCitation => {
  const found = extractCitations(text).filter((c) => !kind || c.kind === kind)
  if (found.length !== 1) throw new Error(`expected one ${kind ?? 'citation'} in ${JSON.stringify(text)}, got ${JSON.stringify(found.map((f) => f.matchedText))}`)
  return found[0]
}
/** citations whose offsets do not give back their matched text ([] when all hold) */
const badOffsets = (text: string, cs: FoundCitation[]) => cs.filter((c) => text.slice(c.start, c.end) !== c.matchedText).map((c) => c.matchedText)

t.test('full case citation: volume, reporter, page, pin, court and year', async (t) => {
  const text = 'Smith v. Jones, 123 F.3d 456, 460 (9th Cir. 1999) (holding that the duty ran to the buyer).'
  const c = one(text)
  t.match(c, {
    kind: 'full_case', matchedText: '123 F.3d 456', volume: '123', reporter: 'F.3d', page: '456', reporterFound: 'F.3d',
    pinCite: '460', court: 'ca9', courtText: '9th Cir.', year: 1999, parenthetical: 'holding that the duty ran to the buyer',
    normalized: ['123 F.3d 456'],
  })
  t.equal(text.slice(c.start, c.end), c.matchedText)
  t.equal(text.slice(c.start, c.fullEnd), '123 F.3d 456, 460 (9th Cir. 1999) (holding that the duty ran to the buyer)')
  t.same(c.candidates, [{ reporter: 'F.3d', name: 'Federal Reporter', cite_type: 'federal' }])
})

t.test('variations normalise to the canonical edition', async (t) => {
  for (const [text, canonical, written] of [
    ['123 F. 3d 456', 'F.3d', 'F. 3d'],
    ['5 F.Supp.2d 10', 'F. Supp. 2d', 'F.Supp.2d'],
    ['531 U. S. 98', 'U.S.', 'U. S.'],
    ['45 Cal.Rptr.2d 12', 'Cal. Rptr. 2d', 'Cal.Rptr.2d'],
    ['99 S.Ct. 1', 'S. Ct.', 'S.Ct.'],
    ['12 So.2d 400', 'So. 2d', 'So.2d'],
    ['7 P. 2d 9', 'P.2d', 'P. 2d'],
  ] as const) {
    const c = one(text)
    t.equal(c.reporter, canonical, text)
    t.equal(c.reporterFound, written, text)
    t.equal(c.normalized[0], text.replace(written, canonical), text)
  }
  t.same(normalizeReporter('F. 3d').map((r) => r.canonical), ['F.3d'])
  t.same(normalizeReporter('f.3d'), [], 'case matters')
  t.same(normalizeReporter('Not A Reporter'), [])
  t.same(normalizeReporter('F.Supp. 2d').map((r) => r.canonical), ['F. Supp. 2d'], 'whitespace-insensitive fallback')
  t.ok(normalizeReporter('U.S.C.').some((r) => r.cite_type === 'leg_statute'))
})

t.test('ambiguous reporters list every candidate; the year picks the edition', async (t) => {
  const a = one('Doe v. Roe, 3 Marsh. 45 (1819).')
  t.equal(a.reporter, 'A.K. Marsh.')
  t.same(a.candidates.map((x) => x.reporter).sort(), ['A.K. Marsh.', 'J.J. Marsh.'])
  t.same(a.normalized.sort(), ['3 A.K. Marsh. 45', '3 J.J. Marsh. 45'])
  t.equal(one('Doe v. Roe, 3 Marsh. 45 (1830).').reporter, 'J.J. Marsh.')
  t.equal(one('5 How. 10 (1850)').reporter, 'How.', "Howard's U.S. Reports 1843-1860")
  t.equal(one('5 How. 10 (1838)').reporter, 'Howard', 'Mississippi Reports, Howard 1834-1843')
  t.equal(one('2 Mon. 7 (1826)').reporter, 'T.B. Mon.')
  t.equal(one('2 Mon. 7 (1850)').reporter, 'B. Mon.')
  t.ok(one('2 Mon. 7').candidates.length >= 3, 'no year: all candidates kept')
  // the year is also taken from a parallel citation's parenthetical
  const [x, y] = extractCitations('3 Marsh. 45, 9 Ky. 1 (1830)')
  t.equal(y.year, 1830)
  t.equal(x.year, 1830)
  t.equal(x.reporter, 'J.J. Marsh.')
})

t.test('edition patterns: nominative, neutral and paragraph forms', async (t) => {
  t.match(one('1 U.S. (1 Wall.) 12'), { reporter: 'U.S.', volume: '1', page: '12', extra: { reporter_nominative: 'Wall.', volume_nominative: '1' } })
  t.match(one('2017-Ohio-5699'), { reporter: 'Ohio', volume: '2017', page: '5699' })
  t.match(one('2014 IL App (1st) 120583-U'), { reporter: 'IL App (1st)', volume: '2014', page: '120583-U' })
  t.match(one('1975 Trade Cas. (CCH) ¶ 60,219'), { reporter: 'Trade Cas. (CCH)', volume: '1975', page: '60,219' })
  t.match(one('2011 WL 1234567, at *3 (S.D.N.Y. Jan. 5, 2011)'), { reporter: 'WL', volume: '2011', page: '1234567', pinCite: '*3', year: 2011, court: 'nysd' })
})

t.test('pin cites', async (t) => {
  t.equal(one('410 U.S. 113, 153 (1973)').pinCite, '153')
  t.equal(one('410 U.S. 113, 153-54 (1973)').pinCite, '153-54')
  t.equal(one('410 U.S. 113, 153–54 & n.7 (1973)').pinCite, '153–54 & n.7')
  t.equal(one('410 U.S. 113 at 120.').pinCite, '120')
  t.equal(one('410 U.S. 113, 120, 125.').pinCite, '120, 125')
  const [a, b] = extractCitations('576 U.S. 644, 135 S. Ct. 2584 (2015)')
  t.equal(a.pinCite, undefined, 'a parallel citation is not a pin cite')
  t.match(b, { volume: '135', reporter: 'S. Ct.', page: '2584', year: 2015 })
  t.equal(a.year, 2015)
  t.equal(a.court, 'scotus')
})

t.test('parentheticals: court, date forms and explanatory text', async (t) => {
  t.match(one('5 F. Supp. 3d 10 (S.D.N.Y. Mar. 3, 2014)'), { year: 2014, court: 'nysd', courtText: 'S.D.N.Y.' })
  t.match(one('12 Cal. App. 4th 345 (Cal. Ct. App. 1993)'), { year: 1993, court: 'calctapp' })
  t.match(one('5 A.3d 10 (Pa. 2010)'), { year: 2010, court: 'pa' })
  const c = one('347 U.S. 483 (1954) (Warren, C.J.) (segregation)')
  t.match(c, { year: 1954, court: 'scotus', parenthetical: 'Warren, C.J.' })
  const d = one('123 F.3d 456 (en banc) (9th Cir. 1999)')
  t.match(d, { year: 1999, court: 'ca9', parenthetical: 'en banc' })
  t.equal(one('123 F.3d 456 (Unknown Ct. 1999)').court, undefined, 'unknown court text: no id')
  t.equal(one('123 F.3d 456 (Unknown Ct. 1999)').courtText, 'Unknown Ct.')
})

t.test('short forms: short case cites, Id., supra', async (t) => {
  const text = 'Roe, 410 U.S., at 153. Casey, 505 U.S. at 870. Id. at 871. id., at 5-6. Ibid. Id. Smith, supra, at 12. Jones, supra note 4, at 7. See supra.'
  const found = extractCitations(text)
  t.same(badOffsets(text, found), [], 'text.slice(start, end) === matchedText')
  t.same(found.map((c) => c.kind), ['short_case', 'short_case', 'id', 'id', 'id', 'id', 'supra', 'supra', 'supra'])
  t.match(found[0], { matchedText: '410 U.S., at 153', volume: '410', reporter: 'U.S.', pinCite: '153', normalized: ['410 U.S., at 153'] })
  t.match(found[1], { matchedText: '505 U.S. at 870', pinCite: '870' })
  t.match(found[2], { matchedText: 'Id.', pinCite: '871' })
  t.match(found[3], { matchedText: 'id.', pinCite: '5-6' })
  t.match(found[4], { matchedText: 'Ibid.' })
  t.equal(found[5].pinCite, undefined)
  t.match(found[6], { antecedent: 'Smith', pinCite: '12' })
  t.match(found[7], { antecedent: 'Jones', pinCite: '7', extra: { note: '4' } })
  t.equal(found[8].antecedent, undefined, "'See supra' has no antecedent")
  t.same(extractCitations('He paid. Said. Idaho. Void. suprarenal.'), [], 'id./supra only as words')
})

t.test('laws and journals are recognised and classified', async (t) => {
  t.match(one('42 U.S.C. § 1983'), { kind: 'law', reporter: 'U.S.C.', title: '42', section: '1983', normalized: ['42 U.S.C. § 1983'] })
  t.match(one('29 C.F.R. § 1630.2'), { kind: 'law', reporter: 'C.F.R.', title: '29', section: '1630.2' })
  t.match(one('18 U.S.C. §§ 1961-1968'), { kind: 'law', section: '1961-1968' })
  t.match(one('28 U.S.C.A. § 1331'), { kind: 'law', reporter: 'U.S.C.', reporterFound: 'U.S.C.A.' })
  t.match(one('Cal. Penal Code § 187'), {
    kind: 'law', reporter: 'Cal. Code', reporterFound: 'Cal. Penal Code', section: '187', extra: { subject: 'Penal' }, normalized: ['Cal. Penal Code § 187'],
  })
  t.match(one('18 U.S.C. § 922(g)(1)'), { kind: 'law', section: '922(g)(1)', matchedText: '18 U.S.C. § 922(g)(1)' })
  const [pl, stat] = extractCitations('Pub. L. No. 111-148, 124 Stat. 119 (2010)')
  t.match(pl, { kind: 'law', reporter: 'Pub. L.', matchedText: 'Pub. L. No. 111-148', title: '111-148' })
  t.match(stat, { kind: 'law', reporter: 'Stat.', volume: '124', page: '119', year: 2010 }, 'the trailing number is the next volume')
  t.match(one('100 Harv. L. Rev. 1 (1987)'), { kind: 'journal', reporter: 'Harv. L. Rev.', volume: '100', page: '1', year: 1987 })
  t.match(one('Note, 88 Yale L.J. 1, 12 (1978)'), { kind: 'journal', pinCite: '12' })
})

t.test('HTML: offsets into the HTML as given', async (t) => {
  const html = '<div><p>See <i>Roe v. Wade</i>, 410 <i>U.S.</i> 113, 153&nbsp;(1973).</p><p><b>Id.</b> at 5 &amp; 42 U.S.C. &sect;&nbsp;1983. ' +
    '<a href="/x?a=1&amp;b=2">5 F.&#32;3d 10</a> (9th&nbsp;Cir. 1999)</p><!-- 1 U.S. 1 --><script>var x = "2 U.S. 3"</script></div>'
  const found = extractCitations(html)
  t.same(found.map((c) => c.matchedText), ['410 <i>U.S.</i> 113', 'Id.', '42 U.S.C. &sect;&nbsp;1983', '5 F.&#32;3d 10'])
  t.same(badOffsets(html, found), [], 'text.slice(start, end) === matchedText')
  t.match(found[0], { volume: '410', page: '113', pinCite: '153', year: 1973 })
  t.equal(html.slice(found[0].start, found[0].fullEnd), '410 <i>U.S.</i> 113, 153&nbsp;(1973)')
  t.match(found[3], { reporter: 'F.3d', year: 1999, court: 'ca9' })
  t.same(extractCitations(html, { html: true }), found, 'explicit html: true')
  // html: false treats the markup as text
  const plain = extractCitations('<i>x</i> 410 U.S. 113', { html: false })
  t.equal(plain[0].start, 9)
  // auto-detect needs a tag: a bare '<' is text
  const lt = 'if a < b then 410 U.S. 113'
  t.equal(extractCitations(lt)[0].start, lt.indexOf('410'))
  // block tags separate words, inline tags do not
  t.same(extractCitations('<p>Smith</p><p>Id. at 5</p>').map((c) => c.kind), ['id'])
  t.same(extractCitations('<p>Sa<b>id.</b> at 5</p>'), [], 'inline tag inside a word')
})

t.test('offsets are UTF-16 indices into the original string', async (t) => {
  const text = '😀 café — “quoted” 410 U.S. 113 and 42 U.S.C. § 1983'
  const found = extractCitations(text)
  t.equal(found.length, 2)
  t.same(badOffsets(text, found), [], 'text.slice(start, end) === matchedText')
  t.equal(found[0].start, text.indexOf('410'))
})

t.test('text that only looks like a citation produces nothing', async (t) => {
  for (const text of [
    'in 1999 the 5 U.S. soldiers came home',
    'call 555-1234 or (800) 555-1234 today',
    'Section 5 of 10 applies',
    'On May 5, 1999, at 10 a.m., the parties met.',
    'The vote was 5 to 4 on June 30, 2015.',
    'He scored 12 points and 7 rebounds in 2003.',
    'See Exhibit 12, page 4, line 9.',
    'Rule 12(b)(6) was invoked 3 times in 2019.',
    'The 2d Cir. and the 9th Cir. disagree.',
    'Mr. Smith paid $1,500 to Ms. Jones on 3/4/2005.',
  ]) t.same(extractCitations(text), [], text)
})

t.test('whitespace and line breaks inside citations', async (t) => {
  const c = one('See 410\nU.S.\n113 (1973)')
  t.match(c, { volume: '410', reporter: 'U.S.', page: '113', year: 1973 })
  t.match(one('123 F.\u00a03d 456'), { reporter: 'F.3d' })
})

t.test('results are in text order and do not overlap', async (t) => {
  const text = 'Id. 42 U.S.C. § 1983; 410 U.S. 113; Roe, supra; 100 Harv. L. Rev. 1; 410 U.S., at 120.'
  const found = extractCitations(text)
  t.same(found.map((c) => c.kind), ['id', 'law', 'full_case', 'supra', 'journal', 'short_case'])
  for (let i = 1; i < found.length; i++) t.ok(found[i].start >= found[i - 1].end)
  t.same(badOffsets(text, found), [], 'text.slice(start, end) === matchedText')
})

t.test('every regex template of the data compiles into the matcher', async (t) => {
  const { getMatcher } = await import('../../../../domain/citations/matcher.js')
  const m = getMatcher()
  t.same(m.skipped, [], 'no template skipped')
  t.ok(m.strings.size > 4000, `${m.strings.size} reporter/law/journal strings`)
  t.ok(m.patternCount < 200, `${m.patternCount} distinct compiled patterns`)
})

t.test('random citation-like noise: no throw, offsets hold, spans ordered (plain and HTML)', async (t) => {
  let seed = 12345
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
  const pieces = ['1', '23', '456', ' ', ' ', ', ', '.', 'U.S.', 'F.3d', 'F. 3d', 'S. Ct.', 'Id.', 'id.', 'supra', 'at', '(', ')', '(9th Cir. 1999)',
    '§', '¶', 'U.S.C.', 'Harv. L. Rev.', '-', 'Ohio', 'So.', '\n', 'n.', '&amp;', '<i>', '</i>', '<p>', '&sect;', 'Smith', 'v.', '2011', 'WL']
  for (let round = 0; round < 300; round++) {
    let s = ''
    const len = 5 + Math.floor(rnd() * 60)
    for (let k = 0; k < len; k++) s += pieces[Math.floor(rnd() * pieces.length)]
    for (const html of [false, true]) {
      const found = extractCitations(s, { html })
      const bad = badOffsets(s, found)
      if (bad.length) t.fail(`offsets in ${JSON.stringify(s)} (html ${html}): ${bad}`)
      for (let i = 1; i < found.length; i++) if (found[i].start < found[i - 1].end) t.fail(`overlap in ${JSON.stringify(s)}`)
      for (const c of found) if (c.fullEnd < c.end || c.end <= c.start) t.fail(`span ${JSON.stringify(c)}`)
    }
  }
  t.pass('300 random texts')
})

t.test('large inputs stay linear', async (t) => {
  const digits = '1'.repeat(200_000) + ' U.S. 5'
  const a = performance.now()
  extractCitations(digits)
  extractCitations('Id. '.repeat(50_000))
  extractCitations('(' .repeat(50_000) + '1 U.S. 1' + ')'.repeat(50_000))
  extractCitations('5 U.S. 1, '.repeat(20_000))
  t.ok(performance.now() - a < 5000, `took ${(performance.now() - a).toFixed(0)} ms`)
})
