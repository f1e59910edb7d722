package extract

import (
	"regexp"
	"strings"
	"unicode"
)

// determiners and qualifiers dropped from the front of a noun phrase.
var determiners = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true,
	"those": true, "its": true, "new": true, "current": true, "updated": true,
	"latest": true, "final": true, "next": true, "whole": true, "entire": true, "upcoming": true,
	"revised": true, "actual": true, "official": true,
}

// pronouns that cannot be an entity without resolution.
var pronouns = map[string]bool{
	"it": true, "this": true, "that": true, "they": true, "he": true, "she": true,
	"there": true, "which": true, "what": true, "who": true, "everything": true,
	"something": true, "anything": true, "nothing": true, "one": true, "here": true,
	"them": true, "those": true, "these": true, "you": true, "i": true, "we": true,
	"me": true, "us": true, "him": true, "her": true, "all": true, "both": true,
	"each": true, "everyone": true, "someone": true, "plan": false,
}

// personal pronouns (and their contractions) cannot open an entity.
var personal = map[string]bool{
	"i": true, "we": true, "you": true, "he": true, "she": true, "they": true, "it": true,
	"i'm": true, "i've": true, "i'll": true, "i'd": true, "we're": true, "we've": true,
	"we'll": true, "we'd": true, "you're": true, "you've": true, "they're": true,
	"it's": true, "he's": true, "she's": true, "that's": true, "there's": true,
	"let's": true, "me": true, "us": true, "them": true, "him": true, "who": true,
	"what": true, "which": true, "there": true, "here": true, "this": true, "that": true,
}

// npStop are words that never occur inside a subject noun phrase; a phrase
// holding one was cut in the wrong place.
var npStop = map[string]bool{
	"turns": true, "out": true, "just": true, "so": true, "because": true, "when": true,
	"if": true, "then": true, "also": true, "only": true, "really": true, "actually": true,
	"said": true, "says": true, "think": true, "is": true, "are": true, "was": true,
	"were": true, "been": true, "be": true, "will": true, "not": true,
	"after": true, "before": true, "though": true, "although": true, "even": true,
	"while": true, "until": true, "since": true, "once": true, "whenever": true,
	"unless": true, "whereas": true, "e": true, "g": true, "say": true,
	// Generic subjects: "the average hotel", "most rooms", "any option".
	"average": true, "typical": true, "most": true, "many": true, "some": true,
	"any": true, "every": true, "each": true, "few": true, "several": true,
	"usual": true, "standard": true, "example": true, "option": true,
	"half": true, "rest": true, "part": true, "none": true, "majority": true, "bunch": true,
	"lot": true, "lots": true,
}

// roleNouns are people the speaker has: "my manager is Ana" is
// user.manager.
var roleNouns = map[string]bool{
	"manager": true, "boss": true, "doctor": true, "dentist": true, "landlord": true,
	"lawyer": true, "accountant": true, "therapist": true, "pediatrician": true,
	"coach": true, "tutor": true, "trainer": true, "mentor": true, "advisor": true,
	"realtor": true, "agent": true, "vet": true, "gp": true, "supervisor": true,
	"lead": true, "contact": true, "recruiter": true, "babysitter": true, "nanny": true,
	"approver": true, "reviewer": true, "liaison": true, "signatory": true, "sponsor": true,
}

// attributeWords maps a trailing head noun to the attribute it names, so
// "the widget price" is widget.price and "the launch date" launch.date.
var attributeWords = map[string]string{
	"date": "date", "deadline": "deadline", "due date": "deadline", "time": "time",
	"start": "start", "start date": "start", "end date": "end", "kickoff": "start",
	"price": "price", "cost": "price", "fee": "price", "rate": "rate", "rent": "rent",
	"budget": "budget", "salary": "salary",
	"address": "address", "location": "location", "venue": "venue",
	"destination": "destination", "city": "city", "hotel": "hotel",
	"owner": "owner", "lead": "owner", "dri": "owner", "assignee": "owner", "head": "owner",
	"point person": "owner",
	"capacity":     "capacity", "headcount": "headcount", "count": "count", "total": "total",
	"status": "status", "email": "email", "email address": "email", "e-mail": "email",
	"phone": "phone", "phone number": "phone", "number": "phone", "cell": "phone",
	"mobile": "phone", "flight": "flight", "flight number": "flight",
	"home address": "address", "mailing address": "address", "street address": "address",
	"work email": "email", "personal email": "email", "cell number": "phone",
	"mobile number": "phone", "work phone": "phone", "home": "address",
	"limit": "limit", "rate limit": "limit", "quota": "quota", "cap": "cap",
	"threshold": "threshold", "timeout": "timeout", "target": "target", "goal": "goal",
	"dose": "dose", "dosage": "dose", "name": "name",
	"caterer": "caterer", "vendor": "vendor", "provider": "provider",
	"version": "version", "size": "size", "length": "length", "duration": "duration",
	"frequency": "frequency", "cadence": "frequency",
	"password": "password", "passcode": "passcode", "pin": "pin", "code": "code",
	"door code": "code", "access code": "code", "gate code": "code", "passphrase": "password",
}

