/**
 * The browsable API: one self-contained HTML page (inline CSS, a few lines of inline JS, no
 * external assets) showing a response the way users of the reference's browsable API know it:
 *
 * - the endpoint's name as title and its description;
 * - the request line (`GET /api/rest/v4/dockets/?court=scotus`);
 * - the status line and main headers, then the body as JSON indented by 4, in which every
 *   http(s) URL string is a link;
 * - links to the same URL as JSON and XML, and the OPTIONS description in a collapsible block;
 * - previous/next links when the body has them;
 * - a filter form built from the description's `filters` and `ordering`, submitted with GET
 *   to the same path with `format=api` (not on an "… Instance" endpoint: filters narrow lists).
 *
 * Everything taken from the data or the request is escaped; only http and https URLs become
 * links. The page is a pure function of a `BrowsablePage`, so it is tested without a server.
 */

export interface FilterDescription {
  type?: string
  lookup_types?: string[] | string
  choices?: { value: unknown; display_name?: unknown }[]
}

/** The OPTIONS output of an endpoint (the keys the page uses; the rest is shown as is). */
export interface EndpointDescription {
  name?: string
  description?: string
  filters?: Record<string, FilterDescription>
  ordering?: string[]
  [key: string]: unknown
}

export interface BrowsablePage {
  method: string
  /** Path and query as requested. */
  url: string
  status: number
  statusText: string
  /** Response headers to show, in order. */
  headers: [string, string][]
  body: unknown
  description?: EndpointDescription
  /** The service's name, shown in the bar and the title. */
  siteName?: string
}

const HTML_SPECIAL = /[&<>"']/

/** Escapes text for element content and double- or single-quoted attributes. */
export function escapeHtml(s: string): string {
  if (!HTML_SPECIAL.test(s)) return s
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

const LINKABLE = /^https?:\/\/[^\s<>"]+$/i

/** True for strings shown as links: an absolute http(s) URL and nothing else. */
export function isLinkable(s: string): boolean {
  return s.length < 4096 && LINKABLE.test(s)
}

const INDENT = '    '

function jsonValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') return (v as { toJSON(): unknown }).toJSON()
  return v
}

/** JSON indented by 4 as HTML: strings, numbers and keys in spans, URL strings as links. */
export function jsonToHtml(value: unknown): string {
  const out: string[] = []
  write(out, jsonValue(value), '')
  return out.join('')
}

function write(out: string[], v: unknown, pad: string): void {
  if (v === null || v === undefined) { out.push('<span class="n">null</span>'); return }
  switch (typeof v) {
    case 'string': {
      const text = escapeHtml(JSON.stringify(v))
      if (isLinkable(v)) out.push(`<a class="s" href="${escapeHtml(v)}" rel="nofollow">${text}</a>`)
      else out.push(`<span class="s">${text}</span>`)
      return
    }
    case 'number': out.push(`<span class="m">${Number.isFinite(v) ? String(v) : 'null'}</span>`); return
    case 'bigint': out.push(`<span class="m">${v.toString()}</span>`); return
    case 'boolean': out.push(`<span class="b">${v}</span>`); return
    case 'object': break
    default: out.push('<span class="n">null</span>'); return
  }
  const inner = pad + INDENT
  if (Array.isArray(v)) {
    if (!v.length) { out.push('[]'); return }
    out.push('[\n')
    v.forEach((item, i) => {
      out.push(inner)
      write(out, jsonValue(item), inner)
      out.push(i < v.length - 1 ? ',\n' : '\n')
    })
    out.push(pad, ']')
    return
  }
  const entries = Object.entries(v as object).filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol')
  if (!entries.length) { out.push('{}'); return }
  out.push('{\n')
  entries.forEach(([k, x], i) => {
    out.push(inner, `<span class="k">${escapeHtml(JSON.stringify(k))}</span>: `)
    write(out, jsonValue(x), inner)
    out.push(i < entries.length - 1 ? ',\n' : '\n')
  })
  out.push(pad, '}')
}

/** The same URL with `format` set (or removed, for null); the other parameters keep their encoding. */
export function withFormat(url: string, format: string | null): string {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  const parts = q < 0 ? [] : url.slice(q + 1).split('&').filter((p) => p && p !== 'format' && !p.startsWith('format='))
  if (format) parts.push(`format=${encodeURIComponent(format)}`)
  return parts.length ? `${path}?${parts.join('&')}` : path
}

function splitUrl(url: string): { path: string; params: URLSearchParams } {
  const q = url.indexOf('?')
  return { path: q < 0 ? url : url.slice(0, q), params: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) }
}

/** Links for each level of the path below the API root: Api Root / Dockets / 123. */
function breadcrumbs(path: string): string {
  const m = /^(\/api\/rest\/v\d+\/)(.*)$/.exec(path)
  if (!m) return ''
  const crumbs: [string, string][] = [['Api Root', m[1]]]
  let acc = m[1]
  for (const seg of m[2].split('/').filter(Boolean)) {
    acc += `${seg}/`
    let label = seg
    try { label = decodeURIComponent(seg) } catch { /* shown as sent */ }
    crumbs.push([label.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()), acc])
  }
  return crumbs.map(([label, href], i) => i === crumbs.length - 1
    ? `<li class="active">${escapeHtml(label)}</li>`
    : `<li><a href="${escapeHtml(withFormat(href, 'api'))}">${escapeHtml(label)}</a></li>`).join('')
}

