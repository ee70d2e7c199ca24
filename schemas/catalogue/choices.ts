/**
 * Choice lists shared by catalogue entries: the stored values the reference uses, each with a short
 * display name. Names that only name their value are kept; explanatory ones are our own short words.
 * Filters whose choices are groups list each group under its name.
 */
import type { Choice } from '../define.js'

type Value = string | number
const choices = (pairs: readonly (readonly [Value, string])[]): readonly Choice[] => pairs.map(([value, display_name]) => ({ value, display_name }))

/** Which integrated-database release a row came from. */
export const IDB_DATASET_SOURCE = choices([
  [1, 'Civil, 1970–1987'], [2, 'Civil, 1988 on (2017 release)'], [8, 'Civil, 1988 on (2020 release)'],
  [9, 'Civil, 1988 on (Sept. 2021 release)'], [10, 'Civil, 1988 on (March 2022 release)'],
  [3, 'Criminal, 1970–1995'], [4, 'Criminal, 1996 on (2017 release)'], [5, 'Appellate, 1971–2007'],
  [6, 'Appellate, 2008 on (2017 release)'], [7, 'Bankruptcy, 2008 on (2017 release)']
])

/** How a case reached the district court. */
export const IDB_ORIGIN = choices([
  [1, 'Original Proceeding'], [2, 'Removed from state court'], [3, 'Remanded from the court of appeals'],
  [4, 'Reinstated or reopened'], [5, 'Transferred from another district'],
  [6, 'Multidistrict litigation, transferred in'], [7, 'Appeal from a magistrate judge'], [8, 'Second reopen'],
  [9, 'Third reopen'], [10, 'Fourth reopen'], [11, 'Fifth reopen'], [12, 'Sixth reopen'],
  [13, 'Multidistrict litigation, originating here']
])

/** Basis of federal jurisdiction. */
export const IDB_JURISDICTION = choices([[1, 'Government plaintiff'], [2, 'Government defendant'], [3, 'Federal question'], [4, 'Diversity of citizenship'], [5, 'Local question']])

/** Nature-of-suit codes. */
export const IDB_NATURE_OF_SUIT = choices([
  [110, '110 Insurance'], [120, '120 Marine contract actions'], [130, '130 Miller act'],
  [140, '140 Negotiable instruments'], [150, '150 Overpayments & enforcement of judgments'],
  [151, '151 Overpayments under the medicare act'], [152, '152 Recovery of defaulted student loans'],
  [153, '153 Recovery of overpayments of vet benefits'], [160, '160 Stockholder\'s suits'],
  [190, '190 Other contract actions'], [195, '195 Contract product liability'], [196, '196 Contract franchise'],
  [210, '210 Land condemnation'], [220, '220 Foreclosure'], [230, '230 Rent, lease, ejectment'],
  [240, '240 Torts to land'], [245, '245 Tort product liability'], [290, '290 Other real property actions'],
  [310, '310 Airplane personal injury'], [315, '315 Airplane product liability'],
  [320, '320 Assault, libel, and slander'], [330, '330 Federal employers\' liability'],
  [340, '340 Marine personal injury'], [345, '345 Marine - Product liability'],
  [350, '350 Motor vehicle personal injury'], [355, '355 Motor vehicle product liability'],
  [360, '360 Other personal liability'], [362, '362 Medical malpractice'],
  [365, '365 Personal injury - Product liability'], [367, '367 Health care / pharm'],
  [368, '368 Asbestos personal injury - Prod. Liab.'], [370, '370 Other fraud'], [371, '371 Truth in lending'],
  [375, '375 False Claims Act'], [380, '380 Other personal property damage'],
  [385, '385 Property damage - Product liability'], [400, '400 State re-appointment'], [410, '410 Antitrust'],
  [422, '422 Bankruptcy appeals rule 28 USC 158'], [423, '423 Bankruptcy withdrawal 28 USC 157'],
  [430, '430 Banks and banking'], [440, '440 Civil rights other'], [441, '441 Civil rights voting'],
  [442, '442 Civil rights jobs'], [443, '443 Civil rights accomodations'], [444, '444 Civil rights welfare'],
  [445, '445 Civil rights ADA employment'], [446, '446 Civil rights ADA other'], [448, '448 Education'],
  [450, '450 Interstate commerce'], [460, '460 Deportation'],
  [462, '462 Naturalization, petition for hearing of denial'], [463, '463 Habeas corpus - alien detainee'],
  [465, '465 Other immigration actions'], [470, '470 Civil (RICO)'], [480, '480 Consumer credit'],
  [490, '490 Cable/Satellite TV'], [510, '510 Prisoner petitions - vacate sentence'],
  [530, '530 Prisoner petitions - habeas corpus'], [535, '535 Habeas corpus: Death penalty'],
  [540, '540 Prisoner petitions - mandamus and other'], [550, '550 Prisoner - civil rights'],
  [555, '555 Prisoner - prison condition'], [560, '560 Civil detainee'], [610, '610 Agricultural acts'],
  [620, '620 Food and drug acts'], [625, '625 Drug related seizure of property'], [630, '630 Liquor laws'],
  [640, '640 Railroad and trucks'], [650, '650 Airline regulations'], [660, '660 Occupational safety/health'],
  [690, '690 Other forfeiture and penalty suits'], [710, '710 Fair Labor Standards Act'],
  [720, '720 Labor/Management Relations Act'], [730, '730 Labor/Management report & disclosure'],
  [740, '740 Railway Labor Act'], [751, '751 Family and Medical Leave Act'], [790, '790 Other labor litigation'],
  [791, '791 Employee Retirement Income Security Act'], [810, '810 Selective service'], [820, '820 Copyright'],
  [830, '830 Patent'], [835, '835 Patent Abbreviated New Drug Application (ANDA)'], [840, '840 Trademark'],
  [850, '850 Securities, Commodities, Exchange'], [860, '860 Social security'],
  [861, '861 HIA (1395 FF) / Medicare'], [862, '862 Black lung'], [863, '863 D.I.W.C. / D.I.W.W.'],
  [864, '864 S.S.I.D.'], [865, '865 R.S.I.'], [870, '870 Tax suits'],
  [871, '871 IRS 3rd party suits 26 USC 7609'], [875, '875 Customer challenge 12 USC 3410'],
  [890, '890 Other statutory actions'], [891, '891 Agricultural acts'], [892, '892 Economic Stabilization Act'],
  [893, '893 Environmental matters'], [894, '894 Energy Allocation Act'],
  [895, '895 Freedom of Information Act of 1974'], [896, '896 Arbitration'],
  [899, '899 Administrative procedure act / review or appeal of agency decision'],
  [900, '900 Appeal of fee - equal access to justice'], [910, '910 Domestic relations'], [920, '920 Insanity'],
  [930, '930 Probate'], [940, '940 Substitute trustee'], [950, '950 Constitutionality of state statutes'],
  [990, '990 Other'], [992, '992 Local jurisdictional appeal'], [999, '999 Miscellaneous']
])

