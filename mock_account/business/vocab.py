"""Word lists the mock business records are drawn from.

Faker supplies people and company surnames; everything domain-specific (cities, ticket
subjects, services, products...) comes from these lists so the records read like the
business of one mid-sized company and so free-text lookups ("fly to Berlin") find them.
"""

from __future__ import annotations

# The data's notional "today": dates are offsets from it, never from the real clock,
# so the same seed gives the same records on any day.
ANCHOR_YEAR, ANCHOR_MONTH, ANCHOR_DAY = 2026, 9, 1

COMPANY_DOMAIN = "example.com"

# (city, country, local currency)
CITIES: tuple[tuple[str, str, str], ...] = (
    ("Berlin", "Germany", "EUR"),
    ("Munich", "Germany", "EUR"),
    ("Frankfurt", "Germany", "EUR"),
    ("Hamburg", "Germany", "EUR"),
    ("Paris", "France", "EUR"),
    ("Lyon", "France", "EUR"),
    ("London", "United Kingdom", "GBP"),
    ("Manchester", "United Kingdom", "GBP"),
    ("Edinburgh", "United Kingdom", "GBP"),
    ("Dublin", "Ireland", "EUR"),
    ("Amsterdam", "Netherlands", "EUR"),
    ("Brussels", "Belgium", "EUR"),
    ("Lisbon", "Portugal", "EUR"),
    ("Madrid", "Spain", "EUR"),
    ("Barcelona", "Spain", "EUR"),
    ("Milan", "Italy", "EUR"),
    ("Rome", "Italy", "EUR"),
    ("Vienna", "Austria", "EUR"),
    ("Zurich", "Switzerland", "CHF"),
    ("Geneva", "Switzerland", "CHF"),
    ("Copenhagen", "Denmark", "DKK"),
    ("Stockholm", "Sweden", "SEK"),
    ("Oslo", "Norway", "NOK"),
    ("Helsinki", "Finland", "EUR"),
    ("Warsaw", "Poland", "PLN"),
    ("Prague", "Czech Republic", "CZK"),
    ("New York", "United States", "USD"),
    ("Boston", "United States", "USD"),
    ("Chicago", "United States", "USD"),
    ("San Francisco", "United States", "USD"),
    ("Seattle", "United States", "USD"),
    ("Austin", "United States", "USD"),
    ("Atlanta", "United States", "USD"),
    ("Toronto", "Canada", "CAD"),
    ("Montreal", "Canada", "CAD"),
    ("Mexico City", "Mexico", "MXN"),
    ("Sao Paulo", "Brazil", "BRL"),
    ("Singapore", "Singapore", "SGD"),
    ("Tokyo", "Japan", "JPY"),
    ("Seoul", "South Korea", "KRW"),
    ("Sydney", "Australia", "AUD"),
    ("Melbourne", "Australia", "AUD"),
    ("Dubai", "United Arab Emirates", "AED"),
    ("Mumbai", "India", "INR"),
    ("Bangalore", "India", "INR"),
    ("Cape Town", "South Africa", "ZAR"),
    ("Tel Aviv", "Israel", "ILS"),
    ("Istanbul", "Turkey", "TRY"),
)

# The company's own offices (where employees sit and trips start), with the currency
# the office books in.
OFFICES: tuple[tuple[str, str], ...] = (
    ("New York", "USD"),
    ("Chicago", "USD"),
    ("London", "GBP"),
    ("Berlin", "EUR"),
    ("Amsterdam", "EUR"),
    ("Toronto", "CAD"),
    ("Singapore", "SGD"),
)

# The sales regions of the customer form, and the country a customer of each is in when
# nothing says which (where the company has an office there, that office's).
REGION_COUNTRIES: dict[str, tuple[str, ...]] = {
    "EMEA": ("United Kingdom", "Germany", "Netherlands"),
    "North America": ("United States", "Canada"),
    "Latin America": ("Brazil", "Mexico"),
    "APAC": ("Singapore",),
}

BOOKING_CURRENCIES = ("USD", "EUR", "GBP")

AIRLINES = ("LH", "BA", "AF", "KL", "UA", "DL", "AA", "IB", "SK", "LX", "OS", "AC", "SQ", "EK")
# Kinds of train a booking names ("IC 578"): InterCity and EuroCity run in most European
# countries, where a brand (Eurostar, TGV) would put a train on lines it does not serve.
TRAIN_SERVICES = ("IC", "EC")

