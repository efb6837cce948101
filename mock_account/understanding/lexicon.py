"""Word lists the extractor needs besides the gazetteer: function words, request verbs, cue words.

These are language facts, not business data: which capitalised words start a request rather than
name something ("Book", "Pull", "Please"), which words end an organisation's name ("Logistics",
"GmbH"), which prepositions announce a place ("to", "from") and which ordinary English words are
also the names of real cities ("Nice", "Reading", "Split"). Everything here is lower-case.
"""

from __future__ import annotations

# Determiners, pronouns, prepositions, conjunctions and auxiliaries: never part of a name at its
# edges, and they end a quantity's item phrase ("20 chairs for the office").
FUNCTION_WORDS: frozenset[str] = frozenset(
    """
    a an the this that these those my our your his her its their some any each every all both
    no not nor and or but so yet if then than as at by for from in into of off on onto out over
    per to up upon via with within without about above after against along among around before
    behind below beneath beside besides between beyond during except inside near outside past
    since through throughout till toward towards under until unto i me we us you he him she it
    they them who whom whose which what when where why how whether while because although though
    is am are was were be been being have has had do does did done can could shall should will
    would may might must need also just only very too please thanks thank hi hello hey dear ok
    okay yes yeah there here now today tomorrow yesterday tonight again still already soon later
    earlier more most less least much many few several other another such same own next last
    first second third new old same one ones let lets get got make made
    """.split()
)

# Imperatives and request words that start a sentence in front of a name ("Book Anna Schmidt a
# flight", "Pull up Hoffmann Logistics"): dropped from the front of a capitalised run.
REQUEST_WORDS: frozenset[str] = frozenset(
    """
    add approve arrange ask assign book bring buy call cancel change charge check claim close
    confirm contact create declare delete draft email escalate export extend fetch file find fly
    forward generate give help invoice issue list locate log look lookup mark message move notify
    onboard open order organise organize pay place plan post prepare print pull push put raise
    reassign record refund register reject remind renew reopen report request reschedule reserve
    retrieve return review schedule search see send set share show sign start submit summarise
    summarize tell track transfer update upgrade upload view write hire interview offboard ship
    deliver quote prioritise prioritize investigate announce assess block unblock reset restore
    screen resend unsubscribe expedite rush deploy roll silence toggle pause launch terminate
    renew invite page swap grant revoke deactivate reactivate enable disable verify audit
    rebook reimburse dispute attach correct draft translate publish
    can could would will should may might shall must i we you my our your what which who where
    when how why is are was were do does did have has had the a an this that these those it
    please kindly also just hi hello hey dear thanks thank urgent asap yes no ok okay
    """.split()
)

# Given names that also start a request as its verb: "Bill Kestrel for the training",
# "Chase Orion Retail for payment" name no person before a known name ("Bill Smith joins
# us", a name nobody knows, still is one).
GIVEN_NAME_VERBS: frozenset[str] = frozenset("bill chase mark page grant".split())

# Last words of an organisation's name: legal forms and industry words. A capitalised run that
# ends with one of these names an organisation even when the business data does not know it.
LEGAL_FORMS: frozenset[str] = frozenset(
    """
    inc incorporated ltd limited llc llp lp plc gmbh ag kg ohg ug sa sas sarl bv nv oy ab as asa
    spa srl pty corp corporation co company group holdings
    """.split()
)
# Multi-letter legal forms written with dots ("S.A.", "B.V."), as their letters.
DOTTED_LEGAL_FORMS: tuple[tuple[str, ...], ...] = (
    ("s", "a"),
    ("b", "v"),
    ("n", "v"),
    ("s", "a", "s"),
    ("s", "p", "a"),
    ("s", "r", "l"),
    ("p", "l", "c"),
)
INDUSTRY_WORDS: frozenset[str] = frozenset(
    """
    logistics systems foods analytics manufacturing health healthcare energy retail labs
    laboratories consulting media pharma pharmaceuticals motors finance financial software
    textiles robotics hospitality telecom telecommunications construction solutions technologies
    technology tech industries partners enterprises ventures capital bank insurance airlines
    airways automotive electronics networks communications foundation associates brothers bros
    trading supplies supply services engineering design studios agency investments properties
    realty marketing freight shipping transport transportation chemicals biotech security
    semiconductors steel metals mining dynamics digital interactive entertainment publishing
    sons packaging components farms dental clinic clinics hospital university college institute
    pharmacy traders optics imports exports instruments schools academy hotels resorts bakery
    bakeries outfitters precision restaurants apparel furniture fitness
    """.split()
)