/** Arbitration status. */
export const IDB_ARBITRATION = choices([['M', 'Mandatory'], ['V', 'Voluntary'], ['E', 'Exempt'], ['Y', 'Yes, but type unknown']])

/** Class action ruling at termination. */
export const IDB_CLASS_ACTION_STATUS = choices([[2, 'Denied'], [3, 'Granted']])

/** How far a case went before it ended. */
export const IDB_PROCEDURAL_PROGRESS = choices([
  [1, 'No court action (before issue joined)'], [2, 'Order entered'], [11, 'Hearing held'],
  [12, 'Order decided'], [3, 'No court action (after issue joined)'], [4, 'Judgment on motion'],
  [5, 'Pretrial conference held'], [6, 'During court trial'], [7, 'During jury trial'], [8, 'After court trial'],
  [9, 'After jury trial'], [10, 'Other'], [13, 'Request for trial de novo after arbitration']
])

/** The procedural-progress filter offers its groups. */
export const IDB_PROCEDURAL_PROGRESS_GROUPS = choices([['Before issue joined', 'Before issue joined (group)'], ['After issue joined', 'After issue joined (group)']])

/** How a case ended. */
export const IDB_DISPOSITION = choices([
  [0, 'Transfer to another district'], [1, 'Remanded to state court'],
  [10, 'Multi-district litigation transfer'], [11, 'Remanded to U.S. agency'], [2, 'Want of prosecution'],
  [3, 'Lack of jurisdiction'], [12, 'Voluntarily dismissed'], [13, 'Settled'], [14, 'Other'], [4, 'Default'],
  [5, 'Consent'], [6, 'Motion before trial'], [7, 'Jury verdict'], [8, 'Directed verdict'], [9, 'Court trial'],
  [15, 'Award of arbitrator'], [16, 'Stayed pending bankruptcy'], [17, 'Other'], [18, 'Statistical closing'],
  [19, 'Appeal affirmed (magistrate judge)'], [20, 'Appeal denied (magistrate judge)']
])

/** The disposition filter offers its groups. */
export const IDB_DISPOSITION_GROUPS = choices([
  ['Cases transferred or remanded', 'Cases transferred or remanded (group)'],
  ['Dismissals', 'Dismissals (group)'], ['Judgment on', 'Judgment on (group)']
])

/** What the judgment awarded. */
export const IDB_NATURE_OF_JUDGEMENT = choices([
  [0, 'No monetary award'], [1, 'Monetary award only'], [2, 'Monetary award and other'], [3, 'Injunction'],
  [4, 'Forfeiture/foreclosure/condemnation, etc.'], [5, 'Costs only'], [6, 'Costs and attorney fees']
])

/** In whose favour judgment was entered. */
export const IDB_JUDGMENT = choices([[1, 'Plaintiff'], [2, 'Defendant'], [3, 'Both plaintiff and defendant'], [4, 'Unknown']])

/** Which sides appeared without a lawyer. */
export const IDB_PRO_SE = choices([[0, 'Neither side'], [1, 'Plaintiffs only'], [2, 'Defendants only'], [3, 'Both sides']])