# Rental cars: the classes a request may ask for (with the words that ask for them and a day
# rate in US dollars, low to high) and the companies that rent them out.
CAR_CLASSES: dict[str, tuple[tuple[str, ...], float, float]] = {
    "economy": (("economy", "small car", "cheap car", "cheapest"), 28, 45),
    "compact": (("compact",), 35, 55),
    "mid-size": (("mid-size", "midsize", "intermediate", "sedan", "saloon"), 45, 70),
    "estate": (("estate", "station wagon", "wagon"), 55, 80),
    "SUV": (("suv", "4x4", "four-wheel"), 65, 110),
    "van": (("van", "minivan", "people carrier", "minibus"), 75, 130),
    "electric": (("electric", "ev ", "tesla"), 60, 100),
}
CAR_RENTAL_COMPANIES = ("Hertz", "Avis", "Europcar", "Sixt", "Enterprise", "Budget")

TRIP_PURPOSES = (
    "client meeting",
    "sales conference",
    "customer workshop",
    "team offsite",
    "trade fair",
    "partner visit",
    "training course",
    "board meeting",
    "product launch",
    "site inspection",
    "recruiting event",
    "project kickoff",
)

HOTEL_PREFIXES = (
    "Grand",
    "Park",
    "Riverside",
    "Central",
    "Harbour",
    "Royal",
    "Garden",
    "Skyline",
    "Old Town",
    "Station",
    "Lakeside",
    "Meridian",
)
HOTEL_SUFFIXES = ("Hotel", "Suites", "Inn", "Plaza", "Residences")

INDUSTRY_WORDS = (
    "Logistics",
    "Systems",
    "Foods",
    "Analytics",
    "Manufacturing",
    "Health",
    "Energy",
    "Retail",
    "Labs",
    "Consulting",
    "Media",
    "Pharma",
    "Motors",
    "Finance",
    "Software",
    "Textiles",
    "Robotics",
    "Hospitality",
    "Telecom",
    "Construction",
)
LEGAL_FORMS = ("Inc.", "Ltd", "GmbH", "LLC", "S.A.", "B.V.", "Group", "Corp.")

CUSTOMER_TIERS = ("bronze", "silver", "gold", "platinum")
CUSTOMER_TIER_WEIGHTS = (40, 30, 20, 10)

ORDER_STATUSES = ("placed", "paid", "shipped", "delivered", "returned", "cancelled")
ORDER_STATUS_WEIGHTS = (15, 20, 25, 30, 5, 5)

# department -> job titles below the head of department
DEPARTMENTS: dict[str, tuple[str, ...]] = {
    "Sales": ("Account Executive", "Sales Development Representative", "Sales Engineer"),
    "Finance": ("Financial Analyst", "Accountant", "Payroll Specialist", "Controller"),
    "HR": ("HR Business Partner", "Recruiter", "People Operations Specialist"),
    "IT": ("Systems Administrator", "IT Support Technician", "Network Engineer"),
    "Engineering": ("Software Engineer", "Site Reliability Engineer", "QA Engineer"),
    "Marketing": ("Marketing Manager", "Content Strategist", "Marketing Analyst"),
    "Legal": ("Corporate Counsel", "Paralegal", "Compliance Officer"),
    "Procurement": ("Buyer", "Category Manager", "Procurement Analyst"),
    "Support": ("Customer Support Agent", "Support Team Lead", "Technical Support Engineer"),
    "Operations": ("Office Manager", "Travel Coordinator", "Facilities Coordinator"),
}

INVOICE_STATUSES = ("draft", "sent", "paid", "overdue", "disputed")
INVOICE_STATUS_WEIGHTS = (10, 30, 40, 15, 5)

