CREATE TABLE IF NOT EXISTS `lds`.`opinions_cited`
(
  `id` Int64,
  `citing_opinion_id` Int64,
  `cited_opinion_id` Int64,
  `depth` Int64,
  `cited_cluster_id` Nullable(Int64),
  `matched_text` String,
  `match_status` String,
  `candidates` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
