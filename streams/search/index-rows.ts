/**
 * The index rows of a batch of analyzed documents, what the indexer (indexer.ts) inserts: the
 * documents table's rows and the postings grouped per (field, term, version) as one Native block
 * (batch-postings.ts gathers them, native-writer.ts encodes them). The layout they fill is
 * schemas/internal/search-layout.ts.
 */
import { searchType, type SearchType, type SearchTypeSpec } from '../../domain/search/fields.js'
import type { AnalyzedDoc } from '../../domain/search/document.js'
import { isKey, lenColumn } from '../../domain/search/tables.js'
import { indexColumns } from '../../schemas/internal/search-layout.js'
import { fieldPostings, type FieldPostings } from './batch-postings.js'
import { encodePostings } from './native-writer.js'
import { bytePool, give } from './scratch-pool.js'

/** A document to index: analyzed, at its version; a deleted one has no postings. */
export interface IndexDoc {
  readonly doc: AnalyzedDoc
  readonly version: number
  readonly deleted?: boolean
  /**
   * The version whose postings hold this document's text (search-layout.ts TEXT_VERSION_COLUMNS): `version` (the
   * default) writes its postings; an older one, given when the text is the same as that version's,
   * writes the document row alone.
   */
  readonly textVersion?: number
  /** textHash() of the document's text, kept in the row to tell the next change whether it changed it. */
  readonly textHash?: number
}

/** What one insert of a batch writes: documents table rows, and the postings as a Native block. */
export interface IndexRows {
  /** rows of the documents table, values in the order of indexColumns */
  readonly docs: unknown[][]
  /** the postings rows, one per (field, term, version), as chunks of one ClickHouse Native block */
  readonly postings: Uint8Array[]
  readonly postingRows: number
  /**
   * Lends the postings' arrays to the next toIndexRows call: only once the insert has finished
   * with them (writeIndexRows does). Not calling it is fine (they are then collected).
   */
  release(): void
}

/**
 * The index rows of a batch of analyzed documents. The postings are grouped here, per (field,
 * term, version) over the whole batch, and encoded in ClickHouse's Native (columnar) format, so
 * that the server only sorts the rows by (field, term) and writes them: no JSON to parse, no ARRAY
 * JOIN or GROUP BY (layout 1 did those per batch in a materialized view, at 5-8 times the cost of
 * the analysis). Rows hold the batch's postings of a term in document order: ids, tfs, dls (the
 * field's length in the document, for BM25), poss (ascending positions). Field `<column>~2`
 * holds the common grams of `<column>`. A document given twice at one version has its postings
 * twice (as when a batch is delivered again; the queries count it once).
 */
export function toIndexRows(type: SearchType, docs: readonly IndexDoc[]): IndexRows {
  const spec = searchType(type)
  const byVersion = new Map<number, { docs: AnalyzedDoc[]; rows: unknown[][] }>()
  const rows: unknown[][] = []
  for (const { doc, version, deleted, textVersion, textHash } of docs) {
    const postings = !deleted && (textVersion ?? version) === version
    // a document with postings gets its field lengths from their scan (filled in below)
    const row = docRow(spec, doc, version, deleted === true, deleted ? version : textVersion ?? version, deleted ? 0 : textHash ?? 0, !postings)
    rows.push(row)
    if (!postings) continue
    const group = byVersion.get(version)
    if (group) { group.docs.push(doc); group.rows.push(row) } else byVersion.set(version, { docs: [doc], rows: [row] })
  }
  const groups: FieldPostings[] = []
  const lengthAt = textLengthColumns(type, spec)
  for (const [version, group] of byVersion) {
    const dls = new Int32Array(group.docs.length)
    for (const f of spec.textFields) {
      const { tokens, grams } = fieldPostings(group.docs, f.column, version, dls)
      groups.push(tokens, grams)
      const at = lengthAt.get(f.column)!
      for (let i = 0; i < dls.length; i++) group.rows[i][at] = dls[i]
    }
  }
  const { chunks, arrays, bytes } = encodePostings(groups)
  for (const g of groups) g.release()
  let released = false
  const release = () => { if (!released) { released = true; arrays.forEach(give); bytes.forEach(bytePool.give) } }
  return { docs: rows, postings: chunks, postingRows: groups.reduce((n, g) => n + g.size, 0), release }
}

/** A document row: with `lengths` false, its text fields' lengths are left 0 for the caller to set. */
function docRow(spec: SearchTypeSpec, doc: AnalyzedDoc, version: number, deleted: boolean, textVersion: number, textHash: number, lengths: boolean): unknown[] {
  const row: unknown[] = [doc.id, version, deleted ? 1 : 0, textVersion, textHash]
  for (const f of spec.fields) {
    if (isKey(f)) continue
    if (f.kind === 'text') { row.push(lengths ? doc.text[f.column]?.length ?? 0 : 0); continue }
    const v = doc.values[f.column] ?? []
    row.push(f.multi ? [...v] : (v[0] ?? null))
  }
  return row
}

/** Per text column, the index of its length in docRow's rows (the documents table's columns). */
function textLengthColumns(type: SearchType, spec: SearchTypeSpec): Map<string, number> {
  const columns = indexColumns(type)
  return new Map(spec.textFields.map((f) => [f.column, columns.indexOf(lenColumn(f))]))
}
