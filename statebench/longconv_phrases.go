package statebench

// The phrase pools of the conversation generator (longconv.go). They were
// written as a demanding user talks, without reference to any extraction
// rule of the service: varied, sometimes terse, sometimes rambling.
//
// Placeholders: {S} the subject ("the team offsite"), {N} the subject's
// bare noun ("team offsite"), {V} the new value, {OLD} the value it
// replaces, {ALT} a value that is never true, {P} a colleague or relative.

// slotKind is the kind of value a slot holds.
type slotKind int

const (
	kindCount slotKind = iota
	kindChoice
	kindOwner
	kindWorkDate
	kindPersonalDate
	kindAddress
	kindPrice
	kindLocation
	kindContact
	numKinds
)

// theme is one subject a slot can be about, with the values it may take.
type theme struct {
	det, noun string   // "the", "team offsite"
	keys      []string // client key names for the fact, in varied styles
	values    []string // candidate values (for counts, prices and dates: generated)
}

var themes = [numKinds][]theme{
	kindCount: {
		{"the", "headcount for the offsite", []string{"offsite_headcount", "headcount", "offsiteHeadcount"}, nil},
		{"the", "number of beta testers", []string{"beta_testers", "betaTesterCount", "testers"}, nil},
		{"the", "guest count for the anniversary dinner", []string{"dinner_guests", "guestCount", "guests"}, nil},
		{"the", "number of laptops we need to order", []string{"laptop_order_qty", "laptops", "laptopCount"}, nil},
		{"the", "attendee cap for the workshop", []string{"workshop_capacity", "cap", "workshopCap"}, nil},
		{"the", "first production run", []string{"production_run_units", "runSize", "units"}, nil},
		{"the", "seat count for the training course", []string{"training_seats", "seats", "seatCount"}, nil},
	},
	kindChoice: {
		{"the", "database for the billing service", []string{"billing_db", "db_choice", "billingDatabase"}, []string{"Postgres", "CockroachDB", "MySQL", "DynamoDB", "MariaDB", "ScyllaDB"}},
		{"the", "caterer for the launch party", []string{"caterer", "launch_party_caterer", "partyCaterer"}, []string{"Bellini's", "Golden Wok", "Casa Verde", "Noodle Bar Ito", "The Salt Cellar", "Mezze Republic"}},
		{"our", "CI provider", []string{"ci_provider", "ci", "ciVendor"}, []string{"GitHub Actions", "Buildkite", "CircleCI", "GitLab CI", "Jenkins", "TeamCity"}},
		{"the", "frontend framework for the dashboard", []string{"frontend_framework", "fe_stack", "dashboardFramework"}, []string{"Svelte", "React", "Vue", "SolidJS", "Angular", "Lit"}},
		{"the", "road bike I'm buying", []string{"bike_choice", "bike", "newBike"}, []string{"Canyon Endurace", "Trek Domane", "Giant Defy", "Cannondale Synapse", "Ribble Endurance", "Specialized Roubaix"}},
		{"the", "paint colour for the living room", []string{"living_room_paint", "paint", "paintColour"}, []string{"Sage Mist", "Harbour Grey", "Oat Milk", "Deep Teal", "Terracotta Dusk", "Chalk White"}},
		{"my", "health insurance plan", []string{"insurance_plan", "health_plan", "insurancePlan"}, []string{"Bupa Select", "Vitality Core", "AXA Essentials", "Aviva Flex", "Cigna Plus", "WPA Simple"}},
	},
	kindOwner: {
		{"the", "onboarding deck", []string{"onboarding_deck_owner", "deckOwner", "deck_owner"}, nil},
		{"the", "release notes", []string{"release_notes_owner", "relnotes", "releaseNotesOwner"}, nil},
		{"the", "vendor contract renewal", []string{"contract_renewal_owner", "renewalOwner", "vendor_renewal"}, nil},
		{"the", "on-call runbook", []string{"runbook_owner", "runbook", "oncallRunbookOwner"}, nil},
		{"the", "quarterly budget review", []string{"budget_review_owner", "qbrOwner", "budget_review"}, nil},
		{"the", "churn analysis", []string{"churn_analysis_owner", "churn", "churnOwner"}, nil},
		{"the", "hiring plan for the platform team", []string{"hiring_plan_owner", "hiringPlan", "hiring_owner"}, nil},
	},
	kindWorkDate: {
		{"the", "launch", []string{"launch_date", "launch", "launchDate"}, nil},
		{"the", "code freeze", []string{"code_freeze", "freeze_date", "codeFreeze"}, nil},
		{"the", "migration cutover", []string{"cutover_date", "cutover", "migrationCutover"}, nil},
		{"the", "board review", []string{"board_review_date", "boardReview", "board_review"}, nil},
		{"the", "beta release", []string{"beta_date", "beta", "betaRelease"}, nil},
		{"the", "security audit", []string{"audit_date", "securityAudit", "audit"}, nil},
	},
	kindPersonalDate: {
		{"my", "dentist appointment", []string{"dentist", "dentist_appt", "dentistAppointment"}, nil},
		{"my", "driving test", []string{"driving_test", "drivingTest", "test_date"}, nil},
		{"the", "kitchen fitting", []string{"kitchen_fitting", "kitchenFit", "fitting_date"}, nil},
		{"the", "vet appointment for Biscuit", []string{"vet_appt", "vet", "vetAppointment"}, nil},
		{"my", "physio session", []string{"physio", "physio_session", "physioDate"}, nil},
		{"my", "passport renewal appointment", []string{"passport_appt", "passport", "passportAppointment"}, nil},
	},
	kindAddress: {
		{"my", "home address", []string{"home_address", "addr", "address", "homeAddress", "current_address"}, nil},
	},
	kindPrice: {
		{"the", "quote for the roof repair", []string{"roof_quote", "roofQuote", "quote"}, nil},
		{"the", "annual licence for the design tool", []string{"design_tool_licence", "licence_cost", "designLicense"}, nil},
		{"the", "venue hire", []string{"venue_hire", "venueCost", "venue_price"}, nil},
		{"the", "travel budget", []string{"travel_budget", "budget", "travelBudget"}, nil},
		{"the", "marketing budget", []string{"marketing_budget", "mktBudget", "budget_marketing"}, nil},
		{"the", "widget price", []string{"widget_price", "widgetPrice", "price_widget"}, nil},
		{"the", "gadget price", []string{"gadget_price", "gadgetPrice", "price_gadget"}, nil},
	},
	kindLocation: {
		{"the", "team offsite", []string{"offsite_location", "offsite", "offsiteCity"}, []string{"Lisbon", "Porto", "Valencia", "Kraków", "Ghent", "Bologna", "Tallinn", "Seville"}},
		{"our", "annual conference", []string{"conference_city", "conf_location", "conferenceLocation"}, []string{"Rotterdam", "Lyon", "Dublin", "Vienna", "Gothenburg", "Leipzig", "Bilbao", "Turin"}},
		{"the", "product workshop", []string{"workshop_location", "workshop_venue", "workshopWhere"}, []string{"Manchester", "Glasgow", "Cardiff", "Newcastle", "Brighton", "Bath", "York", "Belfast"}},
		{"our", "summer holiday", []string{"holiday_destination", "holiday", "summerTrip"}, []string{"Crete", "Sardinia", "Madeira", "the Algarve", "Corsica", "Mallorca", "Gozo", "Menorca"}},
		{"the", "sales kickoff", []string{"kickoff_location", "sko_city", "kickoffCity"}, []string{"Amsterdam", "Copenhagen", "Zurich", "Prague", "Oslo", "Helsinki", "Riga", "Ljubljana"}},
	},
	kindContact: {
		{"the", "contractor", []string{"contractor_phone", "contractor", "contractorContact"}, nil},
		{"the", "venue coordinator", []string{"venue_contact", "coordinator_email", "venueCoordinator"}, nil},
		{"my", "accountant", []string{"accountant_email", "accountant", "accountantContact"}, nil},
		{"the", "landlord", []string{"landlord_phone", "landlord", "landlordContact"}, nil},
		{"our", "account manager at the cloud vendor", []string{"vendor_am_email", "account_manager", "cloudAccountManager"}, nil},
	},
}