/** Offense codes of criminal cases. */
export const IDB_NATURE_OF_OFFENSE = choices([
  ['0100', 'Murder, First Degree'], ['0101', 'Murder, Government Officials'], ['0200', 'Murder, Second Degree'],
  ['0201', 'Murder, 2nd Degree, Government Officials'], ['0300', 'Manslaughter'], ['0301', 'Manslaughter'],
  ['0310', 'Negligent Homicide'], ['0311', 'Negligent Homicide, Government Officials'],
  ['1100', 'Robbery, Bank'], ['1200', 'Robbery, Postal'], ['1400', 'Robbery, Other'],
  ['1500', 'Aggravated or Felonious'], ['1501', 'Felony, on Government Official'], ['1560', 'Fair Housing Law'],
  ['1600', 'Assault, Other'], ['1601', 'Misdemeanor, on Government Official'],
  ['1602', 'Obstruction of Justice-Interference'], ['1700', 'Racketeering, Violent Crime'],
  ['1800', 'Carjacking'], ['2100', 'Burglary, Bank'], ['2200', 'Burglary, Postal'],
  ['2300', 'Interstate Commerce'], ['2400', 'Burglary, Other'], ['3100', 'Larceny & Theft, Bank'],
  ['3200', 'Larceny & Theft, Postal'], ['3300', 'Interstate Commerce'], ['3400', 'Theft of U.S. Property'],
  ['3500', 'Theft within Special Maritime Jurisdiction'], ['3600', 'Transportation of Stolen Property'],
  ['3700', 'Larceny & Theft, Felony Other'], ['3800', 'Larceny & Theft, Misdemeanor Other'],
  ['4100', 'Bank Embezzlement'], ['4200', 'Postal Embezzlement'],
  ['4310', 'Embezzles Public Moneys Or Property'], ['4320', 'Lending, Credit, Insurance Institutions'],
  ['4330', 'By Officers Of A Carrier'], ['4340', 'World War Veterans Relief'],
  ['4350', 'Embezzlement: Officer or Employee of U.S. Govt.'], ['4390', 'Embezzlement, Other'],
  ['4510', 'Income Tax, Evade or Defeat'], ['4520', 'Income Tax, Other Felony'],
  ['4530', 'Income Tax, Failure to File'], ['4540', 'Income Tax, Other Misdemeanor'],
  ['4600', 'Lending, Credit Institutions'], ['4601', 'Bank Fraud'],
  ['4700', 'Postal, Interstate Wire, Radio, etc.'], ['4800', 'Veterans and Allotments'], ['4900', 'Bankruptcy'],
  ['4910', 'Marketing Agreements & Commodity Credit'], ['4920', 'Securities & Exchange'],
  ['4931', 'Fraud, Excise Tax, Other'], ['4932', 'Fraud, Wagering Tax, Other'], ['4933', 'Fraud, Other Tax'],
  ['4940', 'Railroad Retirement & Unemployment'], ['4941', 'Fraud Food Stamp Program'],
  ['4950', 'Social Security'], ['4960', 'False Personation'], ['4970', 'Nationality Laws'],
  ['4980', 'Passport Fraud'], ['4991', 'False Claims & Statements'],
  ['4992', 'Fraud, Conspiracy to Defraud, Other'], ['4993', 'Fraud, Conspiracy (General), Other'],
  ['4994', 'Fraud, False Entries, Other'], ['4995', 'Credit Card Fraud'], ['4996', 'Computer Fraud'],
  ['4997', 'Telemarketing Fraud'], ['4998', 'Health Care Fraud'], ['4999', 'Fraud, Other'],
  ['5100', 'Transport etc. Stolen Vehicles, Aircraft'], ['5200', 'Auto Theft, Other'],
  ['5500', 'Transport, Forged Securities'], ['5600', 'Forgery, Postal'], ['5710', 'Forgery, Other U. S.'],
  ['5720', 'Forgery, Other'], ['5800', 'Counterfeiting'], ['5900', 'Sexually Explicit Material'],
  ['6100', 'Sexual Abuse of Adult'], ['6110', 'Sexual Abuse of Children'],
  ['6120', 'Interstate Domestic Violence'], ['6121', 'Violent Offenses, Other'],
  ['6200', 'White Slave & Importing Aliens'], ['6300', 'Sex Offenses, Other'],
  ['6301', 'Transportation for Illegal Sexual Activity'], ['6400', 'Failure to Register'],
  ['6500', 'Narc. Marijuana Tax Act (Terms/Reopens)'], ['6501', 'Marijuana-Sell, Distribute, or Dispense'],
  ['6502', 'Marijuana-Importation/Exportation'], ['6503', 'Marijuana-Manufacture'],
  ['6504', 'Marijuana-Possession'], ['6505', 'Marijuana-Records, Rx\'s, Fraudulent Rx'],
  ['6600', 'Narc. Border Registration (Terms/Reopens)'], ['6700', 'Narcotics, Other (Terms/Reopens)'],
  ['6701', 'Narcotics-Sell, Distribute, or Dispense'], ['6702', 'Narcotics-Importation/Exportation'],
  ['6703', 'Narcotics-Manufacture'], ['6704', 'Narcotics-Possession'],
  ['6705', 'Narcotics-Records, Rx\'S, Fraudulent Rx\'s'], ['6706', 'Narcotics, Other (Terms/Reopens)'],
  ['6707', 'Narcotics, Other (Terms/Reopens)'], ['6800', 'Continuing Criminal Enterprise'],
  ['6801', 'Controlled Substance-Sell, Distribute, or Dispense'],
  ['6802', 'Controlled Substance-Importation/Exportation'], ['6803', 'Controlled Substance-Manufacture'],
  ['6804', 'Controlled Substance-Possession'], ['6805', 'Control Substance-Records, Rx\'s, Fraudulent Rx\'s'],
  ['6806', 'Drug Cultivation'], ['6807', 'Illicit Drug Profits'],
  ['6808', 'Controlled Substances Aboard Aircraft'], ['6809', 'Mail Order Drug Paraphernalia'],
  ['6810', 'Under Influence Alcohol/Drugs'], ['6900', 'Polluting Federal Lands-Controlled Substance'],
  ['6905', 'Other Drug Offenses'], ['6907', 'Illicit Drug Profits'], ['6909', 'Mail Order Drug Paraphernalia'],
  ['6911', 'Other DAPCA Offenses'], ['7100', 'Bribery'], ['7130', 'Conflict of Interest-Mining'],
  ['7131', 'Conflict of Interest-Health/Welfare'], ['7210', 'Traffic Offenses, Drunken Driving'],
  ['7220', 'Traffic Offenses, Other'], ['7310', 'Escape'], ['7311', 'Escape, Jumping Bail'],
  ['7312', 'Escape, Bail Reform Act of 1966'], ['7313', 'Escape from Custody'], ['7314', 'Criminal Default'],
  ['7320', 'Escape, Aiding or Harboring'], ['7330', 'Prison Contraband'], ['7331', 'Fraud, Other'],
  ['7400', 'Extortion, Racketeering, & Threats'], ['7401', 'Threats Against The President'],
  ['7410', 'Racketeering, Arson'], ['7420', 'Racketeering, Bribery'], ['7430', 'Racketeering, Extortion'],
  ['7440', 'Racketeering, Gambling'], ['7450', 'Racketeering, Liquor'], ['7460', 'Racketeering, Narcotics'],
  ['7470', 'Racketeering, Prostitution'], ['7471', 'Racketeering, Murder'], ['7472', 'Racketeering, Kidnap'],
  ['7473', 'Racketeering, Maim'], ['7474', 'Conspiracy, Murder, Kidnap'],
  ['7475', 'Attempt, Conspire/Maim, Assault'], ['7477', 'Monetary Laundering'], ['7478', 'Murder, First Degree'],
  ['7480', 'Racketeering'], ['7481', 'Racketeering, Robbery'], ['7482', 'Racketeering, Threats'],
  ['7490', 'Racketeering, Extortion Credit Transaction'], ['7500', 'Gambling & Lottery'],
  ['7520', 'Gambling & Lottery, Travel/Racketeering'], ['7530', 'Gambling & Lottery, Transmit Wager Info.'],
  ['7600', 'Kidnapping (18:1201,1202)'], ['7601', 'Kidnapping, Govt Officials'], ['7610', 'Kidnapping (18:13)'],
  ['7611', 'Kidnap, Hostage'], ['7700', 'Perjury'], ['7800', 'Firearms & Weapons'],
  ['7820', 'Firearms, Unlawful Possession'], ['7830', 'Firearms'], ['7831', 'Furtherance of Violence'],
  ['7910', 'Arson'], ['7920', 'Abortion'], ['7930', 'Bigamy'], ['7940', 'Malicious Destruction of Property'],
  ['7941', 'Other, Property'], ['7950', 'Disorderly Conduct'], ['7961', 'Travel to Incite to Riot'],
  ['7962', 'Civil Disorder'], ['7990', 'Misc. General Offenses, Other'], ['7991', 'Juvenile Delinquency'],
  ['8100', 'Failure to Pay Child Support'], ['8200', 'False Claims and Services, Government'],
  ['8201', 'Identification Documents and Information Fraud'], ['8500', 'Mail Fraud'],
  ['8600', 'Wire, Radio, or Television Fraud'], ['8710', 'Immigration Laws, Illegal Entry'],
  ['8720', 'Immigration Laws, Illegal Re-Entry'], ['8730', 'Immigration Laws, Other'],
  ['8731', 'Fraud And Misuse of Visa/Permits'], ['8740', 'Immigration Laws, Illegal Entry'],
  ['8750', 'Immigration Laws, Fraudulent Citizenship'], ['8900', 'Liquor, Internal Revenue'],
  ['8901', 'Fraud, Other Tax'], ['9001', 'Hazardous Waste-Treatment/Disposal/Store'],
  ['9110', 'Agriculture Acts'], ['9115', 'Agriculture Acts'], ['9120', 'Agriculture, Federal Seed Act'],
  ['9130', 'Game Conservation Acts'], ['9140', 'Agriculture, Insecticide Act'],
  ['9150', 'National Park/Recreation Violations'], ['9160', 'Agriculture, Packers & Stockyard Act'],
  ['9170', 'Agriculture, Plant Quarantine'], ['9180', 'Agriculture, Handling Animals, Research'],
  ['9200', 'Antitrust Violations'], ['9300', 'Fair Labor Standards Act'], ['9400', 'Food & Drug Act'],
  ['9500', 'Migratory Bird Laws'], ['9600', 'Motor Carrier Act'],
  ['9710', 'National Defense, Selective Service Acts'], ['9720', 'National Defense, Illegal Use of Uniform'],
  ['9730', 'National Defense, Defense Production Act'], ['9731', 'Economic Stabilization Act of 1970-Price'],
  ['9732', 'Economic Stabilization Act of 1970-Rents'], ['9733', 'Economic Stabilization Act of 1970-Wages'],
  ['9740', 'Alien Registration'], ['9741', 'Energy Facility'], ['9751', 'Treason'], ['9752', 'Espionage'],
  ['9753', 'Sabotage'], ['9754', 'Sedition'], ['9755', 'Smith Act'], ['9760', 'Curfew, Restricted Areas'],
  ['9770', 'Exportation of War Materials'], ['9771', 'Anti-Apartheid Program'],
  ['9780', 'Trading with the Enemy Act'], ['9790', 'National Defense, Other'],
  ['9791', 'Subversive Activities Control Act'], ['9792', 'Defense Contractors'], ['9793', 'Armed Forces'],
  ['9810', 'Obscene Mail'], ['9820', 'Obscene Matter in Interstate Commerce'], ['9901', 'Civil Rights'],
  ['9902', 'Election Law Violators'], ['9903', 'Federal Statues-Public Officer/Employees'],
  ['9904', 'Federal Statute-U.S. Emblems/Insignias'], ['9905', 'Federal Statutes-Foreign Relations'],
  ['9906', 'Federal Statutes-Bank and Banking'], ['9907', 'Federal Statutes-Money and Finance'],
  ['9908', 'Federal Statutes-Public Health & Welfare'], ['9909', 'Federal Statute-Census'],
  ['9910', 'Communication Acts (Including Wire Tapping)'], ['9911', 'Wire Interception'],
  ['9912', 'Federal Statutes-Copyright Laws'], ['9914', 'Federal Statutes-Coast Guard'],
  ['9915', 'Federal Statutes-Commerce And Trade'], ['9916', 'Federal Statutes-Consumer Credit Protection'],
  ['9917', 'Federal Statutes-Consumer Product Safety'], ['9918', 'Federal Statues-Toxic Substance Control'],
  ['9919', 'Federal Statutes-Title 5'], ['9920', 'Federal Statutes-Conservation Acts'], ['9921', 'Contempt'],
  ['9922', 'Contempt, Congressional'], ['9923', 'Forfeiture - Criminal or Drug Related'],
  ['9926', 'Federal Statutes-Extort/Oppress under Law'], ['9928', 'Federal Statutes-Removal from State Court'],
  ['9929', 'Federal Statutes-Labor Laws'], ['9930', 'Federal Statutes-Minerals & Land Mining'],
  ['9931', 'Customs Laws (Except Narcotics & Liquor)'], ['9932', 'Customs Laws - Import Injurious Animals'],
  ['9935', 'Patents and Trademarks'], ['9936', 'Patriotic Societies And Observances'],
  ['9938', 'Veterans Benefits'], ['9940', 'Social Security'], ['9941', 'Connally Act/Hot Oil Act'],
  ['9942', 'Transport Convict-Made Goods Interstate'], ['9943', 'Railroad & Transportation Acts'],
  ['9944', 'Destruction of Property, Interstate Commerce'], ['9947', 'Telephones Telegraphs & Radios'],
  ['9949', 'Federal Statute-Transportation'], ['9950', 'War and National Defense, Other'],
  ['9951', 'Transportation of Strikebreakers'], ['9952', 'Taft Hartley Act'],
  ['9953', 'Eight Hour Day on Public Works'], ['9954', 'Peonage'], ['9956', 'Federal Statute, Phw'],
  ['9957', 'Terrorist Activity'], ['9960', 'Liquor (Except Internal Revenue)'],
  ['9971', 'Maritime & Shipping Laws'], ['9972', 'Stowaways'], ['9973', 'Federal Boat Safety Act of 1971'],
  ['9974', 'Federal Water Pollution Control Act'], ['9981', 'Postal, Non Mailable Material'],
  ['9982', 'Postal, Injury to Property'], ['9983', 'Postal, Obstructing the Mail'],
  ['9984', 'Postal, Violations By Postal Employees'], ['9989', 'Postal, Other'],
  ['9990', 'National Park/Recreation Violations'], ['9991', 'Destroying Federal Property'],
  ['9992', 'Intimidation of Witnesses, Jurors, etc.'], ['9993', 'Aircraft Regulations'],
  ['9994', 'Explosives (Except on Vessels)'], ['9995', 'Gold Acts'], ['9996', 'Train Wrecking'],
  ['9999', 'Federal Statutes, Other']
])

