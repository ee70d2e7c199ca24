CREATE TABLE IF NOT EXISTS `lds`.`spouse_incomes`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `source_type` String,
  `date_raw` String,
  `redacted` Bool,
  `financial_disclosure_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
