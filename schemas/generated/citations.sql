CREATE TABLE IF NOT EXISTS `lds`.`citations`
(
  `id` Int64,
  `cluster_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `volume` Int64,
  `reporter` String,
  `page` String,
  `type` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
