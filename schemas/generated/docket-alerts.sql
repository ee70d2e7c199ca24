CREATE TABLE IF NOT EXISTS `lds`.`docket_alerts`
(
  `id` Int64,
  `user_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_last_hit` Nullable(DateTime64(6, 'UTC')),
  `secret_key` String,
  `alert_type` Int64,
  `docket_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
