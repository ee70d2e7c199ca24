import t from 'tap'
import { readFileSync } from 'node:fs'
import Fastify, { type FastifyInstance } from 'fastify'
import { installErrorHandling } from '../../../api/plugins/errors.js'
import { installNegotiation } from '../../../api/plugins/negotiation.js'
import { escapeHtml, jsonToHtml, renderBrowsable, withFormat, type EndpointDescription } from '../../../api/render/html.js'
import { projectFile } from '../../../core/programs.js'

const reference = JSON.parse(readFileSync(projectFile('test/fixtures/reference/options-v4.json'), 'utf8')) as Record<string, EndpointDescription>
const dockets: EndpointDescription = {
  ...reference.dockets, description: 'Dockets of U.S. courts.\nFilter with the form.',
}
const opinions: EndpointDescription = { name: 'Opinion List', description: '', filters: { type: reference.opinions.filters!.type, cluster: reference.opinions.filters!.cluster }, ordering: ['id'] }

const EVIL = '<script>alert("pwned")</script>'
function listPage(origin: string) {
  return {
    count: 2,
    next: `${origin}/api/rest/v4/dockets/?court=scotus&page=2`,
    previous: null,
    results: [
      { resource_uri: `${origin}/api/rest/v4/dockets/1/`, id: 1, court: `${origin}/api/rest/v4/courts/scotus/`, case_name: EVIL, homepage: 'javascript:alert(1)', blocked: false, date_filed: '2024-01-02' },
      { resource_uri: `${origin}/api/rest/v4/dockets/2/`, id: 2, court: `${origin}/api/rest/v4/courts/scotus/`, case_name: 'Smith v. "Jones" & Co.', note: `see ${origin}/x and more`, blocked: true, date_filed: null },
    ],
  }
}

async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify()
  installErrorHandling(app)
  installNegotiation(app)
  app.get('/api/rest/v4/dockets/', { config: { describe: () => dockets } }, async (req) => listPage(`${req.protocol}://${req.host}`))
  app.options('/api/rest/v4/dockets/', async () => dockets)
  app.get('/api/rest/v4/opinions/', { config: { describe: opinions } }, async () => ({ count: 0, next: null, previous: null, results: [] }))
  app.get('/api/rest/v4/', async () => ({ dockets: 'http://localhost/api/rest/v4/dockets/' }))
  await app.ready()
  return app
}

async function page(app: FastifyInstance, url: string): Promise<string> {
  const res = await app.inject({ url, headers: { accept: 'text/html' } })
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  return res.body
}

t.test('title, description, request line, status and headers', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const html = await page(app, '/api/rest/v4/dockets/?court=scotus')
  t.match(html, '<title>Docket List – Legal Data API</title>')
  t.match(html, '<h1>Docket List</h1>')
  t.match(html, '<p class="description">Dockets of U.S. courts.\nFilter with the form.</p>')
  t.match(html, '<span class="method">GET</span> /api/rest/v4/dockets/?court=scotus</pre>')
  t.match(html, '<b>HTTP 200 OK</b>')
  t.match(html, '<b>Allow:</b> GET, HEAD, OPTIONS')
  t.match(html, '<b>Content-Type:</b> application/json')
  t.match(html, '<b>Vary:</b> Accept')
  t.match(html, '<li><a href="/api/rest/v4/?format=api">Api Root</a></li><li class="active">Dockets</li>', 'breadcrumbs')
  t.notMatch(html, /<(link|img|iframe)\b|src=|@import/, 'no external assets')
})

