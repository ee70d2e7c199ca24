CREATE TABLE IF NOT EXISTS `lds`.`parties`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `name` String,
  `extra_info` String,
  `docket_ids` Array(Int64),
  `attorney_ids` Array(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
