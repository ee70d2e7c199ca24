CREATE TABLE IF NOT EXISTS `lds`.`memberships`
(
  `id` Int64,
  `user_id` Int64,
  `level` String,
  `date_start` String,
  `date_end` Nullable(String),
  `is_active` Bool,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
