CREATE TABLE IF NOT EXISTS `lds`.`unmatched_citations`
(
  `id` Int64,
  `volume` Nullable(Int64),
  `reporter` String,
  `page` String,
  `type` Nullable(Int64),
  `status` Nullable(Int64),
  `citation_string` String,
  `court_id` Nullable(String),
  `year` Nullable(Int64),
  `citing_opinion_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
