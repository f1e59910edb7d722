package extract

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/stategraph/stategraph/internal/memo"
	"github.com/stategraph/stategraph/lexical"
)

// Anchor reads a sentence against one stored fact (its key and value) and
// reports the fact's new value when the sentence names the fact's topic
// and, linked to it, says one new value of the stored value's kind:
// "Board review is February 19 now" for board_review_date = February 12,
// "The beta group grew to 350 testers" for beta_testers = 200, "Buildkite
// is the pick for CI" for ci_provider = CircleCI, "They reassigned me
// parking spot C4" for parking_spot = B12.
//
// It is the reading of last resort, for phrasings no rule of Analyze
// knows, so it is narrow where rules are broad:
//   - every word of the key that names a thing ("board", "review",
//     "beta", "testers", "parking") is in the clause; a word that names an
//     attribute ("date", "owner", "provider") is in it or is implied by the
//     value's kind (a date is a date, a name is an owner or a choice);
//   - the stored value has a kind Anchor can read (a date or a time, an
//     amount of money, a count, an email address, a phone number, a
//     version, a code like "B12", a name, a member of a category, or a
//     value of a telling shape, see shape.go), and the clause says
//     exactly one other value of that kind;
//   - only linking words ("is now", "moved to", "grew to", "is the pick
//     for", "takes over") stand between the topic and the value, so a
//     value that belongs to something else in the clause is not taken;
//   - the clause passes the clause filters (negation, hedges, other
//     people's things); the caller passes only sentences whose Reason is
//     "" and never an assistant's.
func Anchor(sentence, key, stored string, at time.Time) (Statement, bool) {
	stored = strings.TrimSpace(stored)
	if stored == "" || len(sentence) > maxClause || len(stored) > 80 {
		return Statement{}, false
	}
	topic, attrs := anchorWords(key)
	if len(topic) == 0 {
		topic, attrs = attrs, nil // "headcount": the attribute is the topic
	}
	if len(topic) == 0 {
		return Statement{}, false
	}
	cat := categoryFor(stored, topic, attrs) // a map look-up: kindOfStored, which reads dates, waits for the cheap test
	shape := shapeOf(stored)
	// A key word that names the stored value's category ("db" for
	// Postgres) is said by the new value itself, and so is every key word
	// when the value's shape names its kind of thing ("Floor 7" for
	// office = Floor 2; see shape.go), or when the value is a brand and a
	// word of the key names its kind: the other words are the owner's
	// ("Rex is on Blue Buffalo now" for dog_food).
	namesCat := func(w string) bool { return namesCategory(w, cat) }
	keyNamesCat := cat != "" && (slices.ContainsFunc(topic, namesCat) || slices.ContainsFunc(attrs, namesCat))
	ownerImplied := keyNamesCat && (brandCategories[cat] != nil || formCategory[cat] != nil)
	// "manager" of password_manager is the kind of thing "password"
	// names: said by the value too.
	headImplied := func(w string) bool { return keyNamesCat && genericHeads[w] }
	// "monthly" of monthly_rent is said by an amount: "rent goes up to
	// $1,975" is the monthly rent.
	perAmount := reWholeMoney.MatchString(stored)
	low := foldedSentences.Get(sentence)
	// "Got a new number: 555-0199" is the phone's.
	numberSaid := reWholePhone.MatchString(stored) && (strings.Contains(low, "number") || strings.Contains(low, "#"))
	// "pls use my gmail from now on: sam.k@gmail.com": an address says email.
	emailSaid := strings.Contains(stored, "@") && strings.Contains(sentence, "@") && reEmail.MatchString(stored) && reEmail.MatchString(sentence)
	// "Maya quit ballet and does gymnastics now" for daughter_activity:
	// the key's relation word is its owner, said by a name, unless the
	// sentence names another relation ("my son").
	relationImplied := func(w string) bool {
		return keyNamesCat && (relations[w] || pets[w]) && !saysOtherRelation(low, w)
	}
	// "After much deliberation I have chosen the Humana Plan N" for
	// medicare_supplement_plan = Aetna Plan G: the speaker's own choice of
	// a member of the stored value's category says the key (an Implied
	// reading, dropped when another fact of the category could take it).
	chosen := cat != "" && anchorSentences.Get(sentence).ownChoice
	// "Piano's on Saturdays at 11am now" for piano_lesson_time: a
	// time said of what the lesson is of says the lesson.
	eventImplied := func(w string) bool {
		return len(topic) > 1 && w == topic[len(topic)-1] && eventHeads[w] && (reTimeOfDay.MatchString(stored) || reDateWord.MatchString(stored))
	}
	// "mom moved, she's at 220 Lake Ave now": a street address says
	// address.
	addressSaid := reWholeAddress.MatchString(stored) && reAnyAddress.MatchString(sentence)
	impliedByValue := func(w string) bool {
		return cat != "" && (namesCat(w) || ownerImplied || headImplied(w) || relationImplied(w) || chosen) || shape != nil || perAmount && (periods[w] || moneyNouns[w]) ||
			numberSaid && (w == "phone" || synonymous(w, "phone")) || emailSaid && (w == "email" || synonymous(w, "email")) || eventImplied(w) ||
			addressSaid && addressWords[w] || (w == "next" || w == "upcoming") && len(topic) > 1 && (reTimeOfDay.MatchString(stored) || reDateWord.MatchString(stored))
	}
	// Cheap test first: every topic word occurs somewhere, itself or by
	// a word of its topic; a qualifier of the head noun may go unsaid
	// ("our Q3 target" for sales_target; see bareHead).
	head := topic[len(topic)-1]
	headSaid := strings.Contains(low, head[:min(len(head), 4)])
	// "$2,500 is the cap" for budget_cap: the attribute said as the head.
	attrHead := ""
	if len(attrs) > 0 {
		attrHead = attrs[len(attrs)-1]
	}
	attrSaid := attrHead != "" && strings.Contains(low, attrHead) && saysAttr(low, attrHead, topic)
	for _, w := range topic {
		if !strings.Contains(low, w[:min(len(w), 4)]) && !impliedByValue(w) && !saysSynonym(low, w) && !(w != head && headSaid) && !attrSaid && !saysInitialism(sentence, w) {
			return Statement{}, false
		}
	}
	if reWholePhone.MatchString(stored) && strings.Contains(low, "fax") && reFaxNumber.MatchString(low) && !slices.Contains(topic, "fax") && !slices.Contains(attrs, "fax") {
		return Statement{}, false // "The fax number from Schmidt Guss is …" is no phone
	}
	if keepsStored(low, stored) {
		// "I interviewed with Growth but decided to stay on Payments":
		// the sentence keeps the stored value, whatever else it names.
		return Statement{}, false
	}
	kind := kindOfStored(stored, at)
	if (kind == anchorCount || kind == anchorMoney) && rePartOfWhole.MatchString(low) {
		// "We've got 30 barrels of Chardonnay in there, everything else
		// is red": a count of a part, beside the rest.
		return Statement{}, false
	}
	if kind == anchorCategory && cat == "" {
		// A brand that is also a name ("Marcus", "Oscar") under a key
		// that does not name its kind (team_lead) is a person's name.
		kind = ""
		if readsAsName(stored) {
			kind = anchorName
		}
	}
	if kind == "" && shape != nil {
		kind = anchorShape
	}
	if kind == "" {
		// "Sprint goal changed to stabilizing checkout": a value in
		// words, said after the key's own words and a verb of change.
		return freeText(sentence, key, stored)
	}
	if shape == nil && !implied(kind, attrs, low, impliedByValue) {
		return Statement{}, false
	}
	rd := anchorSentences.Get(sentence)
	// The key's words, any of which said nearer the value links it:
	// "Storage place sent a notice, rent's going up to $214".
	keyWords := append(slices.Clip(attrs), topic...)
	var carried map[string]bool // the topic words the clause before said
	prior := false              // a clause with words came before
	named := ""                 // the key's owner, named by name in the clause before
	for ci := range rd.clauses {
		c := &rd.clauses[ci]
		cl, clow := c.text, c.low
		if ci > 0 {
			named = ownerNamed(rd.clauses[ci-1].text, rd.clauses[ci-1].toks, topic)
		}
		if cl == "" {
			carried = nil
			continue
		}
		// "Typo in my zip: it should be 94110": a correction says what
		// should be as what is.
		fixed := c.reason == ReasonHypothetical && fixesShould(low, clow, rd.corr)
		// A clause refused before ("Not $2,000 anymore but $2,500 is the
		// cap") names no other thing.
		first := !prior
		prior = prior || c.reason == "" || fixed
		if c.aspiration && !goalKey(key) {
			// "My goal is to get down to 75 kg" is where the weight
			// should go, not where it is (but it is the new goal of
			// marathon_goal).
			carried = nil
			continue
		}
		pron := ownerPronoun(cl, c.toks, topic)
		heldBy := "" // the owner a clause before named, whom the pronoun at pron refers to
		if pron < 0 && named != "" {
			if pron = pronounOfTopic(c.toks, topic); pron >= 0 {
				heldBy = named
			}
		}
		relative := "" // the named relative who does the thing, whose own thing the clause is not
		if c.reason == ReasonOtherSubject && kind == anchorName {
			relative = namedRelative(cl)
		}
		// "Landlord finally texted me, his new cell is 555-0391": the
		// pronoun is the owner the clause before named as the topic.
		continued := c.newAttr != nil && len(carried) > 0
		if r := c.reason; r != "" && !fixed && !(r == ReasonOtherSubject && (ownRelation(clow, topic) || pron >= 0 || relative != "" || continued)) {
			// "Initially the deadline was March 2, but now it's March
			// 16": a past clause states nothing, but names the topic
			// the clause after continues.
			carried = nil
			if r == ReasonPast {
				carried = saidTopic(c.toks, topic)
			}
			continue
		}
		if reKeptForThem.MatchString(sentence) && namedOwnerOf(cl, c.toks, topic) {
			// "Ruth's pharmacy just changed their number": Ruth's, not
			// the speaker's pharmacy.
			carried = nil
			continue
		}
		if kind == anchorName && otherPassiveMoved(clow, topic) {
			// "jess got switched to mr reyes for counseling": Jess's
			// counselor, not the speaker's.
			carried = nil
			continue
		}
		if (kind != anchorName || reOthersPossessed.MatchString(cl)) && othersHave(cl, topic, c.changeCue) {
			// "Patel's got thursday lunch duty", "My running buddy Jess
			// got bib 2418": what another has is theirs.
			carried = nil
			continue
		}
		toks := c.toks
		switch {
		case heldBy != "":
			// "Mr. Ortiz rang this morning, so I've moved his session
			// to January 14": "his" is the owner the clause before
			// named.
			toks = slices.Clone(toks)
			toks[pron].text = heldBy
		case pron >= 0:
			// "Harmon LLC changed their main line": "their" is
			// Harmon's, and says the owner where the topic is.
			toks = resolvePronoun(toks, pron, topic)
		}
		if ci+1 < len(rd.clauses) && reThatsWrong.MatchString(rd.clauses[ci+1].low) {
			// "The portal shows my member ID as XKP448201 but that's not
			// right": the clause after denies this one's value.
			carried = nil
			continue
		}
		if relativesThing(toks, topic) {
			// "Mr. Ortiz rang this morning, his wife moved her session
			// to January 14": the wife's session, not Mr. Ortiz's.
			carried = nil
			continue
		}
		tspans, ok := topicSpans(toks, topic, impliedByValue)
		bare := false // the head said alone, its qualifiers implied
		// Only in the sentence's first clause: after "The caterer left;"
		// "the new contact" is the caterer's.
		if !ok && len(topic) > 1 && first && bareHead(toks, head, topic) && !otherOwner(toks) {
			tspans, ok = topicSpans(toks, topic, func(w string) bool { return w != head || impliedByValue(w) })
			bare = ok
		}
		if !ok && attrSaid && first && bareHead(c.toks, attrHead, topic) && !otherOwner(c.toks) {
			i := slices.IndexFunc(c.toks, func(t span) bool { return t.text == attrHead })
			tspans, ok, bare = []span{c.toks[i]}, true, true
		}
		if (!ok || len(tspans) == 0) && len(carried) > 0 {
			// "The venue coordinator left; the new contact is …": a
			// clause that opens with the new value of an attribute
			// continues the topic of the clause before, when the two
			// together say every word of the key.
			if m := c.newAttr; m != nil {
				w := singular(fold(cl[m[2]:m[3]]))
				all := attrOf(w, kind, attrs) || slices.Contains(topic, w)
				for _, t := range topic {
					all = all && (carried[t] || t == w || impliedByValue(t))
				}
				if all {
					tspans, ok = []span{{start: m[2], end: m[3], text: w}}, true
				}
			} else if m := c.continues; m != nil && len(topic) > 0 {
				// "Four kids joined the class, bringing it to 28",
				// "Package arrived — it's delivered": a clause that
				// opens on "it" says the value of the topic the clause
				// before said.
				all, here := true, saidTopic(c.toks, topic) // "…, so it ends August 31 now": "end" said here
				for _, t := range topic {
					all = all && (carried[t] || here[t] || impliedByValue(t))
				}
				all = all && len(here) < len(topic)
				if all {
					tspans, ok = []span{{start: m[2], end: m[3], text: "it"}}, true
				}
			} else if here := saidTopic(c.toks, topic); here[head] && len(here) < len(topic) && !ownedHead(c.toks, head) {
				// "nightowl stepped down as head mod …, Pixelbean is
				// running the mod team now": the clause says the head,
				// the clause before the rest of the topic.
				all := true
				for _, t := range topic {
					all = all && (carried[t] || here[t] || impliedByValue(t))
				}
				if all {
					tspans, ok = nil, true
					for _, t := range c.toks {
						if here[t.text] {
							tspans = append(tspans, t)
						}
					}
				}
			}
		}
		carried = saidTopic(c.toks, topic)
		if ok && perAmount && !slices.ContainsFunc(tspans, func(t span) bool { return !periodWord(t.text) }) {
			tspans = nil // "$85 a month" says monthly: the amount's period, not the topic
		}
		if !ok || len(tspans) == 0 && perAmount && subjectNamesOther(clow, topic, attrs, namesCat) || len(tspans) == 0 && shape == reAnyPercent && subjectOthersAttr(clow, topic, attrs) {
			// "The parking fee is going up to $85" says no word of
			// monthly_rent, and names the thing whose amount it is.
			continue
		}
		var shaped []span // the clause's values of the stored value's shape
		if shape != nil {
			// "Room" of "Room 4A" is the value's word, not the topic's.
			shaped = shapeSpans(cl, shape)
			tspans = slices.DeleteFunc(slices.Clone(tspans), func(t span) bool { return slices.ContainsFunc(shaped, t.overlaps) })
		}
		var members []span // the clause's members of the stored value's category
		if kind == anchorCategory {
			// "Meet" of "Google Meet" is the value's word, not meeting's.
			members = withNameRuns(cl, stored, categorySpans(cl, cat))
			tspans = slices.DeleteFunc(slices.Clone(tspans), func(t span) bool { return slices.ContainsFunc(members, t.overlaps) })
		}
		if c.stative && !rd.ownsWrong && stativePiece(cl, tspans) || len(tspans) > 0 && (qualified(cl, tspans, topic, c.changeCue, c.changeCue && kind == anchorName && oldElsewhere(rd.clauses, ci, stored)) || !c.changeCue && seasonQualified(cl, tspans) || comparedWith(cl, tspans)) {
			continue
		}
		if len(tspans) == 0 && !c.changeCue && !(ci+1 < len(rd.clauses) && labelsTopic(rd.clauses[ci+1].low, topic, attrs)) {
			continue // "Postgres is fine" says no change of the database
		}
		var found []span
		others := 0
		var cands []span
		totaled := false // the count said as the total of the topic the clause says
		switch {
		case kind == anchorShape && len(tspans) > 0 && shape != reAnyPercent && shape != reAnySlug && reWholeNumbered.MatchString(stored):
			// The topic said, a numbered place may become a named one:
			// "the kickoff in the Atrium" for kickoff_location = Room 101.
			cands = shaped
			for _, n := range candidatesAt(cl, anchorName, at) {
				if !slices.ContainsFunc(cands, n.overlaps) {
					cands = append(cands, n)
				}
			}
		case kind == anchorShape || shape != nil && len(tspans) == 0:
			cands = shaped
		case kind == anchorCategory && len(members) == 0 && formCategory[cat] != nil:
			// A firm known by its form ("Acme Corp") may be followed by
			// one named otherwise ("GlobalTech").
			cands = candidatesAt(cl, anchorName, at)
		case kind == anchorCategory:
			cands = members
		default:
			cands = candidatesAt(cl, kind, at)

			if m := c.subject; m != nil && kind == anchorName && !slices.ContainsFunc(cands, func(v span) bool { return v.start == m[0] }) {
				cands = append([]span{{start: m[0], end: m[1], text: cl[m[0]:m[1]], kind: KindChoice}}, cands...)
			}
		}
		if kind == anchorName {
			// "pagerduty updated (OPS-219)": a ticket's code names no one.
			cands = slices.DeleteFunc(slices.Clone(cands), func(v span) bool { return reWholeCode.MatchString(v.text) })
			cands = withoutLocatives(cl, cands)
			heads := func(t span) bool { // the topic word is the last of a longer name
				return slices.ContainsFunc(cands, func(v span) bool { return v.end == t.end && v.start < t.start })
			}
			if c.changeCue && len(tspans) > 0 && !slices.ContainsFunc(tspans, func(t span) bool { return !heads(t) }) {
				// "we have decided to go with Golden Spoon Catering"
				// for caterer: the new name says the topic itself.
				tspans = nil
			}
		}
		if kind == anchorName && len(cands) == 0 && !hasUpper(sentence) {
			cands = lowerNames(cl) // "rosa is our nanny now"
		}
		if kind == anchorMoney && len(cands) == 0 {
			cands = bareAmounts(cl, stored) // "shop rent is 1550 a month now"
		}
		if kind == anchorMoney {
			cands = withMoneyDeltas(cl, stored, cands)
		}
		if len(cands) > 1 && (kind == anchorMoney || kind == anchorCount) {
			// "raised dues by $25, to $275": the difference is not the value.
			cands = slices.DeleteFunc(slices.Clone(cands), func(v span) bool { return reByBefore.MatchString(cl[:v.start]) })
		}
		if len(cands) == 0 && kind == anchorDate {
			cands = bareHours(cl, stored)
		}
		if kind == anchorDate && (reStoredDayOfMonth.MatchString(fold(stored)) || reStoredDate.MatchString(stored)) {
			// "on the 15th from now on" beside "1st of the month";
			// "inspection pushed to the 29th" beside "Jan 22" (but "off
			// the 14th" beside "Jan 14 at 9am" is the stored day);
			// "moved my GP appointment to the 22nd at 9:40": the day
			// and its hour.
			days := slices.DeleteFunc(daysOfMonth(cl), func(v span) bool { return sameDayOfMonth(stored, v.text, at) })
			if len(cands) == 0 {
				cands = days
			} else {
				cands = withDayOfMonth(cl, days, cands)
			}
		}
		if kind == anchorDate && reClockRange.MatchString(stored) {
			cands = withRangeStarts(cl, cands) // "10 to noon" beside "7-9am"
		}
		if kind == anchorDate && len(reWeekdayWord.FindAllString(stored, 3)) > 1 {
			cands = dayLists(cl, cands) // "Tue/Thu/Sat at 6am" beside "Mon/Wed/Fri 6am"
		}
		if len(cands) > 1 && kind == anchorDate {
			cands = outermost(dateValues(cl, stored, withoutNewsDay(cl, cands)))
		}
		if kind == anchorCount {
			cands = withCountDeltas(cl, stored, cands, tspans)
			// "Extended the Kyoto hotel by two nights": a difference no
			// reading made a total is not the value.
			cands = slices.DeleteFunc(cands, func(v span) bool {
				return v.start <= len(cl) && reByBefore.MatchString(cl[:v.start]) && reBareCount.MatchString(v.text)
			})
			if t := totals(cl, cands); len(t) > 0 {
				cands, totaled = t, true // "added 4 more tables out on the patio, 12 total now"
			}
		}
		why := reasonAfter(cl, tspans)
		if (!c.changeCue || len(tspans) == 0) && strings.ContainsAny(stored, "0123456789") && slices.ContainsFunc(cands, func(v span) bool {
			return sameAs(stored, v.text, kind, at) && !reOldPlace.MatchString(cl[:v.start]) && !reOldAfter.MatchString(cl[v.end:])
		}) {
			// "Equity drift hit 4.8% this month, just inside my 5%
			// band": a clause that says the stored value as it stands,
			// with no word of change or without naming the topic,
			// compares another value with it. (A name said beside its
			// successor is the one that left: "now that Mrs. Olsen
			// retired".)
			continue
		}
		// The stored value said between the topic and the new one is
		// no word that parts them: "the council meeting scheduled for
		// January 13 has been moved to Tuesday, January 20".
		lcl := cl
		for _, o := range cands {
			if o.end <= len(lcl) && sameAs(stored, o.text, kind, at) {
				lcl = lcl[:o.start] + strings.Repeat(" ", o.end-o.start) + lcl[o.end:]
			}
		}
		for _, v := range cands {
			if sameAs(stored, v.text, kind, at) || slices.ContainsFunc(tspans, v.overlaps) || v.start >= why || reSameBefore.MatchString(cl[:v.start]) || kind == anchorDate && storedDay(stored, v.text) && slices.ContainsFunc(cands, func(o span) bool { return !storedDay(stored, o.text) }) {
				// "…, same 9am slot": what stays is no new value, nor
				// the stored day said alone beside another date
				// ("…, drummer's got a night class on Thursdays";
				// "bumped to Saturday at 9" keeps Saturday).
				continue
			}
			if kind == anchorName && possessorOf(cl, v, tspans) {
				continue // "taking over Biscuit's walks": whose walks, not who walks
			}
			if kind == anchorDate && reLastDoneBefore.MatchString(cl[:v.start]) && !slices.Contains(keyWords, "last") && !slices.Contains(keyWords, "previous") {
				continue // "machine last serviced dec 10": when it was last done, not the date the key keeps
			}
			if kind == anchorCount && !c.changeCue && reOrdinal.MatchString(cl[v.start:v.end]) {
				continue // "The 5th floor has the nicer kitchen" names a floor; "we moved up to the 5th floor" moves
			}
			// "My landlord has a new number since the weekend, is
			// 555-0198": a new number said of the topic is its number.
			link := len(tspans) == 0 || totaled || linked(lcl, tspans, v, kind, keyWords) || (kind == anchorPhone || kind == anchorEmail) && reNewContact.MatchString(clow)
			if link && !c.changeCue && (kind == anchorName || kind == anchorCategory) && modifierOf(cl, v, tspans) {
				// "I'm presenting to the Growth team", "I interviewed
				// with the Growth team": a name that modifies the topic
				// after a preposition of dealing with it says whom the
				// speaker deals with, not which is theirs ("I'm on the
				// Growth team" is).
				link = false
			}
			if !link && kind == anchorName && strings.TrimSpace(cl[:v.start]) == "" && !strings.Contains(v.text, " ") {
				continue // "Inventory now ships out of the Sparks warehouse": a capital for opening the clause
			}
			others++
			if link {
				found = append(found, v)
			}
		}
		if others == 0 && kind == anchorDate && len(tspans) > 0 {
			// "The client pushed the deadline back a week": the new
			// date is the stored one moved by the delta.
			if d, ok := shifted(cl, stored, at); ok {
				found, others = []span{{text: d, kind: KindDate}}, 1
			}
		}
		if len(found) != 1 || others != 1 {
			continue // none, or two new values: which is it?
		}
		if relative != "" && !strings.Contains(found[0].text, relative) {
			continue // "My cousin Robert goes by Rob": the cousin's name
		}
		if len(tspans) == 0 && kind == anchorAddress && !firstPerson(clow) {
			continue // "Dana and Greg finally moved into their new place at 17 Harbor Rd": theirs
		}
		if len(tspans) == 0 && (shape == reAnyTitled && strings.TrimSpace(cl[:found[0].start]) == "" || c.otherMoved(found[0]) && !ownerImplied && !ownerKey(topic) && !(shape == reAnyTitled && firstPerson(clow))) {
			// "Dr. Patel is now head of the clinic" says what Dr. Patel
			// does; "Facilities reassigned Priya to spot C4" where Priya
			// goes (but "switch Mochi to Hill's Science Diet" says the
			// food of the owner cat_food names).
			continue
		}
		if kind == anchorDate {
			if m := reYearAfter.FindString(cl[found[0].end:]); m != "" && reMonthDay.MatchString(found[0].text) {
				found[0].end += len(m) // "March 18, 2026" keeps its year
				found[0].text = cl[found[0].start:found[0].end]
			}
		}
		ent, attr := NormalizeKey(key)
		st := Statement{
			Entity: ent, Attribute: attr, Key: key, Value: found[0].text, Kind: found[0].kind,
			Rule: RuleAnchor, Sentence: sentence, Correction: rd.corr, Implied: len(tspans) == 0 || bare,
		}
		if st.Entity == "" {
			st.Entity = attr
		}
		if kind == anchorDate && len(reWeekdayWord.FindAllString(found[0].text, 2)) > 1 {
			st.Value = found[0].text // a list of days stays as said
		} else if kind == anchorDate && !reClockRange.MatchString(found[0].text) { // a range of hours stays as said
			if d, ok := MonthDayLike(stored, found[0].text); ok {
				st.Value = d // "the 15th" beside "1st of the month": every month's
			} else if d, ok := NthWeekdayLike(stored, cl); ok {
				st.Value = d // "the first Thursday of the month" beside "1st Tuesday"
			} else if d, ok := DayLike(stored, found[0].text); ok {
				st.Value = d // Thursday → Tuesday: a standing day, not a date
			} else if d, ok := SlotLike(stored, found[0].text, cl); ok {
				st.Value = d // Saturday 10am → Saturday 9am: a weekly slot
			} else if d, ok := dayNearStored(stored, found[0].text, at); ok {
				st.Value, st.Said = d, found[0].text // "the 14th instead of the 12th" beside Feb 12
			} else if d, said, _, ok := takeDateAt(found[0].text, at); ok {
				st.Value, st.Said = d, said
			}
		}
		if kind == anchorDuration {
			st.Value = durationValue(st.Value)
		}
		if kind == anchorShape {
			st.Value = numbered(st.Value, stored)
		}
		if kind == anchorCount && !strings.Contains(stored, ",") {
			st.Value = strings.ReplaceAll(st.Value, ",", "") // "10,000" beside "8000" is written "10000"
		}
		if kind == anchorCount {
			if v, ok := nounAfter(stored, st.Value, cl[found[0].end:]); ok {
				st.Value = v // "24 books" → "30 books", not "30"
			}
		}
		return st, true
	}
	return Statement{}, false
}

