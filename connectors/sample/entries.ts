/**
 * The record of an archive docket: its entries, numbered upwards and dated from the filing on,
 * each with its main document and sometimes attachments (page counts, hashes, where the file
 * lies, and the first lines of text when the archive holds the file).
 */
import type { SampleContext } from './context.js'
import { isoDay } from './dates.js'
import type { CaseFile } from './parties.js'
import type { SampleRecord } from './records.js'
import * as A from './archive-vocabulary.js'

const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))
const PAD2 = PAD3.slice(0, 100).map((s) => s.slice(1))

const SCRIPTS = new Map<string, A.EntryScript>()

/** The entries of a case: by kind of court and of case, with the area's own opening entries and motions in a district court. */
function scriptOf(f: CaseFile): A.EntryScript {
  if (f.court.family === 'bankruptcy') return A.BANKRUPTCY_ENTRIES
  if (f.court.family === 'circuit' || f.court.family === 'scotus') return A.APPELLATE_ENTRIES
  const base = f.category.criminal ? A.CRIMINAL_ENTRIES : A.CIVIL_ENTRIES
  const own = f.category.entries
  if (!own) return base
  let script = SCRIPTS.get(f.category.name)
  if (!script) {
    script = { first: own.first ?? base.first, middle: [...base.middle, ...(own.middle ?? []), ...(own.middle ?? [])], closing: base.closing }
    SCRIPTS.set(f.category.name, script)
  }
  return script
}

/** "Maria Alvarez v. Acme Co." → the two names an entry mentions. */
function sidesOf(f: CaseFile): [string, string] {
  const name = f.caption.caseName
  if (name.startsWith('In re ')) return [name.slice(6), 'the creditor']
  const [a, b] = name.split(' v. ')
  return [a === 'United States' ? 'USA' : a, b ?? '']
}

