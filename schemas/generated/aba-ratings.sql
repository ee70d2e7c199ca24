CREATE TABLE IF NOT EXISTS `lds`.`aba_ratings`
(
  `id` Int64,
  `person_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `year_rated` Int64,
  `rating` String,
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