// dayNearStored reads a day of the month said alone ("the 14th", "Sat the
// 14th") beside a stored date of another month as the day nearest the
// stored one, in its month or the one before or after, not before the
// turn's day: "we're flying out Sat the 14th instead of the 12th" beside
// Feb 12 is February 14. A weekday said picks the month where it falls.
func dayNearStored(stored, v string, at time.Time) (string, bool) {
	m := reLoneDay.FindStringSubmatch(v)
	if m == nil {
		return "", false
	}
	sd, ok := takeDate(stored, at)
	if !ok || len(sd) < len("2006-01-02") {
		return "", false
	}
	base, err := time.Parse("2006-01-02", sd[:10])
	if err != nil || base.Year() == at.Year() && base.Month() == at.Month() {
		return "", false // the turn's own month reads the day already
	}
	day, _ := strconv.Atoi(m[2])
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	var best time.Time
	for _, off := range []int{-1, 0, 1} {
		first := time.Date(base.Year(), base.Month()+time.Month(off), 1, 0, 0, 0, 0, time.UTC)
		d := first.AddDate(0, 0, day-1)
		if d.Month() != first.Month() || d.Before(today) {
			continue
		}
		if m[1] != "" && !strings.EqualFold(d.Weekday().String()[:3], m[1][:3]) {
			continue
		}
		if best.IsZero() || d.Sub(base).Abs() < best.Sub(base).Abs() {
			best = d
		}
	}
	if best.IsZero() {
		return "", false
	}
	return best.Format("2006-01-02"), true
}

// reLoneDay is a day of the month said alone, after its weekday or not.
var reLoneDay = regexp.MustCompile(`(?i)^(?:(?:on|to|for)\s+)?(?:(` + dayName + `)\.?,?\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)$`)

// perUnits are what a price may be per: "$18/hour", "$0.12/word".
const perUnits = `hour|hr|h|day|night|week|wk|month|mo|year|yr|person|head|seat|user|mile|mi|km|word|page|unit|item|piece|pack|box|session|class|visit|lesson|load|walk|kwh|gallon|gal|liter|litre|l|lb|kg|sq ?ft|ticket|pair`

var (
	// reYearAfter is the year said after a day of a month.
	reYearAfter = regexp.MustCompile(`^,?\s*(?:19|20)\d\d\b`)
	// reMonthDay is a day of a month without its year.
	reMonthDay = regexp.MustCompile(`(?i)^(?:` + monthNames + `)\.?\s+\d{1,2}(?:st|nd|rd|th)?$|^\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:` + monthNames + `)$`)
)

// reOldPlace closes the words before a value said as the old one: "from
// 5%", "not 60", "instead of the 14th", "up from $1,200".
var reOldPlace = regexp.MustCompile(`(?:\bfrom|\bnot|n['’]t|\binstead of|\brather than|\bwas|\bwere|\bused to be|\bthan|\bno longer|\bformerly|\bold|\breplac(?:e|es|ed|ing)|\bover)\s+(?:the\s+|my\s+|our\s+|a\s+)?$`)

// reOldAfter opens the words after a value said as the old one:
// "maple-fox-22 was the old router", "60 is out of date".
var reOldAfter = regexp.MustCompile(`^\s*(?:was|were|used to be|is (?:the )?old|is out|is wrong|is gone|no longer)\b`)

// sameDayOfMonth reports whether a day of the month said alone ("14th")
// is the day of the stored date ("Jan 14 at 9am", "2026-01-14").
func sameDayOfMonth(stored, day string, at time.Time) bool {
	d, err := strconv.Atoi(strings.TrimRight(day, "stndrh"))
	v, ok := takeDate(reStoredDate.FindString(stored), at)
	if err != nil || !ok || len(v) < len("2006-01-02") {
		return false
	}
	t, err := time.Parse("2006-01-02", v[:len("2006-01-02")])
	return err == nil && t.Day() == d
}

// dayLists joins the weekdays a clause lists ("Tue/Thu/Sat at 6am",
// "Monday and Thursday") into one value, for a stored value that lists
// days.
func dayLists(cl string, cands []span) []span {
	var out []span
	cands = slices.SortedFunc(slices.Values(cands), func(a, b span) int { return cmp.Compare(a.start, b.start) })
	for _, v := range cands {
		if n := len(out); n > 0 && out[n-1].end <= v.start && reWeekdayWord.MatchString(out[n-1].text) && reWeekdayWord.MatchString(v.text) && reListJoin.MatchString(cl[out[n-1].end:v.start]) {
			out[n-1].end, out[n-1].text = v.end, cl[out[n-1].start:v.end]
			continue
		}
		out = append(out, v)
	}
	return out
}

var (
	// reWeekdayWord is a weekday, in full or short.
	reWeekdayWord = regexp.MustCompile(`(?i)\b` + dayName + `\b`)
	// reListJoin joins the members of a list.
	reListJoin = regexp.MustCompile(`^\s*(?:/|,|&|\+|and|,\s*and)\s*$`)
)

// bareAmounts reads the amounts a clause says without a currency sign,
// in the stored amount's currency: a number said per a period ("1550 a
// month", "80 a month") or after a word of change ("went up to 1,950").
func bareAmounts(cl, stored string) []span {
	sign := strings.TrimLeft(reCurrencySign.FindString(stored), " ")
	if sign == "" {
		return nil
	}
	var out []span
	for _, m := range reBareAmount.FindAllStringSubmatchIndex(cl, -1) {
		if m[2] < 0 && m[6] < 0 {
			continue // a number alone may count anything
		}
		n := cl[m[4]:m[5]]
		if strings.Contains(stored, ",") && !strings.Contains(n, ",") {
			n = withCommas(n) // "1550" beside "$1,400/month" is "$1,550"
		}
		out = append(out, span{start: m[4], end: m[5], text: sign + n, kind: KindAmount})
	}
	return out
}

var (
	// reCurrencySign is the sign a stored amount is written with.
	reCurrencySign = regexp.MustCompile(`[$£€¥]`)
	// reBareAmount is a number without a sign, with a period after it or
	// a word of change before it.
	reBareAmount = regexp.MustCompile(`(?i)(?:\b(up to|down to|raised to|cut to|went to|goes to|increased to|reduced to|bumped to|now)\s+)?\b(\d{1,3}(?:,\d{3})+|\d{2,6})(?:\.\d\d)?\b(\s*(?:an?|per|/)\s*(?:month|mo|week|wk|year|yr|night|visit|hour|hr|load|session|class|walk))?(?:[^%:\w]|$)`)
)

// withoutLocatives drops the names that say where the name before them
// is: "Mom's new GP is Dr. Priya Menon at the Lakeview clinic", "Dr.
// Amanda Reyes on Pine St", "Dr. Patel out of Hillside Large Animal".
func withoutLocatives(cl string, cands []span) []span {
	if len(cands) > 0 && reNameThenLocative.MatchString(cl[:cands[0].start]) && !nameStops[fold(firstWord(cl))] {
		// "Dr. Patel out of Hillside Large Animal is our vet now": the
		// name that opens the clause is not read as one, its place is
		// still its place.
		cands = cands[1:]
	}
	for i := 1; i < len(cands); i++ {
		if p := cands[i-1]; p.end <= cands[i].start && reLocativeGap.MatchString(cl[p.end:cands[i].start]) {
			cands = slices.Delete(slices.Clone(cands), i, i+1)
			i--
		}
	}
	return cands
}

// reNameThenLocative is a clause's opening name and the word that joins
// it to its place.
var reNameThenLocative = regexp.MustCompile(`^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)*\s+(?:at|out of|from|of|with)\s+(?:the\s+)?$`)

// reLocativeGap joins a name to the place it is at.
var reLocativeGap = regexp.MustCompile(`(?i)^,?\s+(?:at|on|in|near|inside|off|out of|from)\s+(?:the\s+)?$`)

// MonthDayLike writes a day of the month said without a month ("the
// 15th") in the form of stored when stored is a day of every month ("1st
// of the month", "the 1st"): rent due on the 15th from now on is due on
// the 15th of every month, not on one date.
func MonthDayLike(stored, v string) (string, bool) {
	m := reStoredDayOfMonth.FindStringSubmatch(fold(strings.TrimSpace(stored)))
	d := reSaidDayOfMonth.FindStringSubmatch(fold(strings.TrimSpace(v)))
	if m == nil || d == nil {
		return "", false
	}
	if m[1] != "" {
		return d[1] + " of the month", true
	}
	return "the " + d[1], true
}

// NthWeekdayLike writes a weekday of every month said in sentence ("the
// first Thursday of the month") in the form of stored when stored is one
// ("1st Tuesday"): the generator test moves to the 1st Thursday of every
// month, not to one date.
func NthWeekdayLike(stored, sentence string) (string, bool) {
	m := reNthWeekday.FindStringSubmatch(fold(strings.TrimSpace(stored)))
	if m == nil || len(m[0]) != len(strings.TrimSpace(stored)) {
		return "", false
	}
	var said []string
	for _, d := range reNthWeekday.FindAllStringSubmatch(fold(sentence), -1) {
		if d[0] != m[0] {
			said = d
		}
	}
	if said == nil {
		return "", false
	}
	n := said[1]
	if digits := strings.ContainsAny(m[1], "0123456789"); digits != strings.ContainsAny(n, "0123456789") {
		n = ordinalForms[n]
	}
	return n + " " + strings.ToUpper(said[2][:1]) + said[2][1:], true
}

