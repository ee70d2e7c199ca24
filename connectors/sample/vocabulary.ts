/**
 * Word lists for plausible sample records. All people in the generated corpus are fictional:
 * names are drawn from common U.S. surnames and given names. Only the presidents (who appoint
 * the federal judges) are real, with their real terms of office.
 */
/**
 * Common surnames. "Holmes" and "Thompson" are left out: they are also nominative reporters, and
 * the citation extractor reads "Freeman v. Holmes, 590 F.2d 654" as a citation to "Holmes, 590".
 */
export const SURNAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez',
  'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'White', 'Harris',
  'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen',
  'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez',
  'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales', 'Murphy',
  'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim',
  'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza', 'Ruiz', 'Hughes',
  'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross', 'Foster', 'Jimenez', 'Powell', 'Jenkins', 'Perry',
  'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler', 'Henderson', 'Barnes', 'Gonzales', 'Fisher', 'Vasquez', 'Simmons', 'Romero',
  'Jordan', 'Patterson', 'Alexander', 'Hamilton', 'Graham', 'Reynolds', 'Griffin', 'Wallace', 'Moreno', 'West', 'Cole', 'Hayes',
  'Bryant', 'Herrera', 'Gibson', 'Ellis', 'Tran', 'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford', 'Castro', 'Marshall', 'Owens',
  'Harrison', 'Fernandez', 'McDonald', 'Woods', 'Washington', 'Kennedy', 'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman', 'Webb',
  'Tucker', 'Guzman', 'Burns', 'Crawford', 'Olson', 'Simpson', 'Porter', 'Hunter', 'Gordon', 'Mendez', 'Silva', 'Shaw', 'Snyder',
  'Mason', 'Dixon', 'Munoz', 'Hunt', 'Hicks', 'Palmer', 'Wagner', 'Black', 'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar',
  'Fox', 'Warren', 'Mills', 'Meyer', 'Rice', 'Schmidt', 'Garza', 'Daniels', 'Ferguson', 'Nichols', 'Stephens', 'Soto', 'Weaver',
  'Ryan', 'Gardner', 'Payne', 'Grant', 'Dunn', 'Kowalski', 'Okafor', 'Cohen', 'Novak', 'Lindqvist', "O'Brien", 'Yamamoto', 'Haddad',
]

export const GIVEN_MALE = [
  'James', 'Robert', 'John', 'Michael', 'David', 'William', 'Richard', 'Joseph', 'Thomas', 'Charles', 'Christopher', 'Daniel',
  'Matthew', 'Anthony', 'Mark', 'Donald', 'Steven', 'Paul', 'Andrew', 'Joshua', 'Kenneth', 'Kevin', 'Brian', 'George', 'Timothy',
  'Ronald', 'Edward', 'Jason', 'Jeffrey', 'Ryan', 'Jacob', 'Gary', 'Nicholas', 'Eric', 'Jonathan', 'Stephen', 'Larry', 'Justin',
  'Scott', 'Brandon', 'Benjamin', 'Samuel', 'Gregory', 'Alexander', 'Patrick', 'Frank', 'Raymond', 'Jack', 'Dennis', 'Jerry',
  'Tyler', 'Aaron', 'Jose', 'Adam', 'Nathan', 'Henry', 'Douglas', 'Zachary', 'Peter', 'Kyle', 'Walter', 'Harold', 'Carl', 'Arthur',
  'Warren', 'Lewis', 'Byron', 'Clarence', 'Hugo', 'Luis', 'Miguel', 'Wei', 'Rajesh', 'Emmett',
]

