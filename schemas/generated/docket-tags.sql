CREATE TABLE IF NOT EXISTS `lds`.`docket_tags`
(
  `id` Int64,
  `user_id` Int64,
  `published` Bool,
  `docket_id` Int64,
  `tag_id` Int64,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