// reNthWeekday is an ordinal weekday: "1st tuesday", "the last friday".
var reNthWeekday = regexp.MustCompile(`\b(1st|2nd|3rd|4th|first|second|third|fourth|last)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)

// ordinalForms writes an ordinal in words as digits and back.
var ordinalForms = map[string]string{"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth",
	"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "last": "last"}

// daysOfMonth are the days of the month a clause says without a month:
// "the 15th", not "the 15th of March".
func daysOfMonth(cl string) []span {
	var out []span
	for _, d := range reDayOfMonthIn.FindAllStringSubmatchIndex(cl, -1) {
		if rest := fold(cl[d[3]:]); reMonthAfter.MatchString(rest) {
			continue
		}
		start := d[2]
		if w := reWeekdayBefore.FindStringIndex(cl[:d[0]]); w != nil {
			start = w[0] // "tues the 20th": the weekday is the date's
		}
		out = append(out, span{start: start, end: d[3], text: cl[d[2]:d[3]], kind: KindDate})
	}
	return out
}

// withDayOfMonth joins each hour of cands said right after a day of the
// month of days ("the 22nd at 9:40") to that day.
func withDayOfMonth(cl string, days, cands []span) []span {
	out := slices.Clone(cands)
	for _, d := range days {
		for i, c := range out {
			if c.start >= d.end && reDayHourLink.MatchString(cl[d.end:c.start]) {
				out[i] = span{start: d.start, end: c.end, text: cl[d.start:c.end], kind: KindDate}
			}
		}
	}
	return out
}

// reDayHourLink stands between a day and its hour.
var reDayHourLink = regexp.MustCompile(`(?i)^\s*(?:,\s*)?(?:at|@)?\s*$`)

// reWeekdayBefore is a weekday said right before a day of the month.
var reWeekdayBefore = regexp.MustCompile(`(?i)\b` + dayName + `\.?,?\s+$`)

var (
	reDayOfMonthIn     = regexp.MustCompile(`(?i)\bthe\s+(\d{1,2}(?:st|nd|rd|th))\b`)
	reMonthAfter       = regexp.MustCompile(`^\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)`)
	reStoredDayOfMonth = regexp.MustCompile(`^(?:the\s+)?\d{1,2}(?:st|nd|rd|th)(\s+of\s+(?:the|each|every)\s+month)?$`)
	// reStoredDate is a stored date of one month: "Jan 22", "22 March",
	// "Thursday Jan 22", "2026-01-22".
	reStoredDate     = regexp.MustCompile(`(?i)^(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*,?\s+)?(?:(?:` + monthNames + `)\.?\s+\d{1,2}|\d{1,2}(?:st|nd|rd|th)?\s+(?:` + monthNames + `)|\d{4}-\d{2}-\d{2})\b`)
	reSaidDayOfMonth = regexp.MustCompile(`^(?:on\s+)?(?:the\s+)?(\d{1,2}(?:st|nd|rd|th))(?:\s+of\s+(?:the|each|every)\s+month)?$`)
)

// reReason opens the reason a clause gives: ", since Lena is moving to
// Hamburg", " b/c it opens at 6".
var reReason = regexp.MustCompile(`(?i)(?:,\s*|\s)(?:since|because|b/c|bc|cause|'cause)\s`)

// reasonAfter is where the reason a clause gives for its change begins,
// after the topic's words (tspans), or len(cl): the values it names ("since
// Mike moved up to the U12s") are not the topic's.
func reasonAfter(cl string, tspans []span) int {
	from := 0
	for _, t := range tspans {
		from = max(from, t.end)
	}
	for _, m := range reReason.FindAllStringIndex(cl[from:], -1) {
		if !strings.Contains(strings.ToLower(cl[from+m[0]:from+m[1]]), "since") || !reWhenSince.MatchString(cl[from+m[1]:]) { // "since the weekend" says when (but "bc sunday mornings are …" why)
			return from + m[0]
		}
	}
	return len(cl)
}

// reWhenSince is a time after "since": "since the weekend", "since
// Monday".
var reWhenSince = regexp.MustCompile(`(?i)^(?:(?:the\s+|this\s+|last\s+|early\s+|mid-?\s*|late\s+)?(?:weekend|then|yesterday|today|morning|week|month|year|spring|summer|fall|autumn|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|\d)\b)`)

// reNewContact says a new way to reach someone: "a new number", "her new
// email", "a new direct line".
var reNewContact = regexp.MustCompile(`\bnew\s+(?:phone\s+|cell\s+|mobile\s+|direct\s+|work\s+|office\s+)?(?:number|#|phone|cell|mobile|email|e-mail|line)\b`)

// totals are the candidates a clause says as a total: "12 total", "14 in
// all".
func totals(cl string, cands []span) []span {
	var out []span
	for _, v := range cands {
		if reTotalAfter.MatchString(cl[v.end:]) {
			out = append(out, v)
		}
	}
	return out
}

var reTotalAfter = regexp.MustCompile(`^\s+(?:[\p{L}-]+\s+)?(?:in\s+total|total|in\s+all|altogether|all\s+told|overall)\b`)

// reFreeChange is a key's words, then a verb of change, then the new
// value to the end of the clause: "sprint goal changed to stabilizing
// checkout", "the project status is now blocked on legal".
var reFreeChange = regexp.MustCompile(`^(?:(?:the|our|my|this)\s+)?([a-z][a-z '’-]*?)\s+(?:(?:has\s+|have\s+)?(?:changed|switched|moved|shifted|been changed|been updated|updated)\s+to|(?:is|are)\s+now|now\s+(?:is|are)|became|has become)\s+(.+)$`)

// reFreeTail closes a value in words with when it holds: "now", "going
// forward", "for the rest of the quarter".
var reFreeTail = regexp.MustCompile(`(?i)\s+(?:now|from now on|going forward|instead|for now|this (?:sprint|week|month|quarter|year)|for the rest of the (?:sprint|quarter|year))$`)

// freeText reads a stored value in words, lower case ("ship billing v2",
// "in review"), that no kind of Anchor's reads: a clause that opens on
// every word of the key and a verb of change gives the rest of the clause
// as the new value. It is narrower than Anchor: the key's words are said,
// none implied, and nothing but a determiner comes before them.
func freeText(sentence, key, stored string) (Statement, bool) {
	rd := anchorSentences.Get(sentence)
	inWords := stored == strings.ToLower(stored) && len(strings.Fields(stored)) <= 8
	if rd.quoted == nil && !(inWords && slices.ContainsFunc(rd.clauses, func(c anchorClause) bool { return c.free != nil })) {
		return Statement{}, false // (the common case, read without the key's words)
	}
	keyWs := keyWords(key)
	if st, ok := quotedSet(rd, sentence, key, stored, keyWs); ok || !inWords {
		return st, ok
	}
	for _, c := range rd.clauses {
		m := c.free
		if m == nil || c.reason != "" || c.aspiration || !namesKeyWords(c.low[m[2]:m[3]], keyWs) {
			continue
		}
		v := strings.TrimSpace(reFreeTail.ReplaceAllString(strings.TrimRight(c.text[m[4]:m[5]], " .!"), ""))
		if v == "" || len(strings.Fields(v)) > 8 || strings.EqualFold(v, stored) {
			continue
		}
		return freeStatement(rd, sentence, key, v), true
	}
	return Statement{}, false
}

// namesKeyWords reports whether phrase (folded) is every word of the key
// (keyWs), in order, in the singular or the plural: "sprint goal",
// "on-call day".
func namesKeyWords(phrase string, keyWs []string) bool {
	ws := strings.Fields(strings.NewReplacer("-", " ", "’", " ", "'", " ").Replace(phrase))
	if len(ws) != len(keyWs) {
		return false
	}
	for i, w := range ws {
		if singular(w) != singular(keyWs[i]) {
			return false
		}
	}
	return true
}

// freeStatement is the statement freeText and quotedSet read: v, a value
// in words, for key.
func freeStatement(rd anchorSentence, sentence, key, v string) Statement {
	ent, attr := NormalizeKey(key)
	return Statement{Entity: cmp.Or(ent, attr), Attribute: attr, Key: key, Value: v, Kind: KindStatus,
		Rule: RuleAnchor, Sentence: sentence, Correction: rd.corr}
}

// reQuotedSet sets a thing to a quoted value: "I've set your Slack status
// to 'OOO until Jan 6'".
var reQuotedSet = regexp.MustCompile(`(?i)\b(?:set|changed|updated|switched|renamed|reset)\s+(?:your|my|our|the)\s+([\p{L}][\p{L} '’-]*?)\s+to\s+['"‘“]([^'"‘’“”]{1,60})['"’”]`)

// quotedSet reads a value in quotes that the sentence sets the key's
// thing to, whatever its form: the quotes say where the value begins and
// ends. The thing is named by every word of the key (keyWs), in order.
func quotedSet(rd anchorSentence, sentence, key, stored string, keyWs []string) (Statement, bool) {
	m := rd.quoted
	if m == nil || strings.EqualFold(strings.TrimSpace(m[2]), stored) || !namesKeyWords(fold(m[1]), keyWs) {
		return Statement{}, false
	}
	for _, c := range rd.clauses {
		if c.reason != "" && strings.Contains(c.text, m[2]) {
			return Statement{}, false // "I haven't set your status to 'OOO' yet"
		}
	}
	return freeStatement(rd, sentence, key, strings.TrimSpace(m[2])), true
}

// reComparedWith closes the text before a topic that a value is measured
// against: "above target", "over the budget", "short of our goal".
var reComparedWith = regexp.MustCompile(`(?i)\b(?:above|below|over|under|beyond|within|short of|ahead of|behind|vs\.?|versus|against|compared to|compared with|relative to)\s+(?:the\s+|our\s+|my\s+|their\s+|its\s+)?$`)

// reHandsOver closes the text before "over" that hands a thing over
// ("took over payroll", "handed over the keys"): no comparison.
var reHandsOver = regexp.MustCompile(`(?i)\b(?:take|takes|took|taken|taking|hand|hands|handed|handing|pass|passes|passed|passing|turn|turns|turned|turning|sign|signs|signed|signing|move|moves|moved|moving|switch|switched|carry|carried)(?:\s+\w+){0,3}\s+$`)

// comparedWith reports a clause that measures something against the
// topic rather than saying its value: "Hit 43k in sales last month, above
// target for once" leaves the sales target alone.
func comparedWith(cl string, topic []span) bool {
	for _, t := range topic {
		before := cl[:t.start]
		if m := reComparedWith.FindStringIndex(before); m != nil && !(strings.HasPrefix(strings.ToLower(before[m[0]:]), "over") && reHandsOver.MatchString(before[:m[0]])) {
			return true
		}
	}
	return false
}

// reShift is a date moved by a delta: "pushed the deadline back a week",
// "slipped by two days", "moved the review up three days".
var reShift = regexp.MustCompile(`(?i)\b(pushed|pushing|moved|moving|slipped|slips|slipping|delayed|postponed|bumped|pulled|brought|extended|extending)\b(?:\s+[\w'’-]+){0,4}?\s+(?:(back|out|forward|up|in|ahead|later|earlier)\s+)?(?:by\s+)?(a|an|one|two|three|four|five|six|\d{1,2})\s+(day|week|month)s?\b(?:\s+(later|earlier|sooner))?`)

// shifted reads a date moved by a delta (reShift) from stored, a date.
func shifted(cl, stored string, at time.Time) (string, bool) {
	m := reShift.FindStringSubmatch(cl)
	if m == nil {
		return "", false
	}
	d, _, _, ok := takeDateAt(stored, at)
	if !ok || len(d) < 10 {
		return "", false
	}
	t, err := time.Parse("2006-01-02", d[:10])
	if err != nil {
		return "", false
	}
	n := 1
	if c, ok := countWords[strings.ToLower(m[3])]; ok {
		n = int(c)
	} else if v, err := strconv.Atoi(m[3]); err == nil {
		n = v
	}
	verb, dir := strings.ToLower(m[1]), strings.ToLower(m[2]+m[5])
	switch dir {
	case "forward", "up", "in", "ahead", "earlier", "sooner":
		n = -n
	case "":
		if verb == "pulled" || verb == "brought" {
			n = -n
		}
	}
	switch strings.ToLower(m[4]) {
	case "day":
		t = t.AddDate(0, 0, n)
	case "week":
		t = t.AddDate(0, 0, 7*n)
	default:
		t = t.AddDate(0, n, 0)
	}
	return likeStored(t, stored), true
}

// storedLayouts are the ways a stored date is written that a moved date is
// written the same way: "Sep 12" moved a week is "Sep 19", not
// "2026-09-19".
var storedLayouts = []string{"Jan 2", "January 2", "Jan 2, 2006", "January 2, 2006", "2 Jan", "2 January", "2 Jan 2006", "2 January 2006", "2006-01-02"}

// likeStored writes t as stored is written, or as an ISO date.
func likeStored(t time.Time, stored string) string {
	stored = strings.TrimSpace(stored)
	for _, l := range storedLayouts {
		if _, err := time.Parse(l, stored); err == nil {
			return t.Format(l)
		}
	}
	return t.Format("2006-01-02")
}

// dateValues keeps, of a clause's dates, those that could be a new value
// of stored: "standup → 10:15 starting tomorrow" says a time of day, and
// "tomorrow", after "starting", is when the change takes effect. When
// nothing is left, the dates are returned as they were.
func dateValues(cl, stored string, cands []span) []span {
	clock := reTimeOfDay.MatchString(stored) && !reDateWord.MatchString(stored)
	out := slices.DeleteFunc(slices.Clone(cands), func(v span) bool {
		return clock && !reTimeOfDay.MatchString(v.text) || reEffective.MatchString(cl[:v.start])
	})
	if len(out) == 0 {
		return cands
	}
	return out
}

// reEffective ends the words before a date that says when a change takes
// effect, not what it changes to.
var reEffective = regexp.MustCompile(`(?i)\b(?:starting|from|as of|beginning|effective|since)\s+(?:on\s+)?$`)

// storedDay reports a weekday said alone, the one the stored value holds
// beside a time: "Thursdays" beside "Thursday 7pm".
func storedDay(stored, v string) bool {
	d := reOnlyWeekday.FindStringSubmatch(strings.TrimSpace(v))
	return d != nil && reTimeOfDay.MatchString(stored) && strings.Contains(fold(stored), strings.ToLower(d[1]))
}

// reOnlyWeekday is a weekday and nothing else: "Thursdays", "on Thursday".
var reOnlyWeekday = regexp.MustCompile(`(?i)^(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?$`)

// reClockRange is a stored range of hours: "7-9am", "8am to 2pm".
var reClockRange = regexp.MustCompile(`(?i)\d(?::\d\d)?\s*(?:am|pm)?\s*(?:-|–|to|till|until)\s*(?:\d|noon|midnight)`)

// reRangeStart ends the text before the end of a range of hours: "10 to"
// of "10 to noon".
var reRangeStart = regexp.MustCompile(`(?i)\b\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:-|–|to|till|until)\s*$`)

// reSameBefore ends the text before a value said to stay: "same 9am
// slot", "the same 10am".
var reSameBefore = regexp.MustCompile(`(?i)\bsame(?:\s+(?:time|hour|slot|place|room|day|location|spot|venue))?[\s,:-]+(?:at\s+)?$`)

// withRangeStarts extends a time that ends a range of hours over the
// range's start: a window stored as "7-9am" becomes "10 to noon", not
// "noon".
func withRangeStarts(cl string, cands []span) []span {
	out := slices.Clone(cands)
	for i, v := range out {
		if m := reRangeStart.FindStringIndex(cl[:v.start]); m != nil {
			out[i].start = m[0]
			out[i].text = cl[m[0]:v.end]
		}
	}
	return out
}

// outermost drops the spans inside another: "11am" of "Tuesdays at
// 11am" is one value, not a second.
func outermost(vs []span) []span {
	return slices.DeleteFunc(slices.Clone(vs), func(v span) bool {
		return slices.ContainsFunc(vs, func(w span) bool {
			return w != v && w.start <= v.start && v.end <= w.end && w.end-w.start > v.end-v.start
		})
	})
}

// withNameRuns extends each member of a category said in cl over the
// capitalised words that follow it when the stored value is a member and
// more ("Aetna Plan G"): "the Humana Plan N" is the new plan, not
// "Humana".
func withNameRuns(cl, stored string, members []span) []span {
	if len(strings.Fields(stored)) < 2 {
		return members
	}
	out := slices.Clone(members)
	for i, v := range out {
		if m := reAnyName.FindStringIndex(cl[v.start:]); m != nil && m[0] == 0 && v.start+m[1] > v.end {
			out[i].end = v.start + m[1]
			out[i].text = cl[v.start:out[i].end]
		}
	}
	return out
}

// reOwnChoice is the speaker's own choice, made: "I have chosen", "we
// went with", "I switched to", "we signed up with".
var reOwnChoice = regexp.MustCompile(`\b(?:i|we)(?:'ve| have)?\s+(?:just\s+|finally\s+|now\s+)?(?:chosen|chose|picked|went with|gone with|switched to|signed up with|signed up for|enrolled in|enrolled with|settled on|opted for)\b`)

// saysAttr reports whether a sentence (low) says a key's attribute noun
// as the thing it talks of: after a determiner or a period ("the cap",
// "our order", "weekly order") or a word of the key, or opening the
// sentence ("Order is 30 loaves").
func saysAttr(low, attr string, topic []string) bool {
	ws := words(low)
	for i, w := range ws {
		if w != attr {
			continue
		}
		if i+1 < len(ws) && (ws[i+1] == "for" || ws[i+1] == "of") {
			continue // "New date for the launch": another's attribute
		}
		if i == 0 || headDeterminers[ws[i-1]] || slices.Contains(topic, ws[i-1]) {
			return true
		}
	}
	return false
}

// bareHead reports whether a clause (toks: its clauseWords) says a key's
// head noun with only a determiner, a period or other words of the key
// (topic) before it, or opening the clause: "our Q3 target" or "the
// target" may be the sales_target, "Cooler service is CoolTech" the
// walk_in_cooler_service; "the travel target" is not the sales target.
// Such a reading is Implied: kept only when no other fact could take it.
func bareHead(toks []span, head string, topic []string) bool {
	i := slices.IndexFunc(toks, func(t span) bool { return t.text == head || shortFor(head, t.text) }) // "conferences" for conf
	if i < 0 {
		return false
	}
	if i > 1 && reOrdinal.MatchString(toks[i-1].text) {
		i-- // "the 5th floor": the value between the determiner and the head
	}
	for i > 0 && toks[i-1].text != head && slices.Contains(topic, toks[i-1].text) {
		i--
	}
	return i == 0 || headDeterminers[toks[i-1].text]
}

// reOrdinal is an ordinal in digits: "5th", "22nd".
var reOrdinal = regexp.MustCompile(`^\d{1,3}(?:st|nd|rd|th)$`)

// otherOwner reports a clause that names another's things: "the
// contact for their other clients".
func otherOwner(toks []span) bool {
	return slices.ContainsFunc(toks, func(t span) bool { return otherOwners[t.text] })
}

var otherOwners = map[string]bool{"their": true, "his": true, "her": true, "other": true, "another": true, "else": true, "someone": true}

var headDeterminers = map[string]bool{"my": true, "our": true, "the": true, "this": true, "your": true,
	"q1": true, "q2": true, "q3": true, "q4": true, "h1": true, "h2": true, "annual": true, "yearly": true,
	"monthly": true, "weekly": true, "quarterly": true, "daily": true, "new": true, "current": true,
	"main": true, "primary": true, "usual": true, "regular": true, "everyday": true} // "my main card" for credit_card

// reCountNoun is a count stored with its noun: "24 books".
var reCountNoun = regexp.MustCompile(`^[\d,.]+\s+(\p{L}+)$`)

// WithCountNoun writes v, a bare number read for a count stored with its
// noun ("24 books"), with the noun sentence says right after v, in the
// singular or the plural: "I raised my reading goal to 30 books" gives
// "30 books", not "30".
func WithCountNoun(stored, v, sentence string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(sentence[i:], v)
		if j < 0 {
			return "", false
		}
		i += j + len(v)
		if w, ok := nounAfter(stored, v, sentence[i:]); ok {
			return w, true
		}
	}
}

// nounAfter writes v with the stored count's noun when rest, the text
// right after v, opens on it (in the singular or the plural).
func nounAfter(stored, v, rest string) (string, bool) {
	n := fold(countNoun(stored))
	trimmed := strings.TrimLeft(rest, " ")
	if n == "" || len(trimmed) == len(rest) {
		return "", false // no noun stored, or none set apart from v
	}
	end := strings.IndexFunc(trimmed, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(trimmed)
	}
	if w := fold(trimmed[:end]); w == "" || !(w == n || w+"s" == n || n+"s" == w || w+"es" == n || n+"es" == w) {
		return "", false
	}
	return v + " " + trimmed[:end], true
}

// countNoun returns the noun of a count stored with one ("books" of "24
// books"), or "" (a unit makes a measure: "300 Mbps").
func countNoun(v string) string {
	m := reCountNoun.FindStringSubmatch(v)
	if m == nil || unitFamily[strings.ToLower(m[1])] != "" || reWholeDuration.MatchString(v) || reWholeMoney.MatchString(v) {
		return ""
	}
	return m[1]
}

// reBareDay is a stored value that is a weekday alone, a standing day:
// "Thursday", "Thursdays".
var reBareDay = regexp.MustCompile(`(?i)^(mon|tues|wednes|thurs|fri|satur|sun)day(s?)$`)

// reSaidDay finds the weekday in a new value: "Tuesdays", "Tuesday".
var reSaidDay = regexp.MustCompile(`(?i)\b(?:(mon|tues|wednes|thurs|fri|satur|sun)days?|(mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)\.?)\b`)

// saidDay is the weekday reSaidDay's submatches d name, capitalised:
// "Wednesday" of "wednesdays" or "wed".
func saidDay(d []string) string {
	if d[1] == "" {
		return weekdayAbbr[strings.ToLower(d[2])[:3]]
	}
	return strings.ToUpper(d[1][:1]) + strings.ToLower(d[1][1:]) + "day"
}

var weekdayAbbr = map[string]string{"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday", "sat": "Saturday", "sun": "Sunday"}

// DayLike returns the weekday said in v in the form of stored, when
// stored is a weekday alone: book_club_day = Thursday becomes "Tuesday"
// when "Book club meets on Tuesdays now", not the date of next Tuesday.
func DayLike(stored, v string) (string, bool) {
	m := reBareDay.FindStringSubmatch(stored)
	d := reSaidDay.FindStringSubmatch(v)
	if m == nil || d == nil {
		return "", false
	}
	return saidDay(d) + m[2], true
}

// reDaySlot is a stored weekly slot, a weekday and a time of day, and
// perhaps its time zone: "Saturday 10am", "Tuesdays at 6:30pm",
// "Thursday 4pm UTC".
var reDaySlot = regexp.MustCompile(`(?i)^(mon|tues|wednes|thurs|fri|satur|sun)day(s?)(?:\s+at)?\s+((?:\d{1,2}(?::\d\d)?\s?(?:am|pm)?\s?[-–]\s?)?\d{1,2}(?::\d\d)?\s?(?:am|pm))(\s+(?:utc|gmt|[ecmp][sd]?t|ce[s]?t|bst|ist|aest|aedt))?$`)

// reClockRangeSaid is a range of hours said in a clause: "4-6", "4–6pm".
var reClockRangeSaid = regexp.MustCompile(`(?i)\b\d{1,2}(?::\d\d)?\s?(?:am|pm)?\s?[-–]\s?\d{1,2}(?::\d\d)?(?:\s?(?:am|pm))?\b`)

// reClockSaid is a time of day said in full: "9am", "9:30 pm", "14:00".
var reClockSaid = regexp.MustCompile(`(?i)\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b`)

// SlotLike returns the weekly slot a clause (or sentence) says in the
// form of stored, when stored is a weekday and a time and the value read,
// v, names a weekday: swim_lesson = Saturday 10am becomes "Saturday 9am"
// when "Swim lessons got bumped to Saturday at 9", not the date of next
// Saturday; a day said without a time is the day alone.
func SlotLike(stored, v, cl string) (string, bool) {
	m := reDaySlot.FindStringSubmatch(strings.TrimSpace(stored))
	d := reSaidDay.FindStringSubmatch(v)
	if m == nil || d == nil {
		return "", false
	}
	day := saidDay(d) + m[2]
	if reClockRange.MatchString(m[3]) {
		// "Sunday 9-11am" → "Saturday 4-6": a range for a range.
		if t := reClockRangeSaid.FindString(cl); t != "" {
			return day + " " + strings.ReplaceAll(t, " ", "") + m[4], true
		}
		return day, true
	}
	if t := reClockSaid.FindString(cl); t != "" {
		t = strings.ToLower(strings.ReplaceAll(t, " ", ""))
		if !strings.HasSuffix(t, "m") && strings.Contains(t, ":") {
			t += m[3][len(m[3])-2:] // "at 3:30" beside "3:15pm" is 3:30pm
		}
		return day + " " + t + m[4], true // "Thursday 4pm UTC" → "Tuesday 5pm UTC"
	}
	if hs := bareHours(cl, m[3]); len(hs) > 0 {
		return day + " " + hs[0].text + m[4], true
	}
	return day, true
}

// genericHeads name a kind of tool or service after the word that says
// which: password manager, CI tool, chat app.
var genericHeads = map[string]bool{"manager": true, "tool": true, "app": true, "provider": true, "service": true,
	"platform": true, "system": true, "software": true, "client": true, "solution": true, "stack": true,
	"subscription": true, "plan": true, "account": true, "membership": true}

// periods are key words that say how often an amount is due.
var periods = map[string]bool{"monthly": true, "annual": true, "yearly": true, "weekly": true, "daily": true, "hourly": true, "nightly": true}

// aspirations say what the speaker wants a value to become.
var aspirations = phrases("goal is to|goal is getting|aim to|aims to|aiming to|aim is to|aiming for|plan is to|target is to|working toward|working towards|striving to|striving for|shooting for")

// goalKey reports a key whose value is itself an aim: marathon_goal,
// savings_target.
func goalKey(key string) bool {
	for _, w := range keyWords(key) {
		switch singular(w) {
		case "goal", "target", "aim", "objective", "plan", "quota", "pace", "pb", "pr":
			return true
		}
	}
	return false
}

// possessorOf reports a name said as the possessor of the topic right
// after it: "Biscuit" of "Biscuit's walks".
func possessorOf(cl string, v span, topic []span) bool {
	rest := cl[v.end:]
	for _, p := range []string{"'s ", "’s "} {
		if strings.HasPrefix(rest, p) {
			at := v.end + len(p)
			// "Dad's new aide is Grace": whose aide, the new one.
			for {
				w, _, _ := strings.Cut(cl[at:], " ")
				if !plainModifiers[strings.ToLower(w)] {
					break
				}
				at += len(w) + 1
			}
			return slices.ContainsFunc(topic, func(t span) bool { return t.start == at })
		}
	}
	return false
}