export const GIVEN_FEMALE = [
  'Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica', 'Sarah', 'Karen', 'Lisa', 'Nancy', 'Betty',
  'Margaret', 'Sandra', 'Ashley', 'Kimberly', 'Emily', 'Donna', 'Michelle', 'Carol', 'Amanda', 'Dorothy', 'Melissa', 'Deborah',
  'Stephanie', 'Rebecca', 'Sharon', 'Laura', 'Cynthia', 'Kathleen', 'Amy', 'Angela', 'Shirley', 'Anna', 'Brenda', 'Pamela',
  'Emma', 'Nicole', 'Helen', 'Samantha', 'Katherine', 'Christine', 'Debra', 'Rachel', 'Carolyn', 'Janet', 'Catherine', 'Maria',
  'Heather', 'Diane', 'Ruth', 'Julie', 'Olivia', 'Joyce', 'Virginia', 'Victoria', 'Kelly', 'Lauren', 'Christina', 'Joan', 'Evelyn',
  'Judith', 'Andrea', 'Sonia', 'Elena', 'Ketanji', 'Priya', 'Mei', 'Rosa', 'Constance', 'Harriet',
]

export const MIDDLE_INITIALS = 'ABCDEFGHJKLMNPRSTW'.split('')

export const CITIES = [
  'Springfield', 'Riverside', 'Fairview', 'Madison', 'Georgetown', 'Franklin', 'Clinton', 'Salem', 'Greenville', 'Bristol',
  'Oakland', 'Dayton', 'Columbus', 'Richmond', 'Albany', 'Fresno', 'Tulsa', 'Omaha', 'Boise', 'Tacoma', 'Eugene', 'Lansing',
  'Toledo', 'Akron', 'Trenton', 'Camden', 'Newark', 'Hartford', 'Stamford', 'Provo', 'Reno', 'Tucson', 'Mesa', 'Plano', 'Laredo',
  'Savannah', 'Macon', 'Mobile', 'Biloxi', 'Shreveport', 'Peoria', 'Joliet', 'Gary', 'Duluth', 'Fargo', 'Billings', 'Cheyenne',
]

/** Words for generated company names: "{surname} {noun}" or "{place} {noun}". */
export const COMPANY_PLACES = ['Pacific', 'Atlantic', 'Great Lakes', 'Midwest', 'Southern', 'Northern', 'Keystone', 'Lone Star', 'Gulf Coast', 'Sunbelt', 'Blue Ridge', 'Cascade', 'Prairie', 'Liberty', 'Pioneer', 'Summit', 'Harbor', 'Evergreen', 'Granite', 'Red River']
export const COMPANY_NOUNS = ['Manufacturing Co.', 'Industries, Inc.', 'Holdings, LLC', 'Insurance Co.', 'Mutual Life Insurance Co.', 'Trust Co.', 'Savings Bank', 'Railroad Co.', 'Freight Lines, Inc.', 'Construction Co.', 'Chemical Corp.', 'Steel Corp.', 'Energy, Inc.', 'Gas & Electric Co.', 'Telephone Co.', 'Pharmaceuticals, Inc.', 'Health Systems, Inc.', 'Logistics, LLC', 'Properties, LLC', 'Motors, Inc.', 'Foods, Inc.', 'Airlines, Inc.', 'Software, Inc.', '& Sons, Inc.']

export const AGENCIES_FEDERAL = [
  'Commissioner of Internal Revenue', 'Securities and Exchange Commission', 'National Labor Relations Board', 'Federal Trade Commission',
  'Secretary of Labor', 'Commissioner of Social Security', 'Environmental Protection Agency', 'Federal Communications Commission',
  'Department of Homeland Security', 'Secretary of Health and Human Services', 'Merit Systems Protection Board', 'Secretary of Veterans Affairs',
]

