/**
 * The size of the reference's corpus that docs/scale.md projects to. The issue that asked for the
 * plan gives orders of magnitude only ("tens of millions of dockets, about ten million opinions,
 * hundreds of millions of docket entries"); the anchors below pick a value inside each, and every
 * other table scales with the anchor it hangs from, in the proportion the measured data set has.
 * Change them here and the projection follows.
 */
export interface Anchor { name: string; table: string; count: number }

export const ANCHORS: readonly Anchor[] = [
  { name: 'dockets', table: 'dockets', count: 70_000_000 },
  { name: 'opinions', table: 'opinions', count: 10_000_000 },
  { name: 'docket entries', table: 'docket_entries', count: 400_000_000 },
  // The judges' database is small and grows slowly; the reference's holds some tens of thousands of people.
  { name: 'people', table: 'people', count: 30_000 },
  { name: 'courts', table: 'courts', count: 3_400 },
]

/** Which anchor each table grows with; a table not named here grows with dockets. */
const ANCHOR_OF: Record<string, string> = {
  opinions: 'opinions', clusters: 'opinions', citations: 'opinions', opinions_cited: 'opinions',
  citation_texts: 'opinions', citation_counts: 'opinions', parentheticals: 'opinions',
  unmatched_citations: 'opinions', cluster_redirections: 'opinions', visualizations: 'opinions',
  visualization_json: 'opinions',
  docket_entries: 'docket entries', archive_documents: 'docket entries',
  people: 'people', positions: 'people', educations: 'people', schools: 'people',
  political_affiliations: 'people', aba_ratings: 'people', retention_events: 'people', sources: 'people',
  races: 'people', financial_disclosures: 'people', investments: 'people', reimbursements: 'people',
  non_investment_incomes: 'people', disclosure_positions: 'people', agreements: 'people', debts: 'people',
  spouse_incomes: 'people', gifts: 'people',
  courts: 'courts', courthouses: 'courts',
}

/** The anchor a table grows with. */
export function anchorOf(table: string): Anchor {
  const name = ANCHOR_OF[table] ?? 'dockets'
  return ANCHORS.find((a) => a.name === name)!
}

/**
 * How many rows `table` would hold in the full corpus: its measured rows × (the anchor's full count
 * ÷ the anchor's measured rows). Undefined when the anchor table is empty in the measured set.
 */
export function projectedRows(table: string, rows: number, measuredRows: ReadonlyMap<string, number>): number | undefined {
  const anchor = anchorOf(table)
  const base = measuredRows.get(anchor.table)
  return base ? rows * (anchor.count / base) : undefined
}
