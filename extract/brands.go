package extract

import (
	"regexp"
	"strings"
)

// Brands are the names of well-known providers, places and products, by
// the kind of thing they are: a reader who knows that Chase and Ally are
// banks reads "All my savings are at Ally now" as a new bank beside a
// stored bank = Chase, without the word "bank". They are categories like
// the technical ones of topic.go, with the key words that name them.
var brandCategories = map[string][]string{
	"bank": {"chase", "ally", "wells fargo", "bank of america", "citi", "citibank", "capital one", "hsbc", "barclays",
		"lloyds", "natwest", "santander", "monzo", "starling", "revolut", "chime", "schwab", "charles schwab", "fidelity",
		"vanguard", "td bank", "pnc", "n26", "halifax", "nationwide", "marcus", "sofi", "wise"},
	"insurer": {"aetna", "cigna", "kaiser", "kaiser permanente", "humana", "anthem", "blue cross", "blue shield",
		"blue cross blue shield", "bcbs", "unitedhealthcare", "united healthcare", "oscar", "geico", "progressive",
		"state farm", "allstate", "liberty mutual", "bupa", "axa", "aviva", "admiral", "direct line", "lemonade", "vitality"},
	"carrier": {"verizon", "at&t", "t-mobile", "tmobile", "sprint", "vodafone", "ee", "o2", "mint mobile", "visible",
		"google fi", "cricket", "boost mobile", "giffgaff", "us mobile", "metro by t-mobile", "lebara"},
	"isp": {"comcast", "xfinity", "verizon fios", "fios", "spectrum", "at&t fiber", "google fiber", "cox", "bt",
		"sky", "virgin media", "starlink", "frontier", "optimum", "sonic", "hyperoptic", "community fibre"},
	"gym": {"equinox", "planet fitness", "24 hour fitness", "la fitness", "gold's gym", "crunch", "crunch fitness",
		"anytime fitness", "orangetheory", "soulcycle", "f45", "puregym", "the gym group", "david lloyd",
		"virgin active", "barry's", "life time", "lifetime fitness", "blink fitness", "third space", "classpass"},
	"airline": {"united", "united airlines", "delta", "american airlines", "southwest", "jetblue", "alaska airlines", "alaska",
		"british airways", "lufthansa", "air france", "klm", "emirates", "qatar airways", "ryanair", "easyjet",
		"virgin atlantic", "air canada", "qantas", "singapore airlines", "turkish airlines", "iberia", "aer lingus",
		"frontier airlines", "spirit", "hawaiian airlines", "finnair", "sas", "tap"},
	"shipper": {"ups", "fedex", "dhl", "usps", "royal mail", "dpd", "ontrac", "purolator", "canada post", "evri",
		"hermes", "gls", "parcelforce", "australia post", "lasership", "amazon shipping"},
	"hotel": {"hilton", "marriott", "hyatt", "hyatt regency", "radisson", "ibis", "holiday inn", "sheraton", "westin",
		"four seasons", "ritz", "the ritz", "ritz-carlton", "best western", "premier inn", "novotel", "travelodge",
		"intercontinental", "kimpton", "hotel indigo", "hampton inn", "doubletree", "courtyard", "ace hotel",
		"the standard", "citizenm", "moxy", "hilton garden inn", "embassy suites", "mandarin oriental"},
	"car": {"toyota", "honda", "ford", "tesla", "mazda", "subaru", "bmw", "audi", "mercedes", "mercedes-benz",
		"volkswagen", "vw", "kia", "hyundai", "nissan", "chevrolet", "chevy", "volvo", "lexus", "jeep", "porsche",
		"rivian", "polestar", "skoda", "peugeot", "renault", "fiat", "jaguar", "land rover", "range rover", "genesis",
		"dodge", "ram", "gmc", "cadillac", "lucid", "byd", "citroen", "seat", "cupra"},
	"streaming": {"netflix", "hulu", "disney+", "disney plus", "max", "hbo max", "prime video", "amazon prime",
		"apple tv+", "apple tv", "peacock", "paramount+", "youtube tv", "youtube premium", "crunchyroll", "mubi",
		"britbox", "now tv", "sling", "directv", "dish", "dish network", "fubo", "fubotv", "xfinity tv"},
	"music": {"spotify", "apple music", "tidal", "youtube music", "deezer", "pandora", "amazon music", "soundcloud"},
	"pharmacy": {"cvs", "walgreens", "rite aid", "boots", "lloydspharmacy", "superdrug", "duane reade", "capsule",
		"amazon pharmacy"},
	"grocer": {"whole foods", "trader joe's", "safeway", "kroger", "costco", "aldi", "lidl", "tesco", "sainsbury's",
		"waitrose", "asda", "morrisons", "ocado", "publix", "wegmans", "instacart", "h-e-b", "heb", "m&s", "co-op"},
	"coffee": {"starbucks", "dunkin", "dunkin'", "dunkin donuts", "peet's", "blue bottle", "costa", "pret",
		"caffe nero", "caffè nero", "tim hortons", "philz", "intelligentsia", "la colombe", "black sheep coffee"},
	"petfood": {"purina", "purina pro plan", "royal canin", "hill's", "hill's science diet", "science diet",
		"blue buffalo", "iams", "pedigree", "whiskas", "orijen", "acana", "fancy feast", "farmer's dog", "the farmer's dog"},
	// How often something happens.
	"frequency": {"hourly", "daily", "nightly", "weekly", "biweekly", "bi-weekly", "fortnightly", "monthly",
		"bimonthly", "quarterly", "twice a week", "twice a month", "yearly", "annually", "every other week",
		"every two weeks", "every day", "every week", "every month", "on demand", "continuous", "continuously"},
	// Kinds of food, by where they come from.
	"cuisine": {"thai", "ethiopian", "italian", "mexican", "japanese", "indian", "chinese", "french", "korean",
		"vietnamese", "greek", "lebanese", "spanish", "turkish", "moroccan", "peruvian", "persian", "sichuan",
		"cantonese", "malaysian", "indonesian", "filipino", "caribbean", "brazilian", "georgian", "nepalese",
		"ramen", "sushi", "tapas", "dim sum", "bbq", "barbecue", "pizza", "burgers", "tacos", "vegan food"},
	// The states a piece of work or an order goes through.
	"status": {"on track", "at risk", "off track", "delayed", "blocked", "done", "complete", "completed", "finished",
		"in progress", "on hold", "paused", "launched", "live", "cancelled", "canceled", "not started", "in review",
		"approved", "rejected", "processing", "shipped", "dispatched", "in transit", "out for delivery", "delivered",
		"returned", "refunded", "backordered", "pending", "overdue", "paid", "unpaid", "closed", "resolved", "open"},
	"mail": {"gmail", "outlook", "hotmail", "yahoo mail", "proton mail", "protonmail", "icloud mail", "fastmail", "hey"},
}

