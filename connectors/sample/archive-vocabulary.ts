/**
 * The words of the federal archive part of the sample: law firms and addresses for attorneys,
 * the docket-entry texts of civil, criminal, bankruptcy and appellate cases, attachments, criminal
 * counts, and what judges list in their financial disclosures. Plain data, read by the archive,
 * party and disclosure generators.
 */

export const FIRM_NAMES = [
  'Keller & Ortiz LLP', 'Brennan Marsh LLP', 'Hale, Quinn & Sato LLP', 'Whitfield Law Group', 'Okafor & Lindqvist PC', 'Delgado Brooks LLP',
  'Harrington Yoon LLP', 'Castellano & Webb', 'Nakamura Pierce LLP', 'Abernathy Cole PLLC', 'Fitzgerald & Banerjee LLP', 'Sorensen Hartley LLP',
  'Mercer Alvarez PC', 'Duarte & Kowalski LLP', 'Pemberton Shaw LLP', 'Greer, Lamont & Aziz LLP',
] as const
export const STREETS = ['Market Street', 'Main Street', 'Lexington Avenue', 'Peachtree Street NE', 'Wacker Drive', 'Pennsylvania Avenue NW', 'Congress Avenue', 'Broadway', 'Second Avenue', 'Canal Street', 'Commerce Street', 'Grand Avenue'] as const
export const CREDITORS = ['Wells Fargo Bank, N.A.', 'Internal Revenue Service', 'Capital One, N.A.', 'Ally Financial Inc.', 'Discover Bank', 'Synchrony Bank'] as const
export const LEGAL_AID = ['Federal Public Defender', 'Legal Aid Society', 'Civil Rights Clinic', 'Community Legal Services'] as const

/** Offices whose lawyers appear for the government. */
export const US_ATTORNEY = 'United States Attorney\'s Office'

/** Entries of a case, by kind: [first, middle..., closing]. `{P}` plaintiff, `{D}` defendant, `{J}` judge, `{A}` an attorney. */
export interface EntryScript { first: readonly string[]; middle: readonly string[]; closing: readonly string[] }

export const CIVIL_ENTRIES: EntryScript = {
  first: ['COMPLAINT against {D} (Filing fee $405, receipt number {R}), filed by {P}. (Attachments: # 1 Civil Cover Sheet, # 2 Summons)'],
  middle: [
    'Summons Issued as to {D}.', 'NOTICE of Appearance by {A} on behalf of {D}.', 'NOTICE of Appearance by {A} on behalf of {P}.',
    'ANSWER to Complaint with Affirmative Defenses by {D}.', 'MOTION to Dismiss for Failure to State a Claim by {D}.',
    'MEMORANDUM in Opposition re Motion to Dismiss filed by {P}.', 'REPLY in Support of Motion to Dismiss filed by {D}.',
    'ORDER granting in part and denying in part Motion to Dismiss. Signed by Judge {J}.', 'SCHEDULING ORDER: Discovery due by {DATE}. Signed by Judge {J}.',
    'STIPULATED PROTECTIVE ORDER. Signed by Judge {J}.', 'MINUTE ENTRY for proceedings held before Judge {J}: Status Conference.',
    'MOTION for Extension of Time to File Response by {P}.', 'ORDER granting Motion for Extension of Time. Signed by Judge {J}.',
    'MOTION for Summary Judgment by {D}.', 'DECLARATION of {A} in Support of Motion for Summary Judgment filed by {D}.',
    'Joint STATUS REPORT by {P}, {D}.', 'NOTICE of Change of Address by {A}.', 'TRANSCRIPT of Proceedings held before Judge {J}.',
    'Minute Entry for proceedings held before Judge {J}: Motion Hearing held. Motion taken under advisement.', 'AMENDED COMPLAINT against {D}, filed by {P}.',
    'MOTION for Judgment on the Pleadings by {D}.', 'MEMORANDUM OPINION AND ORDER granting in part and denying in part Motion for Summary Judgment. Signed by Judge {J}.',
  ],
  closing: [
    'ORDER granting Motion for Summary Judgment. Signed by Judge {J}.', 'STIPULATION of Dismissal with prejudice by {P}, {D}.',
    'JUDGMENT in favor of {D} against {P}. Signed by Judge {J}.', 'ORDER OF DISMISSAL upon settlement. Signed by Judge {J}.',
    'NOTICE OF APPEAL to the Court of Appeals as to Judgment by {P}. Filing fee $605, receipt number {R}.',
  ],
}

