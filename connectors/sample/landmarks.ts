/**
 * Real landmark decisions of U.S. courts, by area of law: name, year, court and, where known, the
 * citation in the official reporter (names, years and citations are public facts). A generated
 * sample holds the first of them in FIRST_SEARCHES order and then in list order, as many as its
 * size allows (all of them from a few thousand opinions on); their clusters carry the real year
 * and citation, and later opinions of the same area cite them.
 */

export interface Landmark {
  name: string
  year: number
  /** Court id (courts.json). */
  court: string
  /** Citation in the official reporter, if any: volume, reporter, first page. */
  cite: { volume: number; reporter: string; page: number } | null
  /** Area of law (areas.ts). */
  area: string
}

/**
 * year|court|citation|area|name, one decision a line. Left out: names ending in a nominative
 * reporter's name (Coleman v. Thompson), which the citation extractor reads as that reporter.
 */
const DATA = `
1803|scotus|5 U.S. 137|administrative|Marbury v. Madison
1819|scotus|17 U.S. 316|tax|McCulloch v. Maryland
1824|scotus|22 U.S. 1|administrative|Gibbons v. Ogden
1857|scotus|60 U.S. 393|civil_rights|Dred Scott v. Sandford
1887|mich|66 Mich. 568|contract|Sherwood v. Walker
1896|scotus|163 U.S. 537|civil_rights|Plessy v. Ferguson
1905|scotus|198 U.S. 45|employment|Lochner v. New York
1916|ny|217 N.Y. 382|tort|MacPherson v. Buick Motor Co.
1919|scotus|249 U.S. 47|first_amendment|Schenck v. United States
1921|ny|230 N.Y. 239|contract|Jacob & Youngs, Inc. v. Kent
1925|scotus|268 U.S. 652|first_amendment|Gitlow v. New York
1928|ny|248 N.Y. 339|tort|Palsgraf v. Long Island Railroad Co.
1929|nh|84 N.H. 114|contract|Hawkins v. McGee
1930|ca2|45 F.2d 119|copyright|Nichols v. Universal Pictures Corp.
1931|scotus|283 U.S. 697|first_amendment|Near v. Minnesota
1936|ca2|81 F.2d 49|copyright|Sheldon v. Metro-Goldwyn Pictures Corp.
1937|scotus|300 U.S. 379|employment|West Coast Hotel Co. v. Parrish
1937|scotus|301 U.S. 1|employment|NLRB v. Jones & Laughlin Steel Corp.
1938|scotus|304 U.S. 144|administrative|United States v. Carolene Products Co.
1938|scotus|304 U.S. 64|tort|Erie Railroad Co. v. Tompkins
1942|scotus|317 U.S. 111|administrative|Wickard v. Filburn
1943|scotus|319 U.S. 624|first_amendment|West Virginia State Board of Education v. Barnette
1944|scotus|323 U.S. 214|civil_rights|Korematsu v. United States
1944|cal|24 Cal. 2d 453|tort|Escola v. Coca Cola Bottling Co.
1945|scotus|326 U.S. 310|contract|International Shoe Co. v. Washington
1945|ca2|148 F.2d 416|antitrust|United States v. Aluminum Co. of America
1947|scotus|330 U.S. 1|first_amendment|Everson v. Board of Education
1947|ca2|159 F.2d 169|tort|United States v. Carroll Towing Co.
1948|scotus|334 U.S. 1|property|Shelley v. Kraemer
1948|cal|33 Cal. 2d 80|tort|Summers v. Tice
1952|scotus|343 U.S. 579|administrative|Youngstown Sheet & Tube Co. v. Sawyer
1954|scotus|347 U.S. 483|civil_rights|Brown v. Board of Education
1954|scotus|347 U.S. 497|civil_rights|Bolling v. Sharpe
1954|va|196 Va. 493|contract|Lucy v. Zehmer
1957|scotus|354 U.S. 476|first_amendment|Roth v. United States
1958|scotus|358 U.S. 1|civil_rights|Cooper v. Aaron
1958|scotus|357 U.S. 449|first_amendment|NAACP v. Alabama ex rel. Patterson
1961|scotus|367 U.S. 643|fourth_amendment|Mapp v. Ohio
1961|scotus|365 U.S. 167|civil_rights|Monroe v. Pape
1961|ca2|287 F.2d 492|trademark|Polaroid Corp. v. Polarad Electronics Corp.
1962|scotus|369 U.S. 186|civil_rights|Baker v. Carr
1962|scotus|370 U.S. 421|first_amendment|Engel v. Vitale
1963|scotus|372 U.S. 335|habeas|Gideon v. Wainwright
1963|scotus|373 U.S. 83|habeas|Brady v. Maryland
1963|scotus|372 U.S. 391|habeas|Fay v. Noia
1963|scotus|371 U.S. 471|fourth_amendment|Wong Sun v. United States
1963|scotus|374 U.S. 203|first_amendment|Abington School District v. Schempp
1963|scotus|374 U.S. 398|first_amendment|Sherbert v. Verner
1963|cal|59 Cal. 2d 57|tort|Greenman v. Yuba Power Products, Inc.
1964|scotus|376 U.S. 254|first_amendment|New York Times Co. v. Sullivan
1964|scotus|377 U.S. 533|civil_rights|Reynolds v. Sims
1964|scotus|379 U.S. 241|civil_rights|Heart of Atlanta Motel, Inc. v. United States
1964|scotus|379 U.S. 294|civil_rights|Katzenbach v. McClung
1964|scotus|378 U.S. 478|criminal|Escobedo v. Illinois
1965|scotus|381 U.S. 479|civil_rights|Griswold v. Connecticut
1965|cadc|350 F.2d 445|contract|Williams v. Walker-Thomas Furniture Co.
1966|scotus|384 U.S. 436|criminal|Miranda v. Arizona
1966|scotus|383 U.S. 301|civil_rights|South Carolina v. Katzenbach
1966|scotus|384 U.S. 333|criminal|Sheppard v. Maxwell
1967|scotus|389 U.S. 347|fourth_amendment|Katz v. United States
1967|scotus|388 U.S. 1|civil_rights|Loving v. Virginia
1967|scotus|387 U.S. 1|criminal|In re Gault
1968|scotus|392 U.S. 1|fourth_amendment|Terry v. Ohio
1968|scotus|391 U.S. 145|criminal|Duncan v. Louisiana
1969|scotus|393 U.S. 503|first_amendment|Tinker v. Des Moines Independent Community School District
1969|scotus|395 U.S. 444|first_amendment|Brandenburg v. Ohio
1969|scotus|395 U.S. 752|fourth_amendment|Chimel v. California
1969|scotus|395 U.S. 367|first_amendment|Red Lion Broadcasting Co. v. FCC
1970|scotus|397 U.S. 254|administrative|Goldberg v. Kelly
1970|scotus|397 U.S. 358|criminal|In re Winship
1971|scotus|402 U.S. 1|civil_rights|Swann v. Charlotte-Mecklenburg Board of Education
1971|scotus|401 U.S. 424|employment|Griggs v. Duke Power Co.
1971|scotus|403 U.S. 602|first_amendment|Lemon v. Kurtzman
1971|scotus|403 U.S. 713|first_amendment|New York Times Co. v. United States
1971|scotus|401 U.S. 402|administrative|Citizens to Preserve Overton Park, Inc. v. Volpe
1971|scotus|403 U.S. 15|first_amendment|Cohen v. California
1971|scotus|403 U.S. 388|civil_rights|Bivens v. Six Unknown Named Agents of Federal Bureau of Narcotics
1971|scotus|404 U.S. 257|sentencing|Santobello v. New York
1972|scotus|408 U.S. 238|sentencing|Furman v. Georgia
1972|scotus|406 U.S. 205|first_amendment|Wisconsin v. Yoder
1972|scotus|407 U.S. 514|criminal|Barker v. Wingo
1972|scotus|405 U.S. 727|environmental|Sierra Club v. Morton
1973|scotus|410 U.S. 113|civil_rights|Roe v. Wade
1973|scotus|413 U.S. 15|first_amendment|Miller v. California
1973|scotus|411 U.S. 792|employment|McDonnell Douglas Corp. v. Green
1973|scotus|411 U.S. 1|civil_rights|San Antonio Independent School District v. Rodriguez
1973|scotus|412 U.S. 218|fourth_amendment|Schneckloth v. Bustamonte
1974|scotus|418 U.S. 683|administrative|United States v. Nixon
1974|scotus|418 U.S. 323|first_amendment|Gertz v. Robert Welch, Inc.
1975|scotus|419 U.S. 565|civil_rights|Goss v. Lopez
1975|cal|13 Cal. 3d 804|tort|Li v. Yellow Cab Co.
1976|scotus|424 U.S. 319|administrative|Mathews v. Eldridge
1976|scotus|424 U.S. 1|first_amendment|Buckley v. Valeo
1976|scotus|428 U.S. 153|sentencing|Gregg v. Georgia
1976|scotus|426 U.S. 229|employment|Washington v. Davis
1976|scotus|428 U.S. 465|habeas|Stone v. Powell
1976|scotus|429 U.S. 190|civil_rights|Craig v. Boren
1976|cal|17 Cal. 3d 425|tort|Tarasoff v. Regents of the University of California
1976|ca2|537 F.2d 4|trademark|Abercrombie & Fitch Co. v. Hunting World, Inc.
1977|scotus|433 U.S. 72|habeas|Wainwright v. Sykes
1978|scotus|436 U.S. 658|civil_rights|Monell v. Department of Social Services
1978|scotus|438 U.S. 265|civil_rights|Regents of the University of California v. Bakke
1978|scotus|437 U.S. 153|environmental|Tennessee Valley Authority v. Hill
1978|scotus|438 U.S. 104|property|Penn Central Transportation Co. v. New York City
1978|scotus|438 U.S. 154|fourth_amendment|Franks v. Delaware
1979|scotus|443 U.S. 307|habeas|Jackson v. Virginia
1979|ca9|599 F.2d 341|trademark|AMF Inc. v. Sleekcraft Boats
1980|scotus|447 U.S. 303|patent|Diamond v. Chakrabarty
1980|scotus|447 U.S. 557|first_amendment|Central Hudson Gas & Electric Corp. v. Public Service Commission
1980|scotus|445 U.S. 573|fourth_amendment|Payton v. New York
1981|scotus|450 U.S. 175|patent|Diamond v. Diehr
1982|scotus|457 U.S. 800|civil_rights|Harlow v. Fitzgerald
1982|scotus|457 U.S. 202|immigration|Plyler v. Doe
1983|scotus|462 U.S. 213|fourth_amendment|Illinois v. Gates
1983|scotus|462 U.S. 919|immigration|INS v. Chadha
1983|scotus|463 U.S. 29|administrative|Motor Vehicle Manufacturers Association v. State Farm Mutual Automobile Insurance Co.
1984|scotus|467 U.S. 837|administrative|Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc.
1984|scotus|466 U.S. 668|habeas|Strickland v. Washington
1984|scotus|468 U.S. 897|fourth_amendment|United States v. Leon
1984|scotus|464 U.S. 417|copyright|Sony Corp. of America v. Universal City Studios, Inc.
1985|scotus|471 U.S. 539|copyright|Harper & Row, Publishers, Inc. v. Nation Enterprises
1985|scotus|471 U.S. 1|civil_rights|Tennessee v. Garner
1985|scotus|469 U.S. 325|fourth_amendment|New Jersey v. T.L.O.
1985|scotus|473 U.S. 614|contract|Mitsubishi Motors Corp. v. Soler Chrysler-Plymouth, Inc.
1986|scotus|476 U.S. 79|criminal|Batson v. Kentucky
1986|scotus|477 U.S. 317|tort|Celotex Corp. v. Catrett
1986|scotus|477 U.S. 242|tort|Anderson v. Liberty Lobby, Inc.
1986|scotus|475 U.S. 574|antitrust|Matsushita Electric Industrial Co. v. Zenith Radio Corp.
1986|scotus|477 U.S. 57|employment|Meritor Savings Bank, FSB v. Vinson
1987|scotus|481 U.S. 279|sentencing|McCleskey v. Kemp
1989|scotus|489 U.S. 288|habeas|Teague v. Lane
1989|scotus|491 U.S. 397|first_amendment|Texas v. Johnson
1989|scotus|490 U.S. 386|civil_rights|Graham v. Connor
1989|scotus|490 U.S. 228|employment|Price Waterhouse v. Hopkins
1989|scotus|489 U.S. 189|civil_rights|DeShaney v. Winnebago County Department of Social Services
1990|scotus|494 U.S. 872|first_amendment|Employment Division v. Smith
1990|scotus|497 U.S. 261|civil_rights|Cruzan v. Director, Missouri Department of Health
1991|scotus|499 U.S. 340|copyright|Feist Publications, Inc. v. Rural Telephone Service Co.
1991|scotus|500 U.S. 20|employment|Gilmer v. Interstate/Johnson Lane Corp.
1992|scotus|504 U.S. 555|environmental|Lujan v. Defenders of Wildlife
1992|scotus|505 U.S. 833|civil_rights|Planned Parenthood of Southeastern Pennsylvania v. Casey
1992|scotus|505 U.S. 1003|property|Lucas v. South Carolina Coastal Council
1992|scotus|505 U.S. 763|trademark|Two Pesos, Inc. v. Taco Cabana, Inc.
1993|scotus|507 U.S. 619|habeas|Brecht v. Abrahamson
1993|scotus|509 U.S. 579|tort|Daubert v. Merrell Dow Pharmaceuticals, Inc.
1993|scotus|509 U.S. 502|employment|St. Mary's Honor Center v. Hicks
1993|scotus|510 U.S. 17|employment|Harris v. Forklift Systems, Inc.
1993|scotus|509 U.S. 209|antitrust|Brooke Group Ltd. v. Brown & Williamson Tobacco Corp.
1994|scotus|510 U.S. 569|copyright|Campbell v. Acuff-Rose Music, Inc.
1995|scotus|514 U.S. 159|trademark|Qualitex Co. v. Jacobson Products Co.
1995|scotus|514 U.S. 549|criminal|United States v. Lopez
1995|scotus|515 U.S. 200|civil_rights|Adarand Constructors, Inc. v. Pena
1996|scotus|517 U.S. 370|patent|Markman v. Westview Instruments, Inc.
1996|scotus|517 U.S. 806|fourth_amendment|Whren v. United States
1996|scotus|517 U.S. 559|tort|BMW of North America, Inc. v. Gore
1996|scotus|518 U.S. 81|sentencing|Koon v. United States
1996|scotus|517 U.S. 620|civil_rights|Romer v. Evans
1996|scotus|517 U.S. 44|administrative|Seminole Tribe of Florida v. Florida
1997|scotus|520 U.S. 17|patent|Warner-Jenkinson Co. v. Hilton Davis Chemical Co.
1997|scotus|521 U.S. 844|first_amendment|Reno v. American Civil Liberties Union
1997|scotus|521 U.S. 898|administrative|Printz v. United States
1997|scotus|521 U.S. 507|first_amendment|City of Boerne v. Flores
1998|scotus|523 U.S. 75|employment|Oncale v. Sundowner Offshore Services, Inc.
1998|scotus|524 U.S. 742|employment|Burlington Industries, Inc. v. Ellerth
1998|scotus|524 U.S. 775|employment|Faragher v. City of Boca Raton
1998|scotus|523 U.S. 83|environmental|Steel Co. v. Citizens for a Better Environment
1998|cafc|149 F.3d 1368|patent|State Street Bank & Trust Co. v. Signature Financial Group, Inc.
1999|scotus|526 U.S. 137|tort|Kumho Tire Co. v. Carmichael
2000|scotus|529 U.S. 362|habeas|Williams v. Taylor
2000|scotus|530 U.S. 466|sentencing|Apprendi v. New Jersey
2000|scotus|529 U.S. 473|habeas|Slack v. McDaniel
2000|scotus|530 U.S. 133|employment|Reeves v. Sanderson Plumbing Products, Inc.
2000|scotus|528 U.S. 167|environmental|Friends of the Earth, Inc. v. Laidlaw Environmental Services, Inc.
2000|scotus|530 U.S. 428|criminal|Dickerson v. United States
2000|scotus|529 U.S. 205|trademark|Wal-Mart Stores, Inc. v. Samara Brothers, Inc.
2000|scotus|530 U.S. 640|first_amendment|Boy Scouts of America v. Dale
2000|scotus|531 U.S. 98|civil_rights|Bush v. Gore
2001|scotus|533 U.S. 27|fourth_amendment|Kyllo v. United States
2001|scotus|533 U.S. 194|civil_rights|Saucier v. Katz
2001|scotus|532 U.S. 23|trademark|TrafFix Devices, Inc. v. Marketing Displays, Inc.
2001|scotus|532 U.S. 105|employment|Circuit City Stores, Inc. v. Adams
2001|scotus|533 U.S. 483|copyright|New York Times Co. v. Tasini
2001|scotus|531 U.S. 457|environmental|Whitman v. American Trucking Associations, Inc.
2001|scotus|533 U.S. 218|administrative|United States v. Mead Corp.
2001|ca9|239 F.3d 1004|copyright|A&M Records, Inc. v. Napster, Inc.
2001|cadc|253 F.3d 34|antitrust|United States v. Microsoft Corp.
2002|scotus|535 U.S. 722|patent|Festo Corp. v. Shoketsu Kinzoku Kogyo Kabushiki Co.
2002|scotus|534 U.S. 506|employment|Swierkiewicz v. Sorema N.A.
2002|scotus|536 U.S. 304|sentencing|Atkins v. Virginia
2002|scotus|536 U.S. 584|sentencing|Ring v. Arizona
2003|scotus|537 U.S. 186|copyright|Eldred v. Ashcroft
2003|scotus|539 U.S. 558|civil_rights|Lawrence v. Texas
2003|scotus|539 U.S. 306|civil_rights|Grutter v. Bollinger
2003|scotus|537 U.S. 418|trademark|Moseley v. V Secret Catalogue, Inc.
2003|scotus|539 U.S. 23|trademark|Dastar Corp. v. Twentieth Century Fox Film Corp.
2004|scotus|540 U.S. 398|antitrust|Verizon Communications Inc. v. Law Offices of Curtis V. Trinko, LLP
2004|scotus|542 U.S. 296|sentencing|Blakely v. Washington
2004|scotus|541 U.S. 36|criminal|Crawford v. Washington
2004|scotus|542 U.S. 507|habeas|Hamdi v. Rumsfeld
2004|scotus|542 U.S. 466|habeas|Rasul v. Bush
2004|scotus|543 U.S. 111|trademark|KP Permanent Make-Up, Inc. v. Lasting Impression I, Inc.
2005|scotus|543 U.S. 220|sentencing|United States v. Booker
2005|scotus|545 U.S. 913|copyright|Metro-Goldwyn-Mayer Studios Inc. v. Grokster, Ltd.
2005|scotus|545 U.S. 469|property|Kelo v. City of New London
2005|scotus|545 U.S. 1|criminal|Gonzales v. Raich
2005|scotus|544 U.S. 336|securities|Dura Pharmaceuticals, Inc. v. Broudo
2005|scotus|544 U.S. 408|habeas|Pace v. DiGuglielmo
2005|scotus|545 U.S. 644|habeas|Mayle v. Felix
2005|cafc|415 F.3d 1303|patent|Phillips v. AWH Corp.
2006|scotus|547 U.S. 388|patent|eBay Inc. v. MercExchange, L.L.C.
2006|scotus|547 U.S. 28|antitrust|Illinois Tool Works Inc. v. Independent Ink, Inc.
2006|scotus|548 U.S. 557|habeas|Hamdan v. Rumsfeld
2006|scotus|548 U.S. 53|employment|Burlington Northern & Santa Fe Railway Co. v. White
2006|scotus|547 U.S. 586|fourth_amendment|Hudson v. Michigan
2006|scotus|547 U.S. 410|first_amendment|Garcetti v. Ceballos
2006|scotus|547 U.S. 715|environmental|Rapanos v. United States
2006|scotus|546 U.S. 500|employment|Arbaugh v. Y & H Corp.
2006|scotus|547 U.S. 293|bankruptcy|Marshall v. Marshall
2006|scotus|546 U.S. 356|bankruptcy|Central Virginia Community College v. Katz
2007|scotus|550 U.S. 398|patent|KSR International Co. v. Teleflex Inc.
2007|scotus|550 U.S. 544|antitrust|Bell Atlantic Corp. v. Twombly
2007|scotus|549 U.S. 118|patent|MedImmune, Inc. v. Genentech, Inc.
2007|scotus|549 U.S. 497|environmental|Massachusetts v. EPA
2007|scotus|551 U.S. 308|securities|Tellabs, Inc. v. Makor Issues & Rights, Ltd.
2007|scotus|552 U.S. 38|sentencing|Gall v. United States
2007|scotus|552 U.S. 85|sentencing|Kimbrough v. United States
2007|scotus|551 U.S. 338|sentencing|Rita v. United States
2007|scotus|550 U.S. 372|civil_rights|Scott v. Harris
2007|scotus|551 U.S. 393|first_amendment|Morse v. Frederick
2007|scotus|551 U.S. 877|antitrust|Leegin Creative Leather Products, Inc. v. PSKS, Inc.
2007|scotus|549 U.S. 365|bankruptcy|Marrama v. Citizens Bank of Massachusetts
2008|scotus|553 U.S. 617|patent|Quanta Computer, Inc. v. LG Electronics, Inc.
2008|scotus|554 U.S. 570|criminal|District of Columbia v. Heller
2008|scotus|553 U.S. 723|habeas|Boumediene v. Bush
2008|scotus|552 U.S. 148|securities|Stoneridge Investment Partners, LLC v. Scientific-Atlanta, Inc.
2008|cafc|545 F.3d 943|patent|In re Bilski
2009|scotus|556 U.S. 332|fourth_amendment|Arizona v. Gant
2009|scotus|556 U.S. 662|civil_rights|Ashcroft v. Iqbal
2009|scotus|555 U.S. 223|civil_rights|Pearson v. Callahan
2009|scotus|555 U.S. 135|fourth_amendment|Herring v. United States
2009|scotus|557 U.S. 557|employment|Ricci v. DeStefano
2009|scotus|557 U.S. 167|employment|Gross v. FBL Financial Services, Inc.
2009|scotus|557 U.S. 305|criminal|Melendez-Diaz v. Massachusetts
2009|scotus|556 U.S. 208|environmental|Entergy Corp. v. Riverkeeper, Inc.
2010|scotus|561 U.S. 593|patent|Bilski v. Kappos
2010|scotus|558 U.S. 310|first_amendment|Citizens United v. Federal Election Commission
2010|scotus|560 U.S. 631|habeas|Holland v. Florida
2010|scotus|559 U.S. 356|immigration|Padilla v. Kentucky
2010|scotus|561 U.S. 247|securities|Morrison v. National Australia Bank Ltd.
2010|scotus|561 U.S. 477|securities|Free Enterprise Fund v. Public Company Accounting Oversight Board
2010|scotus|560 U.S. 48|sentencing|Graham v. Florida
2011|scotus|562 U.S. 86|habeas|Harrington v. Richter
2011|scotus|563 U.S. 170|habeas|Cullen v. Pinholster
2011|scotus|564 U.S. 462|bankruptcy|Stern v. Marshall
2011|scotus|564 U.S. 338|employment|Wal-Mart Stores, Inc. v. Dukes
2011|scotus|563 U.S. 333|contract|AT&T Mobility LLC v. Concepcion
2011|scotus|564 U.S. 91|patent|Microsoft Corp. v. i4i Ltd. Partnership
2011|scotus|563 U.S. 27|securities|Matrixx Initiatives, Inc. v. Siracusano
2011|scotus|562 U.S. 443|first_amendment|Snyder v. Phelps
2011|scotus|564 U.S. 786|first_amendment|Brown v. Entertainment Merchants Association
2012|scotus|566 U.S. 66|patent|Mayo Collaborative Services v. Prometheus Laboratories, Inc.
2012|scotus|565 U.S. 400|fourth_amendment|United States v. Jones
2012|scotus|567 U.S. 460|sentencing|Miller v. Alabama
2012|scotus|566 U.S. 1|habeas|Martinez v. Ryan
2012|scotus|567 U.S. 519|tax|National Federation of Independent Business v. Sebelius
2012|scotus|567 U.S. 387|immigration|Arizona v. United States
2012|scotus|566 U.S. 639|bankruptcy|RadLAX Gateway Hotel, LLC v. Amalgamated Bank
2013|scotus|568 U.S. 519|copyright|Kirtsaeng v. John Wiley & Sons, Inc.
2013|scotus|569 U.S. 576|patent|Association for Molecular Pathology v. Myriad Genetics, Inc.
2013|scotus|570 U.S. 529|civil_rights|Shelby County v. Holder
2013|scotus|569 U.S. 141|fourth_amendment|Missouri v. McNeely
2013|scotus|570 U.S. 99|sentencing|Alleyne v. United States
2013|scotus|569 U.S. 530|sentencing|Peugh v. United States
2013|scotus|570 U.S. 338|employment|University of Texas Southwestern Medical Center v. Nassar
2013|scotus|570 U.S. 421|employment|Vance v. Ball State University
2013|scotus|569 U.S. 383|habeas|McQuiggin v. Perkins
2013|scotus|569 U.S. 184|immigration|Moncrieffe v. Holder
2014|scotus|573 U.S. 208|patent|Alice Corp. v. CLS Bank International
2014|scotus|572 U.S. 898|patent|Nautilus, Inc. v. Biosig Instruments, Inc.
2014|scotus|572 U.S. 545|patent|Octane Fitness, LLC v. ICON Health & Fitness, Inc.
2014|scotus|573 U.S. 373|fourth_amendment|Riley v. California
2014|scotus|573 U.S. 431|copyright|American Broadcasting Cos. v. Aereo, Inc.
2014|scotus|572 U.S. 663|copyright|Petrella v. Metro-Goldwyn-Mayer, Inc.
2014|scotus|572 U.S. 118|trademark|Lexmark International, Inc. v. Static Control Components, Inc.
2014|scotus|573 U.S. 258|securities|Halliburton Co. v. Erica P. John Fund, Inc.
2014|scotus|573 U.S. 682|first_amendment|Burwell v. Hobby Lobby Stores, Inc.
2014|scotus|571 U.S. 415|bankruptcy|Law v. Siegel
2014|scotus|573 U.S. 302|environmental|Utility Air Regulatory Group v. EPA
2015|scotus|576 U.S. 644|civil_rights|Obergefell v. Hodges
2015|scotus|575 U.S. 348|fourth_amendment|Rodriguez v. United States
2015|scotus|576 U.S. 591|sentencing|Johnson v. United States
2015|scotus|576 U.S. 743|environmental|Michigan v. EPA
2015|scotus|576 U.S. 473|administrative|King v. Burwell
2015|scotus|576 U.S. 155|first_amendment|Reed v. Town of Gilbert
2015|scotus|575 U.S. 206|employment|Young v. United Parcel Service, Inc.
2015|scotus|575 U.S. 138|trademark|B&B Hardware, Inc. v. Hargis Industries, Inc.
2015|scotus|576 U.S. 446|patent|Kimble v. Marvel Entertainment, LLC
2015|scotus|574 U.S. 318|patent|Teva Pharmaceuticals USA, Inc. v. Sandoz, Inc.
2015|scotus|575 U.S. 632|patent|Commil USA, LLC v. Cisco Systems, Inc.
2015|scotus|575 U.S. 496|bankruptcy|Bullard v. Blue Hills Bank
2015|scotus|575 U.S. 510|bankruptcy|Harris v. Viegelahn
2015|scotus|576 U.S. 121|bankruptcy|Baker Botts L.L.P. v. ASARCO LLC
2015|scotus|575 U.S. 665|bankruptcy|Wellness International Network, Ltd. v. Sharif
2015|scotus|575 U.S. 798|immigration|Mellouli v. Lynch
2015|ca2|804 F.3d 202|copyright|Authors Guild v. Google, Inc.
2016|scotus|579 U.S. 93|patent|Halo Electronics, Inc. v. Pulse Electronics, Inc.
2016|scotus|579 U.S. 261|patent|Cuozzo Speed Technologies, LLC v. Lee
2016|scotus|579 U.S. 232|fourth_amendment|Utah v. Strieff
2016|scotus|578 U.S. 355|bankruptcy|Husky International Electronics, Inc. v. Ritz
2016|scotus|579 U.S. 500|sentencing|Mathis v. United States
2016|scotus|578 U.S. 189|sentencing|Molina-Martinez v. United States
2016|scotus|578 U.S. 120|habeas|Welch v. United States
2017|scotus|580 U.S. 405|copyright|Star Athletica, L.L.C. v. Varsity Brands, Inc.
2017|scotus|582 U.S. 218|trademark|Matal v. Tam
2017|scotus|581 U.S. 258|patent|TC Heartland LLC v. Kraft Foods Group Brands LLC
2017|scotus|581 U.S. 360|patent|Impression Products, Inc. v. Lexmark International, Inc.
2017|scotus|580 U.S. 451|bankruptcy|Czyzewski v. Jevic Holding Corp.
2017|scotus|581 U.S. 224|bankruptcy|Midland Funding, LLC v. Johnson
2017|scotus|580 U.S. 100|habeas|Buck v. Davis
2017|scotus|580 U.S. 256|sentencing|Beckles v. United States
2017|scotus|581 U.S. 385|immigration|Esquivel-Quintana v. Sessions
2017|scotus|582 U.S. 98|first_amendment|Packingham v. North Carolina
2017|scotus|582 U.S. 449|first_amendment|Trinity Lutheran Church of Columbia, Inc. v. Comer
2018|scotus|585 U.S. 296|fourth_amendment|Carpenter v. United States
2018|scotus|584 U.S. 325|patent|Oil States Energy Services, LLC v. Greene's Energy Group, LLC
2018|scotus|584 U.S. 357|patent|SAS Institute Inc. v. Iancu
2018|scotus|584 U.S. 497|employment|Epic Systems Corp. v. Lewis
2018|scotus|585 U.S. 878|first_amendment|Janus v. American Federation of State, County, and Municipal Employees
2018|scotus|584 U.S. 148|immigration|Sessions v. Dimaya
2018|scotus|585 U.S. 198|immigration|Pereira v. Sessions
2018|scotus|585 U.S. 529|antitrust|Ohio v. American Express Co.
2018|scotus|584 U.S. 617|first_amendment|Masterpiece Cakeshop, Ltd. v. Colorado Civil Rights Commission
2018|scotus|584 U.S. 709|bankruptcy|Lamar, Archer & Cofrin, LLP v. Appling
2019|scotus|588 U.S. 388|trademark|Iancu v. Brunetti
2019|scotus|587 U.S. 370|bankruptcy|Mission Product Holdings, Inc. v. Tempnology, LLC
2019|scotus|587 U.S. 554|bankruptcy|Taggart v. Lorenzen
2019|scotus|587 U.S. 273|antitrust|Apple Inc. v. Pepper
2019|scotus|588 U.S. 558|administrative|Kisor v. Wilkie
2019|scotus|588 U.S. 752|administrative|Department of Commerce v. New York
2019|scotus|586 U.S. 146|sentencing|Timbs v. Indiana
2019|scotus|587 U.S. 176|contract|Lamps Plus, Inc. v. Varela
2020|scotus|589 U.S. 248|copyright|Allen v. Cooper
2020|scotus|590 U.S. 212|trademark|Romag Fasteners, Inc. v. Fossil, Inc.
2020|scotus|590 U.S. 644|employment|Bostock v. Clayton County
2020|scotus|591 U.S. 1|immigration|Department of Homeland Security v. Regents of the University of California
2020|scotus|589 U.S. 35|bankruptcy|Ritzen Group, Inc. v. Jackson Masonry, LLC
2020|scotus|589 U.S. 376|fourth_amendment|Kansas v. Glover
2020|scotus|590 U.S. 83|criminal|Ramos v. Louisiana
2020|scotus|591 U.S. 71|securities|Liu v. SEC
2020|scotus|591 U.S. 894|criminal|McGirt v. Oklahoma
2021|scotus|593 U.S. 1|copyright|Google LLC v. Oracle America, Inc.
2021|scotus|592 U.S. 154|bankruptcy|City of Chicago v. Fulton
2021|scotus|592 U.S. 306|fourth_amendment|Torres v. Madrid
2021|scotus|593 U.S. 194|fourth_amendment|Caniglia v. Strom
2021|scotus|593 U.S. 255|habeas|Edwards v. Vannoy
2021|scotus|593 U.S. 522|first_amendment|Fulton v. City of Philadelphia
2021|scotus|593 U.S. 374|criminal|Van Buren v. United States
2021|scotus|593 U.S. 420|sentencing|Borden v. United States
2021|scotus|594 U.S. 69|antitrust|National Collegiate Athletic Association v. Alston
2021|scotus|594 U.S. 1|patent|United States v. Arthrex, Inc.
2021|scotus|593 U.S. 155|immigration|Niz-Chavez v. Garland
2022|scotus|597 U.S. 215|civil_rights|Dobbs v. Jackson Women's Health Organization
2022|scotus|597 U.S. 1|criminal|New York State Rifle & Pistol Association, Inc. v. Bruen
2022|scotus|597 U.S. 697|environmental|West Virginia v. EPA
2022|scotus|597 U.S. 507|first_amendment|Kennedy v. Bremerton School District
2022|scotus|596 U.S. 366|habeas|Shinn v. Ramirez
2022|scotus|597 U.S. 481|sentencing|Concepcion v. United States
2022|scotus|596 U.S. 464|bankruptcy|Siegel v. Fitzgerald
2022|scotus|595 U.S. 178|copyright|Unicolors, Inc. v. H&M Hennes & Mauritz, L.P.
2023|scotus|598 U.S. 508|copyright|Andy Warhol Foundation for the Visual Arts, Inc. v. Goldsmith
2023|scotus|599 U.S. 140|trademark|Jack Daniel's Properties, Inc. v. VIP Products LLC
2023|scotus|600 U.S. 412|trademark|Abitron Austria GmbH v. Hetronic International, Inc.
2023|scotus|598 U.S. 594|patent|Amgen Inc. v. Sanofi
2023|scotus|598 U.S. 651|environmental|Sackett v. EPA
2023|scotus|600 U.S. 181|civil_rights|Students for Fair Admissions, Inc. v. President and Fellows of Harvard College
2023|scotus|600 U.S. 447|employment|Groff v. DeJoy
2023|scotus|600 U.S. 66|first_amendment|Counterman v. Colorado
2023|scotus|598 U.S. 69|bankruptcy|Bartenwerfer v. Buckley
2024|scotus|603 U.S. 369|administrative|Loper Bright Enterprises v. Raimondo
2024|scotus|603 U.S. 204|bankruptcy|Harrington v. Purdue Pharma L.P.
2024|scotus|601 U.S. 346|employment|Muldrow v. City of St. Louis
2024|scotus|602 U.S. 286|trademark|Vidal v. Elster
2024|scotus|601 U.S. 366|copyright|Warner Chappell Music, Inc. v. Nealy
2024|scotus|602 U.S. 821|sentencing|Erlinger v. United States
2024|scotus|603 U.S. 109|securities|SEC v. Jarkesy
`

