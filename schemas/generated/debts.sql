CREATE TABLE IF NOT EXISTS `lds`.`debts`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `creditor_name` String,
  `value_code` String,
  `description` Nullable(String),
  `redacted` Bool,
  `financial_disclosure_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
