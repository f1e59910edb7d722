package extract

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/stategraph/stategraph/lexical"
)

// The topic vocabulary lets a sentence name a stored fact's topic by
// meaning, not only by the key's own words: a key word matches a sentence
// word that is its synonym or abbreviation ("db" and "database", "k8s" and
// "cluster"), the verb of its agent noun ("approver" and "signs off",
// "spokesperson" and "speaks for"), and a key word that names a category
// ("database", "language", "diet") is said by any value that is a known
// member of it ("MySQL", "Go", "vegan"). It is general knowledge of words,
// the kind a careful reader brings, not a list of the examples' phrasings.

// topicGroups are words and phrases that name one topic. Every member
// stands for every other.
var topicGroups = [][]string{
	{"db", "database", "datastore", "data store"},
	{"k8s", "kubernetes", "cluster"},
	{"repo", "repository"},
	{"donation", "gift", "contribution"},
	{"delivery", "drop", "drop-off", "dropoff"},
	{"env", "environment"},
	{"prod", "production"},
	{"config", "configuration"},
	{"auth", "authentication"},
	{"docs", "documentation"},
	{"infra", "infrastructure"},
	{"app", "application"},
	{"org", "organisation", "organization"},
	{"dept", "department"},
	{"mgr", "manager", "manages", "managed"},
	{"approver", "approval", "approves", "approve", "signs off", "sign off", "sign-off", "signs-off"},
	{"spokesperson", "spokesman", "spokeswoman", "speaks for", "speak for", "speaking for"},
	{"organiser", "organizer", "organises", "organizes", "organising", "organizing"},
	{"reviewer", "reviews"},
	{"presenter", "presents", "presenting"},
	{"host", "hosts", "hosting"},
	{"chair", "chairs", "chairing"},
	{"coordinator", "coordinates", "coordinating"},
	{"driver", "drives", "driving"},
	{"appointment", "appt", "checkup", "check-up", "consultation", "visit", "booking", "reservation", "cleaning"},
	{"doctor", "gp", "physician"},
	{"dentist", "dental", "teeth", "tooth"},
	// A specialist by what they treat (not the department: "Dr. Patel at
	// VA cardiology" is where the doctor is).
	{"cardiologist", "heart doctor", "heart doctors", "heart doctor's"},
	{"podiatrist", "foot doctor"},
	{"dermatologist", "skin doctor"},
	{"pediatrician", "paediatrician", "kids' doctor"},
	{"weight", "weigh", "weighed", "weighs", "weighing", "weigh-in"},
	{"allergy", "allergic"},
	{"wifi", "wi-fi", "network", "ssid"},
	{"lease", "renewal", "tenancy"},
	{"releaser", "release manager", "runs releases", "running releases", "runs the releases", "owns releases"}, // keyCompounds
	{"savings", "saving", "putting away", "put away", "stashing away"},
	{"name", "calls me", "call me", "goes by", "go by", "known as"}, // preferred_name
	{"guest", "guests", "people", "rsvps", "rsvp", "attendees"},
	{"team", "fan"}, // "I'm a Warriors fan now" for favorite_team
	{"daily", "a day", "per day", "each day", "every day"},
	{"weekly", "a week", "per week", "each week", "every week"},
	{"monthly", "a month", "per month", "each month", "every month"},
	{"pet", "puppy", "dog", "cat", "kitten"},
	// Everyday topics said by their verbs or parts.
	{"airline", "fly", "flying", "flew", "flights"},
	{"bedtime", "bed", "sleep", "asleep", "lights out"},
	{"wake", "wakeup", "wake-up", "wake up", "get up", "alarm"},
	{"timezone", "time zone", "tz"},
	{"zip", "zip code", "zipcode", "postcode", "postal code"}, // keyCompounds
	{"insurance", "insurer", "coverage", "insured"},
	{"contact", "reach", "reachable", "get in touch", "write to"}, // "Reach Jo at jo@new.io"
	{"port", "listens on", "listening on", "bound to", "binds to"},
	{"meeting", "meets", "meet", "sync", "syncs", "mtg", "mtgs"},
	{"return", "due back"},
	{"delivery", "deliveries", "delivered", "comes", "arrives", "gets dropped off"}, // "hay comes on Wednesdays"
	{"class", "lesson", "lessons", "course"},
	{"rehearsal", "practice", "band practice"},
	{"headcount", "head count", "head-count"},
	{"birthday", "bday", "b-day"},
	{"sister", "sis"},
	{"1st", "first"},
	{"2nd", "second"},
	{"3rd", "third"},
	{"4th", "fourth"},
	{"5th", "fifth"},
	{"pw", "password", "pwd", "passcode"},
	{"code", "combination", "combo", "passcode", "pin"}, // "reset the padlock combination to 9082"
	{"landscaper", "gardener", "lawn", "yard work"},
	{"dogwalker", "dog walker", "walks the dog", "walks our dog", "walking the dog", "walks"}, // keyCompounds
	{"mechanic", "garage", "auto shop"},
	{"housekeeper", "cleaner", "cleaning lady", "maid"},
	{"pm", "project manager", "product manager"}, // keyCompounds
	{"hr", "human resources", "people team"},
	{"gym", "workout", "workouts", "training session"},
	{"home", "resident", "residence"}, // "officially a Portland resident"
	// People known by what they do for the speaker: "Brian Cho handles
	// our taxes now" names the accountant.
	{"accountant", "accounting", "taxes", "tax return", "bookkeeper", "bookkeeping", "books"},
	{"babysitter", "babysits", "babysitting", "sitter", "nanny", "watches the kids", "watches the twins", "watches the baby",
		"looks after the kids", "takes care of the kids", "watching the kids", "watching the baby"},
	{"title", "role", "position", "promoted to", "promoted"}, // keyCompounds: job_title
	{"running", "run", "runs", "jog", "jogs", "jogging"},
	{"hairdresser", "hairstylist", "stylist", "barber", "haircut", "hair"},
	{"therapist", "therapy", "counsellor", "counselor", "counselling", "counseling"},
	{"pt", "physical therapy", "physio", "physiotherapy"}, {"ot", "occupational therapy"},
	{"vday", "v-day", "valentine", "valentines", "valentine's day"},
	{"pending", "outstanding", "remaining", "left", "to go"}, // "down to 2 left" for rec_letters_pending
	{"lawyer", "attorney", "solicitor"},
	{"vet", "veterinarian", "veterinary"},
	{"plumber", "plumbing"}, {"electrician", "electrical"},
	{"hotel", "booking", "stay", "accommodation", "lodging"},
	{"employer", "company", "workplace", "accepted the offer from", "accepted an offer from", "accepted a job at",
		"took a job at", "took the job at", "work at", "working at", "work for", "working for"},
	{"budget", "approved", "allocated", "allotted", "earmarked", "set aside", "stipend", "allowance"}, // "Finance approved $7,500 for the conference"
	{"oncall", "on call", "on-call", "pager", "pagerduty"},
	{"kid", "child", "children", "school"}, // "school pickup" is the kids' pickup
	{"flat", "apartment", "place"},         // "the new place is 900 sq ft"
	{"car", "vehicle"},
	{"phone", "mobile", "cell", "cellphone", "telephone", "hotline", "phone line", "direct line", "service line", "main line"},
	{"email", "e-mail"},
	{"caterer", "catering"},
	{"supplier", "supplying", "supplies"}, {"provider", "providing", "provides"}, {"sponsor", "sponsoring", "sponsors"},
	{"coach", "coaching", "coaches"}, {"teacher", "teaching", "teaches"}, {"tutor", "tutoring", "tutors"},
	{"cleaner", "cleaning", "cleans"}, {"photographer", "photographing", "shooting"}, {"mentor", "mentoring", "mentors"},
	{"attendees", "attendance"},
	{"deadline", "due date", "due", "extension"},
	{"order", "package", "parcel", "shipment", "delivery"},
	{"holiday", "vacation"},
	{"offsite", "off-site", "retreat"},
	{"salary", "pay", "earn", "earning", "compensation", "comp"},
	{"fee", "fees", "dues"},
	{"target", "goal", "bar", "threshold"},
	{"limit", "cap", "ceiling", "max", "maximum"},
	{"length", "long", "duration"},
	{"headcount", "attendees", "attendee", "rsvps", "rsvp", "people", "staff", "employees", "heads"},
	{"party", "table", "booking", "reservation"},
	{"household", "family", "home"},
	{"shop", "store", "spot", "place", "joint"}, // "my go-to coffee spot" is the coffee shop
	{"restaurant", "eatery", "spot", "place", "joint"},
	// British and American spellings name one thing.
	{"licence", "license"}, {"colour", "color"}, {"centre", "center"}, {"programme", "program"},
	{"catalogue", "catalog"}, {"theatre", "theater"}, {"cheque", "check"}, {"defence", "defense"},
}

