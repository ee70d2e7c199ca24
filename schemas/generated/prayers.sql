CREATE TABLE IF NOT EXISTS `lds`.`prayers`
(
  `id` Int64,
  `user_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `status` Int64,
  `archive_document_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