export const CRIMINAL_ENTRIES: EntryScript = {
  first: ['INDICTMENT as to {D} (1) count(s) 1, 2.', 'COMPLAINT as to {D} (1). Signed by Magistrate Judge {J}.'],
  middle: [
    'Arrest Warrant Returned Executed as to {D}.', 'Minute Entry for Initial Appearance as to {D} held before Magistrate Judge {J}.',
    'ORDER OF DETENTION PENDING TRIAL as to {D}. Signed by Magistrate Judge {J}.', 'NOTICE OF ATTORNEY APPEARANCE: {A} appearing for USA.',
    'CJA 20: Appointment of Attorney {A} for {D}.', 'Minute Entry for Arraignment as to {D} (1) Count 1,2 held before Judge {J}. Plea entered: Not Guilty.',
    'MOTION to Suppress Evidence by {D}.', 'RESPONSE in Opposition by USA as to {D} re Motion to Suppress.', 'ORDER denying Motion to Suppress as to {D}. Signed by Judge {J}.',
    'MOTION to Continue Trial by {D}.', 'ORDER granting Motion to Continue; time excluded under the Speedy Trial Act. Signed by Judge {J}.',
    'PLEA AGREEMENT as to {D}.', 'Minute Entry for Change of Plea Hearing as to {D} held before Judge {J}. Plea entered: Guilty as to Count 1.',
    'SENTENCING MEMORANDUM by USA as to {D}.', 'SENTENCING MEMORANDUM by {D}.',
  ],
  closing: [
    'JUDGMENT as to {D} (1), Count(s) 1: Imprisonment for 60 months, supervised release for 3 years. Count(s) 2: Dismissed on the motion of the United States. Signed by Judge {J}.',
    'ORDER granting the government\'s Motion to Dismiss the Indictment as to {D}. Signed by Judge {J}.',
    'NOTICE OF APPEAL by {D} re Judgment.',
  ],
}

export const BANKRUPTCY_ENTRIES: EntryScript = {
  first: ['Chapter {C} Voluntary Petition. Fee Amount $338 Filed by {P}.', 'Chapter {C} Voluntary Petition for Non-Individuals. Fee Amount $1738 Filed by {P}.'],
  middle: [
    'Meeting of Creditors 341(a) meeting to be held on {DATE}. Proofs of Claims due by {DATE2}.', 'Certificate of Credit Counseling Filed by {P}.',
    'Schedules A/B, D, E/F, G, H and Statement of Financial Affairs Filed by {P}.', 'Notice of Appearance and Request for Notice by {A} on behalf of {D}.',
    'Motion for Relief from Stay. Fee Amount $199. Filed by {D}.', 'Order Granting Motion for Relief from Stay. Signed by Judge {J}.',
    'Chapter 13 Plan Filed by {P}.', 'Objection to Confirmation of Plan Filed by {D}.', 'Trustee\'s Report of No Distribution.',
    'Motion to Employ Counsel Filed by {P}.', 'Order Authorizing Employment of Counsel. Signed by Judge {J}.',
  ],
  closing: ['Order Discharging Debtor. Signed by Judge {J}.', 'Order Dismissing Case. Signed by Judge {J}.', 'Final Decree. Signed by Judge {J}.'],
}

