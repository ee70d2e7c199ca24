CREATE TABLE IF NOT EXISTS `lds`.`archive_documents`
(
  `id` Int64,
  `docket_entry_id` Int64,
  `docket_id` Nullable(Int64),
  `tags_ids` Array(Int64),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `sha1` String,
  `page_count` Nullable(Int64),
  `file_size` Nullable(Int64),
  `filepath_local` String,
  `filepath_ia` String,
  `ia_upload_failure_count` Nullable(Int64),
  `thumbnail` Nullable(String),
  `thumbnail_status` Int64,
  `plain_text` String,
  `ocr_status` Nullable(Int64),
  `date_upload` Nullable(DateTime64(6, 'UTC')),
  `document_number` String,
  `attachment_number` Nullable(Int64),
  `records_doc_id` String,
  `is_available` Nullable(Bool),
  `is_free_on_records` Nullable(Bool),
  `is_sealed` Nullable(Bool),
  `document_type` Int64,
  `acms_document_guid` String,
  `description` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
CREATE TABLE IF NOT EXISTS `lds`.`archive_documents_texts`
(
  `id` Int64,
  `plain_text` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`
SETTINGS index_granularity_bytes = 131072;
CREATE MATERIALIZED VIEW IF NOT EXISTS `lds`.`archive_documents_texts_mv` TO `lds`.`archive_documents_texts`
AS SELECT `id`, `plain_text`, `_version`, `_deleted`
FROM `lds`.`archive_documents`;