// owners are the people an owner slot's values come from; colleagues are
// the people of distractors and filler. The two never overlap.
var owners = []string{"Lena", "Jonas", "Amara", "Tobias", "Mei", "Rafael", "Ingrid", "Kwame", "Sofia", "Dmitri", "Yusuf", "Hanna", "Mateo", "Freya", "Oskar", "Nadia"}

var colleagues = []string{"Priya", "Marcus", "Elif", "Gareth", "Chen", "Bea", "Luis", "Noor", "Pavel", "Greta"}

var relatives = []string{"my sister", "my brother", "my neighbour", "my mum", "my flatmate", "a friend of mine", "my cousin", "my old manager"}

var streets = []string{"Elm Row", "Harlow Street", "Quay Lane", "Birchfield Road", "Canal Walk", "Mercer Street", "Orchard Close", "Tannery Yard", "Wexford Avenue", "Larkspur Drive", "Gillespie Crescent", "Abbot's Way", "Rowan Terrace", "Foundry Lane", "Marsh Road", "Chapel Street"}

var towns = []string{"Leeds", "Bristol", "Edinburgh", "Norwich", "Sheffield", "Exeter", "Nottingham", "Durham", "Oxford", "Aberdeen"}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

var emailDomains = []string{"brightpath.io", "northwind.co", "fernhill.net", "quillworks.com", "oakline.org", "harbourtech.io", "tidewell.co.uk", "sablesoft.com"}

