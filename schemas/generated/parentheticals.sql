CREATE TABLE IF NOT EXISTS `lds`.`parentheticals`
(
  `id` Int64,
  `text` String,
  `score` Float64,
  `described_opinion_id` Int64,
  `describing_opinion_id` Int64,
  `group_id` Nullable(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
