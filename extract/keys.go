package extract

import (
	"strings"
	"unicode"
)

// attributeSynonyms maps a word (or "_"-joined words) a client may use in a
// key name to the attribute the rules produce, so a statement about
// user.address finds a fact keyed home_address or addr.
var attributeSynonyms = map[string]string{
	"address": "address", "addr": "address", "home_address": "address",
	"current_address": "address", "street_address": "address", "mailing_address": "address",
	"home": "address", "residence": "address",
	"location": "location", "loc": "location", "city": "location", "current_location": "location",
	"destination": "destination", "dest": "destination",
	"email": "email", "e-mail": "email", "email_address": "email", "mail": "email",
	"phone": "phone", "phone_number": "phone", "mobile": "phone", "cell": "phone",
	"tel": "phone", "telephone": "phone", "mobile_number": "phone", "cell_number": "phone",
	"owner": "owner", "lead": "owner", "assignee": "owner", "dri": "owner",
	"responsible": "owner", "point_person": "owner",
	"price": "price", "cost": "price", "fee": "price",
	"budget": "budget", "amount": "amount",
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
}

// NormalizeKey returns the (entity, attribute) a client's key name stands
// for, in the form Statement uses: "Onboarding Deck.Owner" →
// ("onboarding_deck", "owner"), "home_address" → ("", "address"),
// "userPhoneNumber" → ("user", "phone"), "deck_owner" → ("deck", "owner").
// A name with no attribute word is all entity, with attribute "".
func NormalizeKey(name string) (entity, attribute string) {
	ws := keyWords(name)
	if len(ws) == 0 {
		return "", ""
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ent, attr := keyWords(name[:i]), keyWords(name[i+1:])
		return joinKey(ent), canonicalAttribute(attr)
	}
	// The longest tail that is an attribute word is the attribute.
	for n := min(3, len(ws)); n >= 1; n-- {
		if a, ok := attributeSynonyms[strings.Join(ws[len(ws)-n:], "_")]; ok {
			return joinKey(ws[:len(ws)-n]), a
		}
	}
	return joinKey(ws), ""
}

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
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || unicode.IsSpace(r):
			flush()
			prevLower = false
		case unicode.IsUpper(r) && prevLower:
			flush()
			cur = append(cur, r)
			prevLower = false
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

// whenAttrs name the same thing: when something happens.
var whenAttrs = map[string]bool{"date": true, "time": true, "when": true}

// Matches reports whether a fact keyed key (as a client named it) is the
// fact s states: the same attribute, and the same entity, or no entity in
// the key when s is about the speaker ("home_address" matches user.address;
// "addr" matches user.address; "travel_budget" does not match
// marketing.budget). A key that names only s's entity by an attribute word
// ("budget") is the fact of a statement about that entity's value ("the
// budget is $40k", budget.amount).
func (s Statement) Matches(key string) bool {
	ent, attr := NormalizeKey(key)
	if attr != s.Attribute && whenAttrs[attr] && whenAttrs[s.Attribute] {
		attr = s.Attribute // "demo_time" holds the demo's date and hour
	}
	switch {
	case attr == "":
		return false
	case attr == s.Attribute && ent == s.Entity:
		return true
	case attr == s.Attribute:
		return (ent == "" || ent == "user" || ent == "my" || ent == "current") && s.Entity == "user"
	case ent == "" && attr == s.Entity:
		return true
	}
	return false
}