/** Where a docket number came from. */
export const DOCKET_NUMBER_SOURCE = choices([[0, 'As received'], [1, 'Cleaned automatically'], [2, 'Cleaned by hand']])

/** State of a document thumbnail. */
export const THUMBNAIL_STATUS = choices([[0, 'Needed'], [1, 'Complete'], [2, 'Failed']])

/** State of text extraction by OCR. */
export const OCR_STATUS = choices([[1, 'OCR Complete'], [2, 'OCR Not Necessary'], [3, 'OCR Failed'], [4, 'OCR Needed']])

/** Main document or attachment. */
export const DOCUMENT_TYPE = choices([[1, 'Main document'], [2, 'Attachment']])

/** Kinds of court. */
export const COURT_JURISDICTION = choices([
  ['F', 'Federal Appellate'], ['FD', 'Federal District'], ['FB', 'Federal Bankruptcy'],
  ['FBP', 'Federal Bankruptcy Panel'], ['FS', 'Federal Special'], ['S', 'State Supreme'],
  ['SA', 'State Appellate'], ['ST', 'State Trial'], ['SS', 'State Special'], ['TRS', 'Tribal Supreme'],
  ['TRA', 'Tribal Appellate'], ['TRT', 'Tribal Trial'], ['TRX', 'Tribal Special'], ['TS', 'Territory Supreme'],
  ['TA', 'Territory Appellate'], ['TT', 'Territory Trial'], ['TSP', 'Territory Special'],
  ['SAG', 'State Attorney General'], ['MA', 'Military Appellate'], ['MT', 'Military Trial'], ['C', 'Committee'],
  ['I', 'International'], ['T', 'Testing']
])