var contactFirst = []string{"dana", "rob", "ines", "kofi", "lara", "tomasz", "june", "ali", "beatriz", "owen", "saskia", "ravi"}

var contactLast = []string{"kim", "hale", "moreau", "mensah", "quinn", "novak", "bright", "haddad", "costa", "lloyd", "berg", "iyer"}

// stateTemplates state a slot's first value.
var stateTemplates = [numKinds][]string{
	kindCount: {
		"{S} is {V}.",
		"We're at {V} for {S}.",
		"Put {S} down as {V}.",
		"For the record, {S} is {V}.",
		"Current number for {S}: {V}.",
		"We landed on {V} for {S}.",
	},
	kindChoice: {
		"We're going with {V} for {S}.",
		"{V} is the pick for {S}.",
		"Decided: {S} will be {V}.",
		"After a lot of back and forth, {S} is {V}.",
		"We chose {V} as {S}.",
		"Settled it — {V} for {S}.",
	},
	kindOwner: {
		"{V} owns {S}.",
		"{V} is responsible for {S}.",
		"{S} is {V}'s.",
		"{V} has {S} — it's theirs end to end.",
		"The person on the hook for {S} is {V}.",
		"{S} sits with {V}.",
	},
	kindWorkDate: {
		"{S} is set for {V}.",
		"We're doing {S} on {V}.",
		"{S} is locked in for {V}.",
		"Date for {S}: {V}.",
		"{S} happens on {V}.",
		"We agreed {S} is on {V}.",
	},
	kindPersonalDate: {
		"{S} is on {V}.",
		"I've booked {S} for {V}.",
		"{S} got scheduled for {V}.",
		"{S} is {V}, first thing in the morning.",
		"Booked: {S}, {V}.",
	},
	kindAddress: {
		"My address is {V}.",
		"I live at {V}.",
		"For deliveries, I'm at {V}.",
		"Home is {V}.",
		"You can send stuff to {V} — that's my place.",
	},
	kindPrice: {
		"{S} came in at {V}.",
		"{S} is {V}.",
		"We were quoted {V} for {S}.",
		"{S} sits at {V}.",
		"Signed off: {S} is {V}.",
	},
	kindLocation: {
		"{S} is in {V}.",
		"We're holding {S} in {V}.",
		"{S} will be in {V}.",
		"Booked {S} in {V}.",
		"{V} it is for {S}.",
	},
	kindContact: {
		"You can reach {S} at {V}.",
		"The best way to get hold of {S} is {V}.",
		"{S}'s contact is {V}.",
		"Contact for {S}: {V}.",
		"If anything comes up with {S}, it's {V}.",
	},
}

