package revision

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
)

// anchor is a fact a real sentence of the turn links to a new value
// (extract.Anchor), and the statement that says it.
type anchor struct {
	id string
	st extract.Statement
}

// anchorsOf reads each real sentence of a turn against the valid facts it
// did not write itself and returns, in the order said, the first sentence
// that anchors each fact; skip names the sentences that became state
// assertions. Both the anchored writes (applyAnchors) and the detection
// gate (gateFactDetections) use it, so each sentence meets each fact once.
func anchorsOf(ar extract.Result, skip map[int]bool, k known, turn string, at time.Time) []anchor {
	ids := make([]string, 0, len(k.facts))
	for id, f := range k.facts {
		if f.Source.Turn != turn { // what this turn wrote, it settled
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var out []anchor
	seen := map[string]bool{}
	for i, sent := range ar.Sentences {
		if sent.Reason != "" && sent.Reason != extract.ReasonOtherSubject || skip[sent.Index] {
			continue
		}
		text := extract.Uncontracted(sent.Text)
		if i > 0 && sent.Reason == "" && ar.Sentences[i-1].Reason == "" {
			before := strings.TrimRight(ar.Sentences[i-1].Text, ".!")
			switch {
			case reItIs.MatchString(text):
				// "Changed the lockbox code after the turnover. It's
				// 9082.": "it" is the thing the sentence before named.
				text = before + "; " + reItsTypo.ReplaceAllString(text, "${1}it's ")
			case reBareLabel.MatchString(text):
				// "Grandma got a new cell!! number is 555-0172": the
				// label of what the sentence before named.
				m := reBareLabel.FindStringSubmatchIndex(text)
				text = before + "; the new " + text[m[2]:]
			case reValueAlone.MatchString(text):
				// "marina raised slip rent. 275 a month now": the value
				// of what the sentence before named, said on its own.
				text = before + " " + text
			}
		}
		for _, id := range ids {
			f := k.facts[id]
			if seen[id] || sent.Reason != "" && !extract.OwnedByKey(sent.Text, f.Key) {
				// "Harmon LLC changed their main line" is another's
				// thing, but for harmon_llc_phone the owner's own.
				continue
			}
			if st, ok := extract.Anchor(text, f.Key, k.valueText(f), at); ok && !extract.Contrasted(text, f.Key) && !extract.LetterApart(text, f.Key) && !extract.KeptAsIs(text, f.Key) {
				st.Index = sent.Index
				seen[id] = true
				out = append(out, anchor{id: id, st: st})
			}
		}
	}
	return unambiguous(out, k, turn)
}

// reItIs opens a sentence that says a value of what the sentence before
// named: "It's 9082.", "Now it's WA-448821.", "its 555-0199 now, the old
// one doesn't work anymore" (Anchor reads the clauses after on their own).
var reItIs = regexp.MustCompile(`(?i)^(?:(?:so|now|and)\s+)?(?:it(?:['’]s| is| will be|['’]ll be)|its)\s+(?:now\s+)?[^\s]+`)

// reValueAlone is a sentence that is a value alone, with at most what it
// counts and when: "275 a month now", "2 refills left on it", "$149/mo as
// of 1 JAN, autopay adjusted", "New number 555-0213, old one
// disconnected".
var reValueAlone = regexp.MustCompile(`(?i)^(?:new\s+(?:number|#|code|price|rate|address)\s+(?:is\s+)?)?[$€£]?\d[\d,.:-]*(?:/[a-z]+)?(?:\s+[^\s]+){0,6}[.!]?$`)

// reBareLabel opens a sentence on a way to reach or a code, without its
// article: "number is …", "new # is …".
var reBareLabel = regexp.MustCompile(`(?i)^(?:new\s+)?((?:number|#|phone|cell|email|e-mail|address|code|line|extension|ext)\s*(?:is|['’]s|:)\s)`)

// reItsTypo is "its" written for "it's" at a sentence's start.
var reItsTypo = regexp.MustCompile(`(?i)^((?:(?:so|now|and)\s+)?)its\s`)

// unambiguous drops the implied anchors (a new value whose category or
// shape, not the sentence's words, named the fact: "I'm in 6B from now
// on") of a sentence that anchors another fact too or names another
// fact's topic: "6B" is a new meeting room only when no seat could take
// it. turn is the turn read.
func unambiguous(as []anchor, k known, turn string) []anchor {
	var keys map[string]string
	out := as[:0]
	for _, a := range as {
		if a.st.Implied {
			shared := slices.ContainsFunc(as, func(b anchor) bool { return b.id != a.id && b.st.Index == a.st.Index })
			if keys == nil {
				// The facts read, and those this turn replaced: "New
				// date for the launch: February 17" names the launch
				// date it just replaced, not the kitchen fitting's. (A
				// fact the turn wrote afresh may be this very reading
				// under another name.)
				keys = make(map[string]string, len(k.facts))
				for id, f := range k.facts {
					if f.Source.Turn != turn || f.Supersedes != "" {
						keys[id] = f.Key
					}
				}
			}
			if shared || namesOther(a.st.Sentence, a.id, keys) {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// othersIn reports whether a rule read sentence i as about another
// owner's thing of the kind keyed key ("The sales team's offsite moved to
// Porto" beside team_offsite): the anchor's shared words are not the fact.
// A reading whose subject is no thing ("all of Mom's prescriptions")
// says nothing of whose it is.
func othersIn(xs []Extraction, i int, key string) bool {
	for _, x := range xs {
		if x.Index == i && ownedByOther(x.Statement, key) && unfit(x.Statement) == "" {
			return true
		}
	}
	return false
}

// applyAnchors writes what anchors say of a user's turn: a sentence that
// names a fact's topic and links it to one new value of the stored value's
// kind ("Board review is February 19 now") supersedes it, unless an
// extraction of the turn already settled the fact. It is the last
// reading, for phrasings no rule knows. Of an assistant's turn it writes
// only the sentences that report the assistant's own completed action
// ("Done, your table is now booked for 8pm").
func (s *Service) applyAnchors(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, anchors []anchor, k known, found map[string]detect.Detection, res *Result) error {
	if spk.assistant {
		anchors = slices.DeleteFunc(slices.Clone(anchors), func(a anchor) bool { return !spk.acted(a.st.Sentence) })
	}
	settled := map[string]bool{}
	for _, x := range res.Extracted {
		if x.Previous != nil {
			settled[x.Previous.ID] = true
		}
	}
	written := map[string]bool{}
	for _, a := range anchors {
		f, ok := k.facts[a.id]
		if !ok || settled[a.id] || othersIn(res.Extracted, a.st.Index, f.Key) {
			continue
		}
		x := Extraction{Statement: a.st}
		if err := s.extractOne(tx, caller, t, spk, a.st, k, written, found, &x, res); err != nil {
			return err
		}
		res.Extracted = append(res.Extracted, x)
	}
	return nil
}

// gateFactDetections keeps a detection's supersession of a fact only when
// the turn's real text names the fact (its key's words, or its value) or
// names no other fact (keys: every known fact's id and key), and an
// IMPLICIT detection's supersession of a fact (a value said for the
// fact's key with no word of change) only when a real sentence of the
// turn anchors it: detection reads a key and any value near it, so
// "Design review prep starts February 1" is not a new review date, and
// "Design review is still February 2" restates the fact. Its other
// references (earlier turns) are kept.
func gateFactDetections(dets []detect.Detection, real string, anchors []anchor, k known, keys map[string]string) []detect.Detection {
	anchored := map[string]bool{}
	for _, a := range anchors {
		anchored[a.id] = true
	}
	out := dets[:0]
	for _, d := range dets {
		var refs []detect.Ref
		for _, r := range d.Superseded {
			f, ok := k.facts[r.ID]
			switch {
			case r.Kind != detect.RecordFact || !ok:
			case k.kept[r.ID]:
				continue
			case d.Kind == detect.KindImplicit && !anchored[r.ID]:
				continue
			case !anchored[r.ID] && !containsFold(real, f.ValueText()) && sharedWithOther(real, f.ID, keys):
				// "The budget was cut to $30,000" beside a marketing and a
				// travel budget: which one, the turn does not say.
				continue
			case !extract.Names(real, f.Key) && !containsFold(real, f.ValueText()) && namesOther(real, f.ID, keys):
				// A change word next to another fact's topic: "We
				// dropped Harbour Grey; the paint colour is Oat Milk
				// now" does not move the workshop. ("Make that
				// $150,000" names nothing, and keeps what detection
				// found.)
				continue
			case extract.SameWords(f.ValueText(), d.Replacement), reOldNamed.MatchString(d.Replacement):
				// "done with the Elm St Starbucks" names the stored value;
				// "sending invoices to the old street address instead of
				// PO Box 118" names an old one.
				continue
			case reWhenOnly.MatchString(d.Replacement):
				// "Effective today, after-school pickup has been
				// relocated to …": when, not what.
				continue
			case reportedBy(real, d.Replacement):
				// "Westview Middle School has announced that Harvest
				// Table Catering will be taking over …": who reports the
				// change is not its value.
				continue
			case extract.KeptAsIs(real, f.Key):
				// "the guest network password is bluejay2026 now; I left
				// your main wifi password as is": not the wifi password.
				continue
			case !anchored[r.ID] && (extract.QualifiedApart(real, f.Key) || extract.OthersAttr(real, f.Key)):
				// "raised the loft cleaning fee to $95" beside
				// cleaning_fee_cottage: the loft's fee; "The fringe
				// benefit rate has gone up to 31%" beside
				// indirect_cost_rate: another rate.
				continue
			case !anchored[r.ID] && unitNumber(real, d.Replacement) && !reUnitNumber.MatchString(f.ValueText()):
				// "Unit 4 just leased, so zero vacancies now": the number
				// of a unit names it, it counts nothing (but it is the
				// value of storage_unit = "Unit 14").
				continue
			case !anchored[r.ID] && (extract.OtherKind(f.ValueText(), d.Replacement) || holderMoved(real, f.ValueText(), d.Replacement, f.Key)):
				// "Chemist says … pick the Webster-paks up every second
				// Thursday" does not make "Every second Monday" a
				// product's name; "Leanne's moved over to Perth, so …"
				// moves Leanne, not the emergency contact she is.
				continue
			case !anchored[r.ID] && (ofOtherSubject(real, d.Replacement, f.Key) || namedMover(k.sentences, f) || theirAmount(real, d.Replacement) && !ownerNamed(real, f.Key) || extract.Contrasted(real, f.Key)):
				// "City still hasn't signed off on the kitchen permits,
				// contractor's on hold": the status is the contractor's;
				// so is Sam's desk when "Sam moved from desk 22 to desk
				// 9", the Garcias' fee when "they can pay $80", and the
				// home kit's colour when "our home kits are switching".
				continue
			}
			refs = append(refs, r)
		}
		if len(refs) > 0 {
			d.Superseded = refs
			out = append(out, d)
		}
	}
	return out
}

// holderMoved reports a sentence in which the one the stored value names
// moved somewhere ("Leanne's moved over to Perth" beside emergencyContact
// = "Leanne (daughter) 0412 558 903"): where the holder went is not the
// fact's new value, unless the fact is a place.
func holderMoved(real, stored, replacement, key string) bool {
	if replacement == "" || extract.PlaceKey(key) {
		return false
	}
	low := strings.ToLower(real)
	for _, w := range strings.Fields(stored) {
		// The holder by any word of the name but a title: "Ramirez"
		// of "Coach Ramirez".
		name := strings.ToLower(strings.Trim(w, "(),.:"))
		if len(name) < 3 || holderTitles[name] {
			continue
		}
		for _, i := range lexical.WordIndexes(low, name) {
			end := i + len(name)
			if m := reHolderMoved.FindStringIndex(low[end:]); m != nil && strings.HasPrefix(strings.TrimSpace(low[end+m[1]:]), strings.ToLower(strings.TrimSpace(replacement))) {
				return true
			}
		}
	}
	return false
}

// holderTitles are words of a name that say a title, not who.
var holderTitles = map[string]bool{"coach": true, "dr": true, "doc": true, "mr": true, "mrs": true, "ms": true, "miss": true, "prof": true, "nurse": true}

// reHolderMoved is a holder's move, said after the holder's name: "has
// moved over to Perth", "took the head coaching job at Westview".
var reHolderMoved = regexp.MustCompile(`^(?:['’]s|\s+has|\s+is|\s+just)?(?:\s+just)?\s+(?:(?:moved|moving|relocated|relocating|gone|went|headed|heading)(?:\s+(?:over|back|away|out|up|down))?\s+(?:to|into)|(?:took|taken|takes|taking|got|accepted|started)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:job|position|role|post|gig)\s+(?:at|with))\s`)

// unitNumber reports a replacement that is a bare number said only as
// the label of a place or a thing of a series: "4" of "Unit 4", "12" of
// "room 12".
func unitNumber(real, replacement string) bool {
	n := strings.TrimSpace(replacement)
	if n == "" || strings.Trim(n, "0123456789") != "" {
		return false
	}
	said := false
	for _, m := range reUnitNumber.FindAllStringSubmatchIndex(real, -1) {
		if real[m[2]:m[3]] == n {
			said = true
		}
	}
	if !said {
		return false
	}
	// Said elsewhere, unlabelled, it may still count: "Unit 4 has 4 beds".
	return strings.Count(" "+real+" ", " "+n+" ")+strings.Count(" "+real+" ", " "+n+",") <= 1
}

// reOldNamed is a value named as an old one: "the old street address".
var reOldNamed = regexp.MustCompile(`(?i)^\s*(?:the|my|our|your|their|his|her)\s+(?:old|previous|former|prior)\b`)

// reUnitNumber is the number that names a place or a thing of a
// series: "Unit 4", "room 12", "gate B" is not one.
var reUnitNumber = regexp.MustCompile(`(?i)\b(?:unit|room|rm|apt|apartment|suite|floor|building|bldg|gate|door|desk|table|lot|bay|spot|dock|platform|terminal|lane|aisle|section|row|seat|court|field|locker|pod|ward|bed|level|stage|track|bus|route|flight|period|per|station|exit|pier|berth|stall|booth|cabin|house|lab|phase|step|round|wave|tier|part|chapter|episode|season|week|day|grade|year|class|group|team|version|v)\s+#?(\d+)\b`)

// reClauseSubject opens a clause on its subject and a verb of being:
// "contractor's", "the caterer is".
var reClauseSubject = regexp.MustCompile(`(?i)^(?:the\s+|our\s+|my\s+)?(\p{L}+)(?:'s|’s|\s+is|\s+are|\s+was)\s`)

// reWhenOnly is a replacement that says only when a change takes effect.
var reWhenOnly = regexp.MustCompile(`(?i)^(?:effective|starting|as of|beginning|from|from now on|going forward)(?:\s+(?:today|tomorrow|tonight|now|immediately|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next week|this week|next month|this month))?[.!,]*$`)

// reReportVerb follows the one who reports a change.
var reReportVerb = regexp.MustCompile(`^\s+(?:has\s+|have\s+|had\s+|just\s+|officially\s+)*(?:announced|said|says|confirmed|confirms|told|tells|informed|informs|notified|notifies|wrote|writes|emailed|emails|reported|reports|posted|posts)\b`)

// reportedBy reports a replacement said as the subject of a verb of
// reporting: "Westview Middle School has announced that …".
func reportedBy(text, replacement string) bool {
	i := strings.Index(text, replacement)
	return replacement != "" && i >= 0 && reReportVerb.MatchString(text[i+len(replacement):])
}

// ofOtherSubject reports a replacement said in a clause of its own (after
// a comma or a semicolon) whose subject is not a word of the fact's key:
// the value is that subject's, not the fact's.
func ofOtherSubject(text, replacement, key string) bool {
	i := strings.Index(strings.ToLower(text), strings.ToLower(replacement))
	if replacement == "" || i < 0 {
		return false
	}
	start := strings.LastIndexAny(text[:i], ",;") + 1
	if start == 0 {
		return false
	}
	m := reClauseSubject.FindStringSubmatch(strings.TrimSpace(text[start:i]) + " ")
	if m == nil {
		return false
	}
	switch w := strings.ToLower(m[1]); w {
	case "it", "that", "this", "there", "which", "i", "we", "everything", "all", "let", "here", "what", "now", "so":
		return false
	case "he", "she", "they":
		// "settled it w/ Jonas, he's at $110/hr now" for
		// contractor_rate_jonas: he is the one the key names.
		return !extract.Names(lastName(text[:start]), key)
	default:
		return !extract.Names(w, key)
	}
}

// lastName returns the last capitalised word of text that does not open
// it, or "".
func lastName(text string) string {
	ws := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	for i := len(ws) - 1; i > 0; i-- {
		if r, _ := utf8.DecodeRuneInString(ws[i]); unicode.IsUpper(r) {
			return strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(ws[i]), "'s"), "’s")
		}
	}
	return ""
}

// reTheirAmount closes the words before an amount someone else pays, owes
// or gets: "I told them they can pay $80".
var reTheirAmount = regexp.MustCompile(`(?i)\b(?:they|he|she)\s+(?:can|could|will|would|may|might|only|just|now|['’]ll|get to|gets to)?\s*(?:pay|pays|paid|owe|owes|owed|get|gets|got)\s+(?:only\s+|just\s+)?$`)

// theirAmount reports a replacement said as what someone else pays,
// owes or gets: an arrangement of theirs, not the stored amount.
func theirAmount(text, replacement string) bool {
	low := strings.ToLower(text)
	i := strings.Index(low, strings.ToLower(replacement))
	return i > 0 && replacement != "" && reTheirAmount.MatchString(low[max(0, i-40):i])
}

// ownerNamed reports a text that names, with a capital, someone the key
// names: "Mrs. Johnson raised me, now she pays $650" for
// johnson_weekly_pay.
func ownerNamed(text, key string) bool {
	ent, _ := extract.NormalizeKey(key)
	owners := strings.Split(ent, "_")
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) {
		r, _ := utf8.DecodeRuneInString(w)
		name := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(w), "'s"), "’s")
		if unicode.IsUpper(r) && len(name) > 2 && slices.Contains(owners, name) {
			return true
		}
	}
	return false
}

// reNamedMover opens a sentence on someone named who moved or switched
// themselves: "Sam moved from desk 22 to desk 9".
var reNamedMover = regexp.MustCompile(`^(?:\p{Lu}[\p{L}'’-]*\s+){0,1}(\p{Lu}[\p{L}'’-]*)\s+(?:just\s+|finally\s+|also\s+)?(?:moved|switched|changed|transferred|swapped)\s+(?:over\s+|back\s+)?(?:from|to|desks|rooms|seats|offices|spots|places)\b`)

// namedMover reports a sentence whose subject, named and not the
// speaker, moved or switched themselves, when neither fact f's key nor
// its value names them: the move is theirs ("Sam moved from desk 22 to
// desk 9" beside priyaDesk).
func namedMover(sentences []string, f *facts.Fact) bool {
	for _, s := range sentences {
		m := reNamedMover.FindStringSubmatch(strings.TrimSpace(s))
		if m == nil {
			continue
		}
		who := strings.ToLower(m[1])
		if lexical.IsStop(who) || strings.HasSuffix(who, "ly") || who == "then" || who == "just" {
			continue // "We switched to …", "Finally moved to …": no one named
		}
		if !extract.Relation(who) && !extract.Names(who, f.Key) && !containsFold(f.ValueText(), who) {
			return true
		}
	}
	return false
}

// sharedWithOther reports whether text names the fact id of keys (id →
// key) only by words another fact's key has too (extract.SharedOnly).
func sharedWithOther(text, id string, keys map[string]string) bool {
	for gid, key := range keys {
		if gid != id && extract.SharedOnly(text, keys[id], key) {
			return true
		}
	}
	return false
}

// namesOther reports whether text names a fact of keys (id → key) other
// than id.
func namesOther(text, id string, keys map[string]string) bool {
	for gid, key := range keys {
		if gid != id && extract.Names(text, key) {
			return true
		}
	}
	return false
}

// factKeys maps the known facts' ids to their keys, before the turn's
// extraction settles any.
func factKeys(k known) map[string]string {
	m := make(map[string]string, len(k.facts))
	for id, f := range k.facts {
		m[id] = f.Key
	}
	return m
}
