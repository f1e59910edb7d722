package extract

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// attributeSynonyms maps a word (or "_"-joined words) a client may use in a
// key name to the attribute the rules produce, so a statement about
// user.address finds a fact keyed home_address or addr.
var attributeSynonyms = map[string]string{
	"address": "address", "addr": "address", "home_address": "address",
	"current_address": "address", "street_address": "address", "mailing_address": "address",
	"home": "address", "residence": "address", "apartment": "address", "flat_number": "address", "apartment_number": "address",
	"location": "location", "loc": "location", "city": "location", "current_location": "location",
	"destination": "destination", "dest": "destination",
	"email": "email", "e-mail": "email", "email_address": "email", "mail": "email",
	"phone": "phone", "phone_number": "phone", "mobile": "phone", "cell": "phone",
	"tel": "phone", "ph": "phone", "phn": "phone", "telephone": "phone", "mobile_number": "phone", "cell_number": "phone",
	"owner": "owner", "lead": "owner", "assignee": "owner", "dri": "owner",
	"responsible": "owner", "point_person": "owner",
	"price": "price", "cost": "price", "fee": "price",
	"budget": "budget", "amount": "amount", "amt": "amount", "qty": "count",
	"capacity": "capacity", "seats": "capacity", "max_capacity": "capacity",
	"count": "count", "headcount": "headcount", "total": "total",
	"completed": "completed", "done": "completed", "progress": "completed",
	"date": "date", "day": "date", "when": "date",
	"deadline": "deadline", "due": "deadline", "due_date": "deadline",
	"start": "start", "start_date": "start", "end": "end", "end_date": "end",
	"time": "time", "status": "status", "state": "status",
	"choice": "choice", "decision": "choice", "pick": "choice", "selection": "choice",
	"flight": "flight", "flight_number": "flight",
	"version": "version", "rate": "rate", "rent": "rent", "salary": "salary",
	"venue": "venue", "hotel": "hotel", "limit": "limit", "quota": "quota",
	"where": "location", "place": "location", "contact": "contact", "contact_details": "contact", "details": "contact",
	"manager": "manager", "boss": "manager", "line_manager": "manager", "supervisor": "manager", "reports_to": "manager",
	"timezone": "timezone", "time_zone": "timezone", "tz": "timezone",
	"diet": "diet", "dietary_preference": "diet", "dietary_restriction": "diet", "dietary_restrictions": "diet", "diet_preference": "diet",
	"name": "name", "preferred_name": "name", "nickname": "name", "goes_by": "name",
	"airline": "airline", "carrier": "airline",
	"plan": "plan", "tier": "plan", "subscription": "plan", "subscription_plan": "plan", "subscription_tier": "plan", "pricing_plan": "plan", "membership": "plan",
}

// NormalizeKey returns the (entity, attribute) a client's key name stands
// for, in the form Statement uses: "Onboarding Deck.Owner" →
// ("onboarding_deck", "owner"), "home_address" → ("", "address"),
// "userPhoneNumber" → ("user", "phone"), "deck_owner" → ("deck", "owner").
// A name with no attribute word is all entity, with attribute "".
func NormalizeKey(name string) (entity, attribute string) {
	k := normalizeMemo.Get(name)
	return k.entity, k.attribute
}

// normalizeKey is NormalizeKey, computed.
func normalizeKey(name string) (entity, attribute string) {
	ws := keyWords(name)
	if len(ws) == 0 {
		return "", ""
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ent, attr := keyWords(name[:i]), keyWords(name[i+1:])
		return joinKey(ent), canonicalAttribute(attr)
	}
	if n := len(ws); n >= 3 && ws[n-2] == "per" {
		// "hay_price_per_bale": the unit a price is quoted in qualifies
		// the attribute; it names neither the thing nor the attribute.
		ws = ws[:n-2]
	}
	// The longest tail that is an attribute word is the attribute.
	for n := min(3, len(ws)); n >= 1; n-- {
		if a, ok := attributeSynonyms[strings.Join(ws[len(ws)-n:], "_")]; ok {
			return joinKey(ws[:len(ws)-n]), a
		}
	}
	if len(ws) == 1 {
		// One word names what the value is ("caterer", "quote"): an
		// attribute of whatever the client keeps it for.
		return "", joinKey(ws)
	}
	return joinKey(ws), ""
}

