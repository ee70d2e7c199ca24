CREATE TABLE IF NOT EXISTS `lds`.`originating_court_information`
(
  `id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `docket_number` String,
  `docket_number_raw` String,
  `assigned_to_str` String,
  `ordering_judge_str` String,
  `court_reporter` String,
  `date_disposed` Nullable(String),
  `date_filed` Nullable(String),
  `date_judgment` Nullable(String),
  `date_judgment_eod` Nullable(String),
  `date_filed_noa` Nullable(String),
  `date_received_coa` Nullable(String),
  `date_rehearing_denied` Nullable(String),
  `assigned_to_id` Nullable(Int64),
  `ordering_judge_id` Nullable(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
