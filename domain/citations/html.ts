/**
 * HTML → plain text for matching, keeping a map back to the HTML offsets.
 *
 * Rule: tags are removed (block-level tags — p, div, br, li, td, h1…, blockquote, … — become one
 * space so words on either side stay apart; inline tags such as <i>, <em>, <a>, <span> vanish),
 * comments and the content of <script>/<style> are removed, and character references (&amp;,
 * &sect;, &#167;, &#xA7;, …) are decoded. For every UTF-16 unit of the plain text we keep the
 * offset of the HTML it came from, so a citation found at plain [s, e) is reported at
 * HTML [srcStart[s], srcEnd[e-1]) — `html.slice(start, end)` is the citation as written in the
 * HTML, including any tags inside it (e.g. `576 <i>U.S.</i> 644`).
 */

export interface StrippedHtml {
  text: string
  /** HTML offset where plain-text unit j starts */
  srcStart: Int32Array
  /** HTML offset just past the source of plain-text unit j */
  srcEnd: Int32Array
}

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', sect: '§', para: '¶',
  rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d', ldquo: '\u201c', ndash: '\u2013', mdash: '\u2014',
  hellip: '\u2026', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', copy: '©', reg: '®', shy: '\u00ad',
  middot: '·', bull: '•', laquo: '«', raquo: '»', deg: '°', frac12: '½', frac14: '¼', frac34: '¾',
}

const BLOCK = new Set([
  'p', 'div', 'br', 'hr', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'tr', 'td', 'th', 'table', 'thead', 'tbody', 'tfoot',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'section', 'article', 'header', 'footer', 'aside',
  'nav', 'main', 'figure', 'figcaption', 'center', 'address', 'body', 'html', 'head', 'title', 'caption', 'form',
])

/** True when `text` contains something that looks like an HTML tag or comment. */
export function looksLikeHtml(text: string): boolean {
  return /<(?:[A-Za-z][A-Za-z0-9]*[\s/>]|\/[A-Za-z][A-Za-z0-9]*\s*>|!--)/.test(text)
}

export function stripHtml(html: string): StrippedHtml {
  const n = html.length
  const srcStart = new Int32Array(n + 1)
  const srcEnd = new Int32Array(n + 1)
  const parts: string[] = []
  let j = 0 // plain-text length so far
  let runStart = 0 // start of the current run of copied characters
  const flushRun = (to: number) => {
    if (to > runStart) {
      parts.push(html.slice(runStart, to))
      for (let k = runStart; k < to; k++) { srcStart[j] = k; srcEnd[j] = k + 1; j++ }
    }
  }
  const emit = (s: string, from: number, to: number) => {
    parts.push(s)
    for (let k = 0; k < s.length; k++) { srcStart[j] = from; srcEnd[j] = to; j++ }
  }
  let i = 0
  while (i < n) {
    const c = html.charCodeAt(i)
    if (c === 60 /* < */) {
      const m = /^<(\/?)([A-Za-z][A-Za-z0-9]*)|^<!--|^<[!?]/.exec(html.slice(i, i + 40))
      if (!m) { i++; continue }
      flushRun(i)
      let end: number
      if (m[0] === '<!--') {
        const e = html.indexOf('-->', i + 4)
        end = e < 0 ? n : e + 3
      } else {
        end = findTagEnd(html, i)
        const name = (m[2] ?? '').toLowerCase()
        if (!m[1] && (name === 'script' || name === 'style')) {
          const closeRe = new RegExp(`</${name}`, 'gi')
          closeRe.lastIndex = end
          const close = closeRe.exec(html)
          end = close ? findTagEnd(html, close.index) : n
        }
        if (BLOCK.has(name)) emit(' ', i, end)
      }
      i = end
      runStart = i
      continue
    }
    if (c === 38 /* & */) {
      const m = /^&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/.exec(html.slice(i, i + 40))
      let decoded: string | undefined
      if (m) {
        if (m[1] || m[2]) {
          const cp = m[1] ? parseInt(m[1], 10) : parseInt(m[2], 16)
          if (cp > 0 && cp <= 0x10ffff) decoded = String.fromCodePoint(cp)
        } else if (m[0].endsWith(';')) decoded = NAMED[m[3].toLowerCase()] ?? NAMED[m[3]]
      }
      if (m && decoded !== undefined) {
        flushRun(i)
        emit(decoded, i, i + m[0].length)
        i += m[0].length
        runStart = i
        continue
      }
    }
    i++
  }
  flushRun(n)
  srcStart[j] = n
  srcEnd[j] = n
  return { text: parts.join(''), srcStart, srcEnd }
}

/** Index just past the '>' closing the tag that starts at `i`, honouring quoted attributes. */
function findTagEnd(html: string, i: number): number {
  let q = 0
  for (let k = i + 1; k < html.length; k++) {
    const c = html.charCodeAt(k)
    if (q) { if (c === q) q = 0; continue }
    if (c === 34 || c === 39) q = c
    else if (c === 62) return k + 1
  }
  return html.length
}
