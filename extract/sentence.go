package extract

import (
	"regexp"
	"strings"
)

var (
	// reLeadPunct is an opening word that must be followed by punctuation
	// ("No, …", "Wait — …"); group 1 marks a correction.
	reLeadPunct = regexp.MustCompile(`(?i)^(?:(actually|correction|sorry|wait|oops|no|nope|scratch that|i misspoke|my mistake|my bad|to correct myself|i was wrong|that was wrong|let me correct (?:that|myself)|i meant|i mean|quick correction|small correction|one correction|erratum)|update|quick update|small update|status update|fyi|heads up|heads-up|btw|by the way|so|ok|okay|well|right|yes|yeah|yep|good news|bad news|news|anyway|oh|just so you know|for the record|note|ps|p\.s|great|alright|all right|as of today|starting today|from now on|as of now|change of plans?|plan change|small change|one change|confirmed|final answer|decision|noted|got it|understood|perfect|cool|sure|thanks|thank you|ah|hey|hi|hello|also|okay so|ok so)\s*[,:;!.—–-]+\s*`)
	// reLeadWord is an opening word that may be followed by a space only.
	reLeadWord      = regexp.MustCompile(`(?i)^(?:(actually|correction)|so far|so|also|and|but|now|then|finally|officially|update|today|plus|anyway|oh and|ok so|okay so|good news|fyi|btw)\s+`)
	reMidCorrection = regexp.MustCompile(`(?i)\b(?:actually|correction|i meant|i mean|i misspoke|my mistake|scratch that|to correct|correcting)\b`)

	// A correction that names the old value: ", not 60", "(not 60)",
	// "not Porto but Lisbon".
	reCommaNot = regexp.MustCompile(`(?i)(?:,|\s[—–-])\s*(?:and\s+|but\s+)?not\s+[^,;!?()]*`)
	reParenNot = regexp.MustCompile(`(?i)\s*\(\s*not\s+[^)]*\)`)
	reNotBut   = regexp.MustCompile(`(?i)\bnot\s+[^,;.!?]{1,40}?,?\s+but\s+(?:rather\s+|instead\s+)?`)
	reInstead  = regexp.MustCompile(`(?i),?\s*\b(?:instead of|rather than)\s+[^,;!?]*`)

	reTopic = regexp.MustCompile(`(?i)^(?:for|re|regarding|about|as for|concerning|as to|on the topic of)\s+([^,:]{1,40}?)\s*[,:—–]\s*`)
	reLabel = regexp.MustCompile(`^([\p{L}][\p{L} '’-]{1,30}):\s+`)

	reClauseSep = regexp.MustCompile(`(?i)(?:;|\s[—–]|,?\s+but|,\s+and|,\s+so|,\s+while|,\s+whereas|,\s+plus|\s+and)\s+`)
)

// clauseStarters may open a clause after a bare " and ".
var clauseStarters = map[string]bool{
	"the": true, "my": true, "our": true, "we": true, "i": true, "i'm": true,
	"we're": true, "i've": true, "we've": true, "it": true, "its": true,
	"i'll": true, "we'll": true, "let's": true, "there": true,
}

// stripLead removes opening fillers and reports a correction marker.
func stripLead(s string) (string, bool) {
	corr := false
	for i := 0; i < 6; i++ {
		if m := reLeadPunct.FindStringSubmatchIndex(s); m != nil {
			corr = corr || m[2] >= 0
			s = s[m[1]:]
			continue
		}
		if m := reLeadWord.FindStringSubmatchIndex(s); m != nil {
			corr = corr || m[2] >= 0
			s = s[m[1]:]
			continue
		}
		break
	}
	return strings.TrimSpace(s), corr
}

// stripOldValue removes a quoted old value (", not 60") and reports it.
func stripOldValue(s string) (string, bool) {
	corr := false
	if loc := reNotBut.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
		corr = true
	}
	if loc := reParenNot.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
		corr = true
	}
	if loc := reCommaNot.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
		corr = true
	}
	if loc := reInstead.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
	}
	return s, corr
}