/** The decisions a new user is most likely to look for first: chosen before any other when a sample has room for only some. */
const FIRST_SEARCHES = [
  'Miranda v. Arizona', 'Brown v. Board of Education', 'Marbury v. Madison', 'Roe v. Wade', 'Gideon v. Wainwright',
  'Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc.', 'Feist Publications, Inc. v. Rural Telephone Service Co.', 'eBay Inc. v. MercExchange, L.L.C.',
  'Terry v. Ohio', 'Mapp v. Ohio', 'Strickland v. Washington', 'Alice Corp. v. CLS Bank International', 'Campbell v. Acuff-Rose Music, Inc.',
  'New York Times Co. v. Sullivan', 'McDonnell Douglas Corp. v. Green', 'Bell Atlantic Corp. v. Twombly', 'Ashcroft v. Iqbal', 'United States v. Booker',
  'Apprendi v. New Jersey', 'Katz v. United States', 'Palsgraf v. Long Island Railroad Co.', 'Celotex Corp. v. Catrett', 'Daubert v. Merrell Dow Pharmaceuticals, Inc.',
  'Loving v. Virginia', 'Tinker v. Des Moines Independent Community School District', 'Monell v. Department of Social Services', 'Harlow v. Fitzgerald',
  'Lujan v. Defenders of Wildlife', 'Stern v. Marshall', 'KSR International Co. v. Teleflex Inc.', 'Markman v. Westview Instruments, Inc.', 'Obergefell v. Hodges',
  'Dobbs v. Jackson Women\'s Health Organization', 'Loper Bright Enterprises v. Raimondo', 'Carpenter v. United States', 'Riley v. California', 'Brady v. Maryland',
  'Qualitex Co. v. Jacobson Products Co.', 'Matsushita Electric Industrial Co. v. Zenith Radio Corp.', 'Massachusetts v. EPA',
]

function parse(): Landmark[] {
  const out: Landmark[] = []
  for (const line of DATA.split('\n')) {
    if (!line.trim()) continue
    const [year, court, cite, area, name] = line.split('|')
    const m = /^(\d+) (.+) (\d+)$/.exec(cite)
    out.push({ name, year: Number(year), court, area, cite: m ? { volume: Number(m[1]), reporter: m[2], page: Number(m[3]) } : null })
  }
  return out
}

export const LANDMARKS: readonly Landmark[] = parse()

/** The `n` landmarks a sample of that size holds, first searches first, then in list order; returned by date. */
export function landmarksFor(n: number): Landmark[] {
  const rank = new Map(FIRST_SEARCHES.map((name, i) => [name, i]))
  const byPriority = LANDMARKS.map((l, i) => ({ l, r: rank.get(l.name) ?? FIRST_SEARCHES.length + i }))
  byPriority.sort((a, b) => a.r - b.r)
  return byPriority.slice(0, Math.max(0, n)).map((x) => x.l).sort((a, b) => a.year - b.year)
}
