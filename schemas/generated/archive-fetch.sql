CREATE TABLE IF NOT EXISTS `lds`.`archive_fetch`
(
  `id` Int64,
  `user_id` Int64,
  `court_id` Nullable(String),
  `docket_id` Nullable(Int64),
  `archive_document_id` Nullable(Int64),
  `records_username` String,
  `records_password` String,
  `client_code` String,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `date_completed` Nullable(DateTime64(6, 'UTC')),
  `status` Int64,
  `request_type` Int64,
  `message` String,
  `records_case_id` String,
  `docket_number` String,
  `de_date_start` Nullable(String),
  `de_date_end` Nullable(String),
  `de_number_start` Nullable(Int64),
  `de_number_end` Nullable(Int64),
  `show_parties_and_counsel` Bool,
  `show_terminated_parties` Bool,
  `show_list_of_member_cases` Bool,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
