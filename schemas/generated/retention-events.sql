CREATE TABLE IF NOT EXISTS `lds`.`retention_events`
(
  `id` Int64,
  `position_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `retention_type` String,
  `date_retention` String,
  `votes_yes` Nullable(Int64),
  `votes_no` Nullable(Int64),
  `votes_yes_percent` Nullable(Float64),
  `votes_no_percent` Nullable(Float64),
  `unopposed` Nullable(Bool),
  `won` Nullable(Bool),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
