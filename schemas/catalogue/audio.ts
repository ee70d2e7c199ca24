import { defineResource, field, filter, N, TIMESTAMP_FILTERS } from '../define.js'
import { AUDIO_SOURCE, STT_SOURCE, STT_STATUS } from './choices.js'
import { INT16 } from './limits.js'

export const audio = defineResource({
  name: 'audio', label: 'Audio', model: 'Audio', plural: 'Audio Files', table: 'audio', keyKind: 'int',
  description: 'Oral argument recordings, linked to their docket and judges.',
  absoluteUrl: (r) => `/audio/${r.id}/case/`,
  search: { types: ['oa'] },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    absolute_url: field.uri({ input: 'string' }),
    panel: field.m2m('people', { required: true }),
    docket: field.fk('dockets', { required: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    source: field.string({ choices: AUDIO_SOURCE }),
    case_name_short: field.string(),
    case_name: field.string(),
    case_name_full: field.string(),
    judges: field.string(N),
    sha1: field.string({ required: true, maxLength: 40 }),
    download_url: field.string({ maxLength: 500, input: 'url', nullable: true }),
    local_path_mp3: field.string({ maxLength: 100, input: 'file upload' }),
    local_path_original_file: field.string({ required: true, maxLength: 100, input: 'file upload' }),
    filepath_ia: field.string({ maxLength: 1000 }),
    ia_upload_failure_count: field.int({ ...INT16, nullable: true }),
    duration: field.int({ ...INT16, nullable: true }),
    processing_complete: field.bool(),
    date_blocked: field.date(N),
    blocked: field.bool(),
    stt_status: field.int({ choices: STT_STATUS, label: 'Speech to text status' }),
    stt_source: field.int({ choices: STT_SOURCE, label: 'Speech to text source', nullable: true }),
    stt_transcript: field.string({ label: 'Speech to text transcription' }),
  },
  filters: {
    id: filter.int, date_modified: filter.datetime, date_created: filter.datetime, sha1: filter.exact, blocked: filter.bool, date_blocked: filter.date,
    processing_complete: filter.bool, stt_status: filter.choice('exact', 'gte', 'gt', 'lte', 'lt', 'range'), docket: filter.rel('dockets', 'docket_id'), source: filter.multi,
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_blocked'],
})