// categories name kinds of thing whose members are names a reader knows:
// a value that is a member says the category ("we moved billing to
// MySQL" is about the billing database).
var categories = map[string][]string{
	"database": {"postgres", "postgresql", "mysql", "mariadb", "sqlite", "mongodb", "mongo", "cockroachdb", "redis",
		"cassandra", "dynamodb", "oracle", "sql server", "snowflake", "bigquery", "clickhouse", "elasticsearch",
		"supabase", "firestore", "neo4j", "couchdb", "timescaledb", "aurora", "spanner", "scylladb", "duckdb"},
	"language": {"python", "go", "golang", "rust", "java", "kotlin", "scala", "typescript", "javascript", "ruby", "php",
		"c#", "c++", "swift", "elixir", "haskell", "clojure", "erlang", "dart", "julia", "perl", "lua", "zig", "ocaml",
		"f#", "node", "node.js", "nodejs"},
	"framework": {"react", "vue", "svelte", "angular", "solid", "next.js", "nextjs", "nuxt", "ember", "preact",
		"sveltekit", "remix", "astro", "django", "rails", "ruby on rails", "flask", "fastapi", "spring", "laravel",
		"express", "phoenix", "htmx", "flutter", "react native"},
	"ci": {"jenkins", "circleci", "buildkite", "github actions", "gitlab ci", "travis", "travis ci", "teamcity",
		"drone", "bamboo", "azure pipelines", "argo", "tekton"},
	"cloud": {"aws", "gcp", "azure", "google cloud", "digitalocean", "hetzner", "linode", "fly.io", "heroku", "vercel",
		"netlify", "cloudflare", "ovh", "render"},
	"diet": {"vegan", "vegetarian", "pescatarian", "keto", "paleo", "gluten-free", "omnivore", "flexitarian", "halal",
		"kosher", "dairy-free", "low-carb"},
	"editor": {"vim", "neovim", "emacs", "vs code", "vscode", "intellij", "sublime", "zed", "goland", "pycharm"},
	"os":     {"linux", "windows", "macos", "ubuntu", "debian", "fedora", "arch", "nixos", "freebsd"},
	"chat":   {"slack", "teams", "discord", "zoom", "google meet", "mattermost", "webex"},
	"tier": {"free", "basic", "standard", "plus", "premium", "pro", "professional", "team", "business", "enterprise",
		"family", "individual", "student", "starter", "essentials", "ultimate", "gold", "silver", "platinum", "bronze"},
	// Drinks are said in lower case: "These days I order a flat white."
	"drink": {"latte", "flat white", "cappuccino", "cortado", "americano", "espresso", "double espresso", "macchiato",
		"mocha", "cold brew", "iced coffee", "iced latte", "drip coffee", "filter coffee", "pour-over", "black coffee",
		"decaf", "oat latte", "oat milk latte", "chai latte", "matcha latte", "chai", "matcha", "green tea",
		"black tea", "earl grey", "herbal tea", "english breakfast", "hot chocolate"},
	// How one gets to work: "I bike to work now instead of taking the bus."
	"commute": {"bus", "train", "subway", "metro", "tube", "tram", "light rail", "bike", "bicycle", "e-bike", "ebike",
		"scooter", "car", "carpool", "ferry", "walk", "walking", "cycling", "biking", "driving", "rideshare"},
	// Colours, dog breeds and spoken languages, said in lower case.
	"colour": {"red", "blue", "green", "black", "white", "silver", "grey", "gray", "yellow", "orange", "purple",
		"pink", "brown", "beige", "navy", "teal", "maroon", "gold", "burgundy", "charcoal", "olive", "cream", "turquoise"},
	"breed": {"golden retriever", "labrador", "lab", "labrador retriever", "beagle", "poodle", "bulldog",
		"french bulldog", "german shepherd", "dachshund", "corgi", "husky", "border collie", "boxer", "pug",
		"shih tzu", "chihuahua", "greyhound", "whippet", "cocker spaniel", "spaniel", "terrier", "schnauzer",
		"great dane", "rottweiler", "doberman", "maltese", "goldendoodle", "labradoodle", "cavapoo", "bernese mountain dog"},
	"tongue": {"english", "spanish", "french", "german", "italian", "portuguese", "mandarin", "chinese", "cantonese",
		"japanese", "korean", "arabic", "hindi", "russian", "dutch", "swedish", "norwegian", "danish", "polish",
		"turkish", "hebrew", "greek", "vietnamese", "indonesian", "tagalog", "ukrainian", "czech", "finnish"},
	"seatpref": {"window", "aisle", "middle", "exit row", "bulkhead"},
	// What a child or an adult does after school or work.
	"activity": {"ballet", "gymnastics", "soccer", "football", "swimming", "piano", "violin", "cello", "guitar",
		"karate", "judo", "taekwondo", "chess", "tennis", "basketball", "baseball", "softball", "volleyball", "hockey",
		"lacrosse", "dance", "hip-hop dance", "tap", "drama", "theater", "theatre", "art class", "coding club",
		"robotics", "scouts", "climbing", "fencing", "rowing", "track", "cross-country", "cheerleading", "skating"},
	// Genres of books, films and music, said in lower case.
	"genre": {"mystery", "sci-fi", "science fiction", "fantasy", "romance", "thriller", "horror", "non-fiction",
		"nonfiction", "biography", "biographies", "memoir", "memoirs", "history", "literary fiction", "historical fiction",
		"poetry", "graphic novels", "true crime", "self-help", "jazz", "rock", "hip-hop", "hip hop", "classical",
		"country", "metal", "indie", "electronic", "folk", "blues", "punk", "k-pop", "r&b", "ambient", "techno"},
	"passwords": {"lastpass", "1password", "bitwarden", "dashlane", "keeper", "nordpass", "proton pass", "keepass",
		"keepassxc", "roboform"},
}

