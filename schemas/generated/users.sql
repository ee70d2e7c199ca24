CREATE TABLE IF NOT EXISTS `lds`.`users`
(
  `id` Int64,
  `username` String,
  `token_hash` String,
  `can_write` Bool,
  `is_active` Bool,
  `citation_rate` String,
  `rate` String,
  `password_hash` String,
  `email` String,
  `auto_subscribe` Bool,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