/** Where a recording came from. */
export const AUDIO_SOURCE = choices([['C', 'court website'], ['H', 'brad heath archive']])

/** State of the speech-to-text transcript. */
export const STT_STATUS = choices([[0, 'Needed'], [1, 'Complete'], [2, 'Failed'], [3, 'Hallucination'], [4, 'File too big'], [5, 'No file']])

/** Which model transcribed a recording. */
export const STT_SOURCE = choices([[1, 'Whisper API'], [2, 'Self-hosted Whisper']])

/** Kinds of reporter a citation is in. */
export const CITATION_TYPE = choices([
  [1, 'Federal'], [2, 'State'], [3, 'State regional'], [4, 'Specialty'], [5, 'Early Supreme Court'],
  [6, 'Lexis'], [7, 'West'], [8, 'Neutral'], [9, 'Journal']
])

/** Why a cluster id now points elsewhere. */
export const REDIRECTION_REASON = choices([[1, 'Replaced by a newer version'], [2, 'Duplicate removed'], [3, 'Consolidated'], [4, 'Sealed by court order']])

/** Ideological direction of a decision. */
export const SCDB_DECISION_DIRECTION = choices([[1, 'Conservative'], [2, 'Liberal'], [3, 'Unspecifiable']])

/** Precedential status of a decision. */
export const PRECEDENTIAL_STATUS = choices([
  ['Published', 'Precedential'], ['Unpublished', 'Non-Precedential'], ['Errata', 'Errata'],
  ['Separate', 'Separate Opinion'], ['In-chambers', 'In-chambers'], ['Relating-to', 'Relating-to orders'],
  ['Unknown', 'Unknown Status']
])

/** Where a decision came from (the filter's list). */
export const CLUSTER_SOURCE = choices([
  ['C', 'court website'], ['R', 'public.resource.org'], ['CR', 'court website merged with resource.org'],
  ['L', 'partner_a'], ['LC', 'partner_a merged with court'], ['LR', 'partner_a merged with resource.org'],
  ['M', 'manual input'], ['A', 'internet archive'], ['Z', 'partner_b archive'],
  ['ZC', 'partner_b merged with court'], ['ZL', 'partner_b merged with partner_a'],
  ['ZLC', 'partner_b merged with partner_a and court'], ['U', 'Partner C'],
  ['CU', 'court website merged with Partner C'], ['D', 'direct court input'], ['Q', '2020 anonymous database'],
  ['CRU', 'court website merged with public.resource.org and Partner C'],
  ['LU', 'partner_a merged with Partner C'], ['LCU', 'Partner A merged with court website and Partner C'],
  ['LRU', 'Partner A merged with public.resource.org and with Partner C'],
  ['LCRU', 'Partner A merged with court website, public.resource.org and Partner C'],
  ['MU', 'Manual input merged with Partner C'], ['RU', 'public.resource.org merged with Partner C'],
  ['ZU', 'partner_b archive merged with Partner C'],
  ['ZLU', 'partner_b archive merged with Partner A and Partner C'],
  ['ZCU', 'partner_b archive merged with court website and Partner C'],
  ['ZLCU', 'partner_b archive merged with partner_a, court website and Partner C'], ['G', 'archive'],
  ['S', 'scanning project']
])

