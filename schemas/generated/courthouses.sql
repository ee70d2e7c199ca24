CREATE TABLE IF NOT EXISTS `lds`.`courthouses`
(
  `id` Int64,
  `court_seat` Nullable(Bool),
  `building_name` String,
  `address1` String,
  `address2` String,
  `city` String,
  `county` String,
  `state` String,
  `zip_code` String,
  `country_code` String,
  `court_id` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