// categoryWords are the key words that name a category.
var categoryWords = map[string]string{
	"database": "database", "db": "database", "datastore": "database",
	"language": "language", "lang": "language",
	"framework": "framework", "frontend": "framework", "ui": "framework", "backend": "framework",
	"ci": "ci", "pipeline": "ci",
	"cloud": "cloud", "hosting": "cloud",
	"diet":   "diet",
	"editor": "editor", "ide": "editor",
	"os":   "os",
	"chat": "chat", "messaging": "chat", "meeting_tool": "chat",
	"password": "passwords", "vault": "passwords",
	"tier": "tier", "level": "tier", "edition": "tier",
	"drink": "drink", "coffee": "drink", "beverage": "drink", "tea": "drink",
	"genre": "genre", "book": "genre", "books": "genre", "reading": "genre", "music": "genre", "film": "genre", "movie": "genre",
	"activity": "activity", "activities": "activity", "sport": "activity", "sports": "activity", "hobby": "activity",
	"extracurricular": "activity", "afterschool": "activity",
	"colour": "colour", "color": "colour", "paint": "colour",
	"breed": "breed", "seat": "seatpref",
	"commute": "commute", "commuting": "commute", "transport": "commute", "transportation": "commute",
	"meeting": "chat", "meetings": "chat", "call": "chat", "calls": "chat", "video": "chat", "conferencing": "chat",
}

