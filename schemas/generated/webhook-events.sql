CREATE TABLE IF NOT EXISTS `lds`.`webhook_events`
(
  `id` String,
  `webhook_id` Int64,
  `user_id` Int64,
  `event_type` Int64,
  `status` Int64,
  `retry_counter` Int64,
  `next_retry_date` Nullable(DateTime64(6, 'UTC')),
  `status_code` Nullable(Int64),
  `response` String,
  `error_message` String,
  `debug` Bool,
  `content` Nullable(String),
  `failed_at` Nullable(DateTime64(6, 'UTC')),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
