/**
 * An incremental parser for PostgreSQL `COPY … TO STDOUT WITH (FORMAT csv, QUOTE '`', FORCE_QUOTE *)`
 * output: comma-separated, backtick-quoted, a backtick inside a value doubled, newlines
 * inside quoted values kept as they are, one record per line otherwise.
 *
 * What it keeps that a general CSV reader loses or makes expensive:
 * - NULL and '' apart: an unquoted empty field is null, a quoted empty field is ''.
 * - The physical line (counting '\n' only) on which every record starts.
 * - The raw text of a record, produced only when asked for (for the dead-letter file).
 * - Record-level recovery: a malformed record is returned with `error` set and parsing goes
 *   on at the next record; nothing is dropped silently.
 *
 * Feed it text with `push` (chunks may split anywhere, including inside a doubled backtick
 * or a CRLF) and call `end` once; both return the records completed so far. Memory is one
 * chunk plus the record being read, with `maxRecordChars` as a ceiling: a record longer than
 * that is reported as an error and its content is discarded while reading on to its end.
 */

const BT = 96 // `
const COMMA = 44
const LF = 10
const CR = 13

const START = 0 // at the start of a field
const QUOTED = 1 // inside a quoted field
const QUOTE_SEEN = 2 // just read a backtick inside a quoted field: closing quote or first half of ``
const QUOTE_SEEN_CR = 3 // closing quote followed by '\r': expecting '\n'
const UNQUOTED = 4 // inside an unquoted field

export interface ParsedRecord {
  fields: (string | null)[]
  /** 1-based physical line where the record starts. */
  line: number
  /** Why the record is malformed (first problem found); undefined when it is well formed. */
  error?: string
  /** Where the raw text lives; read it with `rawOf`. */
  rawPrefix: string[] | undefined
  rawCut: boolean
  rawChunk: string
  rawStart: number
  rawEnd: number
}

export interface ParserOptions {
  /** A record longer than this (in characters) is refused. Default 256 Mi characters. */
  maxRecordChars?: number
  /** How much raw text `rawOf` keeps for a record. Default 64 Ki characters. */
  maxRawChars?: number
}

export class CopyCsvParser {
  private readonly maxRecordChars: number
  private readonly maxRawChars: number
  private state = START
  private inRecord = false
  private fields: (string | null)[] = []
  private cur = ''
  private recChars = 0
  private discarding = false
  private error: string | undefined
  private recLine = 1
  private rawPrefix: string[] | undefined
  private rawPrefixChars = 0
  private rawCut = false
  private rawStart = 0
  // Line counting: `line` is the line number at `countedPos` of the current chunk.
  private line = 1
  private countedPos = 0
  private chunk = ''
  private ended = false

  constructor(opts: ParserOptions = {}) {
    this.maxRecordChars = opts.maxRecordChars ?? 256 * 1024 * 1024
    this.maxRawChars = opts.maxRawChars ?? 64 * 1024
  }

  /** The raw text of a record (without its line terminator), cut at `maxRawChars`. */
  rawOf(r: ParsedRecord): { raw: string; truncated: boolean } {
    let raw = (r.rawPrefix ? r.rawPrefix.join('') : '') + r.rawChunk.slice(r.rawStart, r.rawEnd)
    if (raw.endsWith('\r')) raw = raw.slice(0, -1)
    const truncated = r.rawCut || raw.length > this.maxRawChars
    return { raw: truncated ? raw.slice(0, this.maxRawChars) : raw, truncated }
  }

  private lineAt(p: number): number {
    const s = this.chunk
    for (;;) {
      const i = s.indexOf('\n', this.countedPos)
      if (i === -1 || i >= p) break
      this.line++
      this.countedPos = i + 1
    }
    return this.line
  }

  private fail(reason: string) {
    if (this.error === undefined) this.error = reason
  }

  private append(s: string) {
    if (this.discarding) return
    this.recChars += s.length
    if (this.recChars > this.maxRecordChars) {
      this.fail(`record longer than ${this.maxRecordChars} characters`)
      this.discarding = true
      this.cur = ''
      this.fields = []
      return
    }
    this.cur += s
  }

  private pushField(v: string | null) {
    if (!this.discarding) this.fields.push(v)
    this.cur = ''
  }