// brandWords are the key words that name a brand category.
var brandWords = map[string]string{
	"bank": "bank", "banking": "bank", "savings": "bank", "checking": "bank", "brokerage": "bank",
	"insurance": "insurer", "insurer": "insurer", "coverage": "insurer",
	"carrier": "carrier", "wireless": "carrier", "cellular": "carrier", "phone": "carrier", "mobile": "carrier", "cell": "carrier",
	"isp": "isp", "internet": "isp", "broadband": "isp",
	"gym": "gym", "fitness": "gym", "membership": "gym",
	"airline": "airline",
	"hotel":   "hotel", "lodging": "hotel", "accommodation": "hotel",
	"shipping": "shipper", "courier": "shipper", "shipper": "shipper", "postage": "shipper",
	"car": "car", "vehicle": "car",
	"streaming": "streaming", "subscription": "streaming", "tv": "streaming",
	"music":    "music",
	"pharmacy": "pharmacy", "chemist": "pharmacy", "drugstore": "pharmacy", "prescription": "pharmacy",
	"grocery": "grocer", "groceries": "grocer", "grocer": "grocer", "supermarket": "grocer",
	"coffee": "coffee", "cafe": "coffee", "café": "coffee",
	"petfood": "petfood", "food": "petfood", "kibble": "petfood",
	"mail": "mail", "webmail": "mail",
	"status": "status", "state": "status", "progress": "status",
	"cuisine": "cuisine", "takeout": "cuisine", "takeaway": "cuisine",
	"frequency": "frequency", "cadence": "frequency", "schedule": "frequency", "interval": "frequency",
	"school": "school", // a form category (formCategory)
	// and so is a firm: a vendor named "Acme Logistics" may become "Northwind Freight"
	"vendor": "firm", "supplier": "firm", "contractor": "firm", "partner": "firm", "agency": "firm", "firm": "firm",
	"distributor": "firm", "manufacturer": "firm", "client": "firm", "customer": "firm",
}

