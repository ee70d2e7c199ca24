CREATE TABLE IF NOT EXISTS `lds`.`investments`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `page_number` Int64,
  `redacted` Bool,
  `description` Nullable(String),
  `income_during_reporting_period_code` String,
  `income_during_reporting_period_type` String,
  `gross_value_code` String,
  `gross_value_method` String,
  `transaction_during_reporting_period` String,
  `transaction_date_raw` String,
  `transaction_date` Nullable(String),
  `transaction_value_code` String,
  `transaction_gain_code` String,
  `transaction_partner` String,
  `has_inferred_values` Bool,
  `financial_disclosure_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
