import t, { type Test } from 'tap'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { toXml, XML_DECLARATION } from '../../../api/render/xml.js'

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, trimValues: false,
  processEntities: true, isArray: (name) => name === 'list-item',
})
function parse(t: Test, xml: string): Record<string, unknown> {
  t.equal(XMLValidator.validate(xml), true, 'well-formed')
  return (parser.parse(xml) as { root: Record<string, unknown> }).root
}
// Characters XML 1.0 cannot carry, even as references.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u

t.test('writes the reference layout: declaration, root, keys as elements, list-items, empty nulls', async (t) => {
  const xml = toXml({ count: 2, next: null, ok: true, no: false, score: 1.5, results: [{ id: 1, tags: [], meta: {} }, 'two'] })
  t.equal(xml, `${XML_DECLARATION}<root><count>2</count><next></next><ok>True</ok><no>False</no><score>1.5</score>`
    + '<results><list-item><id>1</id><tags></tags><meta></meta></list-item><list-item>two</list-item></results></root>')
  t.ok(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<root>'))
})

t.test('nested dicts, lists, nulls and booleans parse back with a real XML parser', async (t) => {
  const data = {
    resource_uri: 'https://example.test/api/rest/v4/dockets/1/?a=1&b=2',
    panel: [{ name: 'A', positions: [{ court: 'scotus', active: true }] }, { name: 'B', positions: [] }],
    sub: { deep: { deeper: { value: 'x', none: null } } },
    matrix: [[1, 2], [3]],
  }
  const root = parse(t, toXml(data))
  t.equal(root.resource_uri, data.resource_uri, 'ampersands round-trip')
  const panel = (root.panel as { 'list-item': Record<string, unknown>[] })['list-item']
  t.equal(panel.length, 2)
  t.equal(panel[0].name, 'A')
  t.same((panel[0].positions as { 'list-item': unknown[] })['list-item'], [{ court: 'scotus', active: 'True' }])
  t.equal(panel[1].positions, '', 'an empty list is an empty element')
  t.same(root.sub, { deep: { deeper: { value: 'x', none: '' } } })
  t.same((root.matrix as { 'list-item': unknown[] })['list-item'], [{ 'list-item': ['1', '2'] }, { 'list-item': ['3'] }])
})

t.test('text is escaped, markup in data stays text', async (t) => {
  const name = '<script>alert("x")</script> & Sons > Co'
  const xml = toXml({ case_name: name })
  t.notMatch(xml, /<script>/)
  t.match(xml, '&lt;script&gt;alert("x")&lt;/script&gt; &amp; Sons &gt; Co')
  t.equal(parse(t, xml).case_name, name)
})

t.test('characters invalid in XML 1.0 are dropped, everything else kept', async (t) => {
  const text = 'a\u0000b\u0001c\u0008\u000b\u000c\u000e\u001fd\uFFFE\uFFFFe\uD800f\uDC00g'
  const kept = 'tab\there\nnewline é 中文 𝔄 \u{1F600} \uE000'
  const xml = toXml({ html: text, plain: kept, list: ['\u0007bell'] })
  t.notMatch(xml, NOT_XML)
  const root = parse(t, xml)
  t.equal(root.html, 'abcdefg')
  t.equal(root.plain, kept)
  t.same((root.list as { 'list-item': unknown[] })['list-item'], ['bell'])
})

t.test('keys that are not XML names still give well-formed XML and keep the exact key', async (t) => {
  // api-usage keys its per-day counts by date; other odd keys for good measure.
  const data = { '2026-11-23': 5, '2026-11-24': { '1': 'x' }, 'a b': 1, '': 2, 'x:y': 3, '-lead': 4, '<evil>"&': 5, ünïcödé: 6, 'good_name.v2-x': 7 }
  const xml = toXml(data)
  t.match(xml, '<_2026-11-23 key="2026-11-23">5</_2026-11-23>')
  t.match(xml, '<ünïcödé>6</ünïcödé>', 'valid non-ASCII names are kept as they are')
  t.match(xml, '<good_name.v2-x>7</good_name.v2-x>')
  const root = parse(t, xml)
  const byKey = new Map<string, unknown>()
  for (const v of Object.values(root)) {
    if (v && typeof v === 'object' && '@key' in v) byKey.set((v as Record<string, string>)['@key'], v)
  }
  for (const key of ['2026-11-23', 'a b', '', 'x:y', '-lead', '<evil>"&']) t.ok(byKey.has(key), `key ${JSON.stringify(key)} kept in the key attribute`)
  t.equal((byKey.get('2026-11-23') as Record<string, string>)['#text'], '5')
  t.equal(((byKey.get('2026-11-24') as Record<string, Record<string, string>>)._1)['#text'], 'x')
})

t.test('values as JSON sees them; a null or absent document is an empty body', async (t) => {
  const xml = toXml({ when: new Date('2026-11-23T10:00:00Z'), skipped: undefined, big: 12345678901234567890n, nan: Number.NaN })
  t.equal(xml, `${XML_DECLARATION}<root><when>2026-11-23T10:00:00.000Z</when><big>12345678901234567890</big><nan></nan></root>`)
  t.equal(toXml(null), '')
  t.equal(toXml(undefined), '')
  t.equal(toXml([1, 'a']), `${XML_DECLARATION}<root><list-item>1</list-item><list-item>a</list-item></root>`)
  t.equal(toXml('text'), `${XML_DECLARATION}<root>text</root>`)
})

t.test('a 20-row page of large opinions renders in linear time', async (t) => {
  const para = '<p>The court held that 42 U.S.C. § 1983 &amp; "due process" apply.</p>\n'
  const page = (rows: number) => ({
    count: 1000, next: 'https://example.test/api/rest/v4/opinions/?page=2', previous: null,
    results: Array.from({ length: rows }, (_, i) => ({
      id: i, resource_uri: `https://example.test/api/rest/v4/opinions/${i}/`, html_with_citations: para.repeat(5000), plain_text: 'x'.repeat(300_000),
    })),
  })
  // Best of three, so a busy machine does not decide the outcome.
  const time = (rows: number): [number, string] => {
    const data = page(rows)
    let best = Infinity
    let xml = ''
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now()
      xml = toXml(data)
      best = Math.min(best, performance.now() - t0)
    }
    return [Math.round(best), xml]
  }
  time(2) // warm up
  const [ms20, xml] = time(20)
  t.ok(xml.length > 20 * (300_000 + 5000 * para.length), 'all text is there')
  t.ok(ms20 < 2000, `20 rows of ~650 KB in ${ms20} ms`)
  const [ms40] = time(40)
  t.ok(ms40 < ms20 * 4 + 50, `doubling the rows roughly doubles the time (${ms20} → ${ms40} ms)`)
})
