package extract

import (
	"regexp"
	"slices"
	"strings"
)

// reUnchanged is a verb phrase saying its subject is as it was: "didn't
// change", "stays", "is still", "'s still", "is exactly the same as
// before".
var reUnchanged = regexp.MustCompile(`\s(?:(?:did|does|has|have|had|is|was|will)\s*(?:n't|not)\s+(?:change|changed|changing|move|moved|budge|budged)|(?:stays?|stayed|staying|remains?|remained)(?:\s|$|[.,;!?])|is\s+(?:still|unchanged|(?:exactly\s+|just\s+)?the\s+same)\b|(?:unchanged|untouched)\b|(?:(?:is|are)\s+)?(?:the\s+)?same\s+as\s+(?:before|always|ever|usual)\b|(?:still\s+)?(?:hasn't|has not|didn't|did not)\s+changed?\b)|['’]s\s+(?:still|unchanged|untouched|(?:exactly\s+|just\s+)?the\s+same)\b`)

// reAsItWas says a thing is as it was without naming its value: "is
// still the old one", "is staying exactly where it was".
var reAsItWas = regexp.MustCompile(`^\s*(?:is|'s|’s|stays|is staying|remains)\s+(?:still\s+|exactly\s+|just\s+)*(?:the old one|the same|unchanged|where it was|as it was|the way it was)\b`)

// reClauseOpen is where the subject of reUnchanged's verb may begin: after
// a clause boundary or a word that joins clauses (joiners after it are
// dropped from the subject).
var reClauseOpen = regexp.MustCompile(`[,;:—–(.!?]\s|\s(?:but|and|so|though|although|while|whereas)\s`)

