CREATE TABLE IF NOT EXISTS `lds`.`financial_disclosures`
(
  `id` Int64,
  `person_id` Int64,
  `filepath` String,
  `thumbnail` Nullable(String),
  `download_filepath` Nullable(String),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `year` Int64,
  `thumbnail_status` Int64,
  `page_count` Int64,
  `sha1` String,
  `report_type` Int64,
  `is_amended` Nullable(Bool),
  `addendum_content_raw` String,
  `addendum_redacted` Bool,
  `has_been_extracted` Bool,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
