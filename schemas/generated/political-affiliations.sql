CREATE TABLE IF NOT EXISTS `lds`.`political_affiliations`
(
  `id` Int64,
  `person_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `political_party` String,
  `source` String,
  `date_start` Nullable(String),
  `date_granularity_start` String,
  `date_end` Nullable(String),
  `date_granularity_end` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
