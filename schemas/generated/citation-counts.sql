CREATE TABLE IF NOT EXISTS `lds`.`citation_counts`
(
  `id` Int64,
  `citation_count` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
