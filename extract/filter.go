package extract

import (
	"regexp"
	"strconv"
	"strings"
)

// The refusal filters. Each reads a lower-cased copy with curly apostrophes
// made straight; none of them produces a value, so byte offsets need not
// match the original.

var (
	reQuestionStart = regexp.MustCompile(`^(?:who|what|when|where|why|which|how|is|are|was|were|do|does|did|can|could|should|would|will|shall|has|have|had|am)\b`)

	reDraft = regexp.MustCompile(`^\W*(?:draft|drafting|drafted)\b|\b(?:in|for) (?:the|a|my|our|this) draft\b|\b(?:rough|working|first) draft\b|\b(?:i'm|i am|we're|we are) drafting\b|\bdraft (?:email|message|note|reply|version|proposal)\b`)

	// reHypoSentence marks the whole sentence: a condition governs its
	// main clause.
	reHypoSentence = regexp.MustCompile(`\b(?:suppose|supposing|what if|imagine|hypothetically|let's say|lets say|say we|assuming|assume|unless|in case|if|whether|in theory|theoretically|pretend|in an ideal world|wonder|wondering)\b`)

	// reHypoClause marks only its own clause.
	reHypoClause = regexp.MustCompile(`\b(?:might|maybe|perhaps|possibly|probably|likely|could|would|should|ought|i'd|we'd|you'd|thinking about|thinking of|considering|consider|plan to|planning to|plans to|hope|hoping|hopefully|want to|wants to|wanted to|would like|trying to|try to|tentatively|tentative|potentially|tbd|to be decided|not sure|unsure|guess|option|options|or)\b|\bmay (?:not |also |well |have |be |need |want |move |change |go |end |take |switch |slip |shift |get |run |cost |hold |start |finish |[a-z]+ )`)

	reNegation = regexp.MustCompile(`\b(?:not|never|no longer|nobody|no one|none|neither|nor|cannot|no|without|nothing|nowhere|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't|haven't|hasn't|hadn't|ain't|mustn't|stopped|anymore)\b|n't\b`)

	reDeclined = regexp.MustCompile(`\b(?:said no|say no|declined|rejected|turned (?:it |that |this |them |him |her )?down|vetoed|passed on|shot (?:it |that |this )?down|ruled out|ruled (?:it|that|this) out|voted (?:it |that )?down|overruled|nixed|scrapped|decided against|went against|not happening|no go|no-go)\b`)

	reProposal = regexp.MustCompile(`\b(?:proposed|proposes|propose|suggested|suggests|suggest|recommended|recommends|pitched|pitches|floated|floats|offered|offers|asked for|asks for|pushed for|argued for|lobbied|requested|requests|wants|wanted|prefers|preferred|would prefer|idea|ideas|proposal|suggestion)\b`)

	rePast = regexp.MustCompile(`\b(?:(?:\w+ )?(?:years?|decades?|months|ages) ago|long ago|a while ago|back in|back then|back when|used to|last year|the year before|years back|originally|at the time|in the past|previously|formerly|historically|once upon|when i was|when we were|as a kid|as a child|in my (?:old|last|previous) (?:job|role|company|team|place|apartment)|my (?:old|previous|former) (?:job|role|company|team|place|apartment|address|boss))\b`)

	reYear = regexp.MustCompile(`\b(?:in|since|during|back in) ((?:19|20)\d\d)\b`)

	// reOtherSubject reads the clause's opening words.
	reOtherSubject = regexp.MustCompile(`^(?:(?:my|our|your|his|her|their) (?:(?:older|younger|little|big|best|old|new|former|ex|step|next-door|downstairs|upstairs) )?(?:neighbou?rs?|sisters?|brothers?|siblings?|mom|mum|mother|dad|father|parents?|friends?|cousins?|aunt|uncle|wife|husband|partner|spouse|girlfriend|boyfriend|son|daughter|kids?|children|grandma|grandpa|grandmother|grandfather|roommates?|flatmates?|housemates?|landlord|landlady|in-laws?|niece|nephew|family|colleague's|coworker's|friend's|neighbou?r's|sister's|brother's|mom's|dad's)|(?:he|she|they|his|her|their|someone|somebody|everyone|everybody|people|a friend|a colleague|a coworker|a neighbou?r|another team|other teams?|the other team|my friend's|her|him)\b)`)

	reSuggestion = regexp.MustCompile(`\b(?:you could|you can|you might|you may|you should|you'll want|you'd|you want to|i'd recommend|i would recommend|i recommend|i'd suggest|i would suggest|i suggest|i'd go with|i would go with|i'd pick|consider|how about|what about|why not|an option|one option|another option|could be|might be|try|my suggestion|my recommendation|it's worth|worth considering|let's|let us|a good choice|a good option|a great choice|a good fit|you'd want|good idea)\b|^(?:go|pick|choose|book|use|try|move|switch|opt|select|set|schedule|assign|plan|reach out|call|email|send)\b`)

	// reFirstPerson opens a clause with the speaker as subject.
	reFirstPerson = regexp.MustCompile(`^(?:i|we|i'm|we're|i've|we've|i'll|we'll|me|us)\b`)
)

// fold lower-cases s and straightens curly apostrophes.
func fold(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "’‘") {
		s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	}
	return s
}

// isQuestion reports a question sentence.
func isQuestion(raw, low string) bool {
	t := strings.TrimRight(raw, " \"')*_")
	if strings.HasSuffix(t, "?") {
		return true
	}
	if strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") {
		return false
	}
	return reQuestionStart.MatchString(low)
}

// pastYear reports a year said before the turn's year ("back in 2019").
func pastYear(low string, turnYear int) bool {
	if turnYear <= 0 {
		return false
	}
	for _, m := range reYear.FindAllStringSubmatch(low, -1) {
		if y, err := strconv.Atoi(m[1]); err == nil && y < turnYear {
			return true
		}
	}
	return false
}

// sentenceFilter returns why a whole sentence is refused, or "".
func (a *analyzer) sentenceFilter(raw, low string) string {
	switch {
	case isQuestion(raw, low):
		return ReasonQuestion
	case reDraft.MatchString(low):
		return ReasonDraft
	case reDeclined.MatchString(low):
		return ReasonDeclined
	case reProposal.MatchString(low):
		return ReasonProposal
	case rePast.MatchString(low), pastYear(low, a.turn.At.Year()):
		return ReasonPast
	case a.turn.Speaker == "assistant" && reSuggestion.MatchString(low):
		return ReasonSuggestion
	case reHypoSentence.MatchString(low):
		return ReasonHypothetical
	}
	return ""
}

// clauseFilter returns why one clause is refused, or "".
func clauseFilter(low string) string {
	switch {
	case reHypoClause.MatchString(low):
		return ReasonHypothetical
	case reNegation.MatchString(low):
		return ReasonNegated
	case reOtherSubject.MatchString(low):
		return ReasonOtherSubject
	}
	return ""
}
