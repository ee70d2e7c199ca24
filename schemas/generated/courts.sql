CREATE TABLE IF NOT EXISTS `lds`.`courts`
(
  `id` String,
  `records_court_id` Nullable(Int64),
  `records_has_rss_feed` Nullable(Bool),
  `records_rss_entry_types` String,
  `date_last_records_contact` Nullable(DateTime64(6, 'UTC')),
  `fjc_court_id` String,
  `date_modified` DateTime64(6, 'UTC'),
  `in_use` Bool,
  `has_opinion_scraper` Bool,
  `has_oral_argument_scraper` Bool,
  `position` Float64,
  `citation_string` String,
  `short_name` String,
  `full_name` String,
  `url` String,
  `start_date` Nullable(String),
  `end_date` Nullable(String),
  `jurisdiction` String,
  `parent_court_id` Nullable(String),
  `appeals_to_ids` Array(String),
  `notes` Nullable(String),
  `_version` UInt64,
  `_deleted` UInt8
)
ENGINE = ReplacingMergeTree(_version, _deleted)
ORDER BY `id`;
