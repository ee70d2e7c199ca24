CREATE TABLE IF NOT EXISTS `lds`.`user_tags`
(
  `id` Int64,
  `user_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `name` String,
  `title` String,
  `description` String,
  `view_count` Int64,
  `published` Bool,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