/** Presidents who appointed judges who could sit from 1950: [name_first, name_middle, name_last, party, start, end, how the term ended]. */
export const PRESIDENTS: readonly (readonly [string, string, string, 'd' | 'r', string, string | null, string])[] = [
  ['Warren', 'Gamaliel', 'Harding', 'r', '1921-03-04', '1923-08-02', 'ded'],
  ['Calvin', '', 'Coolidge', 'r', '1923-08-02', '1929-03-04', 'retire_vol'],
  ['Herbert', 'Clark', 'Hoover', 'r', '1929-03-04', '1933-03-04', 'lost'],
  ['Franklin', 'Delano', 'Roosevelt', 'd', '1933-03-04', '1945-04-12', 'ded'],
  ['Harry', 'S.', 'Truman', 'd', '1945-04-12', '1953-01-20', 'retire_vol'],
  ['Dwight', 'David', 'Eisenhower', 'r', '1953-01-20', '1961-01-20', 'termed_out'],
  ['John', 'Fitzgerald', 'Kennedy', 'd', '1961-01-20', '1963-11-22', 'ded'],
  ['Lyndon', 'Baines', 'Johnson', 'd', '1963-11-22', '1969-01-20', 'retire_vol'],
  ['Richard', 'Milhous', 'Nixon', 'r', '1969-01-20', '1974-08-09', 'resign'],
  ['Gerald', 'Rudolph', 'Ford', 'r', '1974-08-09', '1977-01-20', 'lost'],
  ['James', 'Earl', 'Carter', 'd', '1977-01-20', '1981-01-20', 'lost'],
  ['Ronald', 'Wilson', 'Reagan', 'r', '1981-01-20', '1989-01-20', 'termed_out'],
  ['George', 'Herbert Walker', 'Bush', 'r', '1989-01-20', '1993-01-20', 'lost'],
  ['William', 'Jefferson', 'Clinton', 'd', '1993-01-20', '2001-01-20', 'termed_out'],
  ['George', 'Walker', 'Bush', 'r', '2001-01-20', '2009-01-20', 'termed_out'],
  ['Barack', 'Hussein', 'Obama', 'd', '2009-01-20', '2017-01-20', 'termed_out'],
  ['Donald', 'John', 'Trump', 'r', '2017-01-20', '2021-01-20', 'lost'],
  ['Joseph', 'Robinette', 'Biden', 'd', '2021-01-20', '2025-01-20', 'retire_vol'],
  ['Donald', 'John', 'Trump', 'r', '2025-01-20', null, ''],
]

export const LAW_SCHOOLS = [
  'Harvard Law School', 'Yale Law School', 'Stanford Law School', 'Columbia Law School', 'University of Chicago Law School',
  'New York University School of Law', 'University of Michigan Law School', 'University of Virginia School of Law',
  'Georgetown University Law Center', 'University of California, Berkeley, School of Law', 'University of Texas School of Law',
  'Duke University School of Law', 'Cornell Law School', 'Northwestern University School of Law', 'Howard University School of Law',
  'University of Pennsylvania Law School', 'Vanderbilt University Law School', 'University of Minnesota Law School',
  'University of Wisconsin Law School', 'Ohio State University Moritz College of Law', 'University of Florida Levin College of Law',
  'University of Georgia School of Law', 'University of Washington School of Law', 'Boston University School of Law',
  'Fordham University School of Law', 'Emory University School of Law', 'Tulane University Law School', 'University of Iowa College of Law',
  'University of Alabama School of Law', 'University of Arizona College of Law', 'University of Colorado Law School',
  'Loyola Law School, Los Angeles', 'St. John\'s University School of Law', 'University of Kansas School of Law',
]
export const COLLEGES = [
  'Harvard College', 'Yale College', 'Princeton University', 'Stanford University', 'Amherst College', 'Williams College',
  'Dartmouth College', 'Brown University', 'University of Notre Dame', 'Georgetown University', 'University of California, Los Angeles',
  'University of Michigan', 'University of Texas at Austin', 'Ohio State University', 'Pennsylvania State University',
  'University of Illinois', 'Morehouse College', 'Spelman College', 'Holy Cross College', 'Wellesley College', 'Smith College',
  'Rice University', 'Emory University', 'University of North Carolina', 'Indiana University', 'Iowa State University',
]