/** Emits the entries of a docket and their documents. */
export function* entryRecords(ctx: SampleContext, f: CaseFile, attorneys: readonly string[], tagIds: readonly number[]): Generator<SampleRecord> {
  const { rng, next } = ctx
  const script = scriptOf(f)
  const [plaintiff, defendant] = sidesOf(f)
  const span = Math.max(0, f.lastDay - f.filedDay)
  const n = span === 0 ? 1 : 2 + Math.floor(28 * rng.next() ** 4)
  // Days: the filing first, the last activity last, the rest in between in order.
  const days: number[] = [f.filedDay]
  for (let k = 1; k < n - 1; k++) days.push(f.filedDay + rng.int(0, span))
  if (n > 1) days.push(f.lastDay)
  days.sort((x, y) => x - y)
  const fill = (text: string, day: number) => text.replace(/\{(\w+)\}/g, (_, k: string) => {
    switch (k) {
      case 'P': return plaintiff
      case 'D': return defendant
      case 'J': return f.judge || 'the Court'
      case 'A': return attorneys.length ? rng.pick(attorneys) : 'counsel'
      case 'R': return `${rng.int(100, 999)}-${rng.int(1_000_000, 9_999_999)}`
      case 'C': return f.chapter || '7'
      case 'DATE': return isoDay(day + rng.int(20, 60))
      case 'DATE2': return isoDay(day + rng.int(90, 120))
      default: return k
    }
  }).replace('..', '.')
  const closing = f.closed && n > 1
  const office = f.court.id
  const caseKey = `gov.uscourts.${office}.${f.recordsCaseId}`
  let number = 0, sequence = rng.int(1, 3), sameDay = 0
  for (let k = 0; k < n; k++) {
    const day = days[k]
    sameDay = k > 0 && days[k - 1] === day ? sameDay + 1 : 1
    number += k === 0 ? 1 : 1 + (rng.chance(0.12) ? rng.int(1, 3) : 0)
    sequence += rng.int(1, 4)
    const text = fill(k === 0 ? rng.pick(script.first) : closing && k === n - 1 ? rng.pick(script.closing) : rng.pick(script.middle), day)
    const [created, modified] = ctx.stamp(day)
    const entry = next('docket-entries')
    yield { resource: 'docket-entries', record: {
      id: entry, docket_id: f.docketId, date_created: created, date_modified: modified, date_filed: isoDay(day),
      // Entries of the day the sample is taken were stamped in its first hour: no later time of filing.
      time_filed: rng.chance(0.5) && day < ctx.today ? `${PAD2[rng.int(8, 19)]}:${PAD2[rng.int(0, 59)]}:${PAD2[rng.int(0, 59)]}` : null,
      entry_number: number, archive_sequence_number: `${isoDay(day)}.${PAD3[sameDay]}`, records_sequence_number: rng.chance(0.8) ? sequence : null,
      description: text, tags_ids: tagIds.length && rng.chance(0.01) ? [rng.pick(tagIds)] : [],
    } }
    const attachments = rng.chance(0.15) ? rng.int(1, 3) : 0
    for (let a = 0; a <= attachments; a++) {
      const available = rng.chance(a === 0 ? 0.55 : 0.4)
      const pages = rng.int(1, a === 0 ? 40 : 15)
      const doc = `${caseKey}.${number}.${a}`
      const sealed = rng.chance(0.01)
      const title = a === 0 ? text.split(/[.(]/)[0].slice(0, 120) : rng.pick(A.ATTACHMENTS)
      yield { resource: 'archive-documents', record: {
        id: next('archive-documents'), docket_entry_id: entry, docket_id: f.docketId, tags_ids: tagIds.length && rng.chance(0.005) ? [rng.pick(tagIds)] : [],
        date_created: created, date_modified: modified, sha1: available ? rng.hex(40) : '', page_count: available || rng.chance(0.5) ? pages : null,
        file_size: available ? pages * rng.int(18_000, 90_000) : null, filepath_local: available ? `recap/${caseKey}/${doc}.pdf` : '',
        filepath_ia: available && day < ctx.today - 365 && rng.chance(0.5) ? `https://www.archive.org/download/${caseKey}/${doc}.pdf` : '', ia_upload_failure_count: null,
        thumbnail: available ? `recap-thumbnails/${doc}.thumb.1068.jpeg` : null, thumbnail_status: available ? 1 : 0,
        plain_text: available && !sealed ? documentText(f, number, pages, day, title, plaintiff, defendant) : '', ocr_status: available ? (rng.chance(0.8) ? 2 : rng.chance(0.9) ? 1 : 4) : null,
        date_upload: available ? created : null, document_number: String(number), attachment_number: a === 0 ? null : a,
        records_doc_id: `${PAD3[rng.int(10, 199)]}${String(rng.int(0, 999_999_999)).padStart(9, '0')}`, is_available: available, is_free_on_records: available && rng.chance(0.2),
        is_sealed: sealed, document_type: a === 0 ? 1 : 2, acms_document_guid: '', description: a === 0 ? '' : title,
      } }
    }
  }
}

/** The first lines of a filed document, as text extraction gives them. */
function documentText(f: CaseFile, number: number, pages: number, day: number, title: string, plaintiff: string, defendant: string): string {
  const iso = isoDay(day)
  const filed = `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(2, 4)}`
  return `Case ${f.number} Document ${number} Filed ${filed} Page 1 of ${pages}\n\n${f.court.fullName.toUpperCase()}\n\n${plaintiff.toUpperCase()},\n    ${f.court.family === 'bankruptcy' ? 'Debtor' : 'Plaintiff'},\nv.\n${defendant.toUpperCase()},\n    Defendant.\n\nCase No. ${f.number}\n\n${title.toUpperCase()}\n\n` +
    `The Court has considered the papers filed in support of and in opposition to this matter, the record, and the applicable law. For the reasons that follow, ${title.toLowerCase()} is addressed as set out below.\n`
}