// brandCommon are brands that are also ordinary words: like commonWords,
// they count only capitalised.
var brandCommon = map[string]bool{"alaska": true, "chase": true, "ally": true, "fidelity": true, "marcus": true, "wise": true, "oscar": true,
	"progressive": true, "lemonade": true, "vitality": true, "visible": true, "cricket": true, "sprint": true, "ee": true,
	"sky": true, "cox": true, "frontier": true, "optimum": true, "sonic": true, "spectrum": true, "crunch": true,
	"united": true, "delta": true, "spirit": true, "max": true, "boots": true, "capsule": true, "costa": true, "pret": true,
	"hey": true, "seat": true, "ram": true, "genesis": true, "courtyard": true, "the standard": true, "co-op": true,
	"tap": true, "sas": true, "ups": true, "evri": true, "hermes": true}

// madeBy are the brand categories whose members open a longer name, a
// maker's model ("Mazda CX-5", "Tesla Model 3").
var madeBy = map[string]bool{"car": true}

// reModel is the model after a maker: capitalised or numbered words.
var reModel = regexp.MustCompile(`^(?:\s+(?:\p{Lu}[\p{L}\d-]*|\d[\p{L}\d-]*)){1,2}`)

// Names whose form says what they are: "Lincoln Elementary", "Hotel
// Astoria", "The Grand Hotel".
var (
	reSchoolName = regexp.MustCompile(`\b(?:` + capWord + `\s+){1,3}(?:Elementary|Middle School|High School|Academy|Primary School|Primary|Prep|Montessori|School)\b`)
	reHotelName  = regexp.MustCompile(`\b(?:Hotel\s+(?:` + capWord + `\s*){1,3}|(?:The\s+)?(?:` + capWord + `\s+){1,3}(?:Hotel|Inn|Suites|Lodge))`)
	// A firm named with the word for its kind: "Northwind Freight", "Acme Logistics".
	reFirmName   = regexp.MustCompile(`\b(?:` + capWord + `\s+){1,3}(?:Logistics|Freight|Shipping|Supply|Supplies|Parts|Components|Industries|Manufacturing|Solutions|Systems|Technologies|Consulting|Partners|Group|Holdings|Labs|Inc\.?|LLC|Ltd\.?|Corp\.?|Co\.|GmbH|Plc|Agency|Associates|Services|Enterprises|Ventures|Analytics|Software|Networks)\b`)
	formCategory = map[string]*regexp.Regexp{"school": reSchoolName, "hotel": reHotelName, "firm": reFirmName}
)

// isBrand reports whether a folded name is a brand's, and no ordinary
// word.
func isBrand(w string) bool { return brandCategories[memberOf[w]] != nil && !brandCommon[w] }

// formOf names the category a value's form says ("Lincoln Elementary" is
// a school), or "".
func formOf(v string) string {
	v = strings.TrimSpace(v)
	for c, re := range formCategory {
		if m := re.FindStringIndex(v); m != nil && m[0] == 0 && m[1] == len(v) {
			return c
		}
	}
	return ""
}