// petsName reports a name's possessive (w, folded) before a topic that
// only a pet has, a vet or a groomer: "Biscuit's vet thing got bumped" is
// the speaker's dog's appointment, which vet_appointment keeps.
func petsName(cl, w string, keyWs []string) bool {
	name := strings.TrimSuffix(w, "'s")
	if name == "" || !slices.ContainsFunc(keyWs, func(k string) bool { return petServices[k] }) {
		return false
	}
	return strings.Contains(cl, strings.ToUpper(name[:1])+name[1:]+"'s") || strings.Contains(cl, strings.ToUpper(name[:1])+name[1:]+"’s")
}

// petServices are the key words of what only pets are taken to.
var petServices = map[string]bool{"vet": true, "veterinarian": true, "groomer": true, "grooming": true, "dogwalker": true, "walker": true,
	"kennel": true, "boarding": true, "petsitter": true, "daycare": true}

// ownerPronoun returns the index in toks (clauseWords of cl) of a
// possessive pronoun that refers back to an owner the key names by name,
// or -1: "Harmon LLC changed their main line" for harmon_llc_phone, "After
// going through the Nguyens' Q4 numbers I'm bumping their quarterly
// estimate" for nguyen_quarterly_estimate. The owner is a word of the
// topic other than its head, capitalised in cl (a name: "the design team
// moved their standup" is another team's), said at most eight words
// before the pronoun, not as another one, and not only as the clause's
// first word (which any word is capitalised as) unless a capitalised word
// follows it ("Harmon LLC").
func ownerPronoun(cl string, toks []span, topic []string) int {
	if len(topic) < 2 {
		return -1
	}
	owners := topic[:len(topic)-1]
	for i, t := range toks {
		if !personalPossessive(t.text) {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-8; j-- {
			if namedOwnerAt(cl, toks, j, i, owners) {
				return i
			}
		}
		return -1 // the first pronoun only
	}
	return -1
}

// personalPossessive reports "his", "her" or "their".
func personalPossessive(w string) bool { return w == "his" || w == "her" || w == "their" }

// namedOwnerAt reports toks[j] (of cl) as one of owners said as a name:
// capitalised, and not only as the clause's first word (which any word is
// capitalised as) unless a capitalised word follows it before toks[limit]
// ("Harmon LLC"), it is a family ("Thompsons moved their ceremony") or an
// acronym ("FBO changed their dispatch line"), which is a name wherever
// it stands.
func namedOwnerAt(cl string, toks []span, j, limit int, owners []string) bool {
	o := toks[j]
	if !slices.Contains(owners, o.text) || o.start >= len(cl) || !unicode.IsUpper(rune(cl[o.start])) || j > 0 && otherQualifiers[toks[j-1].text] {
		return false
	}
	family := o.end <= len(cl) && strings.HasSuffix(strings.ToLower(cl[o.start:o.end]), "s") && !strings.HasSuffix(o.text, "s")
	acronym := o.end-o.start > 1 && strings.ToUpper(cl[o.start:o.end]) == cl[o.start:o.end]
	return j > 0 || family || acronym || j+1 < limit && unicode.IsUpper(rune(cl[toks[j+1].start]))
}

// reThatsWrong is a clause that only denies the one before: "but that's
// not right", "which is wrong".
var reThatsWrong = regexp.MustCompile(`^(?:but\s+|and\s+)?(?:that['’]s|that is|which is|this is|it['’]s|it is)\s+(?:not right|not correct|wrong|incorrect|a mistake|an error|out of date|outdated|old)\s*[.!]*$`)

// relativesThing reports a clause in which the topic's head is said with
// a possessive pronoun ("her session") after a relative named since the
// owner the key names ("Mr. Ortiz …, his wife moved her session"): the
// relative's.
func relativesThing(toks []span, topic []string) bool {
	if len(topic) < 2 {
		return false
	}
	head, owners := topic[len(topic)-1], topic[:len(topic)-1]
	for i := 1; i < len(toks); i++ {
		if toks[i].text != head {
			continue
		}
		p := -1
		for j := i - 1; j >= 0 && j >= i-2; j-- {
			if personalPossessive(toks[j].text) {
				p = j
				break
			}
		}
		for j := p - 1; p > 0 && j >= 0; j-- {
			switch w := toks[j].text; {
			case slices.Contains(owners, w):
				return false
			case (relations[w] || relationWords[w]) && !slices.Contains(topic, w):
				return true
			}
		}
		return false
	}
	return false
}

// ownerNamed returns the word of the topic, other than its head, that cl
// says as a name (namedOwnerAt), or "": "Ortiz" of "Mr. Ortiz rang this
// morning" for ortiz_next_session.
func ownerNamed(cl string, toks []span, topic []string) string {
	if len(topic) < 2 {
		return ""
	}
	for j := range toks {
		if namedOwnerAt(cl, toks, j, len(toks), topic[:len(topic)-1]) {
			return toks[j].text
		}
	}
	return ""
}

// pronounOfTopic returns the index in toks of "his", "her" or "their"
// said of the topic's head, at most one word before it ("his session",
// "his home visits"), or -1.
func pronounOfTopic(toks []span, topic []string) int {
	head := topic[len(topic)-1]
	for i, t := range toks {
		if !personalPossessive(t.text) {
			continue
		}
		for j := i + 1; j < len(toks) && j <= i+2; j++ {
			if toks[j].text == head {
				return i
			}
		}
		return -1 // the first pronoun only
	}
	return -1
}

// resolvePronoun returns toks with the pronoun at i read as the owner it
// refers to (ownerPronoun), said there and not where it was first said.
func resolvePronoun(toks []span, i int, topic []string) []span {
	out := slices.Clone(toks)
	for j := i - 1; j >= 0; j-- {
		if slices.Contains(topic[:len(topic)-1], out[j].text) {
			out[i].text = out[j].text
			return slices.Delete(out, j, j+1)
		}
	}
	return out
}

// OwnedByKey reports a sentence about another's thing that key names as
// that owner's: a possessive pronoun that refers back to an owner the key
// names by name (ownerPronoun: "Harmon LLC changed their main line" for
// harmon_llc_phone), or the speaker's relation the key names (ownRelation:
// "no no, my sister's birthday is June 21" for sister_bday).
func OwnedByKey(sentence, key string) bool {
	topic, attrs := anchorWords(key)
	if len(topic) == 0 {
		topic = attrs
	}
	for _, cl := range splitClauses(sentence) {
		cl, _ = stripLead(strings.TrimSpace(cl))
		if ownerPronoun(cl, clauseWords(cl), topic) >= 0 || ownRelation(fold(cl), topic) {
			return true
		}
	}
	return false
}

// ownRelation reports a clause about the speaker's relation that the
// key is about: "Our landlord is Harbor Property Management now" for
// landlord, "My sister is in Paris now" for sister_city. About anyone
// else ("my sister moved her appointment" for appointment) it is another
// person's life.
func ownRelation(clow string, topic []string) bool {
	ws := strings.Fields(clow)
	if len(ws) >= 3 && ws[0] != "my" && ws[0] != "our" {
		// "sis bday = Mar 19" for sisterBday: the relation the key
		// names, said first without "my".
		r := singular(strings.TrimSuffix(strings.TrimSuffix(ws[0], "'s"), "’s"))
		return relations[r] && slices.ContainsFunc(topic, func(t string) bool { return t == r || synonymous(t, r) })
	}
	if len(ws) < 3 {
		return false
	}
	if strings.Contains(clow, "-in-law") || strings.Contains(clow, " in law") {
		return false // "my sister in laws birthday" is another relation's
	}
	if r := singular(ws[1]); relationWords[r] && !slices.Contains(topic, r) {
		return false // "my friends math tutor", typed without its apostrophe, is the friend's
	}
	for _, w := range ws[1:3] {
		if base, ok := strings.CutSuffix(w, "'s"); ok || strings.HasSuffix(w, "s'") {
			// "our neighbors' rent" is theirs; "my sister's address" the
			// sister's, which sister_address names.
			return slices.Contains(topic, singular(strings.TrimSuffix(base, "'")))
		}
		if slices.Contains(topic, singular(w)) {
			return true
		}
	}
	return false
}

// othersHave reports a clause whose subject, someone other than the
// speaker, has or was given a thing: "Patel's got thursday lunch duty",
// "my running buddy Jess got bib 2418"; a name alone said with a change
// (changed: the clause's change cue) is of the speaker's household. A subject that says a word of the
// topic ("my landlord has a new number" for landlord_phone) owns the
// fact's thing.
func othersHave(cl string, topic []string, changed bool) bool {
	m := reOthersHave.FindStringSubmatch(cl)
	if m == nil {
		return false
	}
	subj := words(fold(m[1]))
	if len(subj) == 0 || nameStops[subj[0]] && !possessives[subj[0]] {
		return false // "It has moved to Friday", "This week has …"
	}
	if changed && len(subj) == 1 && !orgWords[subj[0]] && !qualifierUnsaid(fold(cl), topic) {
		// "Leo has 18 swim lessons left now": a change of the
		// household's, as householdName; but "Tom's got a new mobile"
		// is not the one sophie_mobile keeps.
		return false
	}
	return !slices.ContainsFunc(subj, func(w string) bool {
		w = singular(strings.TrimSuffix(w, "'s"))
		return slices.Contains(topic, w) || slices.ContainsFunc(topic, func(t string) bool { return shortFor(t, w) || shortFor(w, t) })
	})
}

// reLastDoneBefore ends the text before a date on when something was last
// done: "machine last serviced ".
var reLastDoneBefore = regexp.MustCompile(`(?i)\blast\s+[a-z]+ed\s+(?:on\s+|in\s+)?$`)

// qualifierUnsaid reports a word of the topic before its head that reads
// as a person's name, which the folded clause does not say: "sophie" of
// sophie_mobile. A relation, a pet or a role ("boxing coach" of
// boxing_coach_email) is what a name may be.
func qualifierUnsaid(clow string, topic []string) bool {
	for _, t := range topic[:max(len(topic)-1, 0)] {
		if len(t) > 3 && !relations[t] && !pets[t] && !roleNouns[t] && !roles[t] && !reRoleLike.MatchString(t) && !strings.Contains(clow, t) {
			return true
		}
	}
	return false
}

// reRoleLike is a word that reads as a role or an activity, not a name:
// "boxing", "trainer", "dentist".
var reRoleLike = regexp.MustCompile(`(?:ing|er|or|ist|ian|ant|ent|ness|ship|ment|ary|ery|ice|al|ic|ive|ly)$`)

// reOthersHave opens a clause on someone else having or being given a
// thing: a relation, or a capitalised name, then "has", "got", "'s got".
var reOthersHave = regexp.MustCompile(`^((?i:(?:my|our|his|her|their)\s+(?:[\p{L}'’-]+\s+){0,2}[\p{L}-]+)(?:\s+\p{Lu}\p{L}+)?|\p{Lu}\p{L}+['’]s\s+[\p{Ll}-]+(?:\s+\p{Lu}\p{L}+)?|\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+)?)(?:\s+(?:(?:has|have)\s+(?:got\s+)?(?:a|an|the|new|her|his|their|\d+|\p{L}+day)|got|gets|just got|finally got|was given|got assigned|was assigned|drew)|['’]s\s+got)\s`)

// ownedHead reports a clause that says whose its head word is: "my
// birthday", "Sam's birthday" (another owner than the clause before's).
func ownedHead(toks []span, head string) bool {
	i := slices.IndexFunc(toks, func(t span) bool { return t.text == head })
	if i < 1 {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch toks[j].text {
		case "my", "our", "his", "her", "their", "your", "s":
			return true
		}
	}
	return false
}

// namedOwnerOf reports a topic word said right after a capitalised name's
// possessive that the key does not name. The caller asks it only of a
// sentence that keeps the thing for that one (reKeptForThem): "Ruth's
// pharmacy just changed their number to 555-0198, she asked me to write
// it down for her" is Ruth's, but "Noah's dentist moved to Friday" is the
// household's (householdName).
func namedOwnerOf(cl string, toks []span, topic []string) bool {
	for _, t := range toks {
		if !slices.Contains(topic, t.text) {
			continue
		}
		m := reNamePossessive.FindStringSubmatch(cl[:t.start])
		if m == nil {
			continue
		}
		owner := singular(fold(m[1]))
		if !slices.Contains(topic, owner) && !relations[owner] && !pets[owner] && !nameStops[owner] {
			return true
		}
	}
	return false
}

// reKeptForThem says the speaker keeps a thing for someone else.
var reKeptForThem = regexp.MustCompile(`(?i)\b(?:she|he|they) asked me to\b|\b(?:for|to) (?:her|him|them)\s*[.!]?$`)

// otherPassiveMoved reports a clause that opens on someone other than the
// speaker being moved to a new one: "jess got switched to mr reyes". A
// subject the key names ("mom got switched to dr lee" for mom_doctor) is
// the key's owner.
func otherPassiveMoved(clow string, topic []string) bool {
	m := rePassiveMoved.FindStringSubmatch(clow)
	if m == nil {
		return false
	}
	w := singular(strings.TrimSuffix(strings.TrimSuffix(m[1], "'s"), "’s"))
	return !lexical.IsStop(w) && !slices.Contains(topic, w) && !slices.ContainsFunc(topic, func(t string) bool { return synonymous(t, w) })
}

// rePassiveMoved opens a clause on one word, the one moved: "jess got
// switched to", "Priya was reassigned to".
var rePassiveMoved = regexp.MustCompile(`^([\p{L}'’]+)\s+(?:just\s+)?(?:got|was|were|has been|have been|is being|gets)\s+(?:switched|moved|reassigned|transferred|assigned|bumped|changed)\s+(?:over\s+)?(?:to|into|onto)\b`)

// reOthersPossessed opens a clause on a thing of someone the speaker
// knows: "my primo's truck gets tortillas from El Maizal" names where the
// truck gets them, not who supplies the speaker.
var reOthersPossessed = regexp.MustCompile(`^(?i:my|our|his|her|their)\s+[\p{L}-]+['’]s\s`)

// namedRelative returns the name of the relative a clause opens on, when
// the clause names no thing of theirs: "Jake's uncle Pete is officiating
// now", "his cousin Eli is the ring bearer now". The name is who does
// the thing the clause says, the value, not whose thing it is.
func namedRelative(cl string) string {
	m := reNamedRelative.FindStringSubmatchIndex(cl)
	if m == nil {
		return ""
	}
	rest := " " + fold(cl[m[1]:]) + " "
	if strings.Contains(rest, " his ") || strings.Contains(rest, " her ") || strings.Contains(rest, " their ") {
		return ""
	}
	return cl[m[2]:m[3]]
}

// reNamedRelative opens a clause on a relative and their name.
var reNamedRelative = regexp.MustCompile(`^(?i:(?:grandma|grandpa|granny|nana|auntie|aunt|uncle|cousin|t[ií]o|t[ií]a|abuela|abuelo)|(?:[\p{L}-]+['’]s|my|our|his|her|their)\s+(?:older\s+|younger\s+|little\s+|big\s+)?(?:cousin|friend|sister|brother|mom|mum|mother|dad|father|wife|husband|partner|son|daughter|neighbou?r|aunt|uncle|grandma|grandpa|niece|nephew|colleague|coworker|roommate|best friend|fianc[ée]e?))\s+(\p{Lu}\p{L}+)\b`)

// saidTopic returns the words of topic that a clause (toks: its
// clauseWords) says.
func saidTopic(toks []span, topic []string) map[string]bool {
	said := map[string]bool{}
	for _, t := range topic {
		if sp, ok := topicSpans(toks, []string{t}, never); ok && len(sp) > 0 {
			said[t] = true
		}
	}
	return said
}

// reOtherMoved is someone else sent somewhere: "reassigned Priya to",
// "moved them into".
var reOtherMoved = regexp.MustCompile(`\b\p{L}+\s+(\p{Lu}\p{Ll}+|him|her|them)\s+(?:to|into|onto|over to|in|on|at)\b`)

// movedOther reports a clause that sends someone other than the value v
// somewhere ("reassigned Priya to spot C4", not "gone full Neovim at
// work"), given reOtherMoved's match m of the clause.
func movedOther(m []int, v span) bool {
	return m != nil && !v.overlaps(span{start: m[2], end: m[3]})
}

// anchorSentence is what Anchor reads of a sentence whatever the fact:
// whether its opening or a dropped old value marks a correction, and its
// clauses. Anchor reads each sentence of a turn against every fact the
// turn is compared with (about twenty facts pass its cheap test), so it
// is read once (anchorSentences) and shared: callers never write into it.
type anchorSentence struct {
	corr bool
	// ownsWrong: the speaker says they had it wrong ("actually", "had
	// the CFO's cell wrong"): a stative clause states the fix.
	ownsWrong bool
	clauses   []anchorClause
	// ownChoice: the speaker says a choice made (reOwnChoice); quoted:
	// reQuotedSet's submatches, or nil.
	ownChoice bool
	quoted    []string
}

// anchorClause is a clause of a sentence, trimmed, with the readings of it
// that depend on no fact; an empty clause has none.
type anchorClause struct {
	text, low string // the clause and its fold
	// aspiration: an aspiration is said (aspirations); reason: the clause
	// filter's (clauseFilter).
	aspiration bool
	reason     string
	toks       []span // its words, folded and singular (clauseWords)
	stative    bool   // stative
	changeCue  bool   // hasChangeCue
	// moved, newAttr and continues: reOtherMoved's, reNewAttr's and
	// reContinues' submatch indexes, or nil.
	moved, newAttr, continues []int
	// subject: a name opening a clause that follows another in the
	// sentence ("…, so Claire watches the twins now"), or nil.
	subject []int
	// free: reFreeChange's submatch indexes in low, or nil.
	free []int
}

// otherMoved reports whether the clause sends someone other than the
// value v somewhere (movedOther).
func (c *anchorClause) otherMoved(v span) bool { return movedOther(c.moved, v) }

// firstPerson reports a clause whose subject is the speaker ("we switched
// Milo to Dr. Alvarez"): who the speaker sends to a doctor, a school or a
// plan is of the speaker's household, so the move is the household's.
func firstPerson(low string) bool {
	return hasPrefixAny(low, []string{"we ", "i ", "we've ", "i've ", "we’ve ", "i’ve "})
}

// anchorSentences remembers readAnchorSentence of every sentence Anchor
// reads (up to maxClause bytes).
var anchorSentences = memo.New(readAnchorSentence, memo.Limits{Entries: 1 << 10, Key: maxClause})

// readAnchorSentence reads a sentence's clauses as Anchor does.
func readAnchorSentence(sentence string) anchorSentence {
	body, corr := stripLead(arrows(sentence))
	body, corr2 := stripOldValue(body)
	low := fold(sentence)
	owned := containsAny(low, midCorrections) || reHadWrong.MatchString(low)
	rd := anchorSentence{corr: corr || corr2 || owned, ownsWrong: owned, ownChoice: reOwnChoice.MatchString(low), quoted: reQuotedSet.FindStringSubmatch(sentence)}
	for i, cl := range splitClauses(body) {
		cl = strings.TrimRight(strings.TrimSpace(cl), " .!")
		c := anchorClause{text: cl, low: fold(cl)}
		if cl != "" && i > 0 {
			if m := reLeadName.FindStringSubmatchIndex(cl); m != nil && !nameStops[fold(cl[m[2]:m[3]])] && !dateWords[fold(cl[m[2]:m[3]])] {
				c.subject = m[2:4]
			}
		}
		if cl != "" {
			c.aspiration, c.reason = aspirations.in(padded(c.low)), clauseFilter(c.low)
			c.toks = clauseWords(cl)
			c.stative, c.changeCue = stative(c.low), hasChangeCue(c.low)
			c.moved = reOtherMoved.FindStringSubmatchIndex(cl)
			c.newAttr, c.continues = newAttrAt(cl), reContinues.FindStringSubmatchIndex(cl)
			c.free = reFreeChange.FindStringSubmatchIndex(c.low)
			if c.continues == nil {
				c.continues = reTally.FindStringSubmatchIndex(cl)
			}
			if c.continues == nil {
				c.continues = reContinuesLate.FindStringSubmatchIndex(cl)
			}
		}
		rd.clauses = append(rd.clauses, c)
	}
	return rd
}

// never is an implied-word test that implies none.
func never(string) bool { return false }

// reContinues opens a clause on the thing the clause before named.
var reContinues = regexp.MustCompile(`(?i)^(?:and\s+|so\s+|which\s+|but\s+)?(?:now\s+|these days\s+|currently\s+|today\s+)?((?:we(?:'re| are) only|there are only|it's|it’s|it is|it was|that's|that’s|there are|there's|there’s|bringing it|bringing the total|taking it|making it|putting it|which puts it|which brings it|we're at|we’re at|we are at|we're now at|we're up to|we're down to|we’re up to|we’re down to|we're paying|we’re paying|we are paying|i'm paying|i’m paying|i am paying|we pay|i pay|i'm at|i’m at|i am at|i'm down to|i’m down to|i'm up to|i’m up to|i'm now at|i’m now at|puts us at|putting us at|which puts us at|brings us to|bringing us to|which brings us to|takes us to|taking us to|which takes us to|it ends|it runs|it starts|it expires|it closes|it opens|it's due|it is due|is)\b)`)

// reContinuesLate ends a clause on the new total of the thing the clause
// before named, after a list: "…, the dental office on Maple and the
// brewery, which puts us at 16".
var reContinuesLate = regexp.MustCompile(`(?i),\s*((?:which|that|so)\s+(?:puts us at|brings us to|takes us to|puts it at|brings it to|takes it to|brings the total to|makes it))\b`)

// reOwnError is the speaker owning a mistake: "typo in my zip", "I
// misspoke".
var reOwnError = regexp.MustCompile(`\b(?:typo|misspoke|mistyped|my mistake|my bad|i meant|correction|wrong earlier|got it wrong|(?:gave|told|sent) you the wrong|had (?:it|that|this|the [\p{L}-]+(?: [\p{L}-]+)?) wrong)\b`)

// fixesShould reports a clause whose only doubt is "should be" in a
// sentence (low) that corrects the speaker's own mistake (or opens as a
// correction: corr): "Typo in my zip: it should be 94110" says what is.
func fixesShould(low, clow string, corr bool) bool {
	// The old value it quotes ("should be $22 not $18") denies nothing.
	stated, _ := stripOldValue(strings.Replace(clow, "should be", "is", 1))
	return (corr || reOwnError.MatchString(low)) && strings.Contains(clow, "should be") && clauseFilter(stated) == ""
}

// reLeadName is a capitalised name opening a clause, then a lower-case
// word: the capital is the name's, not the sentence's.
var reLeadName = regexp.MustCompile(`^(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)\s+\p{Ll}`)

// reBareCount is a count as said, in digits or in words.
var reBareCount = regexp.MustCompile(`(?i)^(?:\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple|a few)$`)

// reTally opens a clause with the new total of the topic the clause
// before said: "Fifteen more people RSVP'd, so 95 total".
var reTally = regexp.MustCompile(`(?i)^(?:so\s+|and\s+)?[\d,]+\s+(?:[\p{L}-]+\s+)?(total|in total|altogether|all told|overall)\b`)

// reNewAttr opens a clause with the new value of an attribute: "the new
// contact is", "their new number's", "our contact there is" (there: the
// place or firm the clause before named).
var reNewAttr = regexp.MustCompile(`(?i)^(?:and\s+|so\s+)?(?:(?:the|their|its|his|her)\s+new\s+(\w+)|(?:the|our|my|their)\s+(\w+)\s+there(?:\s+now)?|(?:his|her|their)\s+(\w+))\s+(?:is|'s|’s|will be)\b`)

// newAttrAt is reNewAttr's match in cl, the attribute's word as its first
// group, or nil.
func newAttrAt(cl string) []int {
	m := reNewAttr.FindStringSubmatchIndex(cl)
	for g := 4; m != nil && m[2] < 0 && g < len(m); g += 2 {
		m[2], m[3] = m[g], m[g+1]
	}
	return m
}

// attrOf reports whether w names the attribute of a key (one of its
// attribute words) or a value of kind.
func attrOf(w, kind string, attrs []string) bool {
	w = singular(w)
	return slices.Contains(attrs, w) || slices.Contains(kindNouns[kind], w)
}

// RuleAnchor names statements Anchor reads.
const RuleAnchor = "anchor"

// The kinds of stored value Anchor reads.
const (
	anchorDate    = "date"
	anchorMoney   = "money"
	anchorCount   = "count"
	anchorEmail   = "email"
	anchorPhone   = "phone"
	anchorVersion = "version"
	anchorCode    = "code"
	anchorName    = "name"
	// anchorCategory is a name a reader knows the kind of ("MySQL" is a
	// database; see categories).
	anchorCategory = "category"
	// anchorDuration is a length of time ("2 weeks", "three days").
	anchorDuration = "duration"
	// anchorShape is a value whose shape names its kind of thing, and
	// no other kind reads ("Floor 2", "14C"; see shapeOf).
	anchorShape = "shape"
	// anchorAddress is a street address ("14 Birch Lane, Apt 2").
	anchorAddress = "address"
)

// A street address: a number, up to four words and a street's kind, then
// perhaps a unit and a town ("118 Ridge Rd, Dayton", "45 Canal Ave unit
// 3"). reWholeAddress is a stored one, whole; reAnyAddress finds them in
// a clause.
const (
	streetKinds = `St|Street|Ave|Avenue|Rd|Road|Ln|Lane|Ct|Court|Blvd|Boulevard|Dr|Drive|Way|Pl|Place|Ter|Terrace|Row|Cres|Crescent|Close|Parade|Pkwy|Parkway|Hwy|Highway|Sq|Square|Cir|Circle|Trail|Grove|Gardens|Walk|Mews`
	streetPat   = `\d{1,6}[A-Za-z]?\s+(?:[\p{Lu}\d][\p{L}'’.-]*\s+){0,3}(?i:` + streetKinds + `)\b\.?`
	poBoxPat    = `(?i:p\.?\s?o\.?\s+box)\s+\d{1,6}\b`
	unitPat     = `(?:,?\s+(?i:apt|apartment|unit|suite|ste|fl|floor|flat|#)\.?\s*#?[A-Za-z0-9]{1,5}\b)?`
)

var (
	reWholeAddress = regexp.MustCompile(`^(?:` + streetPat + unitPat + `|` + poBoxPat + `)(?:,\s*[\p{L} .]+(?:\s+\d{5})?)?$`)
	reAnyAddress   = regexp.MustCompile(`\b(?:` + streetPat + unitPat + `|` + poBoxPat + `)(?:,\s+\p{Lu}\p{Ll}+(?:\s+[A-Z]{2}\b)?)?`)
)

// rePartOfWhole says the rest of a whole beside a part of it.
var rePartOfWhole = regexp.MustCompile(`\b(?:everything else|all the rest|the rest (?:is|are|of them|of it)|the others (?:are|is)|the remaining \d+)\b`)

// reFaxNumber names a fax's number ("the old one rings to a fax tone"
// names none).
var reFaxNumber = regexp.MustCompile(`\bfax\s*(?:number|no\b|line|#|is\b|:)`)

// addressWords name what a street address is: a new address says them.
var addressWords = map[string]bool{"address": true, "addr": true, "home": true, "house": true, "residence": true, "location": true, "place": true}

var (
	reWholeMoney   = regexp.MustCompile(`^` + moneyPat + `(?:\s?/\s?(?:` + perUnits + `)|\s+(?:an?|per)\s+(?:` + perUnits + `))?$`) // "$18/hour", "$0.67/mile"
	reWholeCount   = regexp.MustCompile(`^\d[\d,]*$`)
	reWholeVersion = regexp.MustCompile(`^v?\d+(?:\.\d+)+$`)
	reWholeCode    = regexp.MustCompile(`^[A-Z]{1,3}-?\d{1,5}$`)
	reWholeEmail   = regexp.MustCompile(`^` + emailPat + `$`)
	reWholePhone   = regexp.MustCompile(`^` + phonePat + `$`)
	reWholeName    = regexp.MustCompile(`^(?:The\s+)?` + nameSeq + `$`)

	reAnyMoney   = regexp.MustCompile(moneyPat)
	reAnyCount   = regexp.MustCompile(`\b\d[\d,]*\b`)
	reAnyVersion = regexp.MustCompile(`\bv?\d+(?:\.\d+)+\b`)
	reAnyCode    = regexp.MustCompile(`\b[A-Z]{1,3}-?\d{1,5}\b`)
	reAnyName    = regexp.MustCompile(nameSeq)

	durationPat     = `(?i:\b(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half an?)(?:\s+(?:minute|hour|day|week|fortnight|month|quarter|year)s?|-(?:minute|hour|day|week|month|quarter|year))\b)`
	reWholeDuration = regexp.MustCompile(`^` + durationPat + `$`)
	reAnyDuration   = regexp.MustCompile(durationPat)
)

// kindOfStored names the kind of a stored value, or "" when Anchor does not
// read it.
func kindOfStored(v string, at time.Time) string {
	k := storedKindMemo.Get(v)
	if k.kind != "" {
		return k.kind
	}
	if storedDate(v, at) || reBareDay.MatchString(v) {
		return anchorDate // "Thursdays": a standing day
	}
	if base, _, _ := strings.Cut(v, " ("); base != v {
		if storedDate(base, at) {
			return anchorDate // "2026-03-10 (March 10)"
		}
	}
	if reWholeAddress.MatchString(v) {
		return anchorAddress
	}
	if k.name {
		return anchorName
	}
	return ""
}

// storedKind is what kindOfStored reads of a value whatever the time:
// the kind its patterns name (before dates), else whether it reads as a
// name (after them).
type storedKind struct {
	kind string
	name bool
}

func scanStoredKind(v string) storedKind {
	switch {
	case categoryOf(v) != "":
		return storedKind{kind: anchorCategory}
	case reWholeDuration.MatchString(v):
		return storedKind{kind: anchorDuration}
	case reWholeEmail.MatchString(v):
		return storedKind{kind: anchorEmail}
	case reWholeMoney.MatchString(v):
		return storedKind{kind: anchorMoney}
	case reWholeVersion.MatchString(v):
		return storedKind{kind: anchorVersion}
	case reWholeCode.MatchString(v):
		return storedKind{kind: anchorCode}
	case reWholeCount.MatchString(v), countNoun(v) != "":
		return storedKind{kind: anchorCount}
	case reWholePhone.MatchString(v) && strings.Count(v, " ")+strings.Count(v, "-") >= 1 && !reISODate.MatchString(v):
		// (2026-03-02 is a date, read after the kinds: kindOfStored)
		return storedKind{kind: anchorPhone}
	}
	return storedKind{name: readsAsName(v)}
}

// readsAsName reports a stored value Anchor reads as a name: capitalised
// words, no digits, four words at most.
func readsAsName(v string) bool {
	return reWholeName.MatchString(v) && !strings.ContainsAny(v, "0123456789") && len(strings.Fields(v)) <= 4
}

// anchorAttrs are key words that name an attribute of a thing rather
// than the thing; each kind of value implies some of them.
var anchorAttrs = map[string][]string{
	"date": {anchorDate}, "day": {anchorDate}, "time": {anchorDate, anchorDuration}, "deadline": {anchorDate}, "when": {anchorDate},
	"appointment": {anchorDate}, "appt": {anchorDate}, "booking": {anchorDate}, "slot": {anchorDate}, "schedule": {anchorDate},
	"owner": {anchorName}, "lead": {anchorName}, "choice": {anchorName}, "provider": {anchorName}, "vendor": {anchorName}, "supplier": {anchorName},
	"expiry": {anchorDate}, "expiration": {anchorDate},
	"pick": {anchorName}, "name": {anchorName}, "location": {anchorName}, "city": {anchorName}, "venue": {anchorName},
	"tool": {anchorName}, "platform": {anchorName}, "assignee": {anchorName}, "contact": {anchorName, anchorEmail, anchorPhone},
	"email": {anchorEmail, anchorPhone}, "mail": {anchorEmail, anchorPhone}, "phone": {anchorPhone, anchorEmail}, "ph": {anchorPhone}, "phn": {anchorPhone}, "number": {anchorPhone, anchorCount},
	"version": {anchorVersion}, "count": {anchorCount}, "size": {anchorCount}, "total": {anchorCount, anchorMoney},
	"price": {anchorMoney}, "cost": {anchorMoney}, "amount": {anchorMoney}, "fee": {anchorMoney}, "rate": {anchorMoney},
	"capacity": nil, "status": nil, "id": {anchorCode}, "code": {anchorCode}, "spot": {anchorName, anchorCode},
	"length": {anchorDuration}, "duration": {anchorDuration}, "term": {anchorDuration}, "notice": {anchorDuration},
	"host": {anchorName}, "done": {anchorCount}, "order": {anchorName}, "headcount": {anchorCount}, "cap": {anchorCount}, "limit": {anchorCount},
}

// anchorWords splits a key into the words that name its thing, which the
// sentence must say, and those that name an attribute.
func anchorWords(key string) (topic, attrs []string) {
	a := anchorWordsMemo.Get(key)
	return a.topic, a.attrs
}

// scanAnchorWords is anchorWords, computed.
func scanAnchorWords(key string) (topic, attrs []string) {
	ws := keyWords(key)
	for i, w := range ws {
		if i+1 < len(ws) && keyCompounds[w+" "+ws[i+1]] != "" {
			// "on_call_owner": one word, said "on call" or "pager";
			// project_manager is the "PM".
			ws[i+1] = keyCompounds[w+" "+ws[i+1]]
			continue
		}
		w = singular(w)
		if len(w) < 2 || stopKeyWords[w] {
			continue
		}
		if _, ok := anchorAttrs[w]; ok {
			// An attribute ("capacity" and "status" are implied by no
			// kind of value: the sentence must say them).
			attrs = append(attrs, w)
			continue
		}
		topic = append(topic, w)
	}
	return topic, attrs
}

// relations are the people a key may name as a fact's owner.
var relations = map[string]bool{"daughter": true, "son": true, "kid": true, "child": true, "wife": true, "husband": true,
	"partner": true, "mom": true, "mum": true, "dad": true, "mother": true, "father": true, "sister": true, "brother": true,
	"baby": true, "toddler": true, "teen": true, "sis": true}

// ownerKey reports a key that names its owner, a relation or a pet
// (pet.vet, kid_school): the one the sentence sends somewhere ("We take
// Pepper to Dr. Ruiz now") is that owner.
func ownerKey(topic []string) bool {
	return slices.ContainsFunc(topic, func(w string) bool { return relations[w] || pets[w] })
}

var pets = map[string]bool{"pet": true, "dog": true, "cat": true, "puppy": true, "kitten": true, "horse": true, "rabbit": true}

// saysOtherRelation reports whether low, a folded sentence, names a
// relation other than w.
func saysOtherRelation(low, w string) bool {
	for r := range relations {
		if r != w && (strings.Contains(low, " "+r+" ") || strings.Contains(low, " "+r+"'s ") || strings.Contains(low, " "+r+"s ") || strings.HasPrefix(low, r+" ")) {
			return true
		}
	}
	return false
}

// moneyNouns name an amount of money: said by an amount ("the signed
// contract came in at $95,000" for contract_value).
var moneyNouns = map[string]bool{"value": true, "amount": true, "price": true, "cost": true, "total": true, "sum": true, "figure": true, "rent": true, "balance": true}

// keyCompounds are two key words read as one topic word, whose topic
// group (topicGroups) says how a sentence names it.
var keyCompounds = map[string]string{"on call": "oncall", "project manager": "pm", "product manager": "pm",
	"human resource": "hr", "human resources": "hr", "zip code": "zip", "postal code": "zip", "job title": "title", "dog walker": "dogwalker", "time zone": "timezone", "release manager": "releaser"}

// stopKeyWords carry no topic ("user.current_address").
var stopKeyWords = map[string]bool{"user": true, "my": true, "current": true, "the": true, "of": true, "new": true, "main": true, "primary": true,
	"preferred": true, "favourite": true, "favorite": true, "chosen": true, "selected": true}

// implied reports whether every attribute word of the key is said in the
// sentence or implied by a value of kind k.
func implied(k string, attrs []string, low string, byValue func(string) bool) bool {
	for _, a := range attrs {
		if k == anchorShape || byValue(a) || slices.Contains(anchorAttrs[a], k) || k == anchorCategory && slices.Contains(anchorAttrs[a], anchorName) || strings.Contains(low, a) || saysSynonym(low, a) {
			continue
		}
		return false
	}
	return true
}

// span is a piece of a clause, by byte offsets.
type span struct {
	start, end int
	text, kind string
}

func (s span) overlaps(o span) bool { return s.start < o.end && o.start < s.end }

// clauseWords splits a clause into its words (runs of letters and
// digits), each folded and singular, where topicSpans looks for a key's
// words.
func clauseWords(cl string) []span {
	var toks []span
	start := -1
	for i, r := range cl + " " {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			toks = append(toks, span{start: start, end: i, text: singular(fold(cl[start:i]))})
			start = -1
		}
	}
	return toks
}