// commonWords are members of a category that are also ordinary English
// words: said in lower case, or opening a clause, they name nothing.
var commonWords = map[string]bool{"keeper": true, "go": true, "rust": true, "swift": true, "dart": true, "julia": true, "spring": true,
	"express": true, "solid": true, "remix": true, "teams": true, "zoom": true, "arch": true, "slack": true,
	"oracle": true, "drone": true, "bamboo": true, "render": true, "node": true, "phoenix": true, "aurora": true,
	"argo": true, "windows": true, "travis": true, "sublime": true, "astro": true, "ember": true,
	// the tiers are all ordinary words
	"free": true, "basic": true, "standard": true, "plus": true, "premium": true, "pro": true, "professional": true,
	"team": true, "business": true, "enterprise": true, "family": true, "individual": true, "student": true,
	"starter": true, "essentials": true, "ultimate": true, "gold": true, "silver": true, "platinum": true, "bronze": true}

var (
	synonymsOf = func() map[string][]string {
		m := map[string][]string{}
		for _, g := range topicGroups {
			for _, w := range g {
				for _, o := range g {
					if o == w {
						continue
					}
					m[w] = append(m[w], o)
					if sw := singular(w); sw != w {
						// Key words are made singular: "k8s" is read "k8".
						m[sw] = append(m[sw], o)
					}
				}
			}
		}
		return m
	}()
	memberOf = func() map[string]string {
		m := map[string]string{}
		for _, cs := range []map[string][]string{categories, brandCategories} {
			for c, ms := range cs {
				for _, v := range ms {
					m[v] = c
				}
			}
		}
		return m
	}()
)

