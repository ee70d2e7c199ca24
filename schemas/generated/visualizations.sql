CREATE TABLE IF NOT EXISTS `lds`.`visualizations`
(
  `id` Int64,
  `user_id` Int64,
  `title` String,
  `cluster_start_id` Int64,
  `cluster_end_id` Int64,
  `clusters_ids` Array(Int64),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_published` Nullable(DateTime64(6, 'UTC')),
  `date_deleted` Nullable(DateTime64(6, 'UTC')),
  `slug` String,
  `notes` String,
  `view_count` Int64,
  `published` Bool,
  `deleted` Bool,
  `generation_time` Float64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