export const PRIOR_JOBS: readonly (readonly [string, string])[] = [
  ['staff-atty', "United States Attorney's Office"], ['staff-atty', "District Attorney's Office"], ['prof', 'Law school faculty'],
  ['att-gen-ass', 'Office of the Attorney General'], ['staff-atty', 'Office of the Public Defender'], ['clerk', 'Chambers of a federal judge'],
  ['mag', 'United States Magistrate Judge'], ['staff-atty', 'Private practice'],
]

export const RACES = [['w', 70], ['b', 12], ['h', 9], ['a', 5], ['i', 1], ['p', 1], ['mena', 1], ['o', 1]] as const

/** The kinds of case the corpus holds. Each gives the words its opinions are made of. */
export interface Category {
  name: string
  /** Nature of suit on district dockets, cause of action. */
  nature: string
  cause: string
  criminal: boolean
  claim: readonly string[]
  issue: readonly string[]
  statutes: readonly string[]
  dispositionWin: string
  holding: readonly string[]
}

export const CATEGORIES: Record<string, Category> = {
  criminal: {
    name: 'criminal', nature: '', cause: '18:922G.F Firearms (Unlawful Transport of)', criminal: true,
    claim: ['motion to suppress', 'challenge to the sufficiency of the evidence', 'objection to the jury instructions', 'challenge to the sentence', 'speedy-trial claim', 'confrontation claim'],
    issue: ['whether the officers had reasonable suspicion to extend the stop', 'whether the evidence was sufficient to support the conviction', 'whether the prosecutor\'s remarks in closing argument deprived the defendant of a fair trial', 'whether the sentencing enhancement was properly applied', 'whether the consent to search was voluntary'],
    statutes: ['18 U.S.C. § 922(g)(1)', '18 U.S.C. § 924(c)', '21 U.S.C. § 841(a)(1)', '18 U.S.C. § 1343', '18 U.S.C. § 3553(a)', '18 U.S.C. § 1028A'],
    dispositionWin: 'reversed', holding: ['the search exceeded the scope of the consent given', 'the error was harmless beyond a reasonable doubt', 'a rational jury could have found the essential elements of the crime beyond a reasonable doubt', 'the enhancement rested on facts the jury never found'],
  },
  civil_rights: {
    name: 'civil_rights', nature: '440 Civil Rights: Other', cause: '42:1983 Civil Rights Act', criminal: false,
    claim: ['excessive-force claim', 'First Amendment retaliation claim', 'equal-protection claim', 'due-process claim', 'unlawful-arrest claim', 'failure-to-intervene claim'],
    issue: ['whether the officers are entitled to qualified immunity', 'whether the right at issue was clearly established', 'whether the municipality may be held liable for its policy', 'whether the plaintiff suffered an adverse action'],
    statutes: ['42 U.S.C. § 1983', '42 U.S.C. § 1988', '28 U.S.C. § 1331', '42 U.S.C. § 1985(3)'],
    dispositionWin: 'reversed', holding: ['the officers are entitled to qualified immunity', 'a reasonable jury could find that the force used was excessive', 'the right was clearly established at the time of the conduct', 'the complaint plausibly alleges a municipal policy'],
  },
  habeas: {
    name: 'habeas', nature: '530 Habeas Corpus (General)', cause: '28:2254 Petition for Writ of Habeas Corpus (State)', criminal: false,
    claim: ['ineffective-assistance claim', 'Brady claim', 'claim under the Confrontation Clause', 'claim of actual innocence'],
    issue: ['whether the state court\'s decision was an unreasonable application of clearly established federal law', 'whether the petition was timely', 'whether the claim was procedurally defaulted', 'whether counsel\'s performance fell below an objective standard of reasonableness'],
    statutes: ['28 U.S.C. § 2254(d)', '28 U.S.C. § 2244(d)(1)', '28 U.S.C. § 2253(c)', '28 U.S.C. § 2255'],
    dispositionWin: 'reversed', holding: ['the state court reasonably applied clearly established federal law', 'the petitioner has not shown prejudice', 'the claim is procedurally defaulted', 'counsel\'s failure to investigate was deficient performance'],
  },
  employment: {
    name: 'employment', nature: '442 Civil Rights: Employment', cause: '42:2000e Job Discrimination (Employment)', criminal: false,
    claim: ['discrimination claim', 'retaliation claim', 'hostile-work-environment claim', 'failure-to-accommodate claim', 'claim for unpaid overtime'],
    issue: ['whether the employer\'s stated reason was a pretext for discrimination', 'whether the plaintiff engaged in protected activity', 'whether the harassment was severe or pervasive', 'whether the employee was exempt from the overtime requirement'],
    statutes: ['42 U.S.C. § 2000e-2(a)', '42 U.S.C. § 2000e-3(a)', '29 U.S.C. § 623(a)', '42 U.S.C. § 12112(a)', '29 U.S.C. § 207(a)(1)', '29 U.S.C. § 2615(a)'],
    dispositionWin: 'reversed', holding: ['a reasonable jury could find that the stated reason was pretextual', 'the plaintiff failed to establish a prima facie case', 'the temporal proximity alone is insufficient to show causation', 'the employer was entitled to judgment as a matter of law'],
  },
  contract: {
    name: 'contract', nature: '190 Contract: Other', cause: '28:1332 Diversity-Breach of Contract', criminal: false,
    claim: ['breach-of-contract claim', 'claim for breach of the implied covenant of good faith', 'claim for declaratory relief', 'claim under the insurance policy', 'motion to compel arbitration'],
    issue: ['whether the contract is ambiguous', 'whether the insurer had a duty to defend', 'whether the arbitration clause covers the dispute', 'whether the limitation-of-liability clause is enforceable', 'whether the notice provision was a condition precedent'],
    statutes: ['9 U.S.C. § 2', '28 U.S.C. § 1332(a)', '28 U.S.C. § 2201(a)', '9 U.S.C. § 10(a)'],
    dispositionWin: 'reversed', holding: ['the contract is unambiguous and must be enforced as written', 'the insurer owed a duty to defend', 'the parties agreed to arbitrate the question of arbitrability', 'the extrinsic evidence creates a genuine dispute of material fact'],
  },
  securities: {
    name: 'securities', nature: '850 Securities/Commodities', cause: '15:78m(a) Securities Exchange Act', criminal: false,
    claim: ['securities-fraud claim', 'claim under Section 11', 'control-person claim', 'claim for breach of fiduciary duty'],
    issue: ['whether the complaint adequately pleads scienter', 'whether the statements were actionable puffery', 'whether the plaintiffs adequately alleged loss causation', 'whether the misstatement was material'],
    statutes: ['15 U.S.C. § 78j(b)', '15 U.S.C. § 78u-4(b)(2)', '15 U.S.C. § 77k', '15 U.S.C. § 78t(a)'],
    dispositionWin: 'reversed', holding: ['the complaint fails to raise a strong inference of scienter', 'the statements were forward-looking and accompanied by meaningful cautionary language', 'the alleged misstatements were material', 'loss causation was adequately pleaded'],
  },
  immigration: {
    name: 'immigration', nature: '', cause: '', criminal: false,
    claim: ['application for asylum', 'claim for withholding of removal', 'claim under the Convention Against Torture', 'motion to reopen'],
    issue: ['whether substantial evidence supports the adverse credibility determination', 'whether the Board abused its discretion in denying the motion to reopen', 'whether the petitioner\'s conviction is an aggravated felony', 'whether the persecution was on account of a protected ground'],
    statutes: ['8 U.S.C. § 1158(b)(1)', '8 U.S.C. § 1231(b)(3)', '8 U.S.C. § 1252(a)(2)(D)', '8 U.S.C. § 1101(a)(43)', '8 U.S.C. § 1326'],
    dispositionWin: 'granted', holding: ['substantial evidence supports the agency\'s determination', 'the Board failed to consider the evidence of changed country conditions', 'the conviction is not categorically an aggravated felony', 'the petitioner did not establish a nexus to a protected ground'],
  },
  administrative: {
    name: 'administrative', nature: '899 Other Statutes: Administrative Procedures Act/Review or Appeal of Agency Decision', cause: '05:702 Administrative Procedure Act', criminal: false,
    claim: ['challenge to the agency\'s rule', 'claim that the agency acted arbitrarily and capriciously', 'challenge to the denial of benefits', 'claim that the agency exceeded its statutory authority'],
    issue: ['whether the agency\'s interpretation of the statute is the best reading', 'whether the agency adequately explained its change in position', 'whether substantial evidence supports the administrative law judge\'s decision', 'whether the rule was a logical outgrowth of the proposal'],
    statutes: ['5 U.S.C. § 706(2)(A)', '5 U.S.C. § 553(b)', '42 U.S.C. § 405(g)', '47 U.S.C. § 151', '29 U.S.C. § 160(e)'],
    dispositionWin: 'vacated', holding: ['the agency failed to consider an important aspect of the problem', 'substantial evidence supports the decision', 'the statute unambiguously forecloses the agency\'s reading', 'the agency adequately explained its reasoning'],
  },
  patent: {
    name: 'patent', nature: '830 Patent', cause: '35:271 Patent Infringement', criminal: false,
    claim: ['infringement claim', 'invalidity counterclaim', 'claim of inequitable conduct', 'appeal from the inter partes review'],
    issue: ['whether the asserted claims are directed to patent-ineligible subject matter', 'whether the claims would have been obvious', 'whether the district court correctly construed the disputed term', 'whether the accused product infringes under the doctrine of equivalents'],
    statutes: ['35 U.S.C. § 101', '35 U.S.C. § 103', '35 U.S.C. § 112(b)', '35 U.S.C. § 271(a)', '35 U.S.C. § 285'],
    dispositionWin: 'reversed', holding: ['the claims are directed to an abstract idea', 'a skilled artisan would have been motivated to combine the references', 'the district court erred in its construction of the claim term', 'substantial evidence supports the Board\'s finding of nonobviousness'],
  },
  tax: {
    name: 'tax', nature: '870 Taxes (U.S. Plaintiff or Defendant)', cause: '26:7422 Tax Refund', criminal: false,
    claim: ['claim for a refund', 'challenge to the deficiency determination', 'claim that the penalty was improperly assessed'],
    issue: ['whether the payments were deductible as ordinary and necessary business expenses', 'whether the transaction lacked economic substance', 'whether the taxpayer had reasonable cause'],
    statutes: ['26 U.S.C. § 162(a)', '26 U.S.C. § 7701(o)', '26 U.S.C. § 6662(a)', '26 U.S.C. § 7422(a)'],
    dispositionWin: 'reversed', holding: ['the transaction lacked economic substance', 'the taxpayer acted with reasonable cause and in good faith', 'the deduction was properly disallowed'],
  },
  tort: {
    name: 'tort', nature: '360 P.I.: Other', cause: '28:1332 Diversity-Personal Injury', criminal: false,
    claim: ['negligence claim', 'products-liability claim', 'claim for wrongful death', 'medical-malpractice claim', 'premises-liability claim'],
    issue: ['whether the defendant owed the plaintiff a duty of care', 'whether the expert testimony was admissible', 'whether the claim is barred by the statute of limitations', 'whether the danger was open and obvious', 'whether the warning was adequate as a matter of law'],
    statutes: ['28 U.S.C. § 1332(a)', '28 U.S.C. § 2680(h)', '28 U.S.C. § 1346(b)(1)'],
    dispositionWin: 'reversed', holding: ['the defendant owed no duty to the plaintiff', 'the trial court did not abuse its discretion in excluding the expert', 'the claim accrued when the injury was discovered', 'the question of proximate cause was for the jury'],
  },
  family: {
    name: 'family', nature: '', cause: '', criminal: false,
    claim: ['motion to modify custody', 'challenge to the division of marital property', 'petition to terminate parental rights', 'claim for spousal support'],
    issue: ['whether the modification serves the best interests of the child', 'whether the trial court properly classified the asset as separate property', 'whether clear and convincing evidence supports the termination', 'whether the award of maintenance was an abuse of discretion'],
    statutes: [],
    dispositionWin: 'reversed', holding: ['the trial court did not abuse its discretion', 'the findings are supported by substantial evidence', 'the trial court applied the wrong legal standard'],
  },
  probate: {
    name: 'probate', nature: '', cause: '', criminal: false,
    claim: ['will contest', 'claim of undue influence', 'petition to construe the trust', 'claim against the estate'],
    issue: ['whether the testator had testamentary capacity', 'whether the beneficiary exerted undue influence', 'whether the trust instrument is ambiguous', 'whether the claim was timely presented'],
    statutes: [],
    dispositionWin: 'reversed', holding: ['the evidence established testamentary capacity', 'the presumption of undue influence was rebutted', 'the instrument must be construed to give effect to the settlor\'s intent'],
  },
  property: {
    name: 'property', nature: '', cause: '', criminal: false,
    claim: ['quiet-title action', 'claim for adverse possession', 'claim for breach of the lease', 'challenge to the zoning decision'],
    issue: ['whether the easement was abandoned', 'whether the possession was open and notorious', 'whether the landlord waived the breach', 'whether the board\'s decision was arbitrary'],
    statutes: [],
    dispositionWin: 'reversed', holding: ['the easement was not abandoned by mere nonuse', 'the claimant established each element of adverse possession', 'the board\'s decision was supported by the record'],
  },
  bankruptcy: {
    name: 'bankruptcy', nature: '', cause: '', criminal: false,
    claim: ['objection to discharge', 'motion for relief from the automatic stay', 'adversary proceeding to avoid a preferential transfer', 'objection to the proof of claim', 'objection to confirmation of the plan'],
    issue: ['whether the debt is excepted from discharge', 'whether cause exists to lift the automatic stay', 'whether the transfer was made while the debtor was insolvent', 'whether the plan was proposed in good faith'],
    statutes: ['11 U.S.C. § 523(a)(2)(A)', '11 U.S.C. § 362(d)(1)', '11 U.S.C. § 547(b)', '11 U.S.C. § 1129(a)(3)', '11 U.S.C. § 727(a)', '28 U.S.C. § 157(b)(2)'],
    dispositionWin: 'sustained', holding: ['the debt is nondischargeable', 'cause exists to grant relief from the stay', 'the trustee may avoid the transfer', 'the plan was not proposed in good faith'],
  },
}

/** Mix of case kinds by kind of court. */
export const CATEGORY_MIX: Record<string, readonly (readonly [string, number])[]> = {
  scotus: [['criminal', 3], ['civil_rights', 2], ['habeas', 2], ['administrative', 2], ['employment', 1], ['securities', 1], ['immigration', 1], ['contract', 1], ['patent', 0.5], ['tax', 0.3]],
  circuit: [['criminal', 4], ['civil_rights', 2], ['habeas', 2], ['immigration', 2], ['employment', 2], ['contract', 2], ['securities', 1], ['administrative', 1], ['tort', 1], ['tax', 0.4]],
  cafc: [['patent', 6], ['administrative', 2], ['contract', 1], ['tax', 0.5]],
  district: [['civil_rights', 3], ['employment', 3], ['contract', 3], ['criminal', 2], ['tort', 2], ['administrative', 2], ['securities', 1], ['habeas', 1], ['patent', 0.5]],
  bankruptcy: [['bankruptcy', 1]],
  state: [['criminal', 4], ['tort', 2], ['contract', 2], ['family', 2], ['probate', 1], ['property', 1], ['employment', 0.5], ['administrative', 0.5]],
}