// categoryFor names the category of stored value v that a word of its
// key names ("silver" is a colour for car_color, a tier for plan_tier),
// else its category (categoryOf).
func categoryFor(v string, topic, attrs []string) string {
	low := "" // folded once, and only for a key that names a category
	for _, ws := range [2][]string{topic, attrs} {
		for _, w := range ws {
			for _, c := range wordCategories(w) {
				if c == "" {
					continue
				}
				if low == "" {
					low = strings.TrimPrefix(strings.TrimSpace(fold(v)), "the ")
				}
				if memberSets[c][low] {
					return c
				}
			}
		}
	}
	if brandCommon[strings.TrimPrefix(strings.TrimSpace(fold(v)), "the ")] {
		// A brand that is also a name or a word ("Marcus", "Oscar",
		// "Max") is that brand only when the key names its kind:
		// team_lead = Marcus is a person, bank = Marcus a bank.
		return ""
	}
	return categoryOf(v)
}

// memberSets holds each category's members.
var memberSets = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for _, cs := range []map[string][]string{categories, brandCategories} {
		for c, ms := range cs {
			if m[c] == nil {
				m[c] = map[string]bool{}
			}
			for _, v := range ms {
				m[c][v] = true
			}
		}
	}
	return m
}()

// categoryOf names the category of value v ("MySQL" → database), or "".
// Anchor asks it of every stored value a sentence is read against, so
// the reading is remembered (it runs the form patterns).
func categoryOf(v string) string { return categoryMemo.Get(v) }

var categoryMemo = newMemo(scanCategory)

func scanCategory(v string) string {
	low := strings.TrimPrefix(strings.TrimSpace(fold(v)), "the ")
	if c := memberOf[low]; c != "" {
		return c
	}
	if first, _, ok := strings.Cut(low, " "); ok && (madeBy[memberOf[first]] || isBrand(first)) {
		return memberOf[first] // "Honda Civic", "CVS on Main"
	}
	return formOf(v)
}

// namesCategory reports whether key word w names category c ("db" names
// database; "coffee" names both the drink and the coffee shop).
func namesCategory(w, c string) bool {
	cs := wordCategories(w)
	return c != "" && slices.Contains(cs[:], c)
}

// wordCategories lists the categories key word w names, "" where a table
// names none.
func wordCategories(w string) [3]string {
	return [3]string{categoryWords[w], brandWords[w], spokenWords[w]}
}

// spokenWords name spoken languages, which "language" names beside
// programming ones.
var spokenWords = map[string]string{"language": "tongue", "lang": "tongue", "locale": "tongue"}

// synonymous reports whether words a and b name one topic.
func synonymous(a, b string) bool {
	for _, s := range synonymsOf[a] {
		if s == b {
			return true
		}
	}
	return false
}

// synonyms lists the words and phrases that name the topic of key word w.
func synonyms(w string) []string { return synonymsOf[w] }

// categorySpans finds the members of category c said in cl. A member that
// is also a common word counts only capitalised, and opening cl only
// before a verb of choosing ("Render is the pick").
func categorySpans(cl, c string) []span {
	if c == "" {
		return nil
	}
	low := lexical.LowerASCII(cl)
	var out []span
	if re := formCategory[c]; re != nil {
		for _, m := range re.FindAllStringIndex(cl, -1) {
			out = append(out, span{start: m[0], end: m[1], text: strings.TrimSpace(cl[m[0]:m[1]]), kind: KindChoice})
		}
	}
	for _, ms := range [2][]string{categories[c], brandCategories[c]} {
		for _, m := range ms {
			for off := 0; off < len(low); {
				i := strings.Index(low[off:], m)
				if i < 0 {
					break
				}
				s, e := off+i, off+i+len(m)
				off = e
				if s > 0 && isWordByte(low[s-1]) || e < len(low) && isWordByte(low[e]) {
					continue
				}
				if (commonWords[m] || brandCommon[m]) && (!unicode.IsUpper(rune(cl[s])) || strings.TrimSpace(cl[:s]) == "" && !reChooseAfter.MatchString(cl[e:])) {
					continue
				}
				if madeBy[c] {
					e += len(reModel.FindString(cl[e:])) // "Mazda CX-5"
				}
				out = append(out, span{start: s, end: e, text: cl[s:e], kind: KindChoice})
			}
		}
	}
	// "Hill's Science Diet" is one value, not "Hill's" and "Science
	// Diet" beside it; "Hilton Garden Inn", a brand and a form, is one.
	out = slices.DeleteFunc(out, func(a span) bool {
		return slices.ContainsFunc(out, func(b span) bool {
			return b.end-b.start > a.end-a.start && b.start <= a.start && a.end <= b.end
		})
	})
	slices.SortFunc(out, func(a, b span) int { return cmp.Or(a.start-b.start, a.end-b.end) })
	return slices.CompactFunc(out, func(a, b span) bool { return a.start == b.start && a.end == b.end })
}