/** Kinds of opinion. */
export const OPINION_TYPE = choices([
  ['010combined', 'Combined Opinion'], ['015unamimous', 'Unanimous Opinion'], ['020lead', 'Lead Opinion'],
  ['025plurality', 'Plurality Opinion'], ['030concurrence', 'Concurrence Opinion'],
  ['035concurrenceinpart', 'In Part Opinion'], ['040dissent', 'Dissent'], ['050addendum', 'Addendum'],
  ['060remittitur', 'Remittitur'], ['070rehearing', 'Rehearing'], ['080onthemerits', 'On the Merits'],
  ['090onmotiontostrike', 'On Motion to Strike Cost Bill'], ['100trialcourt', 'Trial Court Document']
])

/** ABA rating values. */
export const ABA_RATING = choices([
  ['ewq', 'Exceptionally Well Qualified'], ['wq', 'Well Qualified'], ['q', 'Qualified'], ['nq', 'Not Qualified'],
  ['nqa', 'Not Qualified By Reason of Age']
])

/** Degree levels. */
export const DEGREE_LEVEL = choices([
  ['ba', 'Bachelor\'s'], ['ma', 'Master\'s'], ['jd', 'Juris Doctor (J.D.)'], ['llm', 'Master of Laws (LL.M)'],
  ['llb', 'Bachelor of Laws (LL.B)'], ['jsd', 'Doctor of Law (J.S.D)'], ['phd', 'Doctor of Philosophy (PhD)'],
  ['aa', 'Associate (e.g. A.A.)'], ['md', 'Medical Degree (M.D.)'],
  ['mba', 'Master of Business Administration (M.B.A.)'],
  ['cfa', 'Accounting Certification (C.P.A., C.M.A., C.F.A.)'], ['cert', 'Certificate']
])

/** Political parties. */
export const POLITICAL_PARTY = choices([
  ['d', 'Democratic'], ['r', 'Republican'], ['i', 'Independent'], ['g', 'Green'], ['l', 'Libertarian'],
  ['f', 'Federalist'], ['w', 'Whig'], ['j', 'Jeffersonian Republican'], ['u', 'National Union'],
  ['z', 'Reform Party']
])

/** How an affiliation is known. */
export const AFFILIATION_SOURCE = choices([['b', 'Ballot'], ['a', 'Appointer'], ['o', 'Other']])

/** How precise a date is. */
export const DATE_GRANULARITY = choices([['%Y', 'Year'], ['%Y-%m', 'Month'], ['%Y-%m-%d', 'Day']])

/** Name suffixes. */
export const NAME_SUFFIX = choices([['jr', 'Jr.'], ['sr', 'Sr.'], ['1', 'I'], ['2', 'II'], ['3', 'III'], ['4', 'IV']])

/** U.S. states and territories. */
export const STATES = choices([
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AS', 'American Samoa'], ['AZ', 'Arizona'], ['AR', 'Arkansas'],
  ['AA', 'Armed Forces Americas'], ['AE', 'Armed Forces Europe'], ['AP', 'Armed Forces Pacific'],
  ['CA', 'California'], ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'],
  ['DC', 'District of Partner B'], ['FL', 'Florida'], ['GA', 'Georgia'], ['GU', 'Guam'], ['HI', 'Hawaii'],
  ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'],
  ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'],
  ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'],
  ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'],
  ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['MP', 'Northern Mariana Islands'], ['OH', 'Ohio'],
  ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['PR', 'Puerto Rico'], ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'],
  ['VT', 'Vermont'], ['VI', 'Virgin Islands'], ['VA', 'Virginia'], ['WA', 'Washington'], ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'], ['WY', 'Wyoming']
])

/** Gender. */
export const GENDER = choices([['m', 'Male'], ['f', 'Female'], ['o', 'Other']])

/** Religion. */
export const RELIGION = choices([
  ['ca', 'Catholic'], ['pr', 'Protestant'], ['je', 'Jewish'], ['mu', 'Muslim'], ['at', 'Atheist'],
  ['ag', 'Agnostic'], ['mo', 'Mormon'], ['bu', 'Buddhist'], ['hi', 'Hindu'], ['ep', 'Episcopalian'],
  ['ro', 'Roman Catholic'], ['me', 'Methodist'], ['pe', 'Presbyterian'], ['un', 'Unitarian']
])

/** Race. */
export const RACE = choices([
  ['w', 'White'], ['b', 'Black or African American'], ['i', 'American Indian or Alaska Native'], ['a', 'Asian'],
  ['p', 'Native Hawaiian or Other Pacific Islander'], ['mena', 'Middle Eastern/North African'],
  ['h', 'Hispanic/Latino'], ['o', 'Other']
])

/** Kinds of retention event. */
export const RETENTION_TYPE = choices([
  ['reapp_gov', 'Governor Reappointment'], ['reapp_leg', 'Legislative Reappointment'],
  ['elec_p', 'Partisan Election'], ['elec_n', 'Nonpartisan Election'], ['elec_u', 'Uncontested Election']
])