  private endRecord(out: ParsedRecord[], end: number) {
    out.push({
      fields: this.fields, line: this.recLine, error: this.error,
      rawPrefix: this.rawPrefix, rawCut: this.rawCut, rawChunk: this.chunk, rawStart: this.rawStart, rawEnd: end,
    })
    this.inRecord = false
    this.fields = []
    this.cur = ''
    this.recChars = 0
    this.discarding = false
    this.error = undefined
    this.rawPrefix = undefined
    this.rawPrefixChars = 0
    this.rawCut = false
  }

  push(text: string): ParsedRecord[] {
    if (this.ended) throw new Error('push after end')
    const out: ParsedRecord[] = []
    const s = text
    const len = s.length
    this.chunk = s
    this.countedPos = 0
    this.rawStart = 0
    let pos = 0
    while (pos < len) {
      switch (this.state) {
        case START: {
          if (!this.inRecord) {
            this.inRecord = true
            this.recLine = this.lineAt(pos)
            this.rawStart = pos
          }
          if (s.charCodeAt(pos) === BT) {
            this.state = QUOTED
            pos++
          } else {
            this.state = UNQUOTED
          }
          break
        }
        case QUOTED: {
          const q = s.indexOf('`', pos)
          if (q === -1) {
            this.append(s.slice(pos))
            pos = len
          } else {
            if (q > pos) this.append(s.slice(pos, q))
            pos = q + 1
            this.state = QUOTE_SEEN
          }
          break
        }
        case QUOTE_SEEN: {
          const c = s.charCodeAt(pos)
          if (c === BT) {
            this.append('`')
            pos++
            this.state = QUOTED
          } else if (c === COMMA) {
            this.pushField(this.cur)
            pos++
            this.state = START
          } else if (c === LF) {
            this.pushField(this.cur)
            this.endRecord(out, pos)
            pos++
            this.state = START
          } else if (c === CR) {
            pos++
            this.state = QUOTE_SEEN_CR
          } else {
            // Not a closing quote after all: keep the backtick as text and stay inside the value.
            this.fail(`unexpected ${JSON.stringify(s[pos])} after a closing backtick`)
            this.append('`')
            this.state = QUOTED
          }
          break
        }
        case QUOTE_SEEN_CR: {
          if (s.charCodeAt(pos) === LF) {
            this.pushField(this.cur)
            this.endRecord(out, pos)
            pos++
            this.state = START
          } else {
            this.fail('carriage return after a closing backtick')
            this.append('`\r')
            this.state = QUOTED
          }
          break
        }
        case UNQUOTED: {
          let i = pos
          let c = 0
          for (; i < len; i++) {
            c = s.charCodeAt(i)
            if (c === COMMA || c === LF) break
            if (c === BT) this.fail('backtick inside an unquoted field')
          }
          if (i > pos) this.append(s.slice(pos, i))
          if (i === len) {
            pos = len
            break
          }
          let v = this.cur
          if (c === LF && v.endsWith('\r')) v = v.slice(0, -1)
          this.pushField(v === '' ? null : v)
          if (c === LF) this.endRecord(out, i)
          pos = i + 1
          this.state = START
          break
        }
      }
    }
    // Carry the unfinished record's raw text (up to the raw limit) and the line count over.
    if (this.inRecord && !this.rawCut) {
      const room = this.maxRawChars - this.rawPrefixChars
      if (len - this.rawStart > room) this.rawCut = true
      const piece = s.slice(this.rawStart, this.rawStart + room)
      ;(this.rawPrefix ??= []).push(piece)
      this.rawPrefixChars += piece.length
    }
    this.lineAt(len) // count the rest of the chunk's newlines
    return out
  }

  /** Finish: the last record when the text does not end with a newline, or a dangling quote. */
  end(): ParsedRecord[] {
    if (this.ended) return []
    this.ended = true
    const out: ParsedRecord[] = []
    this.chunk = ''
    this.rawStart = 0
    if (!this.inRecord) return out
    switch (this.state) {
      case START: this.pushField(null); break // the text ended just after a comma
      case QUOTED: this.fail('unterminated backtick quote at end of file'); this.pushField(this.cur); break
      case QUOTE_SEEN: case QUOTE_SEEN_CR: this.pushField(this.cur); break
      case UNQUOTED: this.pushField(this.cur.endsWith('\r') ? this.cur.slice(0, -1) || null : this.cur || null); break
    }
    this.endRecord(out, 0)
    return out
  }
}
