import { defineResource, type FieldDef } from '../define.js'
import { archiveDocuments } from './archive-documents.js'

const doc = archiveDocuments.fields
/** A column of the archive-documents table, kept for filtering but not shown here. */
const hidden = (d: FieldDef): FieldDef => ({ ...d, hidden: true })

/**
 * A lookup view over the archive-documents table: given a court and document ids, which documents
 * the archive holds and where their files are. It reads the same table (no topic of its own is
 * written), shows a few columns and filters like archive-documents.
 */
export const archiveQuery = defineResource({
  name: 'archive-query', label: 'ARCHIVE lookup API', model: 'ArchiveDocument', plural: 'Archive Documents', table: archiveDocuments.table, keyKind: 'int',
  access: 'authenticated', pageSize: 300, writes: { create: true, update: false },
  description: 'Looks up which documents the archive holds, by document id, and where their files are.',
  fields: {
    records_doc_id: doc.records_doc_id,
    filepath_local: doc.filepath_local,
    acms_document_guid: doc.acms_document_guid,
    id: { ...doc.id, input: 'integer', label: 'ID' },
    docket_entry: doc.docket_entry,
    date_created: hidden(doc.date_created),
    date_modified: hidden(doc.date_modified),
    date_upload: hidden(doc.date_upload),
    document_type: hidden(doc.document_type),
    document_number: hidden(doc.document_number),
    is_available: hidden(doc.is_available),
    sha1: hidden(doc.sha1),
    ocr_status: hidden(doc.ocr_status),
    is_free_on_records: hidden(doc.is_free_on_records),
    tags: hidden(doc.tags),
  },
  filters: { ...archiveDocuments.filters },
  // The reference's lookup view takes no order_by.
  orderings: [],
})