# Prepositions and verbs that announce a place right after them, and the role they give it.
PLACE_CUES_BEFORE: dict[str, str] = {
    "to": "destination",
    "into": "destination",
    "towards": "destination",
    "toward": "destination",
    "visit": "destination",
    "visiting": "destination",
    "from": "origin",
    "leaving": "origin",
    "departing": "origin",
    "in": "location",
    "at": "location",
    # Where in a city, not which city: "a hotel near Shinagawa" on a Tokyo trip.
    "near": "vicinity",
    "around": "location",
    "via": "via",
    "through": "via",
}
# Nouns right after a place that make it one ("the Leeds site", "my Lisbon trip").
PLACE_CUES_AFTER: dict[str, str] = {
    "trip": "destination",
    "visit": "destination",
    "flight": "destination",
    "office": "location",
    "offices": "location",
    "site": "location",
    "branch": "location",
    "warehouse": "location",
    "plant": "location",
    "factory": "location",
    "store": "location",
    "hq": "location",
    "headquarters": "location",
    "team": "location",
    "airport": "location",
    "hotel": "location",
    "conference": "location",
    "campus": "location",
    "depot": "location",
}
# Words that make "in <city>" a destination rather than a mere location: the request is about
# getting there or staying there ("a hotel in Lisbon").
TRAVEL_WORDS: frozenset[str] = frozenset(
    """
    hotel hotels room rooms stay staying accommodation trip travel travelling traveling fly
    flying flight flights book booking visit visiting conference night nights check journey
    """.split()
)

# Ordinary English words and given names (in lower case) that are also names of real places of
# the gazetteer: the gazetteer's cities of 15,000+ people intersected with an English dictionary,
# keeping the words a business request uses as words. (Faker's given and family names are added
# at run time.) Such a name only counts as a place right after a place cue ("fly to Nice", "the
# office in Reading"), never as the first word of a sentence.
AMBIGUOUS_PLACE_WORDS: frozenset[str] = frozenset(
    """
    nice reading mobile split bath sale deal best most normal orange surprise independence
    march may august man van oral hub mango paradise barking commonwealth cypress providence
    corona harrow concord enterprise boulder pueblo delta vista flint sparks plantation mission
    sunrise homestead goodyear torrent upland brick temple union forest spring highland reservoir
    apex mentor linden moss portage dome tire draper bountiful antelope grapevine paramount
    woodland clay greenwood uptown date hull bury acre turbo most of man male ho san pare bend
    chester hastings meridian wedding lander guider mascara tonk soma mesquite shaping
    centennial colonial progress victoria liberty unity hope eagle buffalo aurora riverside
    newton lafayette troy canton rochester salem florence charlotte jackson lincoln madison
    austin orlando eugene marion warren norman chandler gilbert garland franklin parker nelson
    barry martin mary nancy ann sandy davenport hayward dudley bowie midland kent derby cork
    natal mesa batman warder samba pest perm
    """.split()
)
# Countries whose names are also words or given names ("a turkey sandwich", "ask jordan"): typed
# in lower case, a place only after a place cue.
WORD_COUNTRIES: frozenset[str] = frozenset(
    "turkey china chad jordan georgia guinea jersey niger mali israel cuba peru togo".split()
)

