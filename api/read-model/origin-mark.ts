/**
 * The request's origin in rendered texts. A rendered detail holds absolute URLs, and the origin is
 * the caller's (scheme and host): the text is stored with ORIGIN_MARK where it goes, and each
 * answer puts the request's origin there.
 */

/**
 * Stands for the request's origin in a rendered text. A valid URI prefix (URL fields are checked as
 * URIs where a schema offers several shapes: `lds-o:/api/rest/…` is one) that data does not hold,
 * and short: a docket's text holds it about 7 times, and at 34 characters (an origin under a
 * reserved domain, before) half the texts of a 1M-docket store went past LMDB's 2 KB node size
 * into overflow pages, a second page read per detail.
 */
export const ORIGIN_MARK = 'lds-o:'
const MARK = Buffer.from(ORIGIN_MARK)

/** A rendered text for a request from `origin`. */
export const withOrigin = (text: string, origin: string) => text.replaceAll(ORIGIN_MARK, origin)

/** Where the mark occurs in a text, reused between calls (a text holds it a few times). */
let marks = new Int32Array(64)

/**
 * A rendered text's UTF-8 bytes for a request from `origin` (UTF-8), in a new buffer: the detail
 * GET's path, which neither decodes the stored bytes nor encodes a string to send.
 */
export function withOriginBytes(text: Buffer, origin: Buffer): Buffer {
  let n = 0
  for (let i = text.indexOf(MARK); i >= 0; i = text.indexOf(MARK, i + MARK.length)) {
    if (n === marks.length) { const more = new Int32Array(n * 2); more.set(marks); marks = more }
    marks[n++] = i
  }
  const out = Buffer.allocUnsafe(text.length + n * (origin.length - MARK.length))
  let from = 0, to = 0
  for (let k = 0; k < n; k++) {
    to += text.copy(out, to, from, marks[k])
    to += origin.copy(out, to)
    from = marks[k] + MARK.length
  }
  text.copy(out, to, from)
  return out
}

/** Origins' bytes, kept: a host sends the same few origins (a bounded set, however many Host headers arrive). */
const originBytes = new Map<string, Buffer>()
export function originBytesOf(origin: string): Buffer {
  let b = originBytes.get(origin)
  if (b === undefined) {
    if (originBytes.size >= 256) originBytes.clear()
    b = Buffer.from(origin)
    originBytes.set(origin, b)
  }
  return b
}