// singular returns the singular of one lower-case English word.
func singular(w string) string {
	if len(w) <= 2 {
		return w
	}
	switch w {
	case "has", "was", "his", "its", "yes", "this", "us", "ios", "dos", "sms", "aws", "gps", "dns", "css", "ss":
		return w
	case "news", "series", "sales", "analytics", "ops", "devops", "logistics",
		"status", "campus", "atlas", "lens", "physics", "means", "thanks",
		"chaos", "alias", "bus", "gas", "canvas", "plus", "kudos", "always",
		"apparatus", "bonus", "virus", "census", "corpus", "process", "access", "postgres", "kubernetes", "jenkins", "windows",
		"all-hands", "headquarters", "premises", "earnings", "savings", "whereabouts":
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zzes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// words splits a folded phrase into words of letters, digits, "&" and "-".
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '&' || r == '-' || r == '\'')
	})
}

// joinKey joins words with "_", making the last one singular.
func joinKey(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	out := make([]string, len(ws))
	copy(out, ws)
	out[len(out)-1] = singular(out[len(out)-1])
	for i, w := range out {
		out[i] = strings.Trim(w, "'-")
	}
	return strings.Join(out, "_")
}

// subject is a normalised noun phrase: the entity it names and, when its
// head is an attribute word, that attribute.
type subject struct {
	entity string
	attr   string // "" when the head is not an attribute word
	head   string // the singular head noun
}

// normNP normalises a noun phrase said by speaker. It reports false for a
// pronoun or an empty phrase.
// reRelative is a reduced relative clause closing a noun phrase: "… I'm
// buying", "… we booked", "… you recommended".
var reRelative = regexp.MustCompile(`(?i)\s+(?:i|we|you)(?:['’]m|['’]re|['’]ve| am| are| have)?\s+(?:just\s+|finally\s+|already\s+)?[\p{L}]+(?:ing|ed)$`)

func normNP(np, self string) (subject, bool) {
	if strings.ContainsRune(np, '`') {
		return subject{}, false // code, not a thing the user has
	}
	if m := reRelative.FindStringIndex(np); m != nil && m[0] > 0 {
		// "the road bike I'm buying": the bike; the speaker is buying it.
		np = np[:m[0]]
	}
	proper := properName(np)
	low := fold(strings.TrimSpace(np))
	if particles[low] {
		return subject{}, false // "we moved up to the 5th floor": a verb's particle, no object
	}
	if strings.Contains(low, "point of contact") {
		low = strings.ReplaceAll(low, "point of contact", "contact") // one role, one word
	}
	ws := words(low)
	var owner string
	other := false // the possessor is not the speaker ("the competitor's widget")
	// Possessive and determiner prefixes.
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case w == "my" || w == "our":
			owner = self
		case w == "your" && self == "assistant":
			owner = "user"
		case w == "his" || w == "her" || w == "their" || w == "your":
			return subject{}, false
		case determiners[w]:
		default:
			goto done
		}
		ws = ws[1:]
	}