// deliveryKeys name where the speaker's things are sent: "shipping_address"
// is the speaker's address for deliveries.
var deliveryKeys = map[string]bool{"shipping": true, "delivery": true, "postal": true, "mailing": true, "forwarding": true}

// headWord is the last word of a normalised entity ("user_flight" → "flight").
func headWord(e string) string {
	return e[strings.LastIndexByte(e, '_')+1:]
}

// KeyHas reports whether every word of entity (a normalised statement
// entity, words joined by "_") is a word of key, as itself, its singular
// or a synonym: "office" of office_address, "rent" of monthly_rent.
func KeyHas(key, entity string) bool {
	if entity == "" {
		return false
	}
	kws := keyWords(key)
	for i, w := range kws {
		kws[i] = singular(w)
	}
	for _, e := range strings.Split(entity, "_") {
		if !slices.ContainsFunc(kws, func(w string) bool { return w == e || synonymous(w, e) }) {
			return false
		}
	}
	return true
}

// ContactAttribute reports an attribute that says how to reach someone
// (email, phone, contact).
func ContactAttribute(a string) bool { return contactAttrs[a] }

// canonicalAttribute maps attribute words to the rules' attribute.
func canonicalAttribute(ws []string) string {
	j := strings.Join(ws, "_")
	if a, ok := attributeSynonyms[j]; ok {
		return a
	}
	return j
}