// changeTemplates update a slot to a new value. Each is a real change (or
// correction) of the slot, in the user's voice.
var changeTemplates = [numKinds][]string{
	kindCount: {
		"About {S}: make that {V}.",
		"{S} went up to {V}.",
		"Correction on {S}: it's {V}, not {OLD}.",
		"Update {S} to {V}, please.",
		"Scratch the earlier number for {S} — we're at {V} now.",
		"Small change: {S} is now {V}.",
		"{S} dropped to {V} after the latest round.",
		"New figure for {S}: {V}.",
	},
	kindChoice: {
		"Change of plan: we're switching {S} to {V}.",
		"We dropped {OLD}; {S} is {V} now.",
		"Final answer on {S}: {V}.",
		"Actually, we're going with {V} for {S} instead.",
		"{V} replaces {OLD} as {S}.",
		"We reversed the decision — {S} is {V} from today.",
	},
	kindOwner: {
		"{V} is taking {S} off {OLD}'s hands.",
		"{V} takes over {S} from this week.",
		"Reassigning {S} to {V}.",
		"From now on {S} sits with {V}.",
		"Correction: it's {V}, not {OLD}, who owns {S}.",
		"{OLD} handed {S} over to {V} yesterday.",
		"{V} owns {S} now.",
	},
	kindWorkDate: {
		"{S} slipped to {V}.",
		"{S} moved to {V}.",
		"New date for {S}: {V}.",
		"We pushed {S} back to {V}.",
		"Heads up, {S} got pulled forward to {V}.",
		"{S} is now on {V}.",
		"Correction: {S} is on {V}, not {OLD}.",
	},
	kindPersonalDate: {
		"I moved {S} to {V}.",
		"{S} got rescheduled to {V}.",
		"They called — {S} is now {V}.",
		"Change to {S}: it's {V} now.",
		"I had to push {S} to {V}.",
	},
	kindAddress: {
		"I moved to {V} last weekend.",
		"New address: {V}.",
		"I'm at {V} now.",
		"We've moved — it's {V} from now on.",
		"Please update my address to {V}.",
		"Finally done with the move; home is {V}.",
	},
	kindPrice: {
		"They revised {S} to {V}.",
		"{S} went up to {V}.",
		"{S} was cut to {V}.",
		"Correction: {S} is {V}, not {OLD}.",
		"Final number on {S}: {V}.",
		"{S} is {V} now after the renegotiation.",
	},
	kindLocation: {
		"We moved {S} to {V}.",
		"{S} is happening in {V} now.",
		"Change of city: {S} will be in {V}.",
		"{S} is in {V}, not {OLD}.",
		"We relocated {S} to {V}.",
		"{V} replaces {OLD} for {S}.",
	},
	kindContact: {
		"{S} has new contact details: {V}.",
		"Don't use the old details for {S} any more; it's {V}.",
		"{S} switched to {V}.",
		"Update the contact for {S} to {V}.",
		"{S} is on {V} now.",
	},
}

// distractor is a sentence that mentions a slot without changing it.
type distractor struct {
	why, text string
}

// distractorTemplates never change the slot they mention. {ALT} is a value
// the slot never takes; {V} is the current value.
var distractorTemplates = []distractor{
	{"negation", "We are not changing {S} to {ALT}."},
	{"negation", "{ALT} is off the table for {S}."},
	{"negation", "Don't put {ALT} down for {S}."},
	{"negation", "Just so it's clear, {S} won't be {ALT}."},
	{"negation", "Nobody is seriously suggesting {ALT} for {S}."},
	{"question", "Would {ALT} work better for {S}?"},
	{"question", "Is it too late to switch {S} to {ALT}?"},
	{"question", "Should {S} be {ALT} instead, do you think?"},
	{"question", "Any reason not to go with {ALT} for {S}?"},
	{"hypothetical", "Suppose {S} were {ALT} — what would that break?"},
	{"hypothetical", "What if {S} was {ALT}?"},
	{"hypothetical", "If {S} ended up being {ALT}, I'd need to rethink the plan."},
	{"hypothetical", "Hypothetically, {ALT} for {S} might be easier."},
	{"hypothetical", "In a world where {S} is {ALT}, would the rest still hold?"},
	{"draft", "I'm drafting a note that floats {ALT} for {S}; nothing's decided."},
	{"draft", "Draft for the team, not sent: \"{S} could be {ALT}.\""},
	{"declined", "{P} proposed {ALT} for {S}, but we said no."},
	{"declined", "{P} pushed for {ALT} on {S}; I turned it down."},
	{"declined", "Someone offered {ALT} for {S} and we declined."},
	{"past", "Years ago {S} was {ALT}, which is funny in hindsight."},
	{"past", "Back when I started, {S} was {ALT}."},
	{"other", "{R} just told me their {N} is {ALT}."},
	{"other", "{R} changed their {N} to {ALT} — nothing to do with ours."},
	{"other", "{P}'s team set their own {N} to {ALT}."},
	{"keep", "{S} stays {V}, no change there."},
	{"keep", "Still {V} for {S}, in case you wondered."},
}