done:
	if len(ws) == 0 {
		return subject{}, false
	}
	// "X's Y": X owns the attribute Y.
	for i, w := range ws {
		if strings.HasSuffix(w, "'s") && i+1 < len(ws) {
			owner = joinKeyPlain(append(ws[:i:i], strings.TrimSuffix(w, "'s")))
			other = true
			ws = ws[i+1:]
			break
		}
	}
	// "Y of X" / "Y for X": X is the entity.
	for i, w := range ws {
		if (w == "of" || w == "for" || w == "on" || w == "to" || w == "in" || w == "at") && i > 0 && i+1 < len(ws) {
			rest := ws[i+1:]
			for len(rest) > 0 && determiners[rest[0]] {
				rest = rest[1:]
			}
			if len(rest) == 0 {
				return subject{}, false
			}
			for j := 1; j < len(rest); j++ {
				// "the number of laptops we need to order": the laptops.
				if personal[rest[j]] || rest[j] == "which" || rest[j] == "who" || rest[j] == "that" {
					rest = rest[:j]
					break
				}
			}
			head := ws[:i]
			if len(head) == 1 && head[0] == "number" {
				head = []string{"count"} // "the number of testers" counts them; a phone number is "X's number"
			}
			ws = append(append([]string{}, rest...), head...)
			break
		}
	}
	// "… that the review": the phrase after a complementiser is the subject.
	for i := len(ws) - 2; i >= 1; i-- {
		if ws[i] == "that" && (determiners[ws[i+1]] || ws[i+1] == "my" || ws[i+1] == "our") {
			ws = ws[i+1:]
			for len(ws) > 0 && determiners[ws[0]] {
				ws = ws[1:]
			}
			if len(ws) == 0 {
				return subject{}, false
			}
			break
		}
	}
	for i, w := range ws {
		if npStop[w] {
			return subject{}, false
		}
		if (w == "and" || w == "but" || w == "then") && i+1 < len(ws) && pastVerb(ws[i+1]) {
			return subject{}, false // "Anytime Fitness and joined Equinox": a second clause
		}
	}
	// A relative clause ends the phrase: "the deadline (that) you mentioned".
	for i := 1; i < len(ws); i++ {
		if personal[ws[i]] || ws[i] == "which" || ws[i] == "who" || ws[i] == "whose" {
			ws = ws[:i]
			if i > 1 && ws[i-1] == "that" {
				ws = ws[:i-1]
			}
			break
		}
	}
	if ws[len(ws)-1] == "to" {
		return subject{}, false // "Jonas wants to …": an infinitive, not a subject
	}
	if personal[ws[0]] || len(ws) == 1 && pronouns[ws[0]] {
		return subject{}, false
	}
	if len(ws) > 7 {
		return subject{}, false
	}
	var s subject
	s.head = singular(ws[len(ws)-1])
	// A trailing attribute word (one or two words) becomes the attribute.
	for n := 2; n >= 1; n-- {
		if len(ws) < n {
			continue
		}
		tail := strings.Join(ws[len(ws)-n:], " ")
		if a, ok := attributeWords[tail]; ok {
			if len(ws) > n || owner != "" {
				s.attr = a
				ws = ws[:len(ws)-n]
			}
			break
		}
		if a, ok := attributeWords[singular(tail)]; ok && n == 1 {
			if len(ws) > n || owner != "" {
				s.attr = a
				ws = ws[:len(ws)-n]
			}
			break
		}
	}
	// "the vendor contact", "the project lead": a person's role for a thing.
	if s.attr == "" && len(ws) > 1 && roleNouns[ws[len(ws)-1]] {
		s.attr = ws[len(ws)-1]
		ws = ws[:len(ws)-1]
	}
	// "my manager", "our dentist": a person related to the speaker.
	// "Legal's point of contact", "Dana's manager": the same, for another.
	if owner != "" && len(ws) == 1 && roleNouns[ws[0]] {
		return subject{entity: owner, attr: ws[0], head: ws[0]}, true
	}
	if len(ws) > 0 && proper {
		s.entity = joinKeyPlain(ws)
	} else if len(ws) > 0 {
		s.entity = joinKey(ws)
		if other {
			s.entity = owner + "_" + s.entity
		}
	} else {
		s.entity = owner
	}
	if s.entity == "" {
		return subject{}, false
	}
	return s, true
}

// properName reports a phrase whose last word is a name that must not be
// made singular: capitalised after the first word ("Project Atlas"), or a
// single capitalised word ending like a name ("Jonas", "Carlos").
func properName(np string) bool {
	ws := strings.Fields(np)
	if len(ws) == 0 {
		return false
	}
	last := []rune(ws[len(ws)-1])
	if !unicode.IsUpper(last[0]) || strings.ToUpper(string(last)) == string(last) {
		return false
	}
	if len(ws) > 1 {
		return true
	}
	l := strings.ToLower(string(last))
	return strings.HasSuffix(l, "as") || strings.HasSuffix(l, "os")
}

// joinKeyPlain joins words with "_" without changing them.
func joinKeyPlain(ws []string) string {
	return strings.Trim(strings.Join(ws, "_"), "_")
}

// normName normalises a speaker or person name into an entity.
func normName(s string) string {
	return joinKeyPlain(words(fold(s)))
}

// pastVerb reports a word that reads as a verb in the past tense: a
// regular "-ed" form or a common irregular one.
func pastVerb(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") || irregularPasts[w]
}

var irregularPasts = map[string]bool{"went": true, "got": true, "took": true, "made": true, "drove": true, "bought": true,
	"sold": true, "gave": true, "found": true, "left": true, "came": true, "brought": true, "kept": true, "paid": true,
	"sent": true, "spent": true, "told": true, "said": true, "began": true, "chose": true, "wrote": true, "ran": true,
	"met": true, "put": true, "won": true, "lost": true}
