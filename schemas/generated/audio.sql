CREATE TABLE IF NOT EXISTS `lds`.`audio`
(
  `id` Int64,
  `panel_ids` Array(Int64),
  `docket_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `source` String,
  `case_name_short` String,
  `case_name` String,
  `case_name_full` String,
  `judges` Nullable(String),
  `sha1` String,
  `download_url` Nullable(String),
  `local_path_mp3` String,
  `local_path_original_file` String,
  `filepath_ia` String,
  `ia_upload_failure_count` Nullable(Int64),
  `duration` Nullable(Int64),
  `processing_complete` Bool,
  `date_blocked` Nullable(String),
  `blocked` Bool,
  `stt_status` Int64,
  `stt_source` Nullable(Int64),
  `stt_transcript` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