// addressDistractors never change the user's address: other people's
// moves, past homes, plans that did not happen.
var addressDistractors = []distractor{
	{"other", "{R} moved to {ALT} last month."},
	{"other", "{R} just bought a place at {ALT}."},
	{"past", "I used to live at {ALT}, years ago."},
	{"past", "Before this flat I was at {ALT}."},
	{"declined", "We looked at a house on {ALT} but said no to it."},
	{"negation", "We're not moving to {ALT} after all."},
	{"question", "Would {ALT} be a better place to live, do you think?"},
	{"hypothetical", "If we moved to {ALT}, my commute would halve."},
	{"draft", "I'm drafting an offer letter for {ALT}; it may never go anywhere."},
}

// contactDistractors never change how to reach a contact: other people's
// details, guesses, offers turned down.
var contactDistractors = []distractor{
	{"other", "{R} gave me their plumber's details: {ALT}."},
	{"other", "{P}'s contractor is on {ALT}, not that it matters to us."},
	{"negation", "Don't use {ALT} for {S}; that's someone else entirely."},
	{"question", "Is {ALT} the right way to reach {S}?"},
	{"hypothetical", "If {S} switched providers, it might end up as something like {ALT}."},
	{"declined", "{P} suggested I contact {S} via {ALT}, but I'm sticking with what I have."},
	{"draft", "I'm drafting a message to {ALT} to check whether it reaches {S}; not sent."},
	{"past", "Years ago {S} was on {ALT}."},
	{"keep", "Still {V} for {S}, in case you wondered."},
}

// assistantSuggestions are the assistant's own ideas: never a change.
var assistantSuggestions = []string{
	"You could also consider {ALT} for {S} — maybe worth a quick look.",
	"One option would be to move {S} to {ALT}, but that's your call.",
	"If it helps, {ALT} might be a better fit for {S}; I'd only change it if the current plan stops working.",
	"Some teams in your position go with {ALT} for {S}. Just a thought.",
	"Maybe keep {ALT} in your back pocket for {S} in case things shift.",
}

// assistantAcks restate what the user just said.
var assistantAcks = []string{
	"Noted — {S} is {V}.",
	"Got it: {V} for {S}.",
	"Understood, I'll keep {V} in mind for {S}.",
	"Thanks, {S}: {V}.",
}

// askTemplates ask for a slot's current value at the end.
var askTemplates = [numKinds][]string{
	kindCount:        {"What's {S} at now?", "Remind me — what number did we settle on for {S}?", "What's the latest on {S}?"},
	kindChoice:       {"What did we pick for {S} in the end?", "Which option is {S} now?", "Remind me what {S} is."},
	kindOwner:        {"Who owns {S} at this point?", "Who has {S} now?", "Who do I chase about {S}?"},
	kindWorkDate:     {"When is {S} now?", "What's the date for {S}?", "Remind me when {S} happens."},
	kindPersonalDate: {"When is {S}?", "What date did I end up with for {S}?", "Remind me of the date of {S}."},
	kindAddress:      {"What address do you have for me?", "Where do I live now, as far as you know?", "Which address should the delivery go to?"},
	kindPrice:        {"What's {S} now?", "How much is {S}?", "Remind me of the figure for {S}."},
	kindLocation:     {"Where is {S} happening?", "Which city is {S} in?", "Remind me where {S} is."},
	kindContact:      {"How do I reach {S}?", "What's the contact for {S}?", "Give me the current details for {S}."},
}

// topics are what the rest of a long conversation is about.
type topic struct {
	title   string   // "Kubernetes autoscaling"
	asks    []string // the user's questions about it
	points  []string // sentences an answer about it can use
	bullets []string // short list items
}