# expense category -> (minimum, maximum amount, notes; {city} and {company} are filled in)
EXPENSE_CATEGORIES: dict[str, tuple[float, float, tuple[str, ...]]] = {
    "travel": (
        18.0,
        950.0,
        (
            "Taxi from the airport to the hotel in {city}",
            "Train ticket to {city} for a client visit",
            "Rental car for the {city} site visit",
        ),
    ),
    "meals": (
        12.0,
        380.0,
        (
            "Team dinner with {company} in {city}",
            "Lunch with a prospect from {company}",
            "Breakfast during the {city} conference",
        ),
    ),
    "lodging": (
        90.0,
        1400.0,
        (
            "Two nights at a hotel in {city}",
            "Hotel stay for the {city} workshop",
        ),
    ),
    "equipment": (
        25.0,
        1900.0,
        (
            "Replacement laptop charger",
            "Ergonomic keyboard for the home office",
            "Headset for customer calls",
        ),
    ),
    "software": (
        9.0,
        600.0,
        (
            "Annual licence for a diagramming tool",
            "Monthly subscription to a design app",
            "Stock photo credits for a campaign",
        ),
    ),
    "training": (
        49.0,
        2500.0,
        (
            "Online course on data analysis",
            "Conference ticket for a security summit in {city}",
            "Certification exam fee",
        ),
    ),
    "other": (
        5.0,
        300.0,
        (
            "Courier to send contract originals to {company}",
            "Parking at the {city} office",
            "Printing of trade fair brochures",
        ),
    ),
}

TICKET_SUBJECTS = (
    "Cannot log in to the customer portal",
    "Password reset email never arrives",
    "Order arrived damaged",
    "Invoice shows the wrong amount",
    "Refund not received after return",
    "Delivery is late by a week",
    "Laptop will not turn on",
    "VPN keeps disconnecting",
    "Printer on the third floor is jammed",
    "Outlook crashes when opening attachments",
    "Need access to the shared finance drive",
    "Two-factor authentication code not accepted",
    "Wrong item in the package",
    "Cannot change the billing address",
    "Export to CSV fails with an error",
    "Mobile app crashes on start",
    "Subscription renewed without notice",
    "Monitor flickers after docking",
    "Wi-Fi drops in the meeting rooms",
    "Account locked after too many attempts",
)
TICKET_PRIORITIES = ("low", "normal", "high", "urgent")
TICKET_PRIORITY_WEIGHTS = (25, 45, 22, 8)
TICKET_STATUSES = ("open", "pending", "resolved", "closed")
TICKET_STATUS_WEIGHTS = (35, 20, 25, 20)

SERVICES = (
    "Checkout API",
    "Payments gateway",
    "Customer portal",
    "Single sign-on",
    "Email delivery",
    "Search service",
    "Mobile app backend",
    "Data warehouse",
    "VPN gateway",
    "Billing service",
    "Order pipeline",
    "Notification service",
)
INCIDENT_SYMPTOMS = (
    "Elevated error rates on {service}",
    "{service} latency above 2 seconds",
    "{service} unavailable in one region",
    "Intermittent timeouts from {service}",
    "{service} returning stale data after a deploy",
    "Certificate expiry broke {service}",
)
INCIDENT_SEVERITIES = ("sev1", "sev2", "sev3", "sev4")
INCIDENT_SEVERITY_WEIGHTS = (8, 22, 40, 30)
INCIDENT_STATUSES = ("investigating", "identified", "monitoring", "resolved")
INCIDENT_STATUS_WEIGHTS = (15, 15, 15, 55)

CONTRACT_KINDS = ("nda", "msa", "sow", "license", "lease", "employment", "purchase")

VENDOR_CATEGORIES = (
    "office supplies",
    "cloud hosting",
    "software licences",
    "hardware",
    "logistics",
    "catering",
    "consulting",
    "marketing services",
    "facilities",
    "travel agency",
    "recruiting",
    "legal services",
)

CAMPAIGN_CHANNELS = ("email", "social", "search", "events", "print", "web")
CAMPAIGN_SEASONS = ("Spring", "Summer", "Autumn", "Winter")
CAMPAIGN_THEMES = (
    "Product Launch",
    "Customer Webinar Series",
    "Trade Fair Push",
    "Renewal Drive",
    "Brand Awareness",
    "Free Trial Offer",
    "Partner Showcase",
    "Newsletter Relaunch",
    "Holiday Promotion",
    "Analyst Report Promotion",
)
# A season's campaign of one theme runs again per market: "Nordics Spring 2027 Product Launch".
CAMPAIGN_MARKETS = (
    "DACH",
    "Nordics",
    "UK & Ireland",
    "France",
    "Benelux",
    "Iberia",
    "Italy",
    "North America",
    "Latin America",
    "Middle East",
    "India",
    "APAC",
)
CAMPAIGN_AUDIENCES = (
    "IT decision makers in Europe",
    "Finance leaders at mid-sized companies",
    "Existing gold and platinum customers",
    "Small business owners in North America",
    "Developers and engineering managers",
    "Procurement teams in manufacturing",
    "Lapsed customers from last year",
    "HR directors in Asia Pacific",
)

