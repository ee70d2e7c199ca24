import t from 'tap'
import { buildEdges, linkCitations, sourceText, edgeId, type ResolvedCite } from '../../../../domain/citations/links.js'

const cite = (start: number, text: string, clusters: number[], key = text): ResolvedCite => ({ start, end: start + text.length, matchedText: text, key, clusters })

t.test('edges: one per cited opinion, depth counts repeats, ambiguity and gaps recorded', async (t) => {
  const opinionOf = new Map([[10, 100], [11, 110], [12, 120]])
  const { edges, unresolved, citedClusters } = buildEdges(1, 99, [
    cite(0, '1 U.S. 1', [10]), cite(20, '1 U.S. 1', [10]), cite(40, '2 F.3d 5', [11, 12]),
    cite(60, '3 F.3d 7', []), cite(80, '4 U.S. 9', [99]), cite(90, '5 U.S. 2', [13]),
  ], opinionOf)
  t.same(edges.map((e) => [e.cited_opinion_id, e.depth, e.match_status, e.candidates]), [[100, 2, 'unique', 1], [110, 1, 'ambiguous', 2], [120, 1, 'ambiguous', 2]])
  t.equal(edges[0].matched_text, '1 U.S. 1')
  t.equal(edges[0].id, edgeId(1, 100), 'edge ids are stable for (citing, cited)')
  t.not(edgeId(1, 100), edgeId(100, 1))
  t.ok(edgeId(123456789, 987654321) <= Number.MAX_SAFE_INTEGER)
  t.same(unresolved, ['3 F.3d 7', '5 U.S. 2'], 'no cluster, or a cluster without an opinion yet, waits for backfill')
  t.same(citedClusters, [10], 'only unique matches count toward citation_count; the own cluster is skipped')
})

t.test('html_with_citations links resolved citations and escapes plain text', async (t) => {
  const text = 'See A <B>, 1 U.S. 1 (1990); also 9 F.3d 9.'
  const html = linkCitations(text, false, [cite(11, '1 U.S. 1', [10]), cite(33, '9 F.3d 9', [])])
  t.equal(html, '<pre class="inline">See A &lt;B&gt;, <span class="citation" data-id="10"><a href="/opinion/10/case/">1 U.S. 1</a></span> (1990); also 9 F.3d 9.</pre>')
  const src = '<p>See <i>A</i>, 1 U.S. 1.</p>'
  t.equal(linkCitations(src, true, [cite(src.indexOf('1 U.S.'), '1 U.S. 1', [10, 11])]),
    '<p>See <i>A</i>, <span class="citation" data-id="10,11"><a href="/c/1%20U.S.%201/">1 U.S. 1</a></span>.</p>')
})

t.test('the richest text field is read first', async (t) => {
  t.same(sourceText({ plain_text: 'plain', html: '<p>h</p>', html_partner_a: '' }), { text: '<p>h</p>', html: true })
  t.same(sourceText({ plain_text: 'plain', html: '  ' }), { text: 'plain', html: false })
})