const PLACEHOLDERS: Record<string, string> = {
  DateFilter: 'YYYY-MM-DD', IsoDateTimeFilter: 'YYYY-MM-DDThh:mm:ss', DateTimeFilter: 'YYYY-MM-DDThh:mm:ss',
  NumberFilter: 'number', RelatedFilter: 'id',
}

const FRAMEWORK_NOT_KEPT = new Set(['format', 'page', 'cursor', 'order_by'])

/** The filter form: one field per filter, an ordering select, and the other current params kept hidden. */
function filterForm(path: string, params: URLSearchParams, d: EndpointDescription): string {
  const filters = d.filters ?? {}
  const ordering = Array.isArray(d.ordering) ? d.ordering : []
  if (!Object.keys(filters).length && !ordering.length) return ''
  const covered = new Set<string>()
  const rows: string[] = []
  for (const [name, f] of Object.entries(filters)) {
    const id = `f-${name}`
    const label = `<label for="${escapeHtml(id)}">${escapeHtml(name)}</label>`
    const type = typeof f.type === 'string' ? f.type : ''
    const hint = typeof f.lookup_types === 'string' ? f.lookup_types : type
    covered.add(name)
    if (Array.isArray(f.choices) && f.choices.length) {
      const multiple = type === 'MultipleChoiceFilter'
      const current = new Set(params.getAll(name))
      const options = f.choices.map((c) => {
        const value = String(c.value)
        const text = c.display_name === undefined ? value : String(c.display_name)
        return `<option value="${escapeHtml(value)}"${current.has(value) ? ' selected' : ''}>${escapeHtml(text)}</option>`
      })
      const head = multiple ? '' : '<option value="">---------</option>'
      rows.push(`<div class="field">${label}<select id="${escapeHtml(id)}" name="${escapeHtml(name)}" title="${escapeHtml(hint)}"${multiple ? ` multiple size="${Math.min(5, options.length)}"` : ''}>${head}${options.join('')}</select></div>`)
      continue
    }
    if (type === 'BooleanFilter') {
      const current = params.get(name) ?? ''
      const options = [['', '---------'], ['true', 'Yes'], ['false', 'No']].map(([v, text]) =>
        `<option value="${v}"${current.toLowerCase() === v ? ' selected' : ''}>${text}</option>`)
      rows.push(`<div class="field">${label}<select id="${escapeHtml(id)}" name="${escapeHtml(name)}" title="${escapeHtml(hint)}">${options.join('')}</select></div>`)
      continue
    }
    // A text input; when the filter has lookups, a select picks the suffix (applied on submit).
    const lookups = Array.isArray(f.lookup_types) ? f.lookup_types.map(String) : []
    let value = params.get(name) ?? ''
    let chosen = 'exact'
    for (const l of lookups) {
      const key = `${name}__${l}`
      if (l !== 'exact' && params.has(key)) { value = params.get(key) ?? ''; chosen = l; covered.add(key); break }
    }
    for (const l of lookups) covered.add(`${name}__${l}`)
    const lookupSelect = lookups.length > 1
      ? `<select class="lookup" data-for="${escapeHtml(id)}" aria-label="${escapeHtml(`${name} lookup`)}">${lookups.map((l) =>
        `<option value="${escapeHtml(l)}"${l === chosen ? ' selected' : ''}>${escapeHtml(l)}</option>`).join('')}</select>`
      : ''
    const placeholder = PLACEHOLDERS[type] ?? ''
    rows.push(`<div class="field">${label}<div class="pair"><input type="text" id="${escapeHtml(id)}" name="${escapeHtml(chosen === 'exact' ? name : `${name}__${chosen}`)}" data-base="${escapeHtml(name)}" value="${escapeHtml(value)}" placeholder="${escapeHtml(placeholder)}" title="${escapeHtml(hint)}">${lookupSelect}</div></div>`)
  }
  if (ordering.length) {
    const current = params.get('order_by') ?? ''
    const options = ['<option value="">(default)</option>']
    for (const field of ordering) {
      for (const [v, dir] of [[field, 'ascending'], [`-${field}`, 'descending']]) {
        options.push(`<option value="${escapeHtml(v)}"${current === v ? ' selected' : ''}>${escapeHtml(`${field} - ${dir}`)}</option>`)
      }
    }
    rows.push(`<div class="field"><label for="f-order_by">order_by</label><select id="f-order_by" name="order_by">${options.join('')}</select></div>`)
  }
  // Other parameters of the current request (fields, omit, page_size, ...) are kept; paging restarts.
  const hidden = ['<input type="hidden" name="format" value="api">']
  for (const [k, v] of params) {
    if (FRAMEWORK_NOT_KEPT.has(k) || covered.has(k) || covered.has(k.replace(/!$/, ''))) continue
    hidden.push(`<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
  }
  const actions = `<div class="actions"><button type="submit" class="btn primary">Apply</button> <a class="btn" href="${escapeHtml(withFormat(path, 'api'))}">Clear</a></div>`
  return `<details class="panel filters" open><summary>Filters</summary>
<form id="filter-form" method="get" action="${escapeHtml(path)}">
${hidden.join('\n')}
${actions}
${rows.join('\n')}
${actions}
</form></details>`
}

function pager(body: unknown): string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ''
  const b = body as Record<string, unknown>
  const link = (v: unknown, text: string, rel: string): string => typeof v === 'string' && isLinkable(v)
    ? `<a class="btn" rel="${rel}" href="${escapeHtml(v)}">${text}</a>`
    : `<span class="btn disabled">${text}</span>`
  if (!('next' in b) && !('previous' in b)) return ''
  return `<nav class="pager">${link(b.previous, '&laquo; Previous', 'prev')} ${link(b.next, 'Next &raquo;', 'next')}</nav>`
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#222;background:#f4f5f7}
a{color:#1b5e9b}
.bar{background:#1f2d3d;color:#fff;padding:10px 24px;font-size:16px;font-weight:600}
.bar small{font-weight:400;color:#b8c4d0;margin-left:8px}
.crumbs{list-style:none;margin:0;padding:10px 24px;background:#e6e9ee;display:flex;flex-wrap:wrap;gap:6px}
.crumbs li+li:before{content:"/";color:#888;margin-right:6px}
.crumbs .active{color:#555}
.wrap{display:flex;gap:20px;align-items:flex-start;padding:16px 24px;flex-wrap:wrap}
main{flex:1 1 640px;min-width:0}
aside{flex:0 0 320px;min-width:260px}
h1{font-size:24px;margin:4px 0 6px}
.description{white-space:pre-line;color:#444;margin:0 0 12px}
.toolbar{float:right;display:flex;gap:6px}
.btn{display:inline-block;padding:4px 12px;border:1px solid #b9c2cc;border-radius:4px;background:#fff;color:#1b5e9b;text-decoration:none;font-size:13px;cursor:pointer}
.btn.primary{background:#1b5e9b;border-color:#1b5e9b;color:#fff}
.btn.current{background:#e6eef7}
.btn.disabled{color:#999;border-color:#ddd;cursor:default}
.request,.response{background:#fff;border:1px solid #d6dbe1;border-radius:4px;margin:10px 0;padding:10px 12px;overflow:auto}
pre{margin:0;font:12.5px/1.5 Menlo,Consolas,"DejaVu Sans Mono",monospace;white-space:pre-wrap;word-break:break-word}
.method{font-weight:700;color:#1f2d3d}
.meta b{color:#1f2d3d}
.k{color:#7a3e9d}.s{color:#2a7d2e}a.s{color:#1b5e9b}.m{color:#b35c00}.b{color:#b0306a}.n{color:#888}
.pager{margin:8px 0;display:flex;gap:8px}
.panel{background:#fff;border:1px solid #d6dbe1;border-radius:4px;margin-bottom:12px}
.panel summary{padding:8px 12px;font-weight:600;cursor:pointer;background:#f0f2f5}
.panel form,.panel pre{padding:10px 12px}
.field{margin-bottom:8px}
.field label{display:block;font-size:12px;font-weight:600;color:#444;margin-bottom:2px}
.field input,.field select{width:100%;padding:4px 6px;border:1px solid #b9c2cc;border-radius:3px;font:inherit}
.pair{display:flex;gap:4px}.pair input{flex:1;min-width:0}.pair select{width:96px;flex:0 0 96px}
.actions{margin:6px 0 10px}
.meta b.status-error{color:#a61b1b}
`

// Applies the chosen lookup to each input's name and leaves empty fields out of the URL.
const SCRIPT = `
document.getElementById('filter-form')?.addEventListener('submit', function (e) {
  for (const s of this.querySelectorAll('select.lookup')) {
    const input = document.getElementById(s.dataset.for);
    input.name = s.value === 'exact' ? input.dataset.base : input.dataset.base + '__' + s.value;
  }
  for (const el of this.elements) if (el.name && !el.value && el.type !== 'submit') el.disabled = true;
});
window.addEventListener('pageshow', function () {
  for (const el of document.querySelectorAll('#filter-form [disabled]')) el.disabled = false;
});
document.getElementById('options-button')?.addEventListener('click', function () {
  const d = document.getElementById('options'); d.open = true; d.scrollIntoView();
});
`

export function renderBrowsable(page: BrowsablePage): string {
  const d = page.description
  const site = page.siteName ?? 'Legal Data API'
  const name = typeof d?.name === 'string' && d.name ? d.name : site
  const { path, params } = splitUrl(page.url)
  const version = /^\/api\/rest\/(v\d+)\//.exec(path)?.[1]
  const statusClass = page.status >= 400 ? ' class="status-error"' : ''
  const headerLines = page.headers.map(([k, v]) => `\n<b>${escapeHtml(k)}:</b> ${escapeHtml(v)}`).join('')
  const description = typeof d?.description === 'string' && d.description
    ? `<p class="description">${escapeHtml(d.description)}</p>` : ''
  const options = d ? `<details class="panel" id="options"><summary>OPTIONS</summary><pre>${jsonToHtml(d)}</pre></details>` : ''
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<title>${escapeHtml(name)} – ${escapeHtml(site)}</title>
<style>${CSS}</style>
</head>
<body>
<div class="bar">${escapeHtml(site)}${version ? `<small>REST API ${escapeHtml(version)}</small>` : ''}</div>
<ul class="crumbs">${breadcrumbs(path)}</ul>
<div class="wrap">
<main>
<div class="toolbar">
${d ? '<button type="button" class="btn" id="options-button">OPTIONS</button>' : ''}
<a class="btn" id="format-json" href="${escapeHtml(withFormat(page.url, 'json'))}">JSON</a>
<a class="btn" id="format-xml" href="${escapeHtml(withFormat(page.url, 'xml'))}">XML</a>
<a class="btn current" id="format-api" href="${escapeHtml(withFormat(page.url, 'api'))}">API</a>
</div>
<h1>${escapeHtml(name)}</h1>
${description}
<div class="request"><pre><span class="method">${escapeHtml(page.method)}</span> ${escapeHtml(page.url)}</pre></div>
${pager(page.body)}
<div class="response"><pre><span class="meta"><b${statusClass}>HTTP ${page.status} ${escapeHtml(page.statusText)}</b>${headerLines}</span>

${page.body === undefined ? '' : jsonToHtml(page.body)}</pre></div>
${pager(page.body)}
${options}
</main>
<aside>
${d && !/ Instance$/.test(name) ? filterForm(path, params, d) : ''}
</aside>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`
}
