CREATE TABLE IF NOT EXISTS `lds`.`attorney_roles`
(
  `id` Int64,
  `role` Int64,
  `docket_id` Int64,
  `party_id` Int64,
  `date_action` Nullable(String),
  `attorney_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
