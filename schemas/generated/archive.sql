CREATE TABLE IF NOT EXISTS `lds`.`archive_uploads`
(
  `id` Int64,
  `user_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `upload_type` Int64,
  `status` Int64,
  `error_message` String,
  `court_id` Nullable(String),
  `docket_id` Nullable(Int64),
  `records_case_id` String,
  `file` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
