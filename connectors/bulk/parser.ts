/**
 * An incremental parser for PostgreSQL `COPY … TO STDOUT WITH (FORMAT csv, …)` output in the
 * three dialects the reference's bulk files were written in (see `Dialect`): comma-separated,
 * one record per line, newlines and carriage returns inside quoted values kept as they are.
 *
 * What it keeps that a general CSV reader loses or makes expensive:
 * - NULL and '' apart: an unquoted empty field is null, a quoted empty field is ''.
 * - The physical line (counting '\n' only) on which every record starts.
 * - The raw text of a record, produced only when asked for (for the dead-letter file).
 * - Record-level recovery: a malformed record is returned with `error` set and parsing goes
 *   on at the next record; nothing is dropped silently.
 *
 * Feed it text with `push` (chunks may split anywhere, including inside a doubled quote, between
 * an escape character and what it escapes, or inside a CRLF) and call `end` once; both return
 * the records completed so far. Memory is one chunk plus the record being read, with
 * `maxRecordChars` as a ceiling: a record longer than that is reported as an error and its
 * content is discarded while reading on to its end.
 */

/**
 * How a bulk file quotes its values:
 * - `backslash`: `ESCAPE '\', FORCE_QUOTE *` (the current files): `"` quotes; inside quotes `\"`
 *   is `"` and `\\` is `\`, a `\` before anything else is itself, and `""` is also `"`.
 * - `backtick`: a backtick as QUOTE, no ESCAPE (2024-07 to 2025-01): a backtick inside a value is doubled.
 * - `csv`: plain CSV (before 2024-07): `"` quotes, a `"` inside a value is doubled, `\` is an
 *   ordinary character.
 * Outside quotes no character is special but the comma and the line end, in every dialect.
 */
export type Dialect = 'backslash' | 'backtick' | 'csv'

const BT = 96 // `
const DQ = 34 // "
const BACKSLASH = 92 // \
const COMMA = 44
const LF = 10
const CR = 13

const START = 0 // at the start of a field
const QUOTED = 1 // inside a quoted field
const QUOTE_SEEN = 2 // just read a quote inside a quoted field: closing quote or first half of a doubled one
const QUOTE_SEEN_CR = 3 // closing quote followed by '\r': expecting '\n'
const UNQUOTED = 4 // inside an unquoted field
const ESCAPE_SEEN = 5 // the chunk ended on an escape character inside a quoted field

interface DialectRules {
  quote: string
  quoteCode: number
  /** The escape character, or '' when the dialect has none (the quote is doubled instead). */
  escape: string
  escapeCode: number
  /** How error messages name the quote character. */
  quoteName: string
}

const RULES: Record<Dialect, DialectRules> = {
  backslash: { quote: '"', quoteCode: DQ, escape: '\\', escapeCode: BACKSLASH, quoteName: 'double quote' },
  backtick: { quote: '`', quoteCode: BT, escape: '', escapeCode: -1, quoteName: 'backtick' },
  csv: { quote: '"', quoteCode: DQ, escape: '', escapeCode: -1, quoteName: 'double quote' },
}

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
  /** How the text quotes its values. Default 'backtick'. */
  dialect?: Dialect
  /** A record longer than this (in characters) is refused. Default 256 Mi characters. */
  maxRecordChars?: number
  /** How much raw text `rawOf` keeps for a record. Default 64 Ki characters. */
  maxRawChars?: number
}

