CREATE TABLE IF NOT EXISTS `lds`.`cluster_redirections`
(
  `id` Int64,
  `cluster_id` Nullable(Int64),
  `date_created` DateTime64(6, 'UTC'),
  `deleted_cluster_id` Int64,
  `reason` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
