CREATE TABLE IF NOT EXISTS `lds`.`citation_texts`
(
  `id` Int64,
  `html_with_citations` String,
  `cited_clusters_ids` Array(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
