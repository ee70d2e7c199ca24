/** What the sample generator emits: a record in storage form and the resource it belongs to. */
export interface SampleRecord {
  resource: string
  record: Record<string, unknown>
}

/** A citation as written in an opinion's text: volume, canonical reporter abbreviation, page. */
export interface CitedRef {
  volume: number
  reporter: string
  page: string
}