CANDIDATE_ROLES = (
    "Senior Software Engineer",
    "Data Analyst",
    "Account Executive",
    "Product Designer",
    "Customer Support Agent",
    "Financial Analyst",
    "Recruiter",
    "Marketing Manager",
    "Site Reliability Engineer",
    "Paralegal",
    "Buyer",
    "IT Support Technician",
)
CANDIDATE_STAGES = ("applied", "screening", "interview", "offer", "hired", "rejected")
CANDIDATE_STAGE_WEIGHTS = (30, 25, 20, 8, 7, 10)

# product category -> each kind of product in it -> (minimum price, maximum price): a price
# plausible for that kind (an office chair is not priced like a meeting table).
PRODUCT_CATEGORIES: dict[str, dict[str, tuple[float, float]]] = {
    "furniture": {
        "Office Chair": (180, 650),
        "Standing Desk": (420, 1300),
        "Filing Cabinet": (150, 480),
        "Meeting Table": (600, 2200),
    },
    "peripherals": {
        "Wireless Keyboard": (40, 130),
        "Ergonomic Mouse": (25, 110),
        "Docking Station": (120, 320),
        "Webcam": (45, 190),
    },
    "displays": {
        "27-inch Monitor": (220, 560),
        "34-inch Curved Monitor": (420, 1100),
        "Portable Monitor": (160, 380),
    },
    "audio": {
        "Noise-Cancelling Headset": (90, 380),
        "Conference Speakerphone": (120, 450),
        "Earbuds": (40, 220),
    },
    "software": {
        "Analytics Suite Licence": (300, 2400),
        "Backup Service Plan": (90, 600),
        "Security Suite": (150, 900),
    },
    "networking": {
        "Wi-Fi Access Point": (120, 600),
        "Network Switch": (200, 1600),
        "Router": (70, 500),
    },
    "storage": {
        "External SSD": (60, 300),
        "Network Storage Drive": (300, 900),
        "USB Flash Drive": (15, 60),
    },
}
# What goods the catalogue does not list cost, in dollars, by a word of their name: a quote
# for "20 laptops" was priced like any unknown thing (76 SGD a laptop).
UNLISTED_PRODUCT_PRICES: dict[str, tuple[float, float]] = {
    "laptop": (850, 2400),
    "notebook": (850, 2400),
    "desktop": (700, 2000),
    "workstation": (1500, 4500),
    "tablet": (300, 1100),
    "phone": (300, 1300),
    "smartphone": (300, 1300),
    "printer": (150, 800),
    "projector": (400, 1600),
    "server": (2500, 12000),
    "scanner": (150, 900),
    "camera": (150, 1200),
    "licence": (100, 900),
    "license": (100, 900),
    "seat": (100, 900),
}
PRODUCT_LINES = (
    "Aero",
    "Nova",
    "Pulse",
    "Vertex",
    "Orbit",
    "Summit",
    "Atlas",
    "Zen",
    "Halo",
    "Flux",
    "Core",
    "Prime",
)

# asset kind -> models
ASSET_MODELS: dict[str, tuple[str, ...]] = {
    "laptop": ("ThinkPad X1 Carbon", "MacBook Pro 14", "Dell Latitude 7440", "HP EliteBook 840"),
    "monitor": ("Dell UltraSharp U2723QE", "LG 27UP850", "Samsung ViewFinity S8"),
    "phone": ("iPhone 15", "Pixel 8", "Galaxy S24"),
    "tablet": ("iPad Air", "Galaxy Tab S9"),
    "headset": ("Jabra Evolve2 65", "Poly Voyager Focus 2"),
    "docking station": ("Lenovo ThinkPad Universal Dock", "Dell WD19S"),
}
ASSET_STATUSES = ("in use", "in stock", "in repair", "retired")
ASSET_STATUS_WEIGHTS = (70, 15, 8, 7)

