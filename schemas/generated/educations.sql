CREATE TABLE IF NOT EXISTS `lds`.`educations`
(
  `id` Int64,
  `school_id` Int64,
  `person_id` Int64,
  `date_created` DateTime64(6, 'UTC'),
  `date_modified` DateTime64(6, 'UTC'),
  `degree_level` String,
  `degree_detail` String,
  `degree_year` Nullable(Int64),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
