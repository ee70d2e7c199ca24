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

/** Fictional organizations and businesses of some areas of law: "{city} Free Speech Coalition", "{surname} Records, Inc.". */
export const ADVOCACY_GROUPS = ['Citizens for Open Government', 'Free Speech Coalition', 'Faith Fellowship Church', 'Press Association', 'Tenants Union', 'Students for Free Expression']
export const MEDIA_NOUNS = ['Records, Inc.', 'Publishing Co.', 'Music Group, LLC', 'Pictures Corp.', 'Media, Inc.', 'Software Studios, Inc.', 'Photography, LLC']
export const ENVIRONMENTAL_GROUPS = ['Riverkeeper, Inc.', 'Environmental Council', 'Audubon Society', 'Clean Air Coalition', 'Watershed Alliance']
export const ENVIRONMENTAL_AGENCIES = ['Environmental Protection Agency', 'United States Army Corps of Engineers', 'United States Fish and Wildlife Service', 'Department of the Interior']

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

/** The areas of law the cases belong to (their words, statutes, docket fields): see areas.ts. */
export { AREAS as CATEGORIES, AREA_MIX as CATEGORY_MIX, type Area as Category } from './areas.js'