func isWordByte(b byte) bool {
	return b == '_' || b == '#' || b == '+' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// reChangeCue marks a clause that says a change or a decision: a value of
// a category said with it, and nothing else of the key, is the key's new
// value ("We're going with CockroachDB after all", "I'm vegan now").
var changeCues = []string{" now", " new ", "decided", " switch ", "switched", "switching", "moved", "moving", "moves", "migrated", "migrating",
	"going with", "went with", "chose", "picked", "from now on", "instead", "after all", "in the end", "henceforth", "hereafter", "anymore", "any more",
	"rebuild", "rebuilding", "rewrite", "rewriting", "rewrote", "replaced", "adopted", "settled on", "these days",
	"changed", "became", "become", "as of", "going forward", "from here on", "nowadays", "lately", "ended up",
	"rebooked", "reassigned", "upgraded", "downgraded", "transferred", "cut over", "ported", "locked in", "rotated", "reset to", "preponed", "revised to", "finalised", "finalized",
	// a value that moved: "Down to 78 kg", "rent goes up to $1,975"
	" down to ", "went up to", "goes up to", "gone up to", "going up to", "went down to", "goes down to", "gone down to",
	"rose to", "risen to", "fell to", "fallen to", "dropped to", "climbed to", "jumped to", "grew to", "shrank to",
	"increased to", "decreased to", "raised to", "lowered to", "bumped to", "bumped up to", "cut to", "reduced to",
	"weighed in at", " hit ", " reached ",
	// a thing taken up: "joined Equinox", "started at Lincoln Middle School"
	"joined", "started at", "starts at", "starting at", "started with", "enrolled", "transferred to", "traded", "swapped", "signed up", "signed with", "renewed with",
	"took over", "taken over", "relocated", "updated", "latest", "currently", "go-to",
	"trimmed", "slashed", "hiked", "upped", "renamed", "rebranded", "change of plans", "change of plan",
	"opted", "signed up", "escalated", "reprioritized", "reprioritised", "deprioritized", "deprioritised",
	"repainted", "drifted", "the move to", "the migration to", "made the jump", "made the switch", "made the move", "took the plunge", "jumped ship", "gone full", "went full", "all in on", "all-in on", "converted to", "starting this", "starting next", "starting today", "starting tomorrow", "starting from", "effective", "beginning this", "beginning next", "doubled", "halved", "bumped", "put me on", "put us on", "took me off", "took us off",
	// a state that began at a time or an event: "Prod is on Postgres 16
	// since the maintenance window", "since last week"
	" since the ", " since last ", " since yesterday", " since this ", " since our ", " since we ",
	// a move completed: "we're fully on CockroachDB"
	" fully on ", " entirely on ", " completely on ", " fully moved", " fully migrated", " fully switched", "rotated",
	// a date or a time moved: "has been put back to January 29"
	"pushed", "postponed", "rescheduled", "put back", "brought forward", "delayed", "shifted"}

func hasChangeCue(clow string) bool {
	clow = " " + strings.ReplaceAll(clow, "picked up", "fetched") + " " // "picked up a prescription" chose nothing
	for _, c := range changeCues {
		if strings.Contains(clow, c) {
			return true
		}
	}
	return rePutOn.MatchString(clow)
}

// rePutOn is someone put on a new thing: "the vet put Luna on Royal Canin".
var rePutOn = regexp.MustCompile(`\bput [\p{L}'’-]+ on\b`)