/** Kinds of position. */
export const POSITION_TYPE = choices([
  ['jud', 'Judge'], ['jus', 'Justice'], ['ad-law-jud', 'Administrative Law Judge'], ['act-jud', 'Acting Judge'],
  ['act-jus', 'Acting Justice'], ['act-pres-jud', 'Acting Presiding Judge'],
  ['act-c-admin-jus', 'Acting Chief Administrative Justice'], ['ass-jud', 'Associate Judge'],
  ['ass-jus', 'Associate Justice'], ['ass-c-jud', 'Associate Chief Judge'],
  ['ass-pres-jud', 'Associate Presiding Judge'], ['asst-pres-jud', 'Assistant Presiding Judge'],
  ['c-jud', 'Chief Judge'], ['c-jus', 'Chief Justice'], ['c-spec-m', 'Chief Special Master'],
  ['c-admin-jus', 'Chief Administrative Justice'], ['c-spec-tr-jud', 'Chief Special Trial Judge'],
  ['pres-jud', 'Presiding Judge'], ['pres-jus', 'Presiding Justice'], ['sup-jud', 'Supervising Judge'],
  ['ad-pres-jus', 'Administrative Presiding Justice'], ['com', 'Commissioner'],
  ['com-dep', 'Deputy Commissioner'], ['jud-pt', 'Judge Pro Tem'], ['jus-pt', 'Justice Pro Tem'],
  ['ref-jud-tr', 'Judge Trial Referee'], ['ref-off', 'Official Referee'],
  ['ref-state-trial', 'State Trial Referee'], ['ret-act-jus', 'Active Retired Justice'],
  ['ret-ass-jud', 'Retired Associate Judge'], ['ret-c-jud', 'Retired Chief Judge'],
  ['ret-jus', 'Retired Justice'], ['ret-senior-jud', 'Senior Judge'], ['mag', 'Magistrate'],
  ['c-mag', 'Chief Magistrate'], ['pres-mag', 'Presiding Magistrate'], ['mag-pt', 'Magistrate Pro Tem'],
  ['mag-rc', 'Magistrate (Recalled)'], ['mag-part-time', 'Magistrate (Part-Time)'],
  ['spec-chair', 'Special Chairman'], ['spec-jud', 'Special Judge'], ['spec-m', 'Special Master'],
  ['spec-scjcbc', 'Special Superior Court Judge for Complex Business Cases'],
  ['spec-tr-jud', 'Special Trial Judge'], ['chair', 'Chairman'], ['chan', 'Chancellor'],
  ['presi-jud', 'President'], ['res-jud', 'Reserve Judge'], ['trial-jud', 'Trial Judge'],
  ['vice-chan', 'Vice Chancellor'], ['vice-cj', 'Vice Chief Judge'], ['att-gen', 'Attorney General'],
  ['att-gen-ass', 'Assistant Attorney General'], ['att-gen-ass-spec', 'Special Assistant Attorney General'],
  ['sen-counsel', 'Senior Counsel'], ['dep-sol-gen', 'Deputy Solicitor General'],
  ['pres', 'President of the United States'], ['gov', 'Governor'], ['mayor', 'Mayor'], ['clerk', 'Clerk'],
  ['clerk-chief-dep', 'Chief Deputy Clerk'], ['staff-atty', 'Staff Attorney'], ['prof', 'Professor'],
  ['adj-prof', 'Adjunct Professor'], ['prac', 'Practitioner'], ['pros', 'Prosecutor'],
  ['pub-def', 'Public Defender'], ['da', 'District Attorney'], ['ada', 'Assistant District Attorney'],
  ['legis', 'Legislator'], ['sen', 'Senator'], ['state-sen', 'State Senator']
])

/** The position-type filter offers groups and single types. */
export const POSITION_TYPE_GROUPS = choices([
  ['Judge', 'Judge (group)'], ['Attorney General', 'Attorney General (group)'],
  ['Appointing Authority', 'Appointing Authority (group)'], ['Clerkships', 'Clerkships (group)'],
  ['prof', 'Professor'], ['adj-prof', 'Adjunct Professor'], ['prac', 'Practitioner'], ['pros', 'Prosecutor'],
  ['pub-def', 'Public Defender'], ['da', 'District Attorney'], ['ada', 'Assistant District Attorney'],
  ['legis', 'Legislator'], ['sen', 'Senator'], ['state-sen', 'State Senator']
])

/** Private or public sector. */
export const SECTOR = choices([[1, 'Private sector'], [2, 'Public sector']])

/** What the judiciary committee did with a nomination. */
export const JUDICIAL_COMMITTEE_ACTION = choices([
  ['no_rep', 'Not Reported'], ['rep_w_rec', 'Reported with Recommendation'],
  ['rep_wo_rec', 'Reported without Recommendation'], ['rec_postpone', 'Recommendation Postponed'],
  ['rec_bad', 'Recommended Unfavorably']
])

/** Why a position ended. */
export const TERMINATION_REASON = choices([
  ['ded', 'Death'], ['retire_vol', 'Voluntary Retirement'], ['retire_mand', 'Mandatory Retirement'],
  ['resign', 'Resigned'], ['other_pos', 'Appointed to Other Judgeship'], ['lost', 'Lost Election'],
  ['abolished', 'Court Abolished'], ['bad_judge', 'Impeached and Convicted'],
  ['recess_not_confirmed', 'Recess Appointment Not Confirmed'], ['termed_out', 'Term Limit Reached']
])

/** How a nominee was put forward. */
export const NOMINATION_PROCESS = choices([['fed_senate', 'U.S. Senate'], ['state_senate', 'State Senate'], ['election', 'Primary Election'], ['merit_comm', 'Merit Commission']])

/** Kinds of vote. */
export const VOTE_TYPE = choices([['s', 'Senate'], ['p', 'Partisan Election'], ['np', 'Non-Partisan Election']])

/** How a judge was selected. */
export const HOW_SELECTED = choices([
  ['e_part', 'Partisan Election'], ['e_non_part', 'Non-Partisan Election'],
  ['a_pres', 'Appointment (President)'], ['a_gov', 'Appointment (Governor)'],
  ['a_legis', 'Appointment (Legislature)'], ['a_judge', 'Appointment (Judge)'],
  ['ct_trans', 'Transferred (Court Restructuring)']
])

/** The selection filter offers its groups. */
export const HOW_SELECTED_GROUPS = choices([['Election', 'Election (group)'], ['Appointment', 'Appointment (group)'], ['Other', 'Other (group)']])

/** The role of an attorney for a party. */
export const ATTORNEY_ROLE = choices([
  [1, 'Attorney to be noticed'], [2, 'Lead attorney'], [3, 'Attorney in sealed group'], [4, 'Pro hac vice'],
  [5, 'Self-terminated'], [6, 'Terminated'], [7, 'Suspended'], [8, 'Inactive'], [9, 'Disbarred'],
  [10, 'Unknown']
])