// topicSpans finds the topic words in a clause (toks: its clauseWords),
// each as a word (or its plural, or a word it abbreviates, or a word or
// phrase of its topic: see synonyms), when they lie close together
// (within three words more than there are topic words), and returns where
// each is. A word the value implies (implied) need not be said and has no
// span.
func topicSpans(toks []span, topic []string, implied func(string) bool) ([]span, bool) {
	var out []span
	first, last, said := -1, -1, 0
	for _, w := range topic {
		// "O-line" for oline: a key word written as two.
		at, end := joinedAt(toks, w)
		if at < 0 {
			at, end = slices.IndexFunc(toks, func(t span) bool {
				return t.text == w || shortFor(w, t.text) || shortFor(t.text, w) || doesWork(t.text, w)
			}), 0
		}
		if at >= 0 {
			end = max(end, at)
		} else {
			for _, syn := range synonyms(w) {
				if at, end = phraseAt(toks, syn); at >= 0 {
					break
				}
			}
			if at < 0 && !implied(w) {
				at, end = initialismAt(toks, w)
			}
		}
		if at < 0 {
			if implied(w) {
				continue
			}
			return nil, false
		}
		said++
		if first < 0 || at < first {
			first = at
		}
		last = max(last, end)
		out = append(out, span{start: toks[at].start, end: toks[end].end, text: toks[at].text})
	}
	if last-first > said+3 {
		// "Council tax letter came through, it's gone up to £151 a
		// month": "a month" says monthly, which the amount implies
		// anyway; the topic is the words that only the clause says.
		var only, things []string
		for _, w := range topic {
			if !implied(w) {
				only = append(only, w)
			}
			if !periods[w] {
				things = append(things, w)
			}
		}
		if len(only) == 0 {
			// "my rent went up to $1,525 a month" for monthly_rent:
			// the amount implies "rent" too, but the period is what
			// is said apart.
			only = things
		}
		if len(only) > 0 && len(only) < len(topic) {
			return topicSpans(toks, only, never)
		}
	}
	return out, last-first <= said+3
}

// doesWork reports whether w, a word of a clause, says the work of the
// agent noun a ("walker", "tutor", "officiant") names: "is taking over
// Biscuit's walks", "is doing Sophie's math tutoring now", "Pete is
// officiating now".
func doesWork(w, a string) bool {
	if v, ok := strings.CutSuffix(w, "ing"); ok && len(v) >= 4 {
		if strings.HasPrefix(a, v) && len(a)-len(v) <= 3 {
			return true // walking, tutoring, catering
		}
		if stem, ok := strings.CutSuffix(a, "ant"); ok && len(stem) >= 5 && strings.HasPrefix(v, stem) {
			return true // officiating
		}
		return false
	}
	return len(w) >= 4 && (w+"er" == a || w+"r" == a || w+"or" == a) // walks, drives
}

// phraseAt finds the words of phrase as consecutive tokens and returns
// the first and last token's index, or -1.
func phraseAt(toks []span, phrase string) (int, int) {
	ws := phraseWords.Get(phrase)
	if len(ws) == 0 {
		return -1, -1
	}
	for i := 0; i+len(ws) <= len(toks); i++ {
		ok := true
		for j, w := range ws {
			if toks[i+j].text != w {
				ok = false
				break
			}
		}
		if ok {
			return i, i + len(ws) - 1
		}
	}
	return -1, -1
}

// joinedAt finds a key word written as two, a hyphen or a space apart:
// "O-line" for oline, "walk-in" for walkin. It returns the two words'
// indexes, or -1.
func joinedAt(toks []span, w string) (int, int) {
	for i := 0; i+1 < len(toks); i++ {
		a, b := toks[i], toks[i+1]
		if b.start == a.end+1 && len(a.text)+len(b.text) == len(w) && strings.HasPrefix(w, a.text) && strings.HasSuffix(w, b.text) {
			return i, i + 1
		}
	}
	return -1, -1
}

// initialismAt finds the words a key's initialism stands for ("class rep"
// for CR, "power of attorney" for poa): as many words as its letters, each
// opening with its letter, none a stop word but an "of" for an "o". A
// word of two letters is an initialism only without a vowel ("cr", not
// "ex"). It returns the first and last word's indexes, or -1.
func initialismAt(toks []span, w string) (int, int) {
	if len(w) < 2 || len(w) > 4 || len(w) == 2 && strings.ContainsAny(w, "aeiouy") {
		return -1, -1
	}
	for i := 0; i+len(w) <= len(toks); i++ {
		ok := true
		for j := 0; j < len(w) && ok; j++ {
			t := toks[i+j].text
			ok = len(t) > 1 && t[0] == w[j] && (!lexical.IsStop(t) || t == "of" && j > 0 && j < len(w)-1)
		}
		if ok {
			return i, i + len(w) - 1
		}
	}
	return -1, -1
}