export const APPELLATE_ENTRIES: EntryScript = {
  first: ['DOCKETED CAUSE AND ENTERED APPEARANCES OF COUNSEL. SEND MQ: Yes. The schedule is set as follows: Opening brief due {DATE}.'],
  middle: [
    'Filed (ECF) Appellant {P} Mediation Questionnaire.', 'Submitted (ECF) Opening Brief for review. Submitted by Appellant {P}.',
    'Submitted (ECF) Answering Brief for review. Submitted by Appellee {D}.', 'Submitted (ECF) Reply Brief for review. Submitted by Appellant {P}.',
    'Filed order (Deputy Clerk): The motion for an extension of time to file the opening brief is granted.', 'Filed (ECF) Excerpts of Record.',
    'Notice of Oral Argument on {DATE}.', 'ARGUED AND SUBMITTED TO {J}.',
  ],
  closing: ['FILED OPINION (Judge {J}). AFFIRMED.', 'FILED MEMORANDUM DISPOSITION. AFFIRMED.', 'MANDATE ISSUED.'],
}

export const ATTACHMENTS = ['Exhibit A', 'Exhibit B', 'Exhibit C', 'Proposed Order', 'Declaration', 'Memorandum of Points and Authorities', 'Certificate of Service', 'Affidavit', 'Text of Proposed Order', 'Civil Cover Sheet'] as const

/** Criminal counts (statute, description) and what became of them. */
export const COUNTS = [
  '18:922(g)(1) FELON IN POSSESSION OF A FIREARM', '21:841(a)(1) and (b)(1)(C) POSSESSION WITH INTENT TO DISTRIBUTE A CONTROLLED SUBSTANCE',
  '18:1343 WIRE FRAUD', '18:1349 CONSPIRACY TO COMMIT WIRE FRAUD', '18:1028A AGGRAVATED IDENTITY THEFT', '8:1326(a) REENTRY OF REMOVED ALIEN',
  '21:846 CONSPIRACY TO DISTRIBUTE A CONTROLLED SUBSTANCE', '18:1956(h) CONSPIRACY TO LAUNDER MONETARY INSTRUMENTS', '18:2113(a) BANK ROBBERY',
] as const
export const COUNT_DISPOSITIONS = ['Imprisonment: 60 months; Supervised Release: 3 years; Special Assessment: $100', 'Dismissed on government\'s motion', 'Imprisonment: 24 months; Supervised Release: 2 years', 'Probation: 3 years', 'Time served; Supervised Release: 1 year'] as const

/** What a financial disclosure lists. */
export const FD = {
  positions: [['Trustee', 'Family trust'], ['Member, Board of Visitors', 'University School of Law'], ['Director', 'Historical Society'], ['Adjunct Professor', 'School of Law'], ['Board Member', 'Bar Foundation'], ['Treasurer', 'Church council']] as const,
  agreements: [['Pension plan with former law firm; no further contributions.'], ['Thrift Savings Plan; continued participation.'], ['State retirement system; vested, receiving no payments.'], ['Book contract with university press; royalties per sales.']] as const,
  incomes: [['University School of Law, teaching', '$12,500.00'], ['State retirement system, pension', '$31,204.00'], ['Book royalties', '$1,140.00'], ['Former law firm, partnership distribution', '$48,000.00']] as const,
  spouse: ['Salary, regional hospital', 'Salary, public school district', 'Self-employed, architecture practice', 'Salary, software company', 'Consulting fees'] as const,
  reimbursements: [
    ['Federal Judges Association', 'Washington, DC', 'Annual meeting', 'Transportation, meals, lodging'],
    ['American Law Institute', 'Philadelphia, PA', 'Annual meeting', 'Meals, lodging'],
    ['Law school', 'Ann Arbor, MI', 'Judge in residence, moot court', 'Transportation, lodging'],
    ['Bar association', 'San Diego, CA', 'CLE panel on appellate practice', 'Transportation, meals, lodging, registration'],
  ] as const,
  gifts: [['Bar association', 'Crystal bowl', '$450'], ['Law school alumni association', 'Framed print', '$390'], ['Friend', 'Tickets to a concert', '$420']] as const,
  debts: ['Mortgage on rental property', 'Home equity line of credit', 'Student loan', 'Margin account loan'] as const,
  creditors: ['Wells Fargo Bank', 'JPMorgan Chase', 'Bank of America', 'U.S. Bancorp', 'Navient', 'Fidelity Brokerage'] as const,
  incomeTypes: ['Dividend', 'Interest', 'Capital Gains', 'Rent', 'Distribution', 'None (or less than $201)'] as const,
} as const
