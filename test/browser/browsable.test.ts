/**
 * The browsable API in a real browser: a small app with the negotiation plugin and a realistic
 * list endpoint, opened in headless Chromium. Saves a screenshot to .data/screenshots/browsable-api.png (docs/browsable-api.png with LDS_UPDATE_DOCS=1).
 */
import t from 'tap'
import { mkdirSync, readFileSync } from 'node:fs'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { installErrorHandling } from '../../api/plugins/errors.js'
import { installNegotiation } from '../../api/plugins/negotiation.js'
import type { EndpointDescription } from '../../api/render/html.js'
import { LdsError } from '../../core/errors.js'
import { launchBrowser } from '../helpers/browser.js'
import { projectFile } from '../../core/programs.js'
import path from 'node:path'

const reference = JSON.parse(readFileSync(projectFile('test/fixtures/reference/options-v4.json'), 'utf8')) as Record<string, EndpointDescription>
const listDescription: EndpointDescription = {
  ...reference.dockets,
  description: 'Dockets of federal and state courts: the case, its court, number, dates and the people involved.',
}
const detailDescription: EndpointDescription = { ...listDescription, name: 'Docket Instance' }

const COURTS = ['scotus', 'ca9', 'ca2', 'nysd', 'cand']
const NAMES = ['Marbury v. Madison', 'Brown v. Board of Education', 'Miranda v. Arizona', 'Gideon v. Wainwright', 'Roe v. Wade',
  'Tinker v. Des Moines', 'Mapp v. Ohio', 'Loving v. Virginia', 'Katz v. United States', 'Terry v. Ohio']
const XSS_NAME = '<script>window.__pwned = 1</script> v. <img src=x onerror="window.__pwned = 2">'

interface Docket { id: number; court_id: string; case_name: string; docket_number: string; date_filed: string }
const DOCKETS: Docket[] = Array.from({ length: 137 }, (_, i) => ({
  id: 9000 - i,
  court_id: COURTS[i % COURTS.length],
  case_name: i === 1 ? XSS_NAME : `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` (${Math.floor(i / NAMES.length) + 1})` : ''}`,
  docket_number: `${20 + (i % 5)}-${1000 + i}`,
  date_filed: `20${String(10 + (i % 15)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
}))

function toJson(d: Docket, origin: string) {
  return {
    resource_uri: `${origin}/api/rest/v4/dockets/${d.id}/`,
    id: d.id,
    court: `${origin}/api/rest/v4/courts/${d.court_id}/`,
    court_id: d.court_id,
    clusters: [`${origin}/api/rest/v4/clusters/${d.id * 3}/`],
    case_name: d.case_name,
    docket_number: d.docket_number,
    date_filed: d.date_filed,
    blocked: false,
    absolute_url: `/docket/${d.id}/${d.case_name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}/`,
  }
}

/** A page-number list honouring court, date_filed__gte and order_by, 20 per page. */
function list(req: FastifyRequest) {
  const url = new URL(req.url, `http://${req.host}`)
  const origin = `${req.protocol}://${req.host}`
  const q = url.searchParams
  let rows = DOCKETS.filter((d) => (!q.get('court') || d.court_id === q.get('court')) && (!q.get('date_filed__gte') || d.date_filed >= q.get('date_filed__gte')!))
  const order = q.get('order_by') ?? '-id'
  const field = order.replace(/^-/, '') as keyof Docket
  rows = [...rows].sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0) * (order.startsWith('-') ? -1 : 1))
  const pageNo = Number(q.get('page') ?? '1')
  const at = (n: number) => { const u = new URL(url.toString().replace(`http://${req.host}`, origin)); u.searchParams.set('page', String(n)); return u.toString() }
  return {
    count: rows.length,
    next: pageNo * 20 < rows.length ? at(pageNo + 1) : null,
    previous: pageNo > 1 ? at(pageNo - 1) : null,
    results: rows.slice((pageNo - 1) * 20, pageNo * 20).map((d) => toJson(d, origin)),
  }
}

async function startApp(): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify()
  installErrorHandling(app)
  installNegotiation(app)
  app.get('/api/rest/v4/dockets/', { config: { describe: listDescription } }, async (req) => list(req))
  app.get('/api/rest/v4/dockets/:id/', { config: { describe: detailDescription } }, async (req) => {
    const d = DOCKETS.find((x) => String(x.id) === (req.params as { id: string }).id)
    if (!d) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'No Docket matches the given query.' })
    return toJson(d, `${req.protocol}://${req.host}`)
  })
  app.options('/api/rest/v4/dockets/', async () => listDescription)
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, base }
}