// keyWords splits a key name at separators and camel-case humps, folded.
func keyWords(s string) []string {
	var ws []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			ws = append(ws, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || unicode.IsSpace(r):
			flush()
			prevLower = false
		case unicode.IsUpper(r) && prevLower:
			flush()
			cur = append(cur, r)
			prevLower = false
		case unicode.IsUpper(r) && len(cur) > 1 && capitalized(rs[i:]):
			// "myGPAppt": an initialism ends where a capitalised word
			// begins ("URLs" is one word).
			flush()
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return ws
}

// capitalized reports that rs opens with a capital and at least two
// lower-case letters: a word of its own after an initialism.
func capitalized(rs []rune) bool {
	return len(rs) > 2 && unicode.IsUpper(rs[0]) && unicode.IsLower(rs[1]) && unicode.IsLower(rs[2])
}

// whenAttrs name the same thing: when something happens; contactAttrs how
// to reach someone.
var (
	whenAttrs    = map[string]bool{"date": true, "time": true, "when": true}
	contactAttrs = map[string]bool{"email": true, "phone": true, "contact": true}
	// costAttrs name what a thing costs: "venue_price" holds the venue
	// hire's amount. A budget is not among them: it is what may be spent.
	costAttrs = map[string]bool{"price": true, "amount": true, "cost": true, "fee": true, "hire": true, "charge": true}
)

// keyQualifiers are key words that rank a value rather than name a thing.
var keyQualifiers = map[string]bool{"primary": true, "main": true, "default": true, "preferred": true, "usual": true, "main_point": true}

// venueAttrs name where an event is held.
var venueAttrs = map[string]bool{"venue": true, "location": true}

// Matches reports whether a fact keyed key (as a client named it) is the
// fact s states: the same attribute (date, time and "when" are one), and
// the same entity, or one entity's words within the other's
// ("offsite_city" and the team offsite's location; "churnOwner" and the
// churn analysis's owner), or no entity in the key when s is about the
// speaker ("home_address" matches user.address; "addr" matches
// user.address; "travel_budget" does not match marketing.budget). A key
// that names only s's entity by an attribute word ("budget") is the fact
// of a statement about that entity's value ("the budget is $40k",
// budget.amount). A key that names only the entity ("vetAppointment")
// holds its main value: About accepts it, and Fits checks the value's kind.
func (s Statement) Matches(key string) bool {
	ent, attr := NormalizeKey(key)
	if keyQualifiers[ent] {
		ent = "" // "primary_contact" is the one contact the client keeps
	}
	if attr != s.Attribute && (whenAttrs[attr] && whenAttrs[s.Attribute] || contactAttrs[attr] && contactAttrs[s.Attribute] || costAttrs[attr] && costAttrs[s.Attribute] || venueAttrs[attr] && venueAttrs[s.Attribute]) {
		// "demo_time" holds the demo's date and hour; "contractor_phone"
		// how to reach them; "gig_venue" where the gig is.
		attr = s.Attribute
	}
	if whenAttrs[attr] && (s.Attribute == "departure" || s.Attribute == "start") && ent != "" && headWord(ent) == headWord(s.Entity) {
		// "flight_time" holds when the flight leaves, "meeting_time" when
		// the meeting starts; "design review prep starts" is not the
		// design review.
		attr = s.Attribute
	}
	if s.Entity != "" && joinedKeyMemo.Get(key) == s.Entity+"_"+s.Attribute {
		return true // "workshop_cap" is the workshop's cap, whatever "cap" means
	}
	switch {
	case attr == "":
		return false
	case attr == s.Attribute && sameEntity(ent, s.Entity):
		return true
	case attr == s.Attribute && whenAttrs[attr] && sameRoot(ent, strings.TrimSuffix(strings.TrimSuffix(s.Entity, "_day"), "_date")):
		return true // "moving day is March 7" is move_date
	case attr == s.Attribute:
		// A key that names no entity ("headcount", "budget") is the one
		// such value the client keeps, whoever's it is said to be.
		// "home_city" is where the speaker lives.
		return ent == "" || (ent == "user" || ent == "my" || ent == "current" || ent == "home" && (attr == "location" || attr == "address") || attr == "address" && deliveryKeys[ent]) && s.Entity == "user"
	case ent == "" && sameEntity(attr, s.Entity):
		return true // "quote" holds the roof repair quote's amount
	}
	return false
}

// About reports whether a fact keyed key may hold what s states:
// Matches, or a key that names only s's entity ("vetAppointment" for
// vet_appointment.date), or a count's unit ("beta_testers" for "350
// testers"). Fits then tells whether the stored value is of s's kind.
func (s Statement) About(key string) bool {
	if s.Matches(key) {
		return true
	}
	ent, attr := NormalizeKey(key)
	if attr != "" || ent == "" {
		return false
	}
	if s.Kind == KindCount || s.Kind == KindAmount {
		// "guests" holds a count of guests: "we're up to 95 guests".
		ws := strings.Fields(fold(s.Value))
		es := strings.Split(ent, "_")
		if len(ws) >= 2 && singular(ws[len(ws)-1]) == es[len(es)-1] {
			return true
		}
	}
	return s.Entity != "" && sameEntity(ent, s.Entity)
}

// sameRoot reports two entities whose words are one verb's, inflected or
// not: "move" and "moving", "close" and "closing".
func sameRoot(a, b string) bool {
	aw, bw := strings.Split(a, "_"), strings.Split(b, "_")
	if a == "" || len(aw) != len(bw) {
		return false
	}
	for i := range aw {
		if root(aw[i]) != root(bw[i]) {
			return false
		}
	}
	return true
}

// root strips "-ing", "-ed" and a final "e": "moving" and "move" are "mov".
func root(w string) string {
	for _, suf := range []string{"ing", "ed"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	return strings.TrimSuffix(w, "e")
}

// sameEntity reports whether a fact's entity a and a statement's entity b
// name one thing: equal, or the words of one all among the other's
// ("offsite", "team_offsite"), unless the statement sets its thing apart
// from the fact's ("the other project" is not the project).
func sameEntity(a, b string) bool {
	if a == b {
		return true
	}
	if a == "" || b == "" {
		return false
	}
	if unhyphened(a) == unhyphened(b) {
		return true // "unit2_lease" is "unit_2_lease", "walk-in_repair" is "walkin_repair"
	}
	aw, bw := strings.Split(a, "_"), strings.Split(b, "_")
	if apart(bw, aw) {
		return false
	}
	if len(bw) > len(aw) && orgUnits[bw[len(bw)-1]] && !slices.Contains(aw, bw[0]) {
		// "Priya leads the platform team": a unit the statement names
		// is not the one the fact's key leaves unnamed.
		return false
	}
	if len(aw) > len(bw) {
		aw, bw = bw, aw
	}
	if len(aw) == 1 && len(bw) >= 2 && len(aw[0]) == len(bw) {
		// An initialism: "qbr" is the quarterly budget review.
		initials := make([]byte, 0, len(bw))
		for _, w := range bw {
			initials = append(initials, w[0])
		}
		if string(initials) == aw[0] {
			return true
		}
	}
	for _, w := range aw {
		if !slices.ContainsFunc(bw, func(x string) bool {
			return x == w || abbreviates(w, x) || abbreviates(x, w) || synonymous(w, x) || unhyphened(x) == unhyphened(w) // "check-in" is "checkin"
		}) && !initialsOf(w, bw) {
			return false
		}
	}
	return true
}

// initialsOf reports whether w is the initials of two or more words that
// follow one another in ws: "pt" of leo_physical_therapy.
func initialsOf(w string, ws []string) bool {
	if len(w) < 2 || len(w) > len(ws) {
		return false
	}
	for i := 0; i+len(w) <= len(ws); i++ {
		ok := true
		for j := range len(w) {
			ok = ok && ws[i+j] != "" && ws[i+j][0] == w[j]
		}
		if ok {
			return true
		}
	}
	return false
}

// unhyphened is an entity's words run together: "walk-in_repair" and
// "walkin_repair" are "walkinrepair".
func unhyphened(e string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(e)
}

// SetApart reports whether a statement's entity names a thing set apart
// from the one key names: "different_client" (of "the contact for a
// different client") is not primary_contact's.
func SetApart(entity, key string) bool {
	return apart(strings.Split(entity, "_"), keyWords(key))
}

// apart reports whether words ws hold a word that sets their thing apart
// (setApart, variantWords) which the other thing's words do not hold, in
// the singular or not.
func apart(ws, other []string) bool {
	for _, w := range ws {
		if (setApart[w] || variantWords[w]) && !slices.ContainsFunc(other, func(o string) bool { return singular(o) == singular(w) }) {
			return true
		}
	}
	return false
}

// orgUnits are nouns of a unit of people, which a qualifier names apart.
var orgUnits = map[string]bool{"team": true, "group": true, "squad": true, "department": true, "division": true,
	"org": true, "unit": true, "committee": true, "crew": true, "pod": true, "tribe": true}

// variantWords name another place's or another kind's thing: "the cafe
// wifi", "the office zip", "VIP tickets" are not the speaker's wifi, zip
// or ticket.
var variantWords = map[string]bool{"cafe": true, "café": true, "guest": true, "public": true, "hotel": true,
	"airport": true, "library": true, "office": true, "work": true, "vip": true, "student": true, "senior": true,
	"early-bird": true, "earlybird": true, "premium": true, "deluxe": true, "economy": true, "business": true}

// setApart are words that set a thing apart from another of its kind.
var setApart = map[string]bool{"other": true, "another": true, "different": true, "second": true, "spare": true, "backup": true,
	"old": true, "former": true, "previous": true, "ex": true}

// abbreviates reports whether a is a short form of w: at least three
// letters that open it ("conf", "conference").
func abbreviates(a, w string) bool {
	return len(a) >= 3 && len(a) < len(w) && strings.HasPrefix(w, a)
}

// OnlyKeyWords reports whether every word of v is a word of key: "Study"
// read out of "Study group meets in the library now" is the topic of
// study_group_location, not its value.
func OnlyKeyWords(v, key string) bool {
	ws := words(fold(v))
	for i, w := range ws {
		ws[i] = singular(w)
	}
	return KeyHas(key, joinKeyPlain(ws))
}

// Fits reports whether a stored value could be the previous value of what
// s states: a date for a date, a number for an amount or a count, an
// address or contact for those, and, for the other kinds, a value that is
// not a date (a fact keyed "dentist" holding "January 15" is an
// appointment, not who the dentist is).
func (s Statement) Fits(stored string, at time.Time) bool {
	_, isDate := takeDate(stored, at)
	switch s.Kind {
	case KindDate:
		return isDate || reTimeOfDay.MatchString(stored) || reBareDay.MatchString(strings.TrimSpace(stored))
	case KindAmount, KindCount:
		return strings.ContainsAny(stored, "0123456789")
	case KindContact:
		return reEmail.MatchString(stored) || rePhone.MatchString(stored)
	}
	if s := strings.TrimSpace(stored); reWholeEmail.MatchString(s) || reWholePhone.MatchString(s) && strings.ContainsAny(s, " -") {
		return false // a name does not replace an address: "Raj (raj@client.com) is our main contact"
	}
	return !isDate || !onlyDate(stored, at)
}

// onlyDate reports whether v says a date and nothing else: "Tuesday spin"
// is a class that meets on Tuesdays, a choice, not a date.
func onlyDate(v string, at time.Time) bool {
	rest := v
	for _, d := range dateSpans(v, at) {
		rest = strings.Replace(rest, v[d.start:d.end], " ", 1)
	}
	for _, w := range words(fold(rest)) {
		if len(w) >= 3 && !dateWords[w] {
			return false
		}
	}
	return true
}
