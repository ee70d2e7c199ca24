CREATE TABLE IF NOT EXISTS `lds`.`people`
(
  `id` Int64,
  `race` Array(String),
  `is_alias_of_id` Nullable(Int64),
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_completed` Nullable(DateTime64(6, 'UTC')),
  `fjc_id` Nullable(Int64),
  `slug` String,
  `name_first` String,
  `name_middle` String,
  `name_last` String,
  `name_suffix` String,
  `date_dob` Nullable(String),
  `date_granularity_dob` String,
  `date_dod` Nullable(String),
  `date_granularity_dod` String,
  `dob_city` String,
  `dob_state` String,
  `dob_country` String,
  `dod_city` String,
  `dod_state` String,
  `dod_country` String,
  `gender` String,
  `religion` String,
  `ftm_total_received` Nullable(Float64),
  `ftm_eid` Nullable(String),
  `has_photo` Bool,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
