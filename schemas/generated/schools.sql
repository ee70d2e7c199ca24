CREATE TABLE IF NOT EXISTS `lds`.`schools`
(
  `id` Int64,
  `is_alias_of_id` Nullable(Int64),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `name` String,
  `ein` Nullable(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