var topics = []topic{
	{"flaky integration tests",
		[]string{"Our integration tests keep failing randomly on CI. Where do I even start?", "The flaky test thing is back. Same suite, different test every time. Ideas?", "How do I convince the team to stop hitting retry on red builds?"},
		[]string{"Flaky tests usually come from shared state, timing assumptions or ordering between tests.", "A quarantine list keeps the main branch green while the flaky tests are fixed one by one.", "Running the suite with a randomised order surfaces hidden dependencies between tests quickly.", "Tests that sleep for a fixed time are the first suspects; poll for the condition instead.", "Record the seed and the environment of every failing run so that the failure can be reproduced.", "A dashboard of failure rate per test makes the worst offenders obvious within a week."},
		[]string{"quarantine the worst offenders", "randomise test order", "replace sleeps with polling", "log seeds and timings", "track failure rate per test", "isolate the database per test"}},
	{"Kubernetes autoscaling",
		[]string{"Our pods scale up way too late when traffic spikes. What knobs matter?", "Should we scale on CPU or on request rate?", "The cluster autoscaler takes ages to add nodes. Is that normal?"},
		[]string{"The horizontal pod autoscaler reacts to averages, so short spikes are smoothed away by design.", "Scaling on request rate or queue depth tracks real demand more closely than CPU.", "Node provisioning is usually the slow part; a small buffer of spare capacity hides it.", "Readiness probes that are too strict make new pods look useless during the spike.", "The stabilisation window decides how eagerly the autoscaler scales down again.", "Load tests with a realistic ramp show where the scaling lag actually hurts."},
		[]string{"scale on request rate", "keep warm spare capacity", "tune the stabilisation window", "check readiness probes", "load test with a ramp", "set sensible resource requests"}},
	{"learning Spanish",
		[]string{"I keep stalling at intermediate Spanish. Any tips?", "Is it worth paying for a tutor or should I stick with apps?", "How do I get better at understanding fast speakers?"},
		[]string{"The intermediate plateau is normal; input that is slightly too hard is what moves it.", "A weekly conversation with a tutor gives you the speaking practice apps cannot.", "Podcasts for learners at a slower pace are a good bridge to native audio.", "Shadowing short clips trains both listening and pronunciation at once.", "Reading graded novels builds vocabulary in context instead of in isolated lists.", "Consistency beats intensity: twenty minutes a day outperforms a long weekend session."},
		[]string{"weekly tutor sessions", "graded readers", "learner podcasts", "shadowing practice", "spaced repetition for verbs", "a language exchange partner"}},
	{"half marathon training",
		[]string{"I signed up for a half marathon and I'm a bit nervous. How should I structure the weeks?", "My knee gets sore after long runs. Should I be worried?", "How fast should my easy runs actually be?"},
		[]string{"Most plans build the long run gradually and keep the other runs easy.", "Easy runs should feel conversational; most people run them too fast.", "Knee soreness after long runs often points to a sudden jump in distance.", "Strength work for hips and glutes takes load off the knees over time.", "A taper in the last ten days lets your legs arrive fresh on race day.", "Practising your race-day breakfast and gels during long runs avoids surprises."},
		[]string{"keep easy runs easy", "build the long run slowly", "add strength work twice a week", "taper before race day", "rehearse race nutrition", "rest when something hurts"}},
	{"a Go service's memory usage",
		[]string{"Our Go service's memory keeps creeping up. How do I find out why?", "Is it a leak or just the garbage collector being lazy?", "What's the quickest way to see which allocations dominate?"},
		[]string{"A heap profile from pprof shows which call sites hold memory right now.", "Goroutine leaks show up as a steadily growing goroutine count in the profile.", "GOMEMLIMIT gives the garbage collector a target and often flattens the curve.", "Buffers kept in long-lived maps are a common source of slow growth.", "Comparing two heap profiles an hour apart isolates what actually grows.", "Allocation profiles point at hot paths worth pooling or preallocating."},
		[]string{"take two heap profiles and diff them", "watch the goroutine count", "try GOMEMLIMIT", "look for caches without eviction", "profile allocations", "check for unclosed response bodies"}},
	{"sourdough baking",
		[]string{"My sourdough comes out dense every time. What am I doing wrong?", "How do I know when the bulk ferment is done?", "Is it the flour or is it me?"},
		[]string{"A dense loaf usually means the dough was under-fermented.", "The dough should grow noticeably and feel airy before shaping.", "A stronger flour with more protein holds gas better.", "Temperature changes fermentation time more than anything else.", "A lively starter that doubles reliably is the foundation of a good loaf.", "Shaping with enough surface tension gives a better rise in the oven."},
		[]string{"feed the starter regularly", "watch the dough, not the clock", "try a stronger flour", "keep the dough warm", "practise shaping", "bake in a preheated pot"}},
	{"the API versioning strategy",
		[]string{"We need to break the public API. How do we version it without hurting everyone?", "URL versioning or header versioning?", "How long should we keep the old version alive?"},
		[]string{"Additive changes rarely need a new version; breaking ones do.", "Versioning in the path is easy to see and easy to route.", "A published deprecation window gives clients time to move.", "Usage metrics per version tell you when it is safe to retire one.", "A changelog with migration examples saves support tickets.", "Contract tests catch accidental breaking changes before they ship."},
		[]string{"publish a deprecation window", "measure usage per version", "write migration examples", "add contract tests", "prefer additive changes", "announce early"}},
	{"sleep and a new baby",
		[]string{"We have a newborn and I'm running on fumes. Any survival strategies?", "How do we split the night shifts fairly?", "Is it normal to feel this foggy at work?"},
		[]string{"Splitting the night into shifts lets each parent get one longer block of sleep.", "Short naps during the day help more than people expect.", "Accepting help with meals and errands frees up time to rest.", "Lowering the bar on chores for a few months is entirely reasonable.", "Talking to your manager about a lighter load is worth it.", "The fog does lift as the nights get longer."},
		[]string{"split the night into shifts", "nap when you can", "accept help", "lower the bar on chores", "tell your manager", "be kind to yourself"}},
	{"the data pipeline backfill",
		[]string{"We need to backfill two years of events through the new pipeline. How do we not melt the warehouse?", "Should the backfill run in the same jobs as live traffic?", "How do I check the backfilled numbers are right?"},
		[]string{"Backfills are safest in bounded batches that can be retried on their own.", "Keeping backfill jobs separate from live jobs protects fresh data.", "Idempotent writes make reruns harmless.", "Row counts and checksums per day are a cheap first check.", "Throttling by warehouse load keeps analysts from noticing.", "A small pilot month reveals schema surprises early."},
		[]string{"run in daily batches", "separate from live jobs", "make writes idempotent", "compare counts per day", "throttle on load", "pilot one month first"}},
	{"renovating the bathroom",
		[]string{"We're redoing the bathroom. What should I decide first?", "Tiles or wall panels — which is less hassle?", "How do I avoid the renovation running over?"},
		[]string{"Plumbing positions are the decision everything else depends on.", "Wall panels are quicker to fit and easier to clean.", "A contingency of ten to fifteen percent is usual for renovations.", "Ordering fixtures early avoids delays when the fitter is ready.", "Good ventilation prevents most damp problems later.", "Photos of the walls before they are closed up help with future repairs."},
		[]string{"fix plumbing positions first", "order fixtures early", "keep a contingency", "plan ventilation", "photograph open walls", "agree a schedule in writing"}},
	{"writing a performance review",
		[]string{"I have to write performance reviews for my team. How do I make them useful?", "How blunt should I be about someone's weak spots?", "How do I avoid recency bias?"},
		[]string{"Specific examples make feedback credible and actionable.", "Notes taken through the year counter recency bias.", "Framing growth areas around impact keeps it constructive.", "A draft shared ahead of the meeting reduces surprises.", "Separating the rating from the development plan helps people listen.", "Ending with agreed next steps turns the review into a plan."},
		[]string{"use concrete examples", "keep notes all year", "frame growth around impact", "share a draft first", "separate rating from development", "agree next steps"}},
	{"observability for the checkout flow",
		[]string{"We keep finding checkout bugs from customer complaints. How do we see them first?", "Which metrics actually matter for checkout?", "How many alerts is too many?"},
		[]string{"Tracing a checkout end to end shows where time and errors go.", "Conversion rate per step is the metric the business cares about.", "Alerts on symptoms rather than causes keep noise down.", "Synthetic checkouts catch breakage before customers do.", "Structured logs with an order id make debugging much faster.", "Every alert should have a runbook link and an owner."},
		[]string{"trace checkout end to end", "watch conversion per step", "alert on symptoms", "run synthetic checkouts", "log with an order id", "link runbooks to alerts"}},
	{"saving for a house deposit",
		[]string{"We're trying to save for a deposit. How do we stay disciplined?", "Should we pay off the car loan first or save?", "Where should the savings actually sit?"},
		[]string{"An automatic transfer on payday makes saving the default.", "High-interest debt usually beats saving, low-interest debt often does not.", "An easy-access account keeps the deposit safe and reachable.", "A shared spreadsheet keeps both of you honest about progress.", "Small recurring subscriptions add up more than expected.", "A target date makes the monthly amount concrete."},
		[]string{"automate the transfer", "compare loan interest with savings rates", "use an easy-access account", "track progress together", "audit subscriptions", "set a target date"}},
	{"onboarding new engineers",
		[]string{"New engineers take forever to ship their first change. How do we speed it up?", "What belongs in an onboarding checklist?", "Should new people go on call early?"},
		[]string{"A first change in the first week builds confidence fast.", "A buddy who answers small questions saves hours of searching.", "Dev environments that set up in one command remove a common blocker.", "A short map of the architecture helps more than a long wiki.", "Shadowing an on-call shift before joining the rota works well.", "Asking each new person what confused them improves the next onboarding."},
		[]string{"ship something in week one", "assign a buddy", "one-command dev setup", "a short architecture map", "shadow on-call first", "collect feedback"}},
}