# The cast: the companies, people and records the account's own examples and the demo talk
# about ("Pull up the account for Hoffmann Logistics", "Is INC-00412 resolved yet?"). They
# exist in the data, so trying an example finds what it names. Names take the place of the
# first generated records; ids replace records at the end, keeping every count.
CUSTOMER_CAST: tuple[tuple[str, str], ...] = (
    ("Hoffmann Logistics", "Germany"),
    ("Brightwater Foods", "Ireland"),
    ("Nordic Steel", "Sweden"),
    ("Castellano Textiles", "Spain"),
    ("Meridian Health", "United States"),
    ("Orion Retail", "United Kingdom"),
    ("Kestrel Energy", "Canada"),
    ("Halvorsen Shipping", "Norway"),
    ("Lakeside Dental", "United States"),
    ("Rivera Construction", "Mexico"),
    ("Stark Industries", "United States"),
    ("Globex Corporation", "United States"),
    ("Initech", "United States"),
    ("Hooli", "United States"),
    ("Acme Corporation", "United States"),
    ("Umbrella Corporation", "United Kingdom"),
    ("Contoso", "United States"),
    ("Wayne Enterprises", "United States"),
    ("Bluepeak Analytics", "Netherlands"),
)
VENDOR_CAST: tuple[tuple[str, str, str], ...] = (
    ("Apex Print", "United Kingdom", "office supplies"),
    ("Nordwind Logistics", "Germany", "logistics"),
    ("Nimbus Cloud", "Ireland", "cloud hosting"),
    ("Datadog", "United States", "software licences"),
    ("Figma", "United States", "software licences"),
    ("Notion Labs", "United States", "software licences"),
)
# name, department, title, location
EMPLOYEE_CAST: tuple[tuple[str, str, str, str], ...] = (
    ("Sofia Marin", "Sales", "Account Executive", "Madrid"),
    ("Daniel Weber", "Engineering", "Software Engineer", "Berlin"),
    ("Lukas Becker", "Support", "Customer Support Agent", "Berlin"),
    ("Petra Lindqvist", "Marketing", "Content Strategist", "Amsterdam"),
    ("Julia Novak", "Finance", "Accountant", "London"),
    ("Jonas Berg", "Sales", "Sales Engineer", "Berlin"),
    ("Maria Santos", "Finance", "Financial Analyst", "New York"),
    ("Tom Fischer", "HR", "Recruiter", "London"),
    ("Sam Patel", "Engineering", "Site Reliability Engineer", "Singapore"),
    ("Priya Raman", "Operations", "Travel Coordinator", "London"),
)
CANDIDATE_CAST: tuple[tuple[str, str], ...] = (
    ("Ahmed Karim", "Senior Software Engineer"),
    ("Priya Sharma", "Data Analyst"),
    ("Maria Lopez", "Product Designer"),
    ("Chen Wei", "Data Analyst"),
    ("Jacob Miller", "Account Executive"),
)
# Records the examples name by id, beyond the generated range: source -> (id, fields).
ID_CAST: dict[str, tuple[tuple[str, dict[str, object]], ...]] = {
    "customers": (("CUS-00412", {}),),
    "orders": (
        ("ORD-004512", {"quantity": 50, "status": "placed"}),
        ("ORD-002231", {"status": "placed"}),
        ("ORD-007781", {"status": "paid"}),
        ("ORD-003318", {"status": "delivered"}),
    ),
    # The examples' invoices: a supplier asking about their bill, a customer late paying, a
    # customer billed wrongly, a supplier bill held in the three-way match.
    "invoices": (
        ("INV-000452", {"status": "sent", "party": "Apex Print", "direction": "payable"}),
        (
            "INV-000318",
            {"status": "overdue", "party": "Globex Corporation", "direction": "receivable"},
        ),
        ("INV-000777", {"status": "sent", "party": "Initech", "direction": "receivable"}),
        (
            "INV-000412",
            {"status": "disputed", "party": "Nordwind Logistics", "direction": "payable"},
        ),
    ),
    "tickets": (("TCK-004417", {"status": "open"}), ("TCK-001982", {"status": "pending"})),
    "incidents": (
        ("INC-00412", {"status": "monitoring"}),
        ("INC-00233", {"status": "resolved"}),
    ),
}
# name, category, price in USD: the products the examples ask about by model number.
PRODUCT_CAST: tuple[tuple[str, str, float], ...] = (
    ("X200 Scanner", "peripherals", 349.0),
    ("X100 Scanner", "peripherals", 249.0),
)
