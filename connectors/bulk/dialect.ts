/**
 * Which of the three COPY CSV dialects a bulk file is written in, told from its content (never
 * from its name): see `Dialect` in parser.ts for what each one is.
 *
 * `detectDialect` is given the start of the file's text (the header and the first records, e.g.
 * the first MiB; it may end in the middle of a record) and decides like this:
 * 1. The first value of the first data record (after the header; NULL fields, which are
 *    unquoted and empty, and blank lines are skipped) tells the quote character: a backtick is
 *    the backtick dialect; a double quote is the current `\`-escaped format or plain CSV.
 * 2. Between those two, the sample is read both ways: a reading in which a record is malformed
 *    or does not have the header's number of columns loses to one in which none is (more
 *    generally, the reading with fewer such records wins; a tie goes to the current format).
 * 3. When both read cleanly: a `\"` or `\\` inside a quoted value argues for the current
 *    format, a doubled quote inside a value (not an empty value `""`) for plain CSV; with both,
 *    a doubled quote that is still one when read the `\`-escaped way (not the `\""` of a value
 *    ending in a quote) decides for plain CSV. With neither, both readings give the same
 *    values, and the current format is chosen.
 * A sample with no record at all (only a header) is taken to be the current format. A first
 * value written without quotes is not FORCE_QUOTE output, which only plain CSV is not known to
 * be: plain CSV is chosen unless another reading has fewer malformed records.
 */

import { CopyCsvParser, type Dialect } from './parser.js'

export type { Dialect }

export const DIALECTS: readonly Dialect[] = ['backslash', 'backtick', 'csv']

/** A short human label per dialect, for progress lines. */
export const DIALECT_LABELS: Readonly<Record<Dialect, string>> = {
  backslash: 'current (\\-escaped)',
  backtick: 'backtick (2024)',
  csv: 'plain CSV (before 2024-07)',
}

export function dialectLabel(d: Dialect): string {
  return DIALECT_LABELS[d]
}

export function isDialect(s: string): s is Dialect {
  return (DIALECTS as readonly string[]).includes(s)
}

export interface DetectedDialect {
  dialect: Dialect
  /** Why, in a sentence, for logs and progress lines. */
  reason: string
}

interface Reading {
  dialect: Dialect
  /** Data records read (blank lines not counted). */
  records: number
  /** Records that are malformed or do not have the header's number of columns. */
  bad: number
  firstProblem: string
  escapes: number
  doubledQuotes: number
}