// phraseWords remembers the words of a phrase, singular, as phraseAt
// matches them (the phrases are synonyms').
var phraseWords = newMemo(func(phrase string) []string {
	ws := strings.FieldsFunc(phrase, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r)) })
	for i := range ws {
		ws[i] = singular(ws[i])
	}
	return ws[:len(ws):len(ws)]
})

// saysSynonym reports whether low, a folded sentence, says a word or
// phrase of key word w's topic.
func saysSynonym(low, w string) bool {
	for _, syn := range synonyms(w) {
		if i := strings.Index(low, syn); i >= 0 && (i == 0 || !isWordByte(low[i-1])) {
			return true
		}
	}
	return false
}

// saysInitialism reports a sentence that says the words initialism w
// stands for (initialismAt).
func saysInitialism(sentence, w string) bool {
	if len(w) < 2 || len(w) > 4 {
		return false
	}
	at, _ := initialismAt(clauseWords(sentence), w)
	return at >= 0
}

// shortFor reports whether a is a short form of w that no common word
// could be: four letters or more that open it ("conf", "conference").
func shortFor(a, w string) bool { return len(a) >= 4 && abbreviates(a, w) }

// candidates finds the values of kind k in cl.
func candidates(cl, k string, at time.Time) []span {
	var re *regexp.Regexp
	switch k {
	case anchorDate:
		// "on Mondays now": a weekday that recurs is a day too.
		ds := slices.Clone(dateSpans(cl, at))
		for _, w := range spans(cl, reWeekdayShort, KindDate) {
			if reDayNumberAfter.MatchString(cl[w.end:]) || slices.ContainsFunc(ds, func(d span) bool {
				return d.start >= w.end && d.start <= w.end+6 && !reListJoin.MatchString(cl[w.end:d.start]) // "Mon/Wed/Fri" lists days
			}) {
				continue // "tues the 20th": the date says it
			}
			ds = append(slices.DeleteFunc(ds, func(d span) bool { return d.start >= w.start && d.end <= w.end }), w) // "9am" of "Tues 9am"
		}
		return append(ds, spans(cl, reWeekdays, KindDate)...)
	case anchorMoney:
		re = reAnyMoney
	case anchorCount:
		re = reAnyCount
	case anchorEmail, anchorPhone:
		// One way to reach someone replaces another: a new number
		// after an email address is their new contact.
		return append(spans(cl, reEmail, KindContact), spans(cl, rePhone, KindContact)...)
	case anchorVersion:
		re = reAnyVersion
	case anchorCode:
		re = reAnyCode
	case anchorName:
		re = reAnyName
	case anchorDuration:
		re = reAnyDuration
	case anchorAddress:
		re = reAnyAddress
	}
	var out []span
	if k == anchorName {
		// "so dr reyes is my advisor now": a title makes a lowercase
		// word a name, written as names are ("Dr. Reyes").
		for _, m := range reLowTitled.FindAllStringSubmatchIndex(cl, -1) {
			out = append(out, span{start: m[0], end: m[1], text: titleName(cl[m[2]:m[3]], cl[m[4]:m[5]]), kind: KindChoice})
		}
	}
	for _, m := range re.FindAllStringIndex(cl, -1) {
		v := span{start: m[0], end: m[1], text: cl[m[0]:m[1]], kind: anchorStatementKind(k)}
		if k == anchorName {
			if v, ok := nameCandidate(cl, v); ok {
				out = append(out, v)
			}
			continue
		}
		if k == anchorCount && (inMoneyOrDate(cl, v) || strings.HasPrefix(cl[v.end:], ".") && v.end+1 < len(cl) && cl[v.end+1] >= '0' && cl[v.end+1] <= '9') {
			continue
		}
		if k == anchorMoney && planNames[strings.ToLower(v.text)] {
			continue // "my 401k contribution": a plan, not $401,000
		}
		out = append(out, v)
	}
	if k == anchorCount && len(out) == 0 {
		// "the 5th floor" for a floor stored as "3": an ordinal before a
		// noun counts like its number.
		for _, m := range reOrdinalBefore.FindAllStringSubmatchIndex(cl, -1) {
			out = append(out, span{start: m[2], end: m[3], text: cl[m[4]:m[5]], kind: KindCount})
		}
	}
	if k == anchorCount && !strings.ContainsAny(cl, "0123456789") {
		// "I'm running four times a week now": a count spelled out, read
		// only when the clause has no digits, so that "the two new
		// hires" does not compete with "the team is 10", and not when
		// it opens the clause ("Five people dropped out, so we're down to
		// 35") or counts new ones; a difference ("four more signed up")
		// is read, and withCountDeltas moves the stored count by it.
		for _, m := range reSpelledCount.FindAllStringIndex(cl, -1) {
			if !reDeltaWord.MatchString(cl[m[1]:]) && (strings.TrimSpace(cl[:m[0]]) == "" || reNewAfter.MatchString(cl[m[1]:])) {
				continue
			}
			n := int(countWords[fold(cl[m[0]:m[1]])])
			out = append(out, span{start: m[0], end: m[1], text: strconv.Itoa(n), kind: KindCount})
		}
	}
	return out
}

// reLowTitled is a title and a lowercase surname: "dr reyes", "mrs. chen".
var reLowTitled = regexp.MustCompile(`\b(dr|mr|mrs|ms|prof)\.?\s+([a-z][a-z'’-]{2,})\b`)

// titleName writes a title and a surname said in lowercase as a name.
func titleName(title, name string) string {
	return strings.ToUpper(title[:1]) + title[1:] + ". " + strings.ToUpper(name[:1]) + name[1:]
}

// reOrdinalBefore is an ordinal before a noun: "the 5th floor".
var reOrdinalBefore = regexp.MustCompile(`\b((\d{1,3})(?:st|nd|rd|th))\s+\p{L}`)

// reSpelledCount is a count from two to twelve spelled out ("one" is too
// often a pronoun: "the blue one").
var reSpelledCount = regexp.MustCompile(`(?i)\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b`)

// reNewAfter follows a count of new ones: "the two new hires".
var reNewAfter = regexp.MustCompile(`(?i)^\s+new\b`)

// reByBefore ends a clause's text before an amount of difference: "by".
var reByBefore = regexp.MustCompile(`(?i)(?:\bby\s+(?:another\s+|an?\s+extra\s+)?|\b(?:another|an?\s+extra|an\s+additional)\s+)$`)

// planNames are retirement plans that read like amounts.
var planNames = map[string]bool{"401k": true, "403b": true, "457b": true}

// durationValue writes a length said as an adjective as a length:
// "three-week" (of "three-week sprints") is "3 weeks".
func durationValue(s string) string {
	n, unit, ok := strings.Cut(s, "-")
	if !ok {
		n, unit, ok = strings.Cut(s, " ") // "three weeks" → "3 weeks"
	}
	if !ok {
		return s
	}
	if d, ok := countWords[strings.ToLower(n)]; ok && d == float64(int(d)) {
		n = strconv.Itoa(int(d))
	} else if _, err := strconv.ParseFloat(n, 64); err != nil {
		return s // "an hour"
	}
	unit = strings.TrimSuffix(unit, "s")
	if n != "1" {
		unit += "s"
	}
	return n + " " + unit
}

// reWeekdays is a weekday that recurs, and its hour: "Mondays",
// "Sundays at 11".
var reWeekdays = regexp.MustCompile(`\b(?i:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days\b(?:\s+at\s+\d{1,2}(?:[:.]\d\d)?(?:\s*[ap]m\b|\s*[ap]\.m\.?)?|\s+\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]m\b|[ap]\.m\.?))?`)

// reWeekdayShort is a weekday as texts shorten it, with the time of day
// after it: "Thurs", "Tues 9am", "Wed" (the short forms that are words,
// "sat" and "sun", only capitalised).
var reWeekdayShort = regexp.MustCompile(`\b(?:[Tt]ues|[Tt]hurs?|[Tt]hu|[Ww]eds|[Ff]ri|Mon|Tue|Wed|Sat|Sun)\b\.?(?:\s+\d{1,2}(?:[:.]\d\d)?\s*[ap]\.?m\.?)?`)

// reDayNumberAfter is the day of the month said after a weekday.
var reDayNumberAfter = regexp.MustCompile(`^,?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b`)

// spans are the matches of re in cl, as values of kind.
func spans(cl string, re *regexp.Regexp, kind string) []span {
	var out []span
	for _, m := range re.FindAllStringIndex(cl, -1) {
		out = append(out, span{start: m[0], end: m[1], text: cl[m[0]:m[1]], kind: kind})
	}
	return out
}

// anchorStatementKind is the Statement kind of an anchor kind.
func anchorStatementKind(k string) string {
	switch k {
	case anchorDate:
		return KindDate
	case anchorMoney:
		return KindAmount
	case anchorCount:
		return KindCount
	case anchorEmail, anchorPhone:
		return KindContact
	case anchorName, anchorCategory:
		return KindChoice
	case anchorAddress:
		return KindLocation
	}
	return KindStatus
}

// sameAs reports whether v says the stored value: the same day for dates,
// else the same words (or some of them, for a name: "Astoria" is "Hotel
// Astoria").
func sameAs(stored, v, kind string, at time.Time) bool {
	if kind == anchorDate {
		if d, e := reOnlyWeekday.FindStringSubmatch(strings.TrimSpace(stored)), reOnlyWeekday.FindStringSubmatch(strings.TrimSpace(v)); d != nil && e != nil {
			return strings.EqualFold(d[1], e[1]) // "tuesdays" beside "Tuesday"
		}
		a, okA := takeDate(strings.TrimSpace(strings.SplitN(stored, " (", 2)[0]), at)
		b, okB := takeDate(v, at)
		return okA && okB && a == b
	}
	a, b := strings.Join(words(fold(stored)), " "), strings.Join(words(fold(v)), " ")
	if kind == anchorName || kind == anchorCategory {
		return strings.Contains(" "+a+" ", " "+b+" ") || strings.Contains(" "+b+" ", " "+a+" ")
	}
	if kind == anchorCount && a != b {
		// "we hit 500" says the stored "500 subs", its unit unsaid.
		na, _, _ := strings.Cut(a, " ")
		nb, _, _ := strings.Cut(b, " ")
		return na == nb && (a == na || b == nb)
	}
	return a == b
}

// nameCandidate keeps a capitalised run that names something: not the
// clause's first word unless a verb of choosing follows it, not a pronoun,
// a weekday or a month, at most four words.
func nameCandidate(cl string, v span) (span, bool) {
	if i := tokenStart(cl, v.start); i < v.start {
		v.start, v.text = i, cl[i:v.end] // "Grey!Falcon42": a name is its whole token
	}
	v.text = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(v.text, "'s"), "’s"), ".'’")
	v.end = v.start + len(v.text)
	ws := strings.Fields(v.text)
	if len(ws) == 0 || len(ws) > 4 {
		return v, false
	}
	first := fold(ws[0])
	// "at The Glasshouse": a capital "The" inside a clause is the name's.
	theName := ws[0] == "The" && len(ws) > 1 && strings.TrimSpace(cl[:v.start]) != ""
	if (nameStops[first] || dateWords[first]) && !theName {
		if len(ws) == 1 {
			return v, false
		}
		v.start += len(ws[0]) + 1
		v.text = strings.Join(ws[1:], " ")
	}
	if strings.TrimSpace(cl[:v.start]) == "" && !reChooseAfter.MatchString(afterName(cl[v.end:], anchorName)) {
		return v, false
	}
	return v, true
}

// nameStops are capitalised words that open a clause or name no thing.
var nameStops = map[string]bool{"easter": true, "christmas": true, "thanksgiving": true, "passover": true, "hanukkah": true,
	"diwali": true, "eid": true, "halloween": true, "ramadan": true, "xmas": true, // holidays: "host Easter dinner"
	"i": true, "i'm": true, "i've": true, "i'll": true, "i'd": true, "we": true, "the": true, "a": true, "an": true, "our": true, "my": true, "it": true, "this": true, "that": true, "ok": true, "okay": true, "so": true, "and": true, "but": true, "from": true, "as": true, "ops": true, "hr": true, "it's": true, "they": true, "he": true, "she": true,
	// "Let's proceed with GlobalTech": a word before "'s" that is no name
	"let": true, "here": true, "there": true, "what": true, "who": true, "where": true, "how": true, "everyone": true,
	"everything": true, "nobody": true, "nothing": true, "someone": true, "something": true, "today": true, "tomorrow": true,
	"tonight": true, "now": true, "which": true, "you": true, "everybody": true}

var reChooseAfter = regexp.MustCompile(`^(?:['’]s\s|\s+(?:is|'s|will|now|has|takes|took|owns|runs|leads|handles|wins|won|gets|got|picked|picks|writes|does|signs|speaks|approves|chairs|hosts|manages|coordinates|presents|reviews|organises|organizes|coaches|teaches|trains|tutors|mentors|cuts|walks|cleans|drives|shoots|covers|cooks|caters|plays|started|starts|joined|joins|began))\b`)

// inMoneyOrDate reports a number that is part of an amount, a date, a
// time of day or a version.
func inMoneyOrDate(cl string, v span) bool {
	for _, re := range []*regexp.Regexp{reAnyMoney, reAnyVersion, reTimeOfDay} {
		for _, m := range re.FindAllStringIndex(cl, -1) {
			if m[0] <= v.start && v.end <= m[1] && (m[1]-m[0] > v.end-v.start) {
				return true
			}
		}
	}
	for _, d := range dateSpans(cl, time.Time{}) {
		if d.start <= v.start && v.end <= d.end {
			return true
		}
	}
	before := strings.TrimSpace(cl[:v.start])
	return strings.HasSuffix(before, "$") || strings.HasSuffix(before, "£") || strings.HasSuffix(before, "€")
}

// dateSpans finds the date phrases of cl with the date library.
func dateSpans(cl string, at time.Time) []span {
	if !hasDateCue(cl) {
		return nil
	}
	var out []span
	off := 0
	for i := 0; i < 4 && off < len(cl); i++ {
		r, err := dateParser.Parse(cl[off:], at)
		if err != nil || r == nil {
			break
		}
		if m := reJoinedClause.FindStringIndex(r.Text); m != nil && m[0] > 0 {
			// "at 8:30 a.m., as Monday mornings have proven
			// impractical": the library reads on into the next clause.
			r.Text = r.Text[:m[0]]
		}
		text := strings.TrimSpace(r.Text)
		if t, ok := strings.CutPrefix(r.Text, "now "); ok && strings.TrimSpace(t) != "" {
			// "is now 9:45am": "now" says when, as after.
			r.Index += len("now ")
			r.Text, text = t, strings.TrimSpace(t)
		}
		if t, ok := strings.CutSuffix(strings.TrimRight(r.Text, " "), " now"); ok && strings.TrimSpace(t) != "" {
			// "Tuesdays at 6pm now": the library reads "now" with the
			// time, but it says when, not what.
			r.Text, text = t, strings.TrimSpace(t)
		}
		s := off + r.Index
		if p := reMonthPart.FindStringIndex(cl[off:s]); p != nil && reMonthOnly.MatchString(strings.TrimSuffix(text, " now")) {
			// "end of May": the part of the month is the date's ("now"
			// the library reads with it is not).
			n := len(strings.TrimSuffix(text, " now"))
			text = strings.TrimSpace(cl[off+p[0] : s+n])
			r.Text = cl[off+p[0] : s+n]
			s = off + p[0]
		}
		end := s + len(r.Text)
		if d := reDayAfterWeekday.FindStringSubmatchIndex(cl[end:]); d != nil && reWeekdayOnly.MatchString(text) {
			// "Saturday the 24th": the day of the month says which
			// Saturday.
			text = "the " + cl[end+d[2]:end+d[3]]
			end += d[1]
			r.Text = cl[s:end]
		}
		if !reAmbiguousDate.MatchString(fold(text)) && (reDateWord.MatchString(text) || reTimeOfDay.MatchString(text) || reBareOrdinal.MatchString(text)) {
			out = append(out, span{start: s, end: end, text: text, kind: KindDate})
		}
		off = end
		if len(r.Text) == 0 {
			break
		}
	}
	return out
}

// withoutNewsDay drops, of a clause's dates, a day said relative to the
// turn ("today", "yesterday") that a comma parts from a date said in
// full: "The M3 milestone is shifted to 10 April, the customer has
// confirmed it today in the call" says when the news came, not the
// milestone's day. ("Moved the call from Friday to today" keeps it.)
func withoutNewsDay(cl string, cands []span) []span {
	full := slices.IndexFunc(cands, func(v span) bool { return !reNewsDay.MatchString(v.text) })
	if full < 0 {
		return cands
	}
	f := cands[full]
	return slices.DeleteFunc(slices.Clone(cands), func(v span) bool {
		if !reNewsDay.MatchString(v.text) {
			return false
		}
		lo, hi := min(v.end, f.end), max(v.start, f.start)
		return lo <= hi && strings.Contains(cl[lo:hi], ",")
	})
}

// reNewsDay is a day said relative to the turn, alone.
var reNewsDay = regexp.MustCompile(`(?i)^(?:today|yesterday|tonight|this (?:morning|afternoon|evening)|earlier today|last night)$`)

var (
	// reJoinedClause is a comma and the conjunction that opens another
	// clause.
	reJoinedClause = regexp.MustCompile(`(?i),\s+(?:as|since|because|but|so|and|while|though|although|which|whereas|given)\b`)
	// reWeekdayOnly is a weekday said alone: "Saturday", "this Fri".
	reWeekdayOnly = regexp.MustCompile(`(?i)^(?:(?:this|next|on)\s+)?` + dayName + `\.?$`)
	// reDayAfterWeekday is the day of the month said after a weekday:
	// " the 24th", ", 24th".
	reDayAfterWeekday = regexp.MustCompile(`^,?\s+(?:the\s+)?(\d{1,2}(?:st|nd|rd|th))\b`)
)

// linked reports whether v is no topic word and only linking words, at
// most six, stand between it and the nearest topic word on one side.
func linked(cl string, topic []span, v span, kind string, attrs []string) bool {
	left, right := -1, len(cl)+1
	for _, t := range topic {
		if t.overlaps(v) {
			return false
		}
		if t.end <= v.start {
			left = max(left, t.end)
		}
		if t.start >= v.end {
			right = min(right, t.start)
		}
	}
	if left >= 0 {
		left = max(left, attrSaidBefore(cl[:v.start], left, attrs))
		if kind == anchorPhone || kind == anchorEmail {
			// "Amex GBT gave our account a new dedicated line, it's
			// 800-555-0177": the new way to reach, said nearer the
			// value ("her work line is …" is another line).
			if ms := reNewContactLabel.FindAllStringIndex(cl[left:v.start], -1); ms != nil {
				left += ms[len(ms)-1][1]
			}
		}
	}
	// "New handle on X: @mirabuilds": a label, then its value. "I gave
	// you the wrong USt-ID before, the correct one is DE298374651": the
	// right one of the topic said.
	return left >= 0 && (onlyLinks(between(cl[left:v.start], kind), kind, attrs) || strings.HasSuffix(strings.TrimSpace(cl[left:v.start]), ":") || reRightOne.MatchString(cl[:v.start]) || reSoItIs.MatchString(cl[left:v.start]) || reResetNewOne.MatchString(cl[left:v.start]) || kind == anchorMoney && raisedThenPaid(cl, topic, v)) || right <= len(cl) && (onlyLinks(reOwnerBefore.ReplaceAllString(afterName(cl[v.end:right], kind), " "), kind, attrs) || reCleft.MatchString(cl[v.end:right]))
}

// afterName is the text after a name without where the one named is from:
// "Frank Delgado from church is my handyman now".
func afterName(s, kind string) string {
	if kind != anchorName {
		return s
	}
	return reNamesOrigin.ReplaceAllString(s, " $1")
}

// reNamesOrigin says where a person named is from, before the verb.
var reNamesOrigin = regexp.MustCompile(`^\s*(?:from|over at|down at)\s+(?:the\s+|my\s+|our\s+)?[\p{L}'’-]+(?:\s+(?:church|club|street|center|centre|school|office|group))?\s+((?:is|are|was|will be|has been|['’]s)\s)`)

// reRightOne closes the text before a value with the right one of the
// thing said wrong before it.
var reRightOne = regexp.MustCompile(`(?i)\bwrong\b[^;:]*,\s*(?:(?:the|that)\s+)?(?:correct|right|actual|real|proper)\s+one\s+(?:is|['’]s)\s*$`)

// reSoItIs is the text between a topic and its value that says the
// value as what the topic is now, after what was done to it: "I loaded
// more money on my laundry card so it's at $35 now".
var reSoItIs = regexp.MustCompile(`(?i)^\s*,?\s*(?:so|and|and so|which means)\s+(?:now\s+)?(?:it['’]s|it is|its)\s+(?:now\s+)?(?:at\s+|up to\s+|down to\s+|on\s+)?$`)

// reResetNewOne is the text between a topic and its value that says the
// topic was reset and names the new one: "HR copier PIN got reset after
// someone taped it to the wall, new one is 8302".
var reResetNewOne = regexp.MustCompile(`(?i)^\s+(?:got\s+|was\s+|has been\s+|had to be\s+|just\s+)?(?:reset|changed|rotated|updated|replaced|reissued|redone)\b[^;:]*,\s*(?:and\s+)?(?:the\s+)?new\s+(?:one|code|pin|number|password|pw|combo|combination)\s+(?:is|['’]s)\s*$`)

