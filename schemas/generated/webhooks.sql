CREATE TABLE IF NOT EXISTS `lds`.`webhooks`
(
  `id` Int64,
  `user_id` Int64,
  `event_type` Int64,
  `url` String,
  `version` Int64,
  `enabled` Bool,
  `failure_count` Int64,
  `secret` String,
  `deliver_updates` Bool,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