// KeepsTopic reports a sentence that says the thing key names is as it
// was, in a clause of its own: "at least the unit door code didn't
// change" (unitDoorCode), "my territory stays pnw" (territory). Whatever
// else the sentence says of another thing of the kind ("they changed the
// med room code to 1379"), the fact keyed key keeps its value. The
// subject of the clause is the key's words (every word of the key's
// topic; no word that is not the key's), or "ours" or "mine" when the
// sentence names the key elsewhere ("The U14 team budget went up to
// $4,000, ours is the same as before").
func KeepsTopic(sentence, key string) bool {
	if m := reDifferentFrom.FindStringSubmatch(fold(sentence)); m != nil && (Names(m[1], key) || standardWords[firstWord(m[1])]) {
		// "Also save the warehouse landlord's number, 555-0188.
		// Different guy from my apartment landlord": another of the
		// kind, said apart from the speaker's own.
		return true
	}
	if m := reNotOurs.FindStringSubmatch(fold(sentence)); m != nil && Names(m[1], key) && reSetApartWord.MatchString(fold(sentence)) {
		// "The piano movers' number is 937-555-0342, but that's a
		// separate company …, not our movers": another of the kind, set
		// apart from the speaker's own.
		return true
	}
	if m := reLeftAlone.FindStringSubmatch(fold(sentence)); m != nil && namesEvery(m[1], key) {
		// "I changed the estimate prefix to EST-26 but left the invoice
		// prefix alone" (invoicePrefix): the speaker kept it.
		return true
	}
	if reStayingPut.MatchString(fold(sentence)) && Names(sentence, key) {
		// "Eileen's just moved into plot 12 beside the tap, but I'm
		// staying put" (community_plot): the speaker's stays.
		return true
	}
	if !MayKeep(sentence) {
		return false // the common case
	}
	low := " " + fold(sentence)
	topic, attrs := anchorWords(key)
	if len(topic) == 0 {
		topic = attrs
	}
	if len(topic) == 0 {
		return false
	}
	keyWs := keyWords(key)
	for _, m := range reUnchanged.FindAllStringIndex(low, -1) {
		open := 0
		if bs := reClauseOpen.FindAllStringIndex(low[:m[0]], -1); len(bs) > 0 {
			open = bs[len(bs)-1][1]
		}
		before := low[open:m[0]]
		subj := words(before)
		pron := false // "her food stays the same": whose thing, said before
		for len(subj) > 0 && (determiners[subj[0]] || possessives[subj[0]] || joiners[subj[0]] || thirdPossessives[subj[0]]) {
			pron = pron || thirdPossessives[subj[0]]
			subj = subj[1:]
		}
		for n := len(subj); n > 1 && (subj[n-1] == "itself" || subj[n-1] == "themselves" || subj[n-1] == "is" || subj[n-1] == "are"); n = len(subj) {
			subj = subj[:n-1] // "the rent itself is staying exactly where it was"
		}
		if n := len(subj); n > 0 && subj[n-1] == "it" && reAsItWas.MatchString(low[m[0]:]) && Names(low[:open], key) {
			// "I have asked the front desk to reset my library PIN to
			// 8830, …, so for the moment it is still the old one": "it"
			// is the thing named before, and it is as it was.
			return true
		}
		if len(subj) == 0 || len(subj) > 5 {
			continue
		}
		if len(subj) == 1 && (subj[0] == "ours" || subj[0] == "mine") && Names(sentence, key) {
			return true
		}
		own := func(w string) bool {
			w = strings.TrimSuffix(w, "'s") // "Harbor's is the same as before" (wifi_pw_harbor)
			return slices.ContainsFunc(keyWs, func(k string) bool { return singular(k) == singular(w) })
		}
		if len(subj) == 2 && subj[1] == "one" && !setApart[subj[0]] && !otherQualifiers[subj[0]] && Names(low[:open]+low[m[1]:], key) {
			// "office wifi pw changed to maple-river-88, home one's
			// unchanged" (wifi_pw): the one the speaker sets apart from
			// the changed one is the key's.
			return true
		}
		if slices.ContainsFunc(subj, func(w string) bool { return !own(w) && !standardWords[w] && w != "one" }) || !slices.ContainsFunc(subj, own) {
			continue
		}
		whole := !slices.ContainsFunc(topic, func(t string) bool {
			return !periodWord(t) && !slices.ContainsFunc(subj, func(w string) bool { return singular(w) == t }) // "the rent" is monthly_rent's
		})
		// "happy hour oysters down to $2 at the bar. regular price
		// stays" (oyster_price): the standard one of the thing the
		// sentence names elsewhere; "LHR per diem went to £95, US one
		// unchanged" (perDiemUS): "one" is the thing's.
		// "electric's still the 6th" (electric_start_date): the word
		// that tells the key from its kin says it.
		lead := len(keyWs) > 1 && slices.ContainsFunc(subj, func(w string) bool { return singular(w) == singular(keyWs[0]) })
		// "the Harmon deadline is unchanged" (grant_deadline_harmon):
		// two words of the key and no other.
		// "Harbor's is the same as before" (wifi_pw_harbor): the key's
		// owner, as a possessive, says its thing.
		owners := len(subj) == 1 && strings.HasSuffix(subj[0], "'s") && own(subj[0])
		// "Pepper's vet says 2 treats a day max now, her food stays the
		// same" (pepper_food): the pronoun is the owner said before.
		said := words(low[:open])
		ownerBefore := pron && !slices.ContainsFunc(topic, func(t string) bool {
			return !slices.ContainsFunc(subj, func(w string) bool { return singular(w) == t }) &&
				!slices.ContainsFunc(said, func(w string) bool { return singular(strings.TrimSuffix(w, "'s")) == t })
		})
		// "the landlord's email changed to …, phone is the same though"
		// (landlord_phone): the key's attribute alone, of the thing the
		// sentence said before.
		attrBefore := len(subj) == 1 && slices.Contains(attrs, singular(subj[0])) && !slices.ContainsFunc(topic, func(t string) bool {
			return !slices.ContainsFunc(said, func(w string) bool { return singular(strings.TrimSuffix(w, "'s")) == t })
		})
		if whole || lead || owners || ownerBefore || attrBefore || len(subj) > 1 || slices.ContainsFunc(subj, func(w string) bool { return standardWords[w] || w == "one" }) {
			return true
		}
	}
	if m := reNotChanging.FindStringSubmatchIndex(low); m != nil && refusesChange(low[m[2]:m[3]], low[:m[2]]+low[m[3]:], key) {
		// "Neurology has a 9:45 opening on the 14th but I'm not moving
		// Mom's appointment" (neuro_appt_time): the thing the speaker
		// will not change stays, whatever else the sentence offers.
		return true
	}
	return false
}