// A raise said of the topic, then what the speaker pays or gets from
// when: "Landlord raised the rent, from February I need to pay $1,550
// every month", "Department increase stipend, start this month I get
// $2,450". reRaisedBefore ends the text before the topic on the change;
// rePaidBefore is the text from the topic to the amount.
var (
	reRaisedBefore = regexp.MustCompile(`(?i)\b(?:rais|increas|lower|reduc|cut|hik|bump|drop|adjust|chang|upp)[a-z]*\s+(?:(?:the|my|our|his|her|their|its)\s+)?$`)
	rePaidBefore   = regexp.MustCompile(`(?i)^[^.;:]*?,\s*(?:(?:from|starting|start|as of|beginning|effective|since)\s+[^,]{1,25}?,?\s+)?(?:so\s+)?(?:i|we)\s+(?:now\s+)?(?:(?:need|have|has|got)(?:\s+to)?\s+|must\s+|will\s+|['’]ll\s+|am\s+|['’]m\s+)?(?:pay|paying|get|getting|receive|receiving|earn|earning|owe)\s+(?:only\s+|just\s+)?$`)
)

// raisedThenPaid reports an amount linked to the topic said before it by
// a raise of the topic and what the speaker pays or gets (reRaisedBefore,
// rePaidBefore).
func raisedThenPaid(cl string, topic []span, v span) bool {
	for _, t := range topic {
		if t.end <= v.start && reRaisedBefore.MatchString(cl[:t.start]) && rePaidBefore.MatchString(cl[t.end:v.start]) {
			return true
		}
	}
	return false
}

// attrSaidBefore returns the end of the last of words (the key's, with
// their synonyms) said in text after from ("dentist office called and
// pushed my appt to jan 20": "appt" of dentist_appt), or from: the
// topic's link to its value may start there.
func attrSaidBefore(text string, from int, attrs []string) int {
	low := lexical.LowerASCII(text) // keeps text's offsets
	end := from
	for _, a := range attrs {
		for _, w := range append([]string{a}, synonyms(a)...) {
			for i := from; ; {
				j := strings.Index(low[i:], w)
				if j < 0 {
					break
				}
				at, e := i+j, i+j+len(w)
				if e < len(low) && low[e] == 's' {
					e++
				}
				if (at == 0 || !isWordByte(low[at-1])) && (e == len(low) || !isWordByte(low[e])) {
					end = max(end, e)
				}
				i = i + j + len(w)
			}
		}
	}
	return end
}

// between is the text from a topic to its value, without the words that
// say which thing or whom the topic is: a place or a person named after
// it ("your table at Luca is now booked for 8pm"), the speaker's own
// undertaking ("the exec sponsor for the program is"), the kind of thing
// the value is ("our landlord is a company called Parkview"), and, before
// a way to reach someone, whom it reaches ("Reach Jo at jo@new.io").
func between(s, kind string) string {
	s = strings.TrimLeft(reCompoundRest.ReplaceAllString(s, ""), " ") // "-in" of "check-in", read as "check"
	s = reItIsBefore.ReplaceAllString(s, " is ")                      // "a new telephone number, it is 555-0192"
	s = reKindCalled.ReplaceAllString(reAllScope.ReplaceAllString(reScopeAfter.ReplaceAllString(reNamedAfter.ReplaceAllString(reWithWhom.ReplaceAllString(" "+s, "$1"), " "), " "), " "), " ")
	s = reOwnerBefore.ReplaceAllString(s, " ") // "taking over Biscuit's walks": the topic's owner is the topic's
	s = reTopicsName.ReplaceAllString(s, " ")  // "Coach Dana's number": the topic's own name
	s = reByHowMuch.ReplaceAllString(s, " ")   // "pushed the workshop back a week, to June 25"
	s = reOfficeActed.ReplaceAllString(s, " ") // "Dentist's office called and bumped me to January 27"
	s = reInCalendar.ReplaceAllString(s, " ")  // "moved the bridge tournament in your diary to …"
	if kind == anchorEmail || kind == anchorPhone {
		s = reWhomReached.ReplaceAllString(s, " ")
	}
	return s
}

// reInCalendar is where the speaker keeps a thing's date, named after
// the thing: " in your diary", " on my calendar".
var reInCalendar = regexp.MustCompile(`(?i)^\s*(?:in|on)\s+(?:your|my|our|the)\s+(?:shared\s+|work\s+|family\s+)?(?:diary|calendar|calender|schedule|planner|agenda|google calendar)\b`)

// reNewContactLabel is a new way to reach someone: "a new dedicated line".
var reNewContactLabel = regexp.MustCompile(`(?i)\bnew\s+(?:[a-z-]+\s+)?(?:line|number|phone|cell|mobile|e-?mail|address|contact)\b`)

// reOfficeActed is a provider's office that acted on the speaker's
// booking with it: "'s office called and bumped me to".
var reOfficeActed = regexp.MustCompile(`(?i)^\s*['’]s\s+(?:office|clinic|practice|surgery|receptionist|front desk)\s+(?:called|rang|phoned|texted|emailed|wrote)(?:\s+(?:me|us))?\s+(?:and|to say they|to say it)\s+`)

// reByHowMuch is how far a change moved a date, said before where to:
// "back a week, to", "got pushed a week, it's".
var reByHowMuch = regexp.MustCompile(`(?i)\b(?:(?:back|forward|out|up|ahead)\s+|(?:pushed|moved|bumped|postponed|delayed|slipped)\s+(?:by\s+)?)(?:a|an|one|two|three|four|\d+)\s+(?:day|week|month)s?\s*,?`)

// reTopicsName is the name of the topic said right after it, as its
// possessive: "Dana's" of "Coach Dana's number".
var reTopicsName = regexp.MustCompile(`^\s*\p{Lu}[\p{L}-]*['’]s\s`)

// reOwnerBefore is a name's possessive that ends the text before a topic.
var reOwnerBefore = regexp.MustCompile(`\s\p{Lu}[\p{L}-]*['’]s\s*$`)

// reWhomReached is whom a contact verb reaches: " Jo at", " Priya on".
var reWhomReached = regexp.MustCompile(`^\s+\p{Lu}[\p{L}'’-]*\s+(?:at|on)\s*$`)

// keepsStored reports a sentence that says the stored value stays: a verb
// of keeping ("stay", "stick with", "keep", "remain", "still") followed
// within four words by the stored value's first word: "decided to stay
// on Payments", "we're sticking with Comcast", "Murakami is still my
// favourite" (the value before "still" too).
//
// The stored value's last word says it too when it holds a digit: "prod
// stays on 13 until then" keeps "Postgres 13".
func keepsStored(low, stored string) bool {
	sw := words(fold(stored))
	if len(sw) == 0 {
		return false
	}
	first, last := sw[0], sw[len(sw)-1]
	if titleWords[strings.TrimSuffix(first, ".")] && len(sw) > 1 {
		first = sw[1] // "the kids are staying with Okafor" keeps "Dr. Okafor"
	}
	numbered := strings.ContainsAny(last, "0123456789")
	count := strings.Trim(first, "0123456789") == "" // "staying at 2" keeps "2 weeks"
	if len(first) < 3 && !numbered && !count {
		return false
	}
	// "stays at 34" keeps "34F": a number said without its unit (of a
	// value that is only that: "still 3:15" keeps one part of "Marriott
	// lobby 3:15pm", not the value).
	unitless := strings.TrimRightFunc(last, unicode.IsLetter)
	if len(sw) > 1 || len(last)-len(unitless) > 3 || strings.Trim(unitless, "0123456789.") != "" {
		unitless = last
	}
	says := func(w string) bool {
		// "Maria's still doing my books"; "still the 24th" keeps "Jan 24".
		w = strings.TrimSuffix(w, "'s")
		return w == first && (len(first) >= 3 || count) || numbered && (w == last || w == unitless || strings.TrimRight(w, "stndrh") == last)
	}
	// "Cool Breeze still has this one" keeps "Cool Breeze HVAC": the
	// name's first two words, then "still".
	saysTwo := func(ws []string, i int) bool {
		return len(sw) > 2 && i > 1 && ws[i-2] == sw[0] && strings.TrimSuffix(ws[i-1], "'s") == sw[1]
	}
	for _, i := range lexical.WordIndexes(low, "back to") {
		// "… back to 10 tomorrow like PT said": the stored value is the
		// one the speaker returns to, the standing one.
		if strings.HasPrefix(strings.Join(words(low[i+len("back to"):]), " ")+" ", strings.Join(sw, " ")+" ") {
			return true
		}
	}
	if q := storedQualifier(stored); q != "" {
		// "Pilates 10-class packs are now $180, drop-in price stays the
		// same" keeps "$20 drop-in": the stored amount's qualifier, then
		// that it stays.
		for _, i := range lexical.WordIndexes(low, q) {
			if reKeptAfter.MatchString(low[i+len(q):]) {
				return true
			}
		}
	}
	// "she's never leaving elm st": to deny leaving is to stay; "glad I
	// got in at $185": what the speaker secured stays theirs.
	ws := words(reGotInAt.ReplaceAllString(reNotLeaving.ReplaceAllString(low, " stay "), " stay at "))
	for i, w := range ws {
		if !keepWords[w] {
			continue
		}
		if i > 0 && (says(ws[i-1]) || saysTwo(ws, i) || i > 1 && ws[i-1] == "is" && (ws[i-2] == last || says(ws[i-2]))) && w == "still" {
			return true
		}
		if w == "stands" {
			// "so the 17th stands": the value, then that it stands.
			if i > 0 && says(ws[i-1]) {
				return true
			}
			continue
		}
		for j := i + 1; j < len(ws) && j <= i+4; j++ {
			if says(ws[j]) {
				return true
			}
		}
	}
	return false
}

// storedQualifier is the word after a stored amount or count that says
// which of its kind it is ("drop-in" of "$20 drop-in"), or "".
func storedQualifier(stored string) string {
	f := strings.Fields(fold(stored))
	if len(f) != 2 || !strings.ContainsAny(f[0], "0123456789") || strings.ContainsAny(f[1], "0123456789/") || len(f[1]) < 4 {
		return ""
	}
	return f[1]
}

// reKeptAfter says, after a thing's qualifier, that it stays: " price
// stays the same", " rate is unchanged".
var reKeptAfter = regexp.MustCompile(`^(?:\s+[a-z]+)?\s+(?:stays|stayed|remains|remained|is\s+(?:still|unchanged|the same)|unchanged|untouched|didn['’]t change|hasn['’]t changed)\b`)

// reNotLeaving denies leaving a value: "never leaving", "not giving up",
// "won't move out of".
var reNotLeaving = regexp.MustCompile(`\b(?:never|not|n't|no way (?:i'm|she's|he's|we're))\s+(?:be\s+)?(?:leaving|giving up|moving out of|moving from|quitting|dropping|switching from|leave|give up|move out of|quit|drop)\b`)

// reGotInAt is what the speaker secured before a change: "got in at",
// "locked in at", "grandfathered at".
var reGotInAt = regexp.MustCompile(`\b(?:got in|locked in|locked it in|grandfathered|grandfathered in|signed up|registered)\s+at\b`)

// KeepsStored reports a sentence that says the stored value stays
// ("… but decided to stay on Payments", "prod stays on 13 until then"):
// whatever else it names, it changes nothing of that fact.
func KeepsStored(sentence, stored string) bool { return keepsStored(fold(sentence), stored) }

