import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'
import { AUDIO_SOURCE, STT_SOURCE, STT_STATUS } from './choices.js'
import { INT16 } from './limits.js'

export const audio = defineResource({
  name: 'audio', label: 'Audio', model: 'Audio', plural: 'Audio Files', table: 'audio', keyKind: 'int',
  description: 'Oral argument recordings, linked to their docket and judges.',
  absoluteUrl: (r) => `/audio/${r.id}/case/`,
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    absolute_url: t.uri({ input: 'string' }),
    panel: t.m2m('people', { required: true }),
    docket: t.fk('dockets', { required: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    source: t.string({ choices: AUDIO_SOURCE }),
    case_name_short: t.string(),
    case_name: t.string(),
    case_name_full: t.string(),
    judges: t.string(N),
    sha1: t.string({ required: true, maxLength: 40 }),
    download_url: t.string({ maxLength: 500, input: 'url', nullable: true }),
    local_path_mp3: t.string({ maxLength: 100, input: 'file upload' }),
    local_path_original_file: t.string({ required: true, maxLength: 100, input: 'file upload' }),
    filepath_ia: t.string({ maxLength: 1000 }),
    ia_upload_failure_count: t.int({ ...INT16, nullable: true }),
    duration: t.int({ ...INT16, nullable: true }),
    processing_complete: t.bool(),
    date_blocked: t.date(N),
    blocked: t.bool(),
    stt_status: t.int({ choices: STT_STATUS, label: 'Speech to text status' }),
    stt_source: t.int({ choices: STT_SOURCE, label: 'Speech to text source', nullable: true }),
    stt_transcript: t.string({ label: 'Speech to text transcription' }),
  },
  filters: {
    id: f.int, date_modified: f.datetime, date_created: f.datetime, sha1: f.exact, blocked: f.bool, date_blocked: f.date,
    processing_complete: f.bool, stt_status: f.choice('exact', 'gte', 'gt', 'lte', 'lt', 'range'), docket: f.rel('dockets', 'docket_id'), source: f.multi,
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_blocked'],
})
