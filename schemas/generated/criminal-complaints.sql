CREATE TABLE IF NOT EXISTS `lds`.`criminal_complaints`
(
  `id` Int64,
  `name` String,
  `disposition` String,
  `party_type_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