t.test('data is escaped: markup in a case name shows as text', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const html = await page(app, '/api/rest/v4/dockets/')
  t.notMatch(html, '<script>alert', 'no script element from data')
  t.match(html, '&quot;&lt;script&gt;alert(\\&quot;pwned\\&quot;)&lt;/script&gt;&quot;')
  t.match(html, '&quot;Smith v. \\&quot;Jones\\&quot; &amp; Co.&quot;')
  t.equal((html.match(/<script>/g) ?? []).length, 1, 'only the page’s own script')
  t.equal(escapeHtml(`<a href='x'>"&"</a>`), '&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;')
  // Hostile keys, request paths and descriptions are escaped too.
  const own = renderBrowsable({
    method: 'GET', url: '/api/rest/v4/x/?q="><script>x</script>', status: 200, statusText: 'OK', headers: [['X-Evil', '<i>']],
    body: { '<img src=x onerror=alert(1)>': 1 }, description: { name: '</title><script>1</script>', description: '<b>bold</b>', filters: { '"><svg>': { type: 'CharFilter', lookup_types: ['exact'] } } },
  })
  t.equal((own.match(/<script/g) ?? []).length, 1, 'no injected script')
  t.notMatch(own, /<img|<svg|<b>bold|<i>/)
  t.match(own, '&lt;img src=x onerror=alert(1)&gt;')
})

t.test('URL strings are links, other strings are not', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const html = await page(app, '/api/rest/v4/dockets/')
  t.match(html, /<a class="s" href="http:\/\/localhost:80\/api\/rest\/v4\/dockets\/1\/" rel="nofollow">&quot;http:\/\/localhost:80\/api\/rest\/v4\/dockets\/1\/&quot;<\/a>/)
  t.match(html, '<a class="s" href="http://localhost:80/api/rest/v4/courts/scotus/"')
  t.notMatch(html, 'href="javascript:', 'only http(s) becomes a link')
  t.notMatch(html, /href="see /, 'a sentence containing a URL is not a link')
  t.equal(jsonToHtml({ a: 'https://x.test/?a=1&b="2"' }), '{\n    <span class="k">&quot;a&quot;</span>: <span class="s">&quot;https://x.test/?a=1&amp;b=\\&quot;2\\&quot;&quot;</span>\n}', 'a quote in a URL disqualifies it')
  t.equal(jsonToHtml({ a: 'https://x.test/?a=1&b=2' }), '{\n    <span class="k">&quot;a&quot;</span>: <a class="s" href="https://x.test/?a=1&amp;b=2" rel="nofollow">&quot;https://x.test/?a=1&amp;b=2&quot;</a>\n}')
})

t.test('format links, OPTIONS block and pagination', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const html = await page(app, '/api/rest/v4/dockets/?court=scotus&format=api')
  t.match(html, '<a class="btn" id="format-json" href="/api/rest/v4/dockets/?court=scotus&amp;format=json">JSON</a>')
  t.match(html, '<a class="btn" id="format-xml" href="/api/rest/v4/dockets/?court=scotus&amp;format=xml">XML</a>')
  t.match(html, '<button type="button" class="btn" id="options-button">OPTIONS</button>')
  t.match(html, /<details class="panel" id="options"><summary>OPTIONS<\/summary><pre>\{\n {4}<span class="k">&quot;name&quot;<\/span>: <span class="s">&quot;Docket List&quot;<\/span>/)
  t.match(html, '<a class="btn" rel="next" href="http://localhost:80/api/rest/v4/dockets/?court=scotus&amp;page=2">Next &raquo;</a>')
  t.match(html, '<span class="btn disabled">&laquo; Previous</span>')
  t.equal(withFormat('/a/?format=api&x=1', 'json'), '/a/?x=1&format=json')
  t.equal(withFormat('/a/?format=api', null), '/a/')
  t.equal(withFormat('/a/?fields=id,name&q=a%20b&format=xml&format=api', 'json'), '/a/?fields=id,name&q=a%20b&format=json', 'other parameters untouched')
  // A page without next/previous has no pager; a route without description no OPTIONS or form.
  const root = await page(app, '/api/rest/v4/')
  t.notMatch(root, 'class="pager"')
  t.notMatch(root, 'id="options"')
  t.notMatch(root, '<form')
  t.match(root, '<title>Legal Data API – Legal Data API</title>')
})

