CREATE TABLE IF NOT EXISTS `lds`.`reimbursements`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `source` String,
  `date_raw` String,
  `location` String,
  `purpose` String,
  `items_paid_or_provided` String,
  `redacted` Bool,
  `financial_disclosure_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
