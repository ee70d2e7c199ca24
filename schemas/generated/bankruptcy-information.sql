CREATE TABLE IF NOT EXISTS `lds`.`bankruptcy_information`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_converted` Nullable(DateTime64(6, 'UTC')),
  `date_last_to_file_claims` Nullable(DateTime64(6, 'UTC')),
  `date_last_to_file_govt` Nullable(DateTime64(6, 'UTC')),
  `date_debtor_dismissed` Nullable(DateTime64(6, 'UTC')),
  `chapter` String,
  `trustee_str` String,
  `docket_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
