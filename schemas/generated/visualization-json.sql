CREATE TABLE IF NOT EXISTS `lds`.`visualization_json`
(
  `id` Int64,
  `user_id` Int64,
  `published` Bool,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `json_data` String,
  `map_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