// followUps are questions a user asks about any topic.
var followUps = []string{
	"Can you expand on the second point?",
	"What would you do in my shoes?",
	"And if that doesn't work?",
	"Give me the short version, I'm in a rush.",
	"How long would that take, realistically?",
	"Okay, but what's the catch?",
	"Can you turn that into a checklist?",
	"Which of those would you do first?",
	"Is there anything I'm missing here?",
	"That's a lot. What's the one thing that matters most?",
	"Could you rephrase that for someone non-technical?",
	"What would a good first week of this look like?",
	"I tried something like that before and it fizzled. Why would it work now?",
	"How do I know if it's working?",
}

// fillerAsides are small personal remarks a user drops into a turn.
var fillerAsides = []string{
	"Long day, sorry if I'm terse.",
	"Coffee number three, so bear with me.",
	"I'm typing this on my phone on the train.",
	"Morning!",
	"Quick one before my next meeting.",
	"Thanks for yesterday, that helped.",
	"Okay, back at it.",
	"Sorry, got pulled into something.",
	"Right, where were we.",
	"This week is a lot.",
	"Ha, fair enough.",
	"That makes sense.",
	"Let me think out loud for a second.",
	"The kids are finally asleep.",
}

// answerOpeners, answerClosers and answerHeadings frame an assistant answer.
var answerOpeners = []string{
	"Good question — there are a few angles here.",
	"Here's how I'd think about it.",
	"Let's break this down.",
	"Short version first, then the details.",
	"This comes up a lot, and the answer depends on a couple of things.",
	"Happy to help with this.",
}