t.test('the browsable API in headless Chromium', async (t) => {
  const { app, base } = await startApp()
  t.teardown(() => app.close())
  const context = await launchBrowser(t)
  const page = await context.newPage()
  const response = await page.goto(`${base}/api/rest/v4/dockets/`)
  t.equal(response?.status(), 200)
  t.match(response?.headers()['content-type'], /^text\/html; charset=utf-8/, 'a browser’s own Accept header gets HTML')
  t.equal(await page.title(), 'Docket List – Legal Data API')
  t.equal(await page.locator('h1').textContent(), 'Docket List')
  t.match(await page.locator('.request').textContent(), 'GET /api/rest/v4/dockets/')

  await t.test('data cannot inject markup', async (t) => {
    t.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no script from data ran')
    t.equal(await page.locator('.response img').count(), 0)
    t.match(await page.locator('.response').textContent(), XSS_NAME.replace(/"/g, '\\"'), 'shown as text')
  })

  await t.test('a result URL is a link that navigates', async (t) => {
    const link = page.locator('.response a', { hasText: `${base}/api/rest/v4/dockets/8999/` }).first()
    t.equal(await link.getAttribute('href'), `${base}/api/rest/v4/dockets/8999/`)
    await link.click()
    await page.waitForURL(`${base}/api/rest/v4/dockets/8999/`)
    t.equal(await page.locator('h1').textContent(), 'Docket Instance')
    t.match(await page.locator('.response').textContent(), '"id": 8999')
    await page.goBack()
    await page.waitForURL(`${base}/api/rest/v4/dockets/`)
  })

  await t.test('the next link pages on', async (t) => {
    await page.locator('a[rel="next"]').first().click()
    await page.waitForURL(/page=2/)
    t.match(await page.locator('.request').textContent(), 'page=2')
    t.equal(await page.locator('a[rel="prev"]').count(), 2)
    await page.goBack()
    await page.waitForURL(`${base}/api/rest/v4/dockets/`)
  })

  await t.test('the filter form submits with GET and the URL carries the filters', async (t) => {
    t.equal(await page.locator('#filter-form input[type=text], #filter-form select:not(.lookup)').count(), Object.keys(listDescription.filters!).length + 1, 'one field per filter, plus ordering')
    await page.fill('#f-court', 'scotus')
    await page.selectOption('select.lookup[data-for="f-date_filed"]', 'gte')
    await page.fill('#f-date_filed', '2015-01-01')
    await page.selectOption('#f-order_by', '-date_filed')
    await page.click('#filter-form button[type=submit]')
    await page.waitForURL(/court=scotus/)
    const url = new URL(page.url())
    t.equal(url.pathname, '/api/rest/v4/dockets/')
    t.same([...url.searchParams].sort(), [['court', 'scotus'], ['date_filed__gte', '2015-01-01'], ['format', 'api'], ['order_by', '-date_filed']].sort(), 'empty fields are left out')
    const body = JSON.parse(await page.evaluate(async () => (await fetch(location.href.replace('format=api', 'format=json'))).text())) as { results: { court_id: string; date_filed: string }[] }
    t.ok(body.results.length > 0)
    t.ok(body.results.every((r) => r.court_id === 'scotus' && r.date_filed >= '2015-01-01'), 'the endpoint applied them')
    t.equal(await page.inputValue('#f-court'), 'scotus', 'the form shows the current filters')
    t.equal(await page.inputValue('select.lookup[data-for="f-date_filed"]'), 'gte')
    t.match(await page.locator('.request').textContent(), 'court=scotus')
  })

  await t.test('OPTIONS, JSON and XML renderings of the same URL', async (t) => {
    await page.click('#options-button')
    t.equal(await page.locator('#options').getAttribute('open'), '', 'the OPTIONS block opens')
    t.match(await page.locator('#options pre').textContent(), '"name": "Docket List"')
    const json = await page.locator('#format-json').getAttribute('href')
    const xmlHref = await page.locator('#format-xml').getAttribute('href')
    t.match(json, /format=json/)
    t.match(xmlHref, /format=xml/)
    const check = await page.evaluate(async (href) => {
      const res = await fetch(href!)
      const doc = new DOMParser().parseFromString(await res.text(), 'application/xml')
      return { type: res.headers.get('content-type'), error: doc.querySelector('parsererror')?.textContent ?? null, root: doc.documentElement.nodeName, items: doc.querySelectorAll('results > list-item').length }
    }, xmlHref)
    t.same(check, { type: 'application/xml; charset=utf-8', error: null, root: 'root', items: check.items })
    t.ok(check.items > 0, 'the browser parses the XML')
  })

  // The checked-in picture (docs/) changes only when asked for; a run leaves its own under .data/.
  const folder = projectFile(process.env.LDS_UPDATE_DOCS === '1' ? 'docs' : '.data/screenshots')
  mkdirSync(folder, { recursive: true })
  await page.goto(`${base}/api/rest/v4/dockets/?court=scotus&order_by=-date_filed`)
  await page.screenshot({ path: path.join(folder, 'browsable-api.png') })
})