/** State of a criminal count. */
export const CRIMINAL_COUNT_STATUS = choices([[1, 'Pending'], [2, 'Terminated']])

/** What an archive fetch buys. */
export const FETCH_REQUEST_TYPE = choices([[1, 'HTML Docket'], [2, 'PDF'], [3, 'Attachment Page']])

/** State of a queued fetch or upload. */
export const PROCESSING_STATUS = choices([[1, 'Queued'], [2, 'Succeeded'], [3, 'Failed'], [4, 'In progress'], [5, 'Queued for retry'], [6, 'Invalid content'], [7, 'Needs more information']])

/** Value ranges of disclosed amounts (dollars). */
export const VALUE_CODE = choices([
  ['J', '1 - 15,000'], ['K', '15,001 - 50,000'], ['L', '50,001 - 100,000'], ['M', '100,001 - 250,000'],
  ['N', '250,001 - 500,000'], ['O', '500,001 - 1,000,000'], ['P1', '1,000,001 - 5,000,000'],
  ['P2', '5,000,001 - 25,000,000'], ['P3', '25,000,001 - 50,000,000'], ['P4', '50,000,001 -'],
  ['-1', 'Failed Extraction']
])

/** Income ranges of disclosed amounts (dollars). */
export const INCOME_CODE = choices([
  ['A', '1 - 1,000'], ['B', '1,001 - 2,500'], ['C', '2,501 - 5,000'], ['D', '5,001 - 15,000'],
  ['E', '15,001 - 50,000'], ['F', '50,001 - 100,000'], ['G', '100,001 - 1,000,000'],
  ['H1', '1,000,001 - 5,000,000'], ['H2', '5,000,001 +'], ['-1', 'Failed Extraction']
])

/** How a gross value was determined. */
export const GROSS_VALUE_METHOD = choices([
  ['Q', 'Appraisal'], ['R', 'Cost (Real Estate Only)'], ['S', 'Assessment'], ['T', 'Cash Market'],
  ['U', 'Book Value'], ['V', 'Other'], ['W', 'Estimated'], ['-1', 'Failed Extraction']
])

/** Kinds of disclosure report. */
export const REPORT_TYPE = choices([[-1, 'Unknown Report'], [0, 'Nomination Report'], [1, 'Initial Report'], [2, 'Annual Report'], [3, 'Final Report']])

/** How often a search alert runs. */
export const ALERT_RATE = choices([['rt', 'Real Time'], ['dly', 'Daily'], ['wly', 'Weekly'], ['mly', 'Monthly'], ['off', 'Off']])

/** Subscribed or not. */
export const DOCKET_ALERT_TYPE = choices([[0, 'Unsubscription'], [1, 'Subscription']])

/** State of a prayer. */
export const PRAYER_STATUS = choices([[1, 'Waiting'], [2, 'Granted']])

/**
 * Docket sources are a bit set: each bit is one source a docket's data came from, and a value's name
 * lists its sources. The field offers every combination but one (65); the filter offers all, in its own order.
 */
const SOURCE_BITS = ['Archive', 'Scraper', 'Partner B', 'IDB', 'Partner C', 'Direct court input', '2020 anonymous database', 'Scanning project'] as const
const sourceName = (v: number) => {
  if (v === 0) return 'Default'
  if (v === 8) return 'Integrated Database'
  const names = SOURCE_BITS.filter((_, i) => v & (1 << i))
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}
const sourceChoices = (values: readonly number[]) => choices(values.map((v) => [v, sourceName(v)] as const))
export const DOCKET_SOURCE = sourceChoices([
  0, 1, 2, 3, 4, 6, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
  30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56,
  57, 58, 59, 60, 61, 62, 63, 64, 72, 66, 67, 68, 69, 70, 71, 73, 74, 75, 76, 77, 78, 79, 80, 82, 81, 83, 84,
  85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109,
  110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131,
  132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153,
  154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
  176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197,
  198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219,
  220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241,
  242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
])
export const DOCKET_SOURCE_FILTER = sourceChoices([
  0, 1, 2, 3, 4, 6, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
  30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56,
  57, 58, 59, 60, 61, 62, 63, 64, 72, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 82, 81, 83,
  84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108,
  109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130,
  131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152,
  153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174,
  175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196,
  197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218,
  219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240,
  241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
])
/** Membership tiers (our own list: the reference's tiers plus legacy, education and legal-services members). */
export const MEMBERSHIP_LEVEL = choices([
  ['tier-1', 'Tier 1'], ['tier-2', 'Tier 2'], ['tier-3', 'Tier 3'], ['tier-4', 'Tier 4'],
  ['legacy', 'Legacy'], ['edu', 'Education'], ['lso', 'Legal services organization'],
])

/** Kinds of file uploaded to the archive. */
export const UPLOAD_TYPE = choices([
  [1, 'Docket'], [2, 'Document'], [3, 'Attachment page'], [4, 'Appellate docket'], [5, 'Appellate attachment page'],
  [6, 'Internet Archive XML docket'], [7, 'Case report'], [8, 'Claims register'], [9, 'Docket history report'],
  [10, 'Appellate case query page'], [11, 'Case query result page'], [12, 'Appellate case query result page'],
  [13, 'ACMS docket (JSON)'], [14, 'ACMS attachment page'],
])

/** Webhook event types (the spec's table). */
export const WEBHOOK_EVENT_TYPE = choices([[1, 'Docket Alert'], [2, 'Search Alert'], [3, 'Archive Fetch'], [4, 'Old Docket Alerts Report'], [5, 'Pray And Pay']])
/** Webhook event formats. */
export const WEBHOOK_VERSION = choices([[1, 'Version 1'], [2, 'Version 2']])
/** Where a webhook event is in its delivery. */
export const WEBHOOK_EVENT_STATUS = choices([[0, 'In progress'], [1, 'Enqueued for retry'], [2, 'Delivered'], [3, 'Failed'], [4, 'Endpoint disabled']])
