CREATE TABLE IF NOT EXISTS `lds`.`opinions`
(
  `id` Int64,
  `cluster_id` Int64,
  `author_id` Nullable(Int64),
  `joined_by_ids` Array(Int64),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `author_str` String,
  `per_curiam` Bool,
  `joined_by_str` String,
  `type` String,
  `sha1` String,
  `page_count` Nullable(Int64),
  `download_url` Nullable(String),
  `local_path` String,
  `plain_text` String,
  `html` String,
  `html_partner_a` String,
  `html_partner_b` String,
  `html_anon_2020` String,
  `xml_partner_c` String,
  `xml_scan` String,
  `html_with_citations` String,
  `extracted_by_ocr` Bool,
  `ordering_key` Nullable(Int64),
  `main_version_id` Nullable(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
CREATE TABLE IF NOT EXISTS `lds`.`opinions_texts`
(
  `id` Int64,
  `plain_text` String,
  `html` String,
  `html_partner_a` String,
  `html_partner_b` String,
  `html_anon_2020` String,
  `xml_partner_c` String,
  `xml_scan` String,
  `html_with_citations` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`
SETTINGS index_granularity_bytes = 131072;
CREATE MATERIALIZED VIEW IF NOT EXISTS `lds`.`opinions_texts_mv` TO `lds`.`opinions_texts`
AS SELECT `id`, `plain_text`, `html`, `html_partner_a`, `html_partner_b`, `html_anon_2020`, `xml_partner_c`, `xml_scan`, `html_with_citations`, `_version`, `_deleted`
FROM `lds`.`opinions`;
