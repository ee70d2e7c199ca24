CREATE TABLE IF NOT EXISTS `lds`.`party_types`
(
  `id` Int64,
  `party_id` Int64,
  `docket_id` Int64,
  `name` String,
  `date_terminated` Nullable(String),
  `extra_info` String,
  `highest_offense_level_opening` String,
  `highest_offense_level_terminated` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
