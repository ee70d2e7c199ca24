CREATE TABLE IF NOT EXISTS `lds`.`sources`
(
  `id` Int64,
  `person_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `url` String,
  `date_accessed` Nullable(String),
  `notes` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
