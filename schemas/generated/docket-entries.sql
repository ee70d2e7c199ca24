CREATE TABLE IF NOT EXISTS `lds`.`docket_entries`
(
  `id` Int64,
  `docket_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_filed` Nullable(String),
  `time_filed` Nullable(String),
  `entry_number` Nullable(Int64),
  `archive_sequence_number` String,
  `records_sequence_number` Nullable(Int64),
  `description` String,
  `tags_ids` Array(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