export class CopyCsvParser {
  readonly dialect: Dialect
  /** Escape sequences (`\"` or `\\`) read inside quoted values so far; always 0 without an escape character. */
  escapesRead = 0
  /** Doubled quotes (`""`, or doubled backticks) read inside quoted values so far; an empty quoted value is not one. */
  doubledQuotesRead = 0
  private readonly maxRecordChars: number
  private readonly maxRawChars: number
  private readonly quote: string
  private readonly quoteCode: number
  private readonly escape: string
  private readonly escapeCode: number
  private readonly quoteName: string
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
    this.dialect = opts.dialect ?? 'backtick'
    const rules = RULES[this.dialect]
    if (!rules) throw new Error(`unknown COPY CSV dialect ${JSON.stringify(opts.dialect)}`)
    this.quote = rules.quote
    this.quoteCode = rules.quoteCode
    this.escape = rules.escape
    this.escapeCode = rules.escapeCode
    this.quoteName = rules.quoteName
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
    const Q = this.quoteCode
    const quote = this.quote
    const E = this.escapeCode
    const escape = this.escape
    this.chunk = s
    this.countedPos = 0
    this.rawStart = 0
    // Where the next quote / escape character of this chunk is, at or after the last search
    // (len: none left). Remembered, so that many escapes before a quote (or many quotes before
    // an escape) do not each search again as far as the other: the scan stays linear.
    let nextQuote = -1
    let nextEscape = E === -1 ? len : -1
    let pos = 0
    while (pos < len) {
      switch (this.state) {
        case START: {
          if (!this.inRecord) {
            this.inRecord = true
            this.recLine = this.lineAt(pos)
            this.rawStart = pos
          }
          if (s.charCodeAt(pos) === Q) {
            this.state = QUOTED
            pos++
          } else {
            this.state = UNQUOTED
          }
          break
        }
        case QUOTED: {
          // Copy the value up to its closing quote in as few pieces as there are escape
          // sequences and doubled quotes: `seg` is where the text still to be copied starts,
          // `from` where to look for the next special character. A pair split by the end of
          // the chunk is left to ESCAPE_SEEN / QUOTE_SEEN.
          let seg = pos
          let from = pos
          for (;;) {
            if (nextQuote < from) {
              nextQuote = s.indexOf(quote, from)
              if (nextQuote === -1) nextQuote = len
            }
            if (nextEscape < from) {
              nextEscape = s.indexOf(escape, from)
              if (nextEscape === -1) nextEscape = len
            }
            if (nextEscape < nextQuote) {
              const e = nextEscape
              const c = e + 1 < len ? s.charCodeAt(e + 1) : -1
              if (c === Q || c === E) {
                // \" or \\: drop the escape, keep what it escapes as the start of the next piece.
                if (e > seg) this.append(s.slice(seg, e))
                this.escapesRead++
                seg = e + 1
                from = e + 2
              } else if (c === -1) {
                if (e > seg) this.append(s.slice(seg, e))
                pos = len
                this.state = ESCAPE_SEEN
                break
              } else {
                from = e + 1 // an escape character before anything else is itself (PostgreSQL keeps it)
              }
              continue
            }
            const q = nextQuote
            if (q === len) {
              if (len > seg) this.append(s.slice(seg))
              pos = len
              break
            }
            if (q + 1 < len && s.charCodeAt(q + 1) === Q) {
              // A doubled quote: one quote, kept as the start of the next piece.
              if (q > seg) this.append(s.slice(seg, q))
              this.doubledQuotesRead++
              seg = q + 1
              from = q + 2
              continue
            }
            if (q > seg) this.append(s.slice(seg, q))
            pos = q + 1
            this.state = QUOTE_SEEN
            break
          }
          break
        }
        case ESCAPE_SEEN: {
          const c = s.charCodeAt(pos)
          if (c === Q || c === E) {
            this.append(s[pos])
            this.escapesRead++
            pos++
          } else {
            // An escape character before anything else is itself (PostgreSQL keeps it).
            this.append(escape)
          }
          this.state = QUOTED
          break
        }
        case QUOTE_SEEN: {
          const c = s.charCodeAt(pos)
          if (c === Q) {
            this.append(quote)
            this.doubledQuotesRead++
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
            // Not a closing quote after all: keep the quote as text and stay inside the value.
            this.fail(`unexpected ${JSON.stringify(s[pos])} after a closing ${this.quoteName}`)
            this.append(quote)
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
            this.fail(`carriage return after a closing ${this.quoteName}`)
            this.append(quote + '\r')
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
            if (c === Q) this.fail(`${this.quoteName} inside an unquoted field`)
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
    // Carry the unfinished record's raw text and the line count over. One character more than
    // the raw limit is kept, so that `rawOf` taking a '\r' at the end for the line end's cannot
    // shorten the text it returns when the record goes on (or ends) in a later chunk.
    if (this.inRecord && !this.rawCut) {
      const room = this.maxRawChars + 1 - this.rawPrefixChars
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
    const unterminated = `unterminated ${this.quoteName === 'backtick' ? 'backtick quote' : 'double quote'} at end of file`
    switch (this.state) {
      case START: this.pushField(null); break // the text ended just after a comma
      case QUOTED: this.fail(unterminated); this.pushField(this.cur); break
      case ESCAPE_SEEN: this.fail(unterminated); this.append(this.escape); this.pushField(this.cur); break
      case QUOTE_SEEN: case QUOTE_SEEN_CR: this.pushField(this.cur); break
      case UNQUOTED: this.pushField(this.cur.endsWith('\r') ? this.cur.slice(0, -1) || null : this.cur || null); break
    }
    this.endRecord(out, 0)
    return out
  }
}