var answerHeadings = []string{"What usually causes this", "Options", "What I'd do first", "Trade-offs", "A simple plan", "Things to watch", "Next steps", "Why it matters", "Common mistakes", "Quick wins"}

var answerClosers = []string{
	"If you tell me more about your setup, I can make this more specific.",
	"Let me know which of these you want to dig into.",
	"Happy to sketch a more detailed plan if that helps.",
	"You could start with the first item and see how far that gets you.",
	"Maybe try one change at a time so you can tell what helped.",
	"Does that match what you're seeing?",
}

// answerGlue are generic sentences that pad an answer the way real
// assistants do.
var answerGlue = []string{
	"It's worth writing down what you try so you can compare results later.",
	"None of this has to happen at once; pick the change with the best effort-to-payoff ratio.",
	"You could also ask someone who has done this before; an hour of their time can save a week.",
	"Maybe the simplest version is good enough for now, and you can refine it later.",
	"The main risk is changing too many things at the same time.",
	"A small experiment usually tells you more than a long debate.",
	"If you're unsure, start with the option that is easiest to undo.",
	"Keep an eye on how this feels after a couple of weeks, not just on day one.",
	"Checklists sound boring but they catch the mistakes that tired people make.",
	"It might help to set a date to review how it's going.",
	"Be explicit about what \"done\" means before you start.",
	"Whatever you choose, tell the people affected early.",
}