// subjectOthersAttr reports a clause whose subject names the key's
// attribute of another thing: "The fringe benefit rate has gone up to 31%"
// for indirect_cost_rate. A percentage names no thing of its own.
func subjectOthersAttr(clow string, topic, attrs []string) bool {
	m := reOtherThingSubject.FindStringSubmatch(clow)
	if m == nil {
		return false
	}
	other, attr := false, false
	for _, w := range strings.Fields(m[1] + " " + m[2]) {
		w = singular(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
		switch {
		case slices.ContainsFunc(topic, func(t string) bool { return t == w || shortFor(t, w) || shortFor(w, t) || synonymous(t, w) }):
			return false
		case slices.Contains(attrs, w) || slices.Contains(topic, w):
			attr = true
		case !genericNouns[w] && !lexical.IsStop(w) && !plainModifiers[w]:
			other = true
		}
	}
	return other && attr
}

// OthersAttr reports a sentence with a clause whose subject names the
// key's attribute of another thing (subjectOthersAttr): "The fringe
// benefit rate has gone up to 31%" beside indirect_cost_rate.
func OthersAttr(sentence, key string) bool {
	topic, attrs := anchorWords(key)
	if len(topic) == 0 || len(attrs) == 0 {
		return false
	}
	for _, cl := range splitClauses(sentence) {
		cl, _ = stripLead(strings.TrimSpace(cl))
		if subjectOthersAttr(fold(cl), topic, attrs) {
			return true
		}
	}
	return false
}

// reOtherThingSubject opens a clause on a thing named by its noun, then a
// verb: "the parking fee is going up", "our water bill went up".
var reOtherThingSubject = regexp.MustCompile(`^(?:[a-z'’]+\s+){0,5}?(?:say|said|says|that)\s+` + thingSubject + `|^` + thingSubject)

// thingSubject is a noun phrase of one to three words after a determiner,
// then a verb of being or of change.
const thingSubject = `(?:the|my|our|their|his|her|this|that|a|an)\s+((?:[a-z'’-]+\s+){0,2}?[a-z'’-]+)\s+(?:is|are|was|were|has|have|had|will|went|goes|going|got|gets|just|now|increased|decreased|rose|dropped|fell|jumped|climbed|moved|changed|switched|stays|stayed|became|becomes)\b`

// periodWord reports a word that says a period an amount is paid for.
func periodWord(w string) bool {
	return periods[w] || strings.HasPrefix(w, "month") || strings.HasPrefix(w, "week") || strings.HasPrefix(w, "year") || strings.HasPrefix(w, "annual")
}

// genericNouns stand for any fact's value: "the rate is going up".
var genericNouns = map[string]bool{"rate": true, "price": true, "cost": true, "amount": true, "total": true, "number": true, "figure": true,
	"payment": true, "bill": true, "charge": true, "one": true, "value": true, "new": true, "date": true, "time": true, "day": true, "slot": true}

// subjectNamesOther reports a clause whose subject is a thing of its own
// ("the parking fee", "our water bill"), none of whose words is a word of
// the key or a generic noun that could stand for it: an amount said of
// it is not the key's, however well its kind fits.
func subjectNamesOther(clow string, topic, attrs []string, namesCat func(string) bool) bool {
	m := reOtherThingSubject.FindStringSubmatch(clow)
	if m == nil {
		return false
	}
	for _, w := range strings.Fields(m[1] + " " + m[2]) {
		w = singular(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
		if genericNouns[w] || namesCat(w) || slices.ContainsFunc(topic, func(t string) bool { return t == w || shortFor(t, w) || shortFor(w, t) || synonymous(t, w) }) ||
			slices.ContainsFunc(attrs, func(t string) bool { return t == w || synonymous(t, w) }) {
			return false
		}
	}
	return true
}

var keepWords = map[string]bool{"stay": true, "stays": true, "staying": true, "stayed": true, "stick": true, "sticking": true,
	"keep": true, "keeping": true, "kept": true, "remain": true, "remains": true, "remaining": true, "still": true, "stands": true}

// bareHours reads the hours said without "am" or "pm" ("at 7 instead of
// 6") as times of the stored time of day's half of the day, when the
// stored value is a bare hour ("6am", "9:30pm"): the speaker who keeps a
// 6am gym slot and now goes "at 7" goes at 7am. An hour before a noun
// ("at 7 people"), a colon or a unit is not a time.
func bareHours(cl, stored string) []span {
	m := reStoredHour.FindStringSubmatch(fold(strings.TrimSpace(stored)))
	if m == nil {
		return nil
	}
	old, _ := strconv.Atoi(m[1])
	var out []span
	for _, h := range reHourAfter.FindAllStringSubmatchIndex(cl, -1) {
		n, _ := strconv.Atoi(cl[h[2]:h[3]])
		rest := cl[h[3]:]
		if n < 1 || n > 12 || rest != "" && (rest[0] == ':' || rest[0] == '%' || rest[0] == '.' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9') {
			continue
		}
		if w := words(fold(rest)); len(w) > 0 && !hourFollowers[w[0]] && !(rest[0] == ',' || rest[0] == ';') {
			continue
		}
		out = append(out, span{start: h[2], end: h[3], text: cl[h[2]:h[3]] + halfOf(old, m[2], n), kind: KindDate})
	}
	return out
}

// halfOf is the half of the day of hour n said bare beside a stored time
// at hour old of half: the stored half, but "9am" moved to "at 1" is 1pm.
func halfOf(old int, half string, n int) string {
	if half == "am" && old >= 7 && old != 12 && (n < 7 || n == 12) {
		return "pm"
	}
	return half
}

// HourLike writes an hour said bare ("5", as a rule reads "pickup is 5
// now") for a stored time of day in the stored time's half of the day:
// "5pm" beside "5:30pm".
func HourLike(stored, v string) (string, bool) {
	m := reStoredHour.FindStringSubmatch(fold(strings.TrimSpace(stored)))
	h, mins, _ := strings.Cut(strings.TrimSpace(v), ":") // "3:00" beside "3:15pm" is 3:00pm
	n, err := strconv.Atoi(h)
	if m == nil || err != nil || n < 1 || n > 12 || mins != "" && !reMinutes.MatchString(mins) {
		return "", false
	}
	old, _ := strconv.Atoi(m[1])
	if mins != "" {
		h += ":" + mins
	}
	return h + halfOf(old, m[2], n), true
}

var reMinutes = regexp.MustCompile(`^[0-5]\d$`)

var (
	reStoredHour = regexp.MustCompile(`^(\d{1,2})(?::\d\d)?\s?(am|pm)$`)
	reHourAfter  = regexp.MustCompile(`(?i)\b(?:at|by|to|until|till|of|is|was|be)\s+(\d{1,2})\b`)
	// hourFollowers may follow a bare hour: "at 7 instead", "at 7 now",
	// "at 7, since …"; any other word makes it a count ("to 7 people").
	hourFollowers = map[string]bool{"instead": true, "now": true, "sharp": true, "every": true, "each": true, "on": true,
		"most": true, "since": true, "and": true, "or": true, "so": true, "because": true, "these": true, "from": true,
		"starting": true, "going": true, "daily": true, "tomorrow": true, "today": true, "tonight": true, "in": true}
)

// labelsTopic reports a clause that names the value of the clause
// before as the topic's: "The credit union matched us at 6.1%, so that's
// our rate".
func labelsTopic(next string, topic, attrs []string) bool {
	m := reThatsOur.FindStringSubmatch(next)
	if m == nil {
		return false
	}
	w := singular(m[1])
	return slices.Contains(topic, w) || slices.Contains(attrs, w)
}

var reThatsOur = regexp.MustCompile(`^(?:so\s+|and\s+)?(?:that['’]s|that is|which is|that will be|that'll be)\s+(?:now\s+)?(?:our|my|the)\s+(?:new\s+)?([\p{L}-]+)\s*(?:now)?[.!]?$`)

// modifierOf reports a value v that modifies the topic right after it
// ("the Growth team") in a noun phrase a preposition of dealing opens:
// "to", "with", "for", "about", "from", "against", "than", "like", "by".
func modifierOf(cl string, v span, topic []span) bool {
	if !slices.ContainsFunc(topic, func(t span) bool { return t.start >= v.end && strings.TrimSpace(cl[v.end:t.start]) == "" }) {
		return false
	}
	ws := words(fold(cl[:v.start]))
	for len(ws) > 0 && (determiners[ws[len(ws)-1]] || ws[len(ws)-1] == "our" || ws[len(ws)-1] == "my") {
		ws = ws[:len(ws)-1]
	}
	return len(ws) > 0 && dealingPreps[ws[len(ws)-1]]
}

var dealingPreps = map[string]bool{"to": true, "with": true, "for": true, "about": true, "from": true, "against": true, "than": true, "like": true, "by": true}

// hasUpper reports a text with a capital letter.
func hasUpper(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }

// lowerNames reads the names a writer who never capitalises gives as a
// thing's holder: the one word right before "is our …" or "'s our …", or
// right after "is now" that closes the clause or comes before "now" ("rosa
// is our nanny now", "the nanny is now rosa"), or before a verb of doing
// the thing (reLowerDoer). Each is written capitalised.
func lowerNames(cl string) []span {
	var out []span
	for _, re := range []*regexp.Regexp{reLowerHolder, reLowerIsNow, reLowerDoer} {
		for _, m := range re.FindAllStringSubmatchIndex(cl, -1) {
			w := cl[m[2]:m[3]]
			if len(w) < 3 || nameStops[w] || lowerNotNames[w] || relations[w] || pets[w] {
				continue
			}
			out = append(out, span{start: m[2], end: m[3], text: strings.ToUpper(w[:1]) + w[1:], kind: KindChoice})
		}
	}
	return out
}

var (
	reLowerHolder = regexp.MustCompile(`(?:^|\s)([a-z]+)\s+(?:is|['’]s)\s+(?:now\s+)?(?:our|my|the)\s`)
	reLowerIsNow  = regexp.MustCompile(`\b(?:is|['’]s)\s+now\s+([a-z]+)(?:\s+now)?\s*$`)
	// reLowerDoer is the one word before a verb of doing the thing for the
	// speaker: "tyler is running the north crew now", "kevin at the same
	// office handles our insurance now".
	reLowerDoer = regexp.MustCompile(`(?:^|[\s,])([a-z]+)(?:\s+(?:at|from)\s+(?:the\s+)?(?:same\s+)?[a-z]+)?\s+(?:(?:is|['’]s)\s+(?:now\s+)?(?:running|handling|doing|leading|taking over|covering|managing)|handles|runs|leads|took over|takes over|manages|covers)\s+(?:the|our|my)\s`)
	// lowerNotNames are words that stand where a lower-case name would.
	lowerNotNames = map[string]bool{"she": true, "shes": true, "he": true, "hes": true, "who": true, "which": true, "one": true, "mine": true,
		"ours": true, "hers": true, "his": true, "theirs": true, "yours": true, "also": true, "still": true, "just": true, "only": true,
		"now": true, "here": true, "there": true, "then": true, "someone": true, "nobody": true, "everyone": true, "anyone": true,
		"same": true, "different": true, "done": true, "fine": true, "good": true, "new": true, "back": true, "gone": true, "out": true,
		"officially": true, "finally": true, "basically": true, "honestly": true, "literally": true, "actually": true}
)

// reAllScope is every one of the speaker's things the value holds for,
// named after a topic: "trash pickup for all 3 bldgs (to Thurs)".
var reAllScope = regexp.MustCompile(`(?i)^\s+for\s+(?:all|every|each)\s+(?:(?:\d+|two|three|four|five|the|our|my|of the|of our|of my)\s+)*[\p{L}-]+\b`)

// reNamedAfter is a place or a person named right after a topic: " at
// Luca", " with Priya".
var reNamedAfter = regexp.MustCompile(`^\s+(?:at|with)\s+\p{Lu}[\p{L}'’]*(?:\s+\p{Lu}[\p{L}'’]*){0,2}\b`)

// reItIsBefore says the value of what the clause named, right before it:
// ", it is", ", it's now", "earlier, it's actually", ", new one is",
// after the change's cause: "postponed the race for the gale forecast,
// it's Saturday the 24th now".
var reItIsBefore = regexp.MustCompile(`(?i)(?:(?:^|\s+)(?:earlier|before|above|again|i gave you|i sent you|i sent|got reset|was reset|changed|got changed)|(?:^|\s+)(?:for|because of|due to|thanks to|after)\s+(?:[\w'’-]+\s+){0,3}[\w'’-]+)?,\s*(?:and\s+|so\s+)?(?:it['’]s|it is|it['’]ll be|it will be|that['’]s|which is|(?:the\s+)?(?:new|right|correct)\s+one(?:['’]s|\s+is))(?:\s+now|\s+actually|\s+really)?\s*$`)

// reCompoundRest is the rest of a hyphenated word whose first part said
// the topic.
var reCompoundRest = regexp.MustCompile(`^-\p{L}+`)

// reWithWhom is whom or where the topic is had, said before where it
// went: " with the bridal shop to" of "your dress fitting with the
// bridal shop to February 14".
var reWithWhom = regexp.MustCompile(`^\s+(?:at|with)\s+(?:the|your|my|our)\s+(?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+(\s+(?:to|for)\s)`)

// reScopeAfter is the speaker's own undertaking, or the span or place a
// value holds for, named after a topic: "the new exec sponsor for the
// program is …", "our team budget for the season is …" (another's, "for
// the mobile team", is two words and stays).
var reScopeAfter = regexp.MustCompile(`(?i)^\s+(?:for|of|on)\s+(?:the|our|this)\s+(?:program|programme|project|initiative|launch|event|account|product|trip|wedding|party|conference|offsite|release|campaign|deal|contract|season|year|semester|term|quarter|building|house|household|home|apartment|flat|property|units?|family|kids|club|league|course|class|tournament|manual|book|paper|thesis|report|translation|job|article|chapter|grant|proposal|application|submission|audit)\b`)

// reKindCalled is the kind of a thing before its name: "a company
// called", "an agency named".
var reKindCalled = regexp.MustCompile(`(?i)\b(?:a|an)\s+(?:[\p{L}-]+\s+){1,2}(?:called|named)\s*$`)

// reCleft links a value to a topic it is the place or time of: "Chipotle
// is where we grab lunch", "Friday is when we meet".
var reCleft = regexp.MustCompile(`(?i)^\s*(?:is|'s|’s|has become|became|will be)\s+(?:now\s+)?(?:where|when)\s+(?:we|i|they|you|the team|everyone)\s+(?:\w+\s+){0,2}$`)

// onlyLinks reports whether between holds at most six words, each a
// linking word or one of the key's attribute words.
func onlyLinks(between, kind string, attrs []string) bool {
	ws := words(fold(between))
	if len(ws) > 6 {
		return false
	}
	for _, w := range ws {
		if !linkWords[w] && !slices.Contains(attrs, singular(w)) && !slices.Contains(kindNouns[kind], singular(w)) && !slices.ContainsFunc(attrs, func(a string) bool { return synonymous(a, w) }) {
			return false
		}
	}
	return true
}

// kindNouns name the value of a kind in a compound ("the venue hire was
// cut to £8,550", "the dentist appointment moved to May 3"): they may
// stand between a topic and a value of that kind.
var kindNouns = map[string][]string{
	anchorMoney: {"hire", "fee", "cost", "price", "quote", "total", "bill", "charge", "rate", "amount", "rent", "figure", "spend",
		"due", "dues", "premium", "payment", "tuition", "fare", "deposit", "subscription", "membership", "plan"},
	// A place's own noun may close the topic: "the coworking space on Thursdays".
	anchorDate: {"date", "day", "time", "deadline", "appointment", "appt", "slot", "session", "meeting", "booking",
		"space", "office", "studio", "centre", "center", "hub",
		// An event's own noun: "Porta-john service is Fridays", "the
		// trash pickup moved to Tuesdays".
		"service", "pickup", "delivery", "collection", "visit", "class", "lesson", "practice", "rehearsal", "shift", "window", "schedule", "run",
		// What a calendar holds of it: "your standup invite is now 9:45am".
		"invite", "invitation", "event", "block", "call", "reservation", "expiry", "expiration"},
	anchorCount: {"count", "number", "total", "headcount", "head", "size", "figure"}, // "head count"
	anchorName:  {"owner", "lead", "name", "pick", "choice", "provider", "vendor", "supplier", "account", "membership", "plan"},
	// A category's value names what a thing is built on: "the billing
	// service moves to MySQL".
	anchorCategory: {"service", "app", "system", "stack", "backend", "frontend", "pick", "choice", "provider", "vendor", "account", "membership", "plan"},
	anchorEmail:    {"email", "address", "contact"},
	anchorPhone:    {"phone", "number", "mobile", "contact", "line", "telephone", "cell", "landline", "tel", "ph", "phn"},
}

// stativePiece reports whether what held before is said in the piece of
// a stative clause (between its commas) that says the topic: "only doing
// 4 blocks a week now, 5 was burning me out" says the old count as the
// reason, after the new one.
func stativePiece(cl string, topic []span) bool {
	if len(topic) == 0 || !strings.Contains(cl, ", ") {
		return true
	}
	at := firstSpan(topic).start
	start := strings.LastIndex(cl[:at], ", ") + 1
	end := strings.Index(cl[at:], ", ")
	if end < 0 {
		end = len(cl)
	} else {
		end += at
	}
	return stative(fold(cl[start:end]))
}

// stative reports a clause that says what held before ("we had 500
// testers", "the room was 60"), not what holds now.
func stative(clow string) bool {
	ws := words(clow)
	for i, w := range ws {
		switch w {
		case "had", "used", "were", "was":
			if w == "had" && i+1 < len(ws) && (ws[i+1] == "to" || objectPronouns[ws[i+1]]) {
				continue // "we had to move it", "the vet had us switch"
			}
			if (w == "was" || w == "were") && i+1 < len(ws) && participle(ws[i+1]) {
				continue // "was cut to $9,000"
			}
			return true
		}
	}
	return false
}

var objectPronouns = map[string]bool{"me": true, "us": true, "him": true, "her": true, "them": true}

func participle(w string) bool {
	return strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || w == "cut" || w == "set" || w == "put" || w == "now" || w == "just" || w == "finally" || w == "officially"
}

// firstSpan returns the topic's span that opens first in its clause.
func firstSpan(topic []span) span {
	first := topic[0]
	for _, t := range topic {
		if t.start < first.start {
			first = t
		}
	}
	return first
}

// qualified reports a topic said of another thing of its kind: "the small
// meeting room next door", "the other team's sync", "the old budget", or
// as another's ("charges $140 for their tasting menu": "their", "his" or
// "her" within two words before the topic's first word, unless a word of
// the key, keyWs, names a relation whose it could be: "her tuition" for
// daughter_tuition).
//
// A "his" or "her" is not another's when the holder the fact stores is
// named elsewhere in the sentence as the one replaced (replacedNamed):
// "Ms. Delgado is leaving the practice so Ms. Ruiz is his speech
// therapist" is said of the one the speaker keeps the fact for.
func qualified(cl string, topic []span, keyWs []string, changed, replacedNamed bool) bool {
	first := firstSpan(topic)
	before := words(fold(cl[:first.start]))
	if changed && householdName(cl[:first.start]) {
		// "Noah's soccer practice moved to Wednesdays", "Maya's tuition
		// went up to $1,525": a change of a named one's thing, under a
		// key that names no owner, is of the speaker's household.
		return false
	}
	theirs := slices.Contains(keyWs, first.text) && !slices.ContainsFunc(keyWs, func(w string) bool { return relations[w] || pets[w] })
	for i := len(before) - 1; i >= 0 && i >= len(before)-3; i-- {
		w := before[i]
		if theirs && !replacedNamed && i >= len(before)-2 && personalPossessive(w) {
			return true
		}
		// "my book club's favorite author": a possessive before the
		// topic, or before an adjective of the topic.
		possessive := strings.HasSuffix(w, "'s") && (i == len(before)-1 || i == len(before)-2 && topicAdjectives[before[i+1]]) && !petsName(cl, w, keyWs)
		if otherQualifiers[w] || variantWords[w] && (i == 0 || before[i-1] != "new") || possessive && w != "user's" && !timeWords[strings.TrimSuffix(w, "'s")] {
			return true
		}
	}
	for _, t := range topic {
		// "walks the neighbour's dog": any topic word another's.
		if ws := words(fold(cl[:t.start])); len(ws) > 0 && t != first {
			w := ws[len(ws)-1]
			base := singular(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'"))
			if (strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "s'")) && w != "user's" &&
				!slices.ContainsFunc(topic, func(o span) bool { return o.text == base }) { // "your car's service" for carServiceDate
				return true
			}
		}
	}
	last := topic[0]
	for _, t := range topic {
		if t.end > last.end {
			last = t
		}
	}
	after := fold(cl[last.end:])
	if agentVerbs[fold(cl[last.start:last.end])] && !reSpeakerObject.MatchString(after) {
		return true // "Tom mentors the new interns": whom he mentors is not the speaker
	}
	if reOtherUnit.MatchString(after) || reOthersAfter.MatchString(after) {
		return true // "the design lead on the mobile team", "coaches my nephew's team"
	}
	return hasPrefixAny(strings.TrimSpace(after), []string{"next door", "upstairs", "downstairs", "across", "down the", "of my", "of our other", "of the other", "of another"})
}

// oldElsewhere reports whether a clause of the sentence other than the
// i-th names the stored value: the sentence says what becomes of it.
func oldElsewhere(clauses []anchorClause, i int, stored string) bool {
	lold := fold(stored)
	for j := range clauses {
		if j != i && clauses[j].low != "" && mentionsAnywhere(clauses[j].low, lold) {
			return true
		}
	}
	return false
}

// householdName reports text before a topic that ends with a first
// name's possessive ("Noah's ", "the bakery moved Lily's "), said of no
// one set apart: not after a relation ("my neighbour Dan's"), not a
// department ("Marketing's").
func householdName(before string) bool {
	m := reNamePossessive.FindStringSubmatchIndex(before)
	if m == nil {
		return false
	}
	name := fold(before[m[2]:m[3]])
	if m[4] >= 0 {
		// "Leo's one-on-one aide": a word that tells one of its kind
		// from another ("Dan's other car") sets it apart.
		if w := fold(before[m[4]:m[5]]); otherQualifiers[w] || variantWords[w] {
			return false
		}
	}
	if orgWords[name] || monthNumber[name] != 0 || reDateWord.MatchString(name) {
		return false
	}
	prev := words(fold(before[:m[0]]))
	return len(prev) == 0 || !otherQualifiers[prev[len(prev)-1]] && !relationWords[singular(prev[len(prev)-1])] && !otherOwners[prev[len(prev)-1]]
}

// reNamePossessive is a capitalised name's possessive ending the text
// before a topic, perhaps with one word of the topic's kind after it.
var reNamePossessive = regexp.MustCompile(`(?:^|\s)(\p{Lu}\p{Ll}+)['’]s\s+(?:([\p{Ll}-]+)\s+)?$`)

// orgWords name a department or a group, not a person.
var orgWords = map[string]bool{"marketing": true, "sales": true, "finance": true, "engineering": true, "design": true, "legal": true,
	"ops": true, "operations": true, "hr": true, "product": true, "support": true, "accounting": true, "security": true, "it": true,
	"varsity": true, "jv": true, "management": true, "leadership": true, "admin": true, "facilities": true, "research": true}

// Relation reports a word that names someone by their relation to the
// speaker ("mom", "neighbor", "cousin"), not by name.
func Relation(w string) bool {
	w = singular(strings.ToLower(w))
	return relations[w] || relationWords[w] || otherPeople[w]
}

// relationWords name someone by their relation to the speaker.
var relationWords = map[string]bool{"neighbour": true, "neighbor": true, "friend": true, "buddy": true, "colleague": true, "coworker": true,
	"co-worker": true, "boss": true, "cousin": true, "sister": true, "brother": true, "aunt": true, "uncle": true, "roommate": true,
	"classmate": true, "teammate": true, "client": true, "customer": true, "tenant": true, "landlord": true, "ex": true, "mate": true}

// reOtherUnit places a topic in another team or group: "(lead) on the
// mobile team", "for the Berlin office", "for the Chen lab".
//
// UnitName reports a name said as the name of such a unit ("the Chen lab
// next door"): it names where a thing is, not who holds it, so it is no
// new value of a fact whose stored value is not itself such a unit.
func UnitName(text, name, stored string) bool {
	low, n := fold(text), fold(name)
	for _, i := range lexical.WordIndexes(low, n) {
		rest := strings.Fields(low[i+len(n):])
		if len(rest) == 0 {
			continue
		}
		if w := singular(strings.Trim(rest[0], ".,;:!?")); unitNouns[w] && !strings.Contains(fold(stored), w) {
			return true
		}
	}
	return false
}

// unitNouns name a team, a group or a place one belongs to.
var unitNouns = map[string]bool{"team": true, "squad": true, "group": true, "office": true, "branch": true, "department": true,
	"lab": true, "clinic": true, "practice": true, "site": true, "campus": true, "division": true, "section": true}
var reOtherUnit = regexp.MustCompile(`^\s*(?:[a-z]+\s+)?(?:on|for|in|of|at|with) (?:the|another|a different|their|his|her|[a-z]+'s) (?:[\w-]+ ){0,2}(?:team|squad|group|side|project|account|office|branch|unit|org|department|lab|clinic|practice|site|campus|division|section)\b`)

// reOthersAfter gives a topic to someone else: "(coaches) my nephew's
// team", "(walks) the neighbours' dog".
var reOthersAfter = regexp.MustCompile(`^\s*(?:[a-z]+\s+)?(?:(?:my|our|his|her|their|the) [a-z-]+(?:'s|’s|s'|s’)\s|(?:on|for|in|of|at|with) (?:(?:our|my|the) )?(?:another|a different|some other|other|second|his|her|their)\b|(?:a lot of|lots of|many|several|plenty of|dozens of|hundreds of|other|others)\b)`)

// timeWords own nothing: "this morning's weigh-in" is the speaker's.
var timeWords = map[string]bool{"today": true, "tonight": true, "tomorrow": true, "yesterday": true, "morning": true,
	"afternoon": true, "evening": true, "night": true, "day": true, "week": true, "weekend": true, "month": true}

// otherQualifiers set a thing apart from others of its kind.
var otherQualifiers = map[string]bool{"other": true, "another": true, "next": true, "small": true, "smaller": true, "big": true, "bigger": true,
	"large": true, "larger": true, "second": true, "spare": true, "old": true, "older": true, "former": true, "previous": true, "backup": true,
	"upstairs": true, "downstairs": true,
	"neighbour's": true, "neighbor's": true, "sister's": true, "brother's": true, "friend's": true, "cousin's": true, "mum's": true, "mom's": true, "dad's": true}

// seasonQualified reports a topic said of one season or term ("The fall
// cohort has 30 students"): without a word of change, it may be another
// of its kind than the stored one ("the spring cohort grew to 30" moves).
func seasonQualified(cl string, topic []span) bool {
	before := words(fold(cl[:firstSpan(topic).start]))
	return len(before) > 0 && seasons[before[len(before)-1]]
}

var seasons = map[string]bool{"spring": true, "summer": true, "fall": true, "autumn": true, "winter": true, "holiday": true}

// topicAdjectives may stand between a possessive and its topic: "my book
// club's favorite author".
var topicAdjectives = map[string]bool{"favorite": true, "favourite": true, "new": true, "main": true, "usual": true,
	"go-to": true, "current": true, "regular": true, "primary": true, "preferred": true}

// agentVerbs say what someone does for another person ("mentors"): said
// as the topic of the speaker's mentor, tutor or manager, their object is
// the speaker (reSpeakerObject). A coach's or a teacher's object is often
// a team or a class of the speaker's ("coaches the under-12s").
var (
	agentVerbs      = map[string]bool{"mentors": true, "tutors": true, "manages": true}
	reSpeakerObject = regexp.MustCompile(`^\s*(?:me|us|my|our)\b|^\s*$|^\s*(?:now|from now on|going forward|these days)\b`)
)

// linkWords may stand between a topic and its new value.
var linkWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`is are was were 's be been being will now has have had got gets get
		moved move moves moving shifted shift slipped slips pushed push pulled brought changed change changes
		switched switch rescheduled set fixed confirmed officially finally actually just going goes to on at in
		for with from forward back up down grew grown rose risen dropped fell went gone increased decreased
		reduced raised cut bumped the a an new our my its it pick choice winner we're we've we they've they're
		came comes landed lands settled as into onto see sees seeing should painted repainted reset drifted
		takes take took taken taking over owns own runs leads handles writes does doing do signs speaks picked
		number his her their your it's contact address
		updated update reassigned assigned me us group team currently officially landed lands falls fall
		scheduled slated planned originally previously
		becomes became become stands stand sits sit hit hits reached reaches jumped climbed dipped
		booked rebooked with instead officially formally upgraded upgrade downgraded this that there
		again paying pay pays costs charges charging
		heading headed happening scheduled planned due migrated migrate migrating onto put postponed preponed delayed wrong
		revised finalised finalized rotated assuming assumes assumed assume responsibility responsible primary sole charge
		opens opening starts begins ends closes kicks
		transferred transfers transfer ported cut lives live held happens bringing brings making makes
		meets meet happen runs run comes come came handling leading running managing covering doing teaching coaching hosting
		organising organizing owning chairing trimmed slashed hiked upped doubled halved lifted
		renamed rebranded retitled called named getting having ordering ordered eating home
		out off everything all anything around about roughly approximately stepped steps arrive arrives arriving go
		drops drop rises rise climbs grows shrinks jumps dips favorite favourite go-to usual preferred rotated
		listed appointed recorded marked entered registered saved policy setting settings config cfg
		graciously kindly generously thankfully luckily fortunately happily gladly quietly quickly suddenly already recently successfully very`) {
		m[w] = true
	}
	return m
}()

// Names reports whether text names the fact keyed key by one of its
// words: a word of the key occurs in text, as itself, its plural or a
// short form of four letters or more.
func Names(text, key string) bool {
	topic, attrs := anchorWords(key)
	topic = append(topic, attrs...)
	ws := map[string]bool{}
	for _, w := range words(fold(text)) {
		ws[singular(strings.TrimSuffix(w, "'s"))] = true
	}
	low := fold(text)
	for _, t := range topic {
		if ws[t] || saysSynonym(low, t) {
			return true
		}
		for w := range ws {
			if shortFor(t, w) || shortFor(w, t) {
				return true
			}
		}
	}
	return false
}