t.test('the filter form: one field per filter, choices as selects, ordering, current values kept', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const html = await page(app, '/api/rest/v4/dockets/?court=scotus&date_filed__gte=2020-01-01&order_by=-date_filed&fields=id,case_name&page=3&format=api')
  const form = /<form id="filter-form" method="get" action="\/api\/rest\/v4\/dockets\/">[\s\S]*?<\/form>/.exec(html)?.[0] ?? ''
  t.ok(form, 'a GET form to the same path')
  t.match(form, '<input type="hidden" name="format" value="api">')
  t.match(form, '<input type="hidden" name="fields" value="id,case_name">', 'other parameters are kept')
  t.notMatch(form, 'name="page"', 'paging restarts')
  for (const name of Object.keys(dockets.filters!)) t.match(form, `id="f-${name}"`, `a field for ${name}`)
  // Related filter: a text input carrying the current value and the hint.
  t.match(form, `<input type="text" id="f-court" name="court" data-base="court" value="scotus" placeholder="id" title="See available filters for &#39;Courts&#39;">`)
  // A lookup chosen in the URL selects it and names the input after it.
  t.match(form, /<input type="text" id="f-date_filed" name="date_filed__gte" data-base="date_filed" value="2020-01-01" placeholder="YYYY-MM-DD"/)
  t.match(form, /<select class="lookup" data-for="f-date_filed"[^>]*><option value="exact">exact<\/option><option value="gte" selected>gte<\/option>/)
  // A choice filter is a select with its choices.
  const source = /<select id="f-source" name="source"[^>]*>([\s\S]*?)<\/select>/.exec(form)?.[1] ?? ''
  t.equal((source.match(/<option/g) ?? []).length, reference.dockets.filters!.source.choices!.length + 1)
  const first = reference.dockets.filters!.source.choices![0]
  t.match(source, `<option value="${escapeHtml(String(first.value))}">${escapeHtml(String(first.display_name))}</option>`)
  t.match(form, /<select id="f-blocked" name="blocked"[^>]*><option value="" selected>---------<\/option><option value="true">Yes<\/option><option value="false">No<\/option><\/select>/)
  // Ordering: default plus each field both ways, the current one selected.
  const ordering = /<select id="f-order_by" name="order_by">([\s\S]*?)<\/select>/.exec(form)?.[1] ?? ''
  t.equal((ordering.match(/<option/g) ?? []).length, 1 + 2 * dockets.ordering!.length)
  t.match(ordering, '<option value="-date_filed" selected>date_filed - descending</option>')
  t.match(ordering, '<option value="id">id - ascending</option>')
  // Multiple choice filters allow several values.
  const op = await page(app, '/api/rest/v4/opinions/?type=010combined&type=040dissent')
  t.match(op, /<select id="f-type" name="type" title="MultipleChoiceFilter" multiple size="5">/)
  t.match(op, '<option value="010combined" selected>Combined Opinion</option>')
  t.match(op, '<option value="040dissent" selected>Dissent</option>')
  t.match(op, '<option value="020lead">Lead Opinion</option>')
})

t.test('an instance endpoint has no filter form but keeps its OPTIONS block', async (t) => {
  const html = renderBrowsable({
    method: 'GET', url: '/api/rest/v4/dockets/1/', status: 404, statusText: 'Not Found', headers: [], body: { detail: 'No Docket matches the given query.' },
    description: { ...dockets, name: 'Docket Instance' },
  })
  t.notMatch(html, '<form')
  t.match(html, 'id="options"')
  t.match(html, '<b class="status-error">HTTP 404 Not Found</b>')
})

t.test('a 20-row page of large opinions renders quickly', async (t) => {
  const text = '<p>Held: § 1983 & "due process".</p>\n'.repeat(15_000)
  const body = { count: 20, next: null, previous: null, results: Array.from({ length: 20 }, (_, i) => ({ id: i, resource_uri: `https://x.test/api/rest/v4/opinions/${i}/`, html_with_citations: text })) }
  const t0 = performance.now()
  const html = renderBrowsable({ method: 'GET', url: '/api/rest/v4/opinions/', status: 200, statusText: 'OK', headers: [], body })
  const ms = Math.round(performance.now() - t0)
  t.ok(html.length > 20 * text.length, 'all text is there')
  t.ok(ms < 3000, `${(20 * text.length / 1e6).toFixed(1)} MB of text in ${ms} ms`)
})