/** Reads `text` (header first) in one dialect and says how well it went. */
function read(text: string, dialect: Dialect, columns: number): Reading {
  const p = new CopyCsvParser({ dialect })
  const complete = p.push(text)
  // The last record may be cut by the end of the sample: only a problem the cut cannot have
  // caused counts against it (not an open quote, not missing columns).
  const cut = p.end()
  const r: Reading = { dialect, records: 0, bad: 0, firstProblem: '', escapes: p.escapesRead, doubledQuotes: p.doubledQuotesRead }
  const judge = (rec: { fields: (string | null)[]; line: number; error?: string }, wasCut: boolean) => {
    if (!rec.error && rec.fields.length === 1 && rec.fields[0] === null) return // a blank line
    r.records++
    let problem: string | undefined
    if (rec.error && !(wasCut && rec.error.startsWith('unterminated'))) problem = rec.error
    else if (rec.fields.length !== columns && !(wasCut && rec.fields.length < columns)) {
      problem = `${rec.fields.length} columns where the header has ${columns}`
    }
    if (problem === undefined) return
    if (r.bad++ === 0) r.firstProblem = `line ${rec.line}: ${problem}`
  }
  for (let i = 1; i < complete.length; i++) judge(complete[i], false)
  for (const rec of complete.length === 0 ? cut.slice(1) : cut) judge(rec, true)
  return r
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

const describe = (r: Reading) =>
  r.bad === 0
    ? `${count(r.records, 'record')}, all well formed`
    : `${r.bad} of ${count(r.records, 'record')} malformed (first at ${r.firstProblem})`

export function detectDialect(sample: string): DetectedDialect {
  const text = sample.charCodeAt(0) === 0xfeff ? sample.slice(1) : sample
  const headerEnd = text.indexOf('\n')
  const onlyHeader = {
    dialect: 'backslash' as const,
    reason: 'only a header, no record: nothing tells the dialects apart; taken as the current format (\\-escaped)',
  }
  if (headerEnd === -1) return onlyHeader
  const header = text.slice(0, headerEnd).replace(/\r$/, '')
  const columns = header.split(',').length

  // The first character of the first non-NULL value of a data record.
  let pos = headerEnd + 1
  let line = 2
  let first = ''
  while (pos < text.length) {
    while (text.charCodeAt(pos) === 44 /* , */) pos++
    let c = text[pos]
    if (c === '\r' && text[pos + 1] === '\n') c = text[++pos]
    if (c === '\n') {
      pos++ // a blank line or a record of NULLs only
      line++
      continue
    }
    if (c !== undefined) first = c
    break
  }
  if (first === '') return onlyHeader

  if (first === '`') {
    return { dialect: 'backtick', reason: `the first value (line ${line}) is quoted with a backtick` }
  }
  if (first !== '"') {
    // FORCE_QUOTE * quotes every value that is not NULL; of the dialects, only plain CSV is
    // not known to have been written that way.
    const rs = DIALECTS.map((d) => read(text, d, columns))
    const fewest = Math.min(...rs.map((r) => r.bad))
    const csv = rs.find((r) => r.dialect === 'csv')!
    const best = csv.bad === fewest ? csv : rs.find((r) => r.bad === fewest)!
    return {
      dialect: best.dialect,
      reason: `the first value (line ${line}) is not quoted, which the force-quoted dialects never write; `
        + `read as ${DIALECT_LABELS[best.dialect]}: ${describe(best)}`,
    }
  }

  const bs = read(text, 'backslash', columns)
  const csv = read(text, 'csv', columns)
  const quoted = `the first value (line ${line}) is quoted with a double quote`
  if (bs.bad !== csv.bad) {
    const [win, lose] = bs.bad < csv.bad ? [bs, csv] : [csv, bs]
    return {
      dialect: win.dialect,
      reason: `${quoted}; read as ${DIALECT_LABELS[lose.dialect]}, ${describe(lose)}; `
        + `read as ${DIALECT_LABELS[win.dialect]}, ${describe(win)}`,
    }
  }
  if (bs.bad > 0) {
    return {
      dialect: 'backslash',
      reason: `${quoted}; both readings find malformed records (${describe(bs)}, the same count as plain CSV): taken as the current format`,
    }
  }
  // Both readings are clean: look for what only one of the two writers produces.
  const escapes = bs.escapes // \" or \\ inside a quoted value, read the \-escaped way
  const doubled = csv.doubledQuotes // "" inside a value, read as plain CSV
  if (escapes > 0 && (doubled === 0 || bs.doubledQuotes === 0)) {
    return {
      dialect: 'backslash',
      reason: `${quoted}; ${count(escapes, '\\-escape')} (\\" or \\\\) inside quoted values`
        + (doubled > 0 ? ' and no doubled quote once those are read as escapes' : ' and no doubled quote')
        + ` (both readings well formed: ${count(bs.records, 'record')})`,
    }
  }
  if (doubled > 0) {
    return {
      dialect: 'csv',
      reason: `${quoted}; ${count(doubled, 'doubled quote')} "" inside values, which the \\-escaping writer never writes`
        + (escapes > 0 ? ` (and ${count(escapes, '\\" or \\\\')}, ordinary text in plain CSV)` : ', and no \\" or \\\\')
        + ` (both readings well formed: ${count(csv.records, 'record')})`,
    }
  }
  return {
    dialect: 'backslash',
    reason: `${quoted}; no \\" or \\\\ and no doubled quote in the sample, so both readings give the same values `
      + `(${count(bs.records, 'record')}): taken as the current format (\\-escaped)`,
  }
}