// splitClauses cuts a sentence at ";", dashes, "but", ", and", ", so" and a
// bare "and" that opens a new subject.
func splitClauses(s string) []string {
	var out []string
	start := 0
	for _, loc := range reClauseSep.FindAllStringIndex(s, -1) {
		sep := fold(s[loc[0]:loc[1]])
		if strings.TrimSpace(sep) == "and" {
			next := fold(firstWord(s[loc[1]:]))
			if !clauseStarters[next] {
				continue
			}
		}
		if loc[0] > start {
			out = append(out, s[start:loc[0]])
		}
		start = loc[1]
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " ,;.!?"); i >= 0 {
		return s[:i]
	}
	return s
}

// selfKeys returns the speaker as a value and as an entity.
func selfKeys(speaker string) (string, string) {
	switch speaker {
	case "", "user":
		return "user", "user"
	case "assistant":
		return "assistant", "assistant"
	}
	return speaker, normName(speaker)
}

// sentence reads one sentence; item marks a list item.
func (a *analyzer) sentence(raw string, item bool) {
	low := fold(raw)
	if r := a.sentenceFilter(raw, low); r != "" {
		a.skip(raw, r)
		return
	}
	body, corr := stripLead(raw)
	if reMidCorrection.MatchString(body) {
		corr = true
	}
	body, corr2 := stripOldValue(body)
	corr = corr || corr2

	self, selfKey := selfKeys(a.turn.Speaker)
	topic := ""
	if m := reTopic.FindStringSubmatchIndex(body); m != nil {
		t := body[m[2]:m[3]]
		if s, ok := normNP(t, selfKey); ok && !reDateCue.MatchString(t) {
			topic = s.entity
		}
		body = body[m[1]:]
	} else if m := reLabel.FindStringSubmatchIndex(body); m != nil {
		t := body[m[2]:m[3]]
		if s, ok := normNP(t, selfKey); ok && len(strings.Fields(t)) <= 3 {
			topic = s.entity
			body = body[m[1]:]
		}
	}

	found := false
	for _, cl := range splitClauses(body) {
		cl, c2 := stripLead(strings.TrimSpace(cl))
		cl = strings.TrimRight(cl, " .!")
		if cl == "" {
			continue
		}
		clow := fold(cl)
		if r := clauseFilter(clow); r != "" {
			a.skip(cl, r)
			continue
		}
		c := clause{text: cl, low: clow, self: self, selfKey: selfKey, at: a.turn.At, topic: topic, sentence: raw}
		st, ok := a.apply(&c)
		if !ok {
			reason := ReasonNoRule
			if item {
				reason = ReasonListItem
			}
			a.skip(cl, reason)
			continue
		}
		st.Correction = corr || c2
		a.res.Statements = append(a.res.Statements, st)
		found = true
	}
	_ = found
}

// apply tries the rules in order on one clause.
func (a *analyzer) apply(c *clause) (Statement, bool) {
	for i := range Rules {
		r := &Rules[i]
		if len(r.triggers) > 0 && !containsAny(c.low, r.triggers) {
			continue
		}
		m := r.re.FindStringSubmatch(c.text)
		if m == nil {
			continue
		}
		st, ok := r.build(c, match{re: r.re, m: m})
		if !ok || st.Value == "" || !a.grounded(st) {
			continue
		}
		st.Rule = r.Name
		return st, true
	}
	return Statement{}, false
}

// grounded enforces the value contract: a value is said in the turn, is a
// resolved date, or is the speaker.
func (a *analyzer) grounded(st Statement) bool {
	if strings.Contains(a.turn.Text, st.Value) {
		return true
	}
	self, _ := selfKeys(a.turn.Speaker)
	if st.Value == self {
		return true
	}
	return st.Kind == KindDate && reResolved.MatchString(st.Value)
}

var reResolved = regexp.MustCompile(`^\d{4}-\d\d-\d\d(?: \d\d:\d\d)?$`)

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
