/**
 * The documents the peers load (PostgreSQL by COPY, Lucene by its CSV reader): the generated
 * opinions as CSV without a header, one row a document in PEER_COLUMNS order, a multi-valued
 * field joined by "; " (a separator to every analyzer involved). Written while our engine indexes
 * the same documents, so the peers get exactly the rows we indexed.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import type { OpinionDoc } from './search-corpus.js'

export const PEER_COLUMNS = ['id', 'case_name', 'case_name_full', 'docket_number', 'citation', 'judge', 'court', 'court_citation_string', 'court_id', 'status', 'date_filed', 'cite_count', 'text'] as const

const csvField = (v: unknown) => { const s = Array.isArray(v) ? v.join('; ') : String(v ?? ''); return `"${s.replace(/"/g, '""')}"` }

export interface PeerFileWriter {
  append(docs: readonly OpinionDoc[]): Promise<void>
  close(): Promise<void>
}

export function writePeerFile(file: string): PeerFileWriter {
  const out = createWriteStream(file)
  return {
    async append(docs) {
      let text = ''
      for (const d of docs) {
        text += PEER_COLUMNS.map((c) => csvField(d[c])).join(',') + '\n'
        if (text.length > 4_000_000) { if (!out.write(text)) await once(out, 'drain'); text = '' }
      }
      if (!out.write(text)) await once(out, 'drain')
    },
    async close() { out.end(); await once(out, 'finish') },
  }
}
