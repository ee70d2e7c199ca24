/** Word lists for plausible sample records. Names are common U.S. surnames and given names. */
export const SURNAMES = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Okafor', 'Kowalski', 'Schmidt', 'Cohen', 'Murphy', 'Sullivan', 'Park', 'Kim', 'Patel', 'Shah']
export const GIVEN = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Sonia', 'Ruth', 'Anthony', 'Amy', 'Clarence', 'Elena', 'Neil', 'Ketanji', 'Samuel', 'Brett']
export const COMPANIES = ['Acme Corp.', 'General Dynamics, Inc.', 'Pacific Gas & Electric Co.', 'First National Bank', 'Atlantic Mutual Insurance Co.', 'Union Pacific R.R. Co.', 'Metro Transit Authority', 'Blue Ridge Holdings, LLC', 'Lakeside Hospital', 'City of Springfield', 'Board of Education', 'Department of Revenue', 'Northwind Traders', 'Globex Corp.', 'Initech, Inc.']
export const SCHOOLS = ['Harvard Law School', 'Yale Law School', 'Stanford Law School', 'Columbia Law School', 'University of Chicago Law School', 'New York University School of Law', 'University of Michigan Law School', 'University of Virginia School of Law', 'Georgetown University Law Center', 'University of California, Berkeley, School of Law', 'University of Texas School of Law', 'Duke University School of Law', 'Cornell Law School', 'Northwestern University School of Law', 'Howard University School of Law']
export const PARTIES = ['d', 'r', 'i']
export const OPENINGS = [
  'This appeal requires us to decide whether the district court erred in granting summary judgment.',
  'We granted certiorari to resolve a conflict among the courts of appeals on this question.',
  'Appellant challenges the judgment entered after a jury trial.',
  'The question presented is whether the statute reaches the conduct alleged in the complaint.',
  'Petitioner seeks review of the order denying his motion to suppress.',
]
export const SENTENCES = [
  'The standard of review is de novo, and we view the evidence in the light most favorable to the nonmoving party.',
  'A court must first determine whether the statutory text is plain and unambiguous.',
  'The record does not support the finding that the defendant acted with the requisite intent.',
  'We have long recognized that the right to a fair trial is fundamental.',
  'The district court did not abuse its discretion in admitting the testimony.',
  'Summary judgment is appropriate only where there is no genuine dispute as to any material fact.',
  'The parties dispute whether the contract unambiguously required notice before termination.',
  'Under the plain meaning of the statute, the agency exceeded its authority.',
  'We are not persuaded that the error, if any, affected substantial rights.',
  'The burden rests on the party asserting jurisdiction to establish it.',
  'Qualified immunity shields officials unless they violated clearly established law.',
  'The Fourth Amendment protects against unreasonable searches and seizures.',
]
export const STATUTES = ['42 U.S.C. § 1983', '28 U.S.C. § 1331', '18 U.S.C. § 922(g)(1)', '29 U.S.C. § 621', '15 U.S.C. § 78j(b)', '8 U.S.C. § 1326']
export const CLOSINGS = ['AFFIRMED.', 'REVERSED and REMANDED.', 'Affirmed in part, reversed in part, and remanded.', 'The judgment of the district court is affirmed.', 'It is so ordered.']