// namesEvery reports whether text says every word of the key's topic
// ("invoice prefix" for invoicePrefix, not for estimatePrefix).
func namesEvery(text, key string) bool {
	topic, attrs := anchorWords(key)
	ws := words(fold(text))
	for _, t := range append(topic, attrs...) {
		if !slices.ContainsFunc(ws, func(w string) bool { return singular(w) == t }) {
			return false
		}
	}
	return len(ws) > 0
}

// reLeftAlone is a thing the speaker left as it was: "left the invoice
// prefix alone", "left my plan as is".
var reLeftAlone = regexp.MustCompile(`\b(?:left|leaving|leave)\s+(?:the|my|our)\s+((?:[\p{L}'’-]+\s+){0,3}?[\p{L}'’-]+)\s+(?:alone|as (?:is|it was|they were)|untouched|unchanged|be)\b`)

// refusesChange reports whether obj, what the speaker will not change,
// is the thing key names: it names the key, and every attribute of the
// key the rest of the sentence says ("We're not moving the launch, but
// the launch venue is now Hall B": venue).
func refusesChange(obj, rest, key string) bool {
	if !Names(obj, key) {
		return false
	}
	_, attrs := anchorWords(key)
	return !slices.ContainsFunc(attrs, func(a string) bool { return Names(rest, a) && !Names(obj, a) })
}

// standardWords say the usual or the primary one of a kind, set against
// an exception or another: "regular price", "the usual slot", "the main
// number".
var standardWords = map[string]bool{"regular": true, "usual": true, "normal": true, "standard": true, "everyday": true,
	"main": true, "primary": true}

// reNotChanging is the speaker's refusal to change a thing, with the
// thing: "i'm not moving mom's appointment", "we won't switch the
// caterer".
var reNotChanging = regexp.MustCompile(`(?:\bnot|n't|\bnever)\s+(?:going to\s+|gonna\s+)?(?:moving|changing|switching|rescheduling|pushing|bumping|move|change|switch|reschedule|push|bump)\s+((?:[\p{L}'’-]+\s+){0,3}[\p{L}'’-]+)`)

// possessives open a subject without naming it.
var possessives = map[string]bool{"my": true, "our": true, "your": true}

// thirdPossessives open a subject on someone said before: "her food".
var thirdPossessives = map[string]bool{"her": true, "his": true, "their": true, "its": true}

// joiners open a clause before its subject: "at least the code …",
// "luckily my territory …".
var joiners = map[string]bool{"but": true, "and": true, "so": true, "at": true, "least": true, "though": true, "although": true,
	"while": true, "whereas": true, "luckily": true, "thankfully": true, "fortunately": true, "also": true, "even": true, "yet": true,
	"anyhow": true, "anyway": true, "anyways": true, "however": true, "meanwhile": true}

var (
	// reStayingPut is the speaker staying where they are.
	reStayingPut = regexp.MustCompile(`\b(?:i['’]m|we['’]re|i am|we are)\s+(?:staying put|staying where (?:i|we) (?:am|are))\b`)
	// reNotOurs denies that a thing is the speaker's: "not our movers".
	reNotOurs = regexp.MustCompile(`\bnot\s+(?:our|my)\s+((?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+)`)
	// reSetApartWord says a thing is another of its kind.
	reSetApartWord = regexp.MustCompile(`\b(?:separate|different|another|other)\b`)
)

// reDifferentFrom sets a thing apart from the speaker's own of its kind:
// "different guy from my apartment landlord".
var reDifferentFrom = regexp.MustCompile(`\b(?:different|separate|another|not the same)\s+(?:guy|person|one|place|company|account|number|contact|lady|man|woman|shop|office|firm|line|phone|email|address|code)?\s*(?:from|than|as)\s+(?:my|our|the)\s+((?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+)`)

// MayKeep reports whether a sentence has a word KeepsTopic or KeepsStored
// needs ("stays", "still", "didn't change", "the same", "keep"): a caller
// reading one sentence against many facts asks once.
func MayKeep(sentence string) bool {
	low := fold(sentence)
	for _, w := range []string{"chang", "stay", "still", "same", "remain", "mov", "switch", "resched", "push", "bump", "budge", "stick", "keep", "kept", "differ", "separate", "another", "back to", "stands", "unchanged", "untouched"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