# Month and weekday names are dates, never places or names.
MONTH_WORDS: frozenset[str] = frozenset(
    """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    """.split()
)
WEEKDAY_WORDS: frozenset[str] = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri
    sat sun weekend
    """.split()
)

# Words that put an organisation right after them ("the account for X", "customer X").
ORG_CUES_BEFORE: frozenset[str] = frozenset(
    """
    customer customers client clients vendor vendors supplier suppliers company companies partner
    partners counterparty account distributor reseller
    """.split()
)
# Agreements and dealings that put an organisation after "with" ("an NDA with Northwind").
ORG_CUES_BEFORE_WITH: frozenset[str] = frozenset(
    """
    agreement agreements nda ndas contract contracts msa sow dpa partnership deal deals
    negotiation negotiations dispute
    """.split()
)
# Words that put an organisation right before them ("the Hoffmann account").
ORG_CUES_AFTER: frozenset[str] = frozenset(
    """
    account accounts customer client vendor supplier contract contracts invoice invoices deal
    """.split()
)
# Titles and roles that put a person right after them.
PERSON_CUES_BEFORE: frozenset[str] = frozenset(
    """
    mr mrs ms miss dr prof mister colleague employee candidate manager applicant contractor
    intern engineer recruiter
    """.split()
)
# Verbs that put a person right after them, even one given name that is also a city
# ("onboard Sofia", "email Florence"): what is done to people, not to places.
PERSON_VERBS: frozenset[str] = frozenset(
    """
    ask tell email call meet cc remind onboard offboard hire welcome invite promote thank
    interview introduce congratulate ring phone text ping contact brief
    """.split()
)
# Verbs that put a new colleague right after them ("we hired Kwame Varga"), a name of two or
# three words that no list of given names has to know.
HIRING_VERBS: frozenset[str] = frozenset(
    "hire hired hiring onboard onboarded onboarding welcome welcomed recruited".split()
)
# Verbs right after a two- or three-word name that make it a person ("Kwame Varga joins us on
# 3 December"): what a company does is said with other verbs.
PERSON_CUES_AFTER: frozenset[str] = frozenset(
    """
    joins joined joining starts started starting begins began arrives arrived resigned resigns
    retires retired leaves quits
    """.split()
)
# Verbs after a lone given name that make it someone doing them ("Ravi mentioned…", "Marcus
# can only do the Saturday"); too common after a company's name to mark a longer one.
GIVEN_NAME_CUES_AFTER: frozenset[str] = frozenset(
    """
    said says mentioned agreed offered asked wants wanted can could will would has had is was
    called emailed replied confirmed thinks thought needs needed volunteered promised
    """.split()
)
# Connectors allowed inside a multi-word name ("Smith and Jones", "Bank of Scotland").
NAME_CONNECTORS: frozenset[str] = frozenset({"and", "of", "de", "von", "van", "der", "den", "du"})
# Particles a gazetteer name may keep in lower case ("Frankfurt am Main").
PLACE_PARTICLES: frozenset[str] = frozenset(
    {"am", "an", "de", "del", "della", "di", "da", "do", "dos", "das", "du", "la", "le", "les"}
    | {"upon", "on", "sur", "im", "the", "of", "and", "y", "al", "el", "en", "aan", "bei"}
)

# Verbs in the past tense that make a bare weekday or date without a year point back in time
# ("I flew out on Sunday", "the taxi I took on 3 November").
PAST_VERBS: frozenset[str] = frozenset(
    """
    was were had did went flew drove took paid spent bought stayed travelled traveled attended
    incurred received got came left arrived visited worked ate met happened occurred started
    broke crashed failed lost damaged returned delivered shipped used rode caught missed joined
    submitted claimed purchased hired fired quit closed signed finished completed ended won sold
    posted filed charged billed invoiced refunded cancelled canceled stopped dropped
    """.split()
)
# Verbs of saying ("asked", "emailed", "promised") are left out: what was said may be about any
# day ("they asked for a meeting on Friday").
# Words between a past verb and a day that put the day back in the present or the future ("we
# hired a designer who starts on the 14th", "I was told to book Friday", "we hired Tomas as a
# data engineer starting January 11").
PAST_BREAKERS: frozenset[str] = frozenset(
    """
    will shall going gonna need needs want wants book schedule plan please next is are am starts
    start begins begin arrives leaves comes goes joins moves expects expected due move change
    push make set shift postpone reschedule extend bring
    starting beginning joining effective
    """.split()
)
