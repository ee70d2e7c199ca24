CREATE TABLE IF NOT EXISTS `lds`.`races`
(
  `id` Int64,
  `race` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
