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
CREATE TABLE IF NOT EXISTS `lds`.`citation_texts_texts`
(
  `id` Int64,
  `html_with_citations` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`
SETTINGS index_granularity_bytes = 131072;
CREATE MATERIALIZED VIEW IF NOT EXISTS `lds`.`citation_texts_texts_mv` TO `lds`.`citation_texts_texts`
AS SELECT `id`, `html_with_citations`, `_version`, `_deleted`
FROM `lds`.`citation_texts`;
