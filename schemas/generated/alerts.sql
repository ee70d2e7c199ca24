CREATE TABLE IF NOT EXISTS `lds`.`alerts`
(
  `id` Int64,
  `user_id` Int64,
  `alert_type` String,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_last_hit` Nullable(DateTime64(6, 'UTC')),
  `name` String,
  `query` String,
  `rate` String,
  `secret_key` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
