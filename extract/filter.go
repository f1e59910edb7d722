package extract

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/lexical"
)

// The refusal filters. Each reads a lower-cased copy with curly apostrophes
// made straight; none of them produces a value, so byte offsets need not
// match the original.

// phraseSet is a set of lower-case phrases matched as whole words on a
// padded sentence (see padded). One-word phrases are looked up by word;
// longer ones are searched only when their first word occurs.
type phraseSet struct {
	single map[string]bool
	multi  map[string][]string // first word → " phrase " forms
}

func phrases(alts string) phraseSet {
	ps := phraseSet{single: map[string]bool{}, multi: map[string][]string{}}
	for _, p := range strings.Split(alts, "|") {
		first, _, more := strings.Cut(p, " ")
		if !more {
			ps.single[p] = true
			continue
		}
		ps.multi[first] = append(ps.multi[first], " "+p+" ")
	}
	return ps
}

// union returns a set of the phrases of every set in sets: its in is
// theirs or-ed, in one reading of the sentence rather than one per set.
func union(sets ...phraseSet) phraseSet {
	u := phraseSet{single: map[string]bool{}, multi: map[string][]string{}}
	for _, ps := range sets {
		for w := range ps.single {
			u.single[w] = true
		}
		for w, forms := range ps.multi {
			u.multi[w] = append(u.multi[w], forms...)
		}
	}
	return u
}

// in reports whether a phrase occurs in n, a string made by padded. It
// reads each word once and tries only the phrases that start with it, at
// that word, so its cost is linear in n.
func (ps phraseSet) in(n string) bool {
	for i := 0; i < len(n)-1; {
		// n[i] is the space before a word.
		j := strings.IndexByte(n[i+1:], ' ')
		if j < 0 {
			return false
		}
		w := n[i+1 : i+1+j]
		if ps.single[w] {
			return true
		}
		for _, p := range ps.multi[w] {
			if strings.HasPrefix(n[i:], p) {
				return true
			}
		}
		i += 1 + j
	}
	return false
}

// startsWith reports whether n (made by padded) opens with a phrase.
func (ps phraseSet) startsWith(n string) bool {
	w, _, _ := strings.Cut(strings.TrimPrefix(n, " "), " ")
	if ps.single[w] {
		return true
	}
	for _, p := range ps.multi[w] {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// padded returns the folded words of s separated by single spaces, with a
// space at each end, so phrases match on word boundaries.
func padded(low string) string {
	var b strings.Builder
	b.Grow(len(low) + 2)
	b.WriteByte(' ')
	space := true
	for _, r := range low {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '-' || r == '@' {
			b.WriteRune(r)
			space = false
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

var (
	questionStarts = phrases("who|what|when|where|why|which|how|is|are|was|were|do|does|did|can|could|should|would|will|shall|has|have|had|am|isn't|aren't|don't|doesn't|didn't|won't|can't")

	draftStarts = phrases("draft|drafting|drafted")
	draftCues   = phrases("wrote up|write up|writing up|written up|in the draft|in a draft|in my draft|in our draft|in this draft|for the draft|rough draft|working draft|first draft|i'm drafting|i am drafting|we're drafting|we are drafting|draft email|draft message|draft note|draft reply|draft version|draft proposal|drafted a|drafted an|drafted up|drafted the new|drafted new|renewal draft|draft lease|draft renewal|draft budget|draft schedule|draft plan|draft invoice|draft quote|sent a draft|sent over a draft|sent me a draft|sent us a draft|nothing's signed|nothing is signed|nothing signed yet|typed up|typing up|type up|email drafted|e-mail drafted|message drafted|note drafted|letter drafted|text drafted|reply drafted|not going out until|isn't going out until|won't go out until|hasn't gone out|haven't hit send|havent hit send|haven't sent it|havent sent it|not sent yet|not sent it yet")

	// hypoSentence marks the whole sentence: a condition governs its main
	// clause.
	// oneOffs make a sentence an exception to a standing value, which
	// stays: "Book club is on Tuesday this week only", "just this once
	// we're meeting at the library".
	oneOffs      = phrases("just that one|only that one|just for that one|only for that one|just the one day|only the one day|just one day|for one day only|just that once|only that once|that one time|just this coming|only this coming|after that it goes back|then it goes back|it goes back to normal|goes back to normal|just for that day|just for the day|for that day only|only for that day|just that day|that day only|for the day only|then back to normal|this week only|only this week|that week only|only that week|just that week|for that week only|that weekend only|just this week|for this week only|next week only|only next week|just next week|this weekend only|only this weekend|this month only|only this month|just this month|today only|only today|just for today|just today|tomorrow only|only tomorrow|just tomorrow|this time only|only this time|just this time|just this once|only this once|this once|as a one-off|a one-off|one-off|one time only|a one-time|one-time exception|as an exception|by exception|exceptionally|for this occasion|this week's|next week's|this weekend's|because of the holiday|due to the holiday|for the holiday|for this one time|for this one|for this trip|just for this trip|for this flight|covering for|covers for|filling in for|fills in for|standing in for|stands in for|subbing for|subs for|while traveling|while travelling|while visiting|dropped into|dropped in on|popped into|popped in to|while away|while i was away|while on vacation|while on holiday|while on the road|except this week|except next week|skipping this week|skip this week|back on it after that|back on after that|back to it after that|back after that|takes it back after|just for monday's|only for monday's|just for tuesday's|only for tuesday's|just for wednesday's|only for wednesday's|just for thursday's|only for thursday's|just for friday's|only for friday's|just for saturday's|only for saturday's|just for sunday's|only for sunday's|just for tomorrow's|only for tomorrow's|just for tonight's|only for tonight's|just for today's|only for today's|just for this week's|only for this week's|just for next week's|only for next week's|just for the weekend's|only for the weekend's|just for the game|just for the match|just for the meeting|just for the weekend")
	hypoSentence = phrases("once we|once i|once they|once you|once it's|once it is|suppose|supposing|what if|imagine|hypothetically|let's say|lets say|say we|assuming|assume|unless|in case|if|in theory|theoretically|pretend|in an ideal world|wonder|wondering|for example|for instance|e g|eg|as an example|such as|in the example|in my dream|in the dream|in the movie|in the book|in the story|in the game")

	// hypoClause marks only its own clause.
	hypoClause = phrases("thinkin|thinkin bout|thinking bout|considerin|idk|tempting|tempted|thinking|might|maybe|assumes|assuming|kicking around|tossing around|batting around|floating the idea|perhaps|possibly|probably|likely|could|would|should|ought|i'd|we'd|you'd|thinking about|thinking of|considering|consider|whether|toying with|want change|want move|want switch|want increase|want raise|want cancel|want put|wants change|wants move|wants switch|wants increase|wants raise|wants cancel|wants put|don't accept yet|dont accept yet|didn't accept yet|not accept yet|toying around with|mulling|noodling on|flirting with the idea|id like|id love|id prefer|id rather|i plan to|we plan to|they plan to|planning to|plans to|hope|hoping|hopefully|want to|wants to|wanted to|would like|trying to|try to|tentatively|tentative|potentially|tbd|to be decided|not sure|unsure|guess|or|meaning to|mean to|means to|worst case|worst-case|best case|best-case|at worst|at best|in theory|poking around|shopping around|looking around|scoping|exploring|evaluating|weighing|researching|vetting|scouting|shortlisting|shortlisted|in the running")

	negations = phrases("not|never|no longer|nobody|no one|none|neither|nor|cannot|no|without|nothing|nowhere|ain't|anymore|" +
		// a state denied, typed without the apostrophe: "IRB still hasnt
		// approved it" (not "dont" and "didnt", which chats drop into
		// asides: "… as of this month ugh didnt even warn us")
		"hasnt|havent|hadnt|isnt|arent|wasnt|werent|doesnt|wouldnt|shouldnt|couldnt")

	// general marks talk about things in general ("rents in the area went
	// up to £1,240 on average"): no value of the speaker's.
	general = phrases("on average|in general|generally speaking|typically|most people|nationwide|across the industry|the market rate|the going rate")

	declines = phrases("thanks but i'm good|thanks but im good|thanks but we're good|thanks but were good|thanks but no thanks|no thanks|i'll pass|ill pass|gonna pass|i'm good w|im good w|i'm good with|im good with|heck no|hell no|told him nope|told her nope|told them nope|holding off|hold off|held off|sitting on it|sitting on that|sitting on this|sitting on them|said no|say no|declined|rejected|turned down|turned it down|turned that down|turned this down|turned them down|vetoed|passed on|shot down|shot it down|shot that down|ruled out|ruled it out|ruled that out|voted down|voted it down|overruled|nixed|scrapped|decided against|went against|not happening|no go|no-go|told them not until|told him not until|told her not until|said not until|told them no|told him no|told her no")

	proposals = phrases("leaning towards|leaning toward|leaning to|keeps asking me to|keeps telling me to|keeps bugging me to|keeps nagging me to|keeps pushing me to|keeps hollerin' at me to|keeps hollering at me to|keeps on at me to|were on about|was on about|on about moving|on about changing|on about switching|begging to|begging for|begging me to|begging us to|pleading for|pleading to|looking at moving|looking at changing|looking at switching|looking at pushing|looking at bumping|looking at going|looking at swapping|looking into moving|looking into switching|looking into changing|to ask|to request|to check whether|to check if|to see if|to follow up|a request for|a request to|a request has been|request has been submitted|request was submitted|submitted a request|put in a request|put a request in|proposed|proposes|propose|proposing|pitch|pitches|suggesting|recommending|pitching|floating|requesting|suggested|suggests|suggest|recommended|recommends|pitched|floated|offered|asked for|asks for|asked to|asks to|asking to|asked me to|asked us to|asks me to|asks us to|asking me to|asking us to|asked if|asks if|asked whether|asks whether|asked can|asks can|asking can|asked could|asks could|asking could|asked would|asks would|pushed for|argued for|lobbied|requested|wants|wanted|prefers|preferred|would prefer|idea|ideas|proposal|suggestion|lobbying|lobbies|advocating|campaigning|pushing for|asking for|demanding|holding out for|advertising|advertises|advertised|offering|quoting|quoted")

	pasts = phrases("that's over now|that is over now|that's over|which is over now|that ended|that's ended|that has ended|last yr|last yr's|yrs ago|a yr ago|yr ago|before i moved|before we moved|before moving|before i relocated|before we relocated|last cycle|last block|last round|last race|last marathon|last build|last attempt|in my twenties|in my thirties|in my forties|in my teens|in my youth|in my childhood|growing up|in high school|in college|in grad school|at university|at uni|as a student|as a teenager|last trip|last visit|last stay|last flight|previous trip|previous visit|on our last|on my last|last spring|last summer|last autumn|last fall|last winter|last quarter|last season|last term|last year's|last month's|last week's|last time|the year before's|years ago|year ago|decades ago|decade ago|months ago|ages ago|long ago|a while ago|back then|back when|used to|last year|the year before|years back|originally|at the time|in the past|previously|formerly|historically|once upon|when i was|when we were|when i first|when we first|when i moved in|when we moved in|when i signed|when we signed|at first|initially|in the beginning|to begin with|as a kid|as a child|in my old job|in my last job|in my previous job|at my old job|at my last job|at my previous job|my old job|my previous job|my former job|my old company|my previous company|my last company|my former company|my last startup|my old startup|my previous startup|my former startup|my last employer|my old employer|my previous employer|my former employer|my last agency|my old agency|my previous agency|my last firm|my old firm|my previous firm|my old place|my old apartment|my previous apartment|my old address|my previous address|my former address|my old boss|my previous role|my old team|my previous team")

	// hearsay marks an uncertain report ("apparently", "I heard").
	hearsay = phrases("apparently|reportedly|rumor|rumour|rumored|rumoured|allegedly|supposedly|i heard|we heard|heard that|thinks|think|thought|believes|believe|believed|claims|claimed|seems|seemed|sounds like|looks like")

	suggestions      = phrases("you could|you can|you might|you may|you should|you'll want|you'd|you want to|i'd recommend|i would recommend|i recommend|i'd suggest|i would suggest|i suggest|i'd go with|i would go with|i'd pick|consider|how about|what about|why not|an option|one option|another option|could be|might be|try|my suggestion|my recommendation|it's worth|worth considering|let's|let us|a good choice|a good option|a great choice|a good fit|you'd want|good idea")
	suggestionStarts = phrases("go|pick|choose|book|use|try|move|switch|opt|select|set|schedule|assign|plan|reach out|call|email|send")

	reYear = regexp.MustCompile(`\b(?:in|since|during|back in) ((?:19|20)\d\d)\b`)

	// reOtherSubject reads the clause's opening words.
	reOtherSubject = regexp.MustCompile(`^(?:(?:my|our|your|his|her|their) (?:(?:older|younger|little|big|best|old|new|former|ex|step|next-door|downstairs|upstairs) )?(?:neighbou?rs?|sisters?|brothers?|siblings?|mom|mum|mother|dad|father|parents?|friends?|cousins?|aunt|uncle|wife|husband|partner|spouse|girlfriend|boyfriend|son|daughter|kids?|children|grandma|grandpa|grandmother|grandfather|roommates?|flatmates?|housemates?|landlord|landlady|in-laws?|niece|nephew|family|colleagues?|co-?workers?|teammates?|classmates?|boss|clients?|customers?|employees?|students?|tenants?|guests?|relatives?|mates?|buddy|buddies|pal|fianc[ée]e?|ex|exes|kid|baby|twins?|dog|cat|co-?founders?|business partners?|bandmates?|cofounder's|co-founder's|colleague's|coworker's|friend's|neighbou?r's|sister's|brother's|mom's|dad's|rivals?|competitors?|competition)|(?:hubby|wifey|husband|wife|sis|bro)\s|the (?:wife|husband|missus|missis|other half)(?:['’]s)?\s|he|she|they|his|her|their|someone|somebody|everyone|everybody|people|a friend|a colleague|a coworker|a neighbou?r|another team|other teams?|the other team|my friend's|him)\b`)
)

// modalMay reports "may" used as a modal ("may move"), not the month
// ("May 4").
func modalMay(n string) bool {
	if !strings.Contains(n, " may ") {
		return false
	}
	ws := strings.Fields(n)
	for i, w := range ws {
		if w == "may" && i+1 < len(ws) && (ws[i+1][0] < '0' || ws[i+1][0] > '9') && !(i > 0 && monthBefore[ws[i-1]]) && !reachedAt(ws[i+1:]) {
			return true
		}
	}
	return false
}

// reachedAt reports the words after a "may" that grant a way to reach
// someone: "she may now be reached at 555-0178" says her number, formally.
func reachedAt(ws []string) bool {
	if len(ws) > 0 && ws[0] == "now" {
		ws = ws[1:]
	}
	return len(ws) > 1 && ws[0] == "be" && (ws[1] == "reached" || ws[1] == "contacted")
}

// monthBefore are words after which "may" is the month: "end of May
// now", "in May now", "since May".
var monthBefore = map[string]bool{"of": true, "in": true, "since": true, "until": true, "till": true, "by": true, "early": true, "late": true, "mid": true, "mid-": true, "through": true, "from": true}

// fold lower-cases s, straightens curly apostrophes and spells German's
// umlauts and ß as a keyboard without them does ("Müller" is "mueller",
// as a client names the key mueller_deadline): each is two bytes either
// way, so offsets in s are offsets in fold(s).
func fold(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "’‘") {
		s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	}
	if strings.ContainsAny(s, "äöüß") {
		s = umlauts.Replace(s)
	}
	return s
}

var umlauts = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "ß", "ss")

// isQuestion reports a question sentence.
func isQuestion(raw, n string) bool {
	t := strings.TrimRight(raw, " \"')*_")
	if strings.HasSuffix(t, "?") {
		return true
	}
	if strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") {
		return false
	}
	if strings.HasPrefix(n, " were ") && !reWereSubject.MatchString(n) {
		// "were fully on hubspot now": chat's "we're", not a question
		// (which names its subject next: "were you …").
		return false
	}
	if !questionStarts.startsWith(n) {
		return false
	}
	if auxStarts[firstWord(strings.TrimSpace(n))] && !questionSubject(raw) {
		// "did PT today so 3 left", "had the graybar account number
		// wrong its GB-44817": with no question mark, an auxiliary
		// asks only before its subject.
		return false
	}
	return true
}

// auxStarts are the auxiliaries a question opens with.
var auxStarts = map[string]bool{"is": true, "are": true, "was": true, "were": true, "do": true, "does": true, "did": true,
	"can": true, "could": true, "should": true, "would": true, "will": true, "shall": true, "has": true, "have": true, "had": true, "am": true}

// questionSubject reports whether the word after a sentence's opening
// auxiliary is a subject: a pronoun, a determiner or a name ("did you",
// "is the", "did Sam"), not an object or an acronym ("did PT today", "had
// the graybar account number wrong").
func questionSubject(raw string) bool {
	if reHadWrong.MatchString(fold(raw)) {
		return false
	}
	ws := strings.Fields(raw)
	if len(ws) < 2 {
		return true
	}
	w := strings.Trim(ws[1], ",.;:!")
	if questionSubjects[fold(w)] {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && !(len(w) <= 3 && strings.ToUpper(w) == w)
}

var questionSubjects = map[string]bool{"you": true, "u": true, "ya": true, "we": true, "they": true, "he": true, "she": true,
	"it": true, "i": true, "there": true, "anyone": true, "anybody": true, "someone": true, "somebody": true, "everyone": true,
	"the": true, "my": true, "your": true, "our": true, "his": true, "her": true, "their": true, "this": true, "that": true,
	"those": true, "these": true, "a": true, "an": true, "any": true, "mom": true, "dad": true}

// reWereSubject is a question's subject after "were".
var reWereSubject = regexp.MustCompile(`^ were (?:you|we|they|the|there|those|these|any|all|both|his|her|their|our|my|your|it|he|she)\b`)

// pastYear reports a year said before the turn's year ("back in 2019").
func pastYear(low string, turnYear int) bool {
	if turnYear <= 0 || !strings.Contains(low, "19") && !strings.Contains(low, "20") {
		return false
	}
	for _, m := range reYear.FindAllStringSubmatch(low, -1) {
		if y, err := strconv.Atoi(m[1]); err == nil && y < turnYear {
			return true
		}
	}
	return false
}

// imperatives open a request, not an assertion ("Move the meeting to
// Friday", "Tell me the offsite is in Lisbon").
var imperatives = map[string]bool{
	"ask": true, "tell": true, "remind": true, "please": true, "send": true,
	"make": true, "check": true, "find": true, "book": true,
	"move": true, "schedule": true, "change": true, "add": true, "remove": true,
	"cancel": true, "create": true, "write": true, "put": true, "give": true, "let": true,
	"don't": true, "do": true, "reschedule": true, "push": true, "assign": true,
	"pick": true, "choose": true, "use": true, "switch": true, "try": true, "keep": true,
	"say": true, "imagine": true, "consider": true,
}

// reNounLead opens with a noun that looks like an imperative: "Change of
// city: …", "Change to my appointment: …", "Update on the budget: …".
// A word that reads as an imperative but heads a noun phrase followed by
// its verb ("Book club switched to Circe", "Move day is Friday") is a
// subject too.
var reNounLead = regexp.MustCompile(`^\s*(?:(?:change|update|switch) (?:of|to|on) |[a-z]+ [a-z]+(?:'s|’s)? (?:is|are|was|were|has|have|had|got|gets|switched|moved|changed|shifted|slipped|slid|went|goes|starts|started|ends|ended|runs|ran|opens|opened|closes|closed) )`)

// compoundSubject reports a sentence that opens with a noun of two words
// and its verb, the first of which reads as an imperative: "Book club
// meets on Mondays now", not "Book the rooms for Tuesday".
func compoundSubject(n string) bool {
	ws := strings.Fields(n)
	if len(ws) < 3 || objectOpeners[ws[1]] {
		return false
	}
	v := ws[2]
	return len(v) > 3 && (strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ss") || strings.HasSuffix(v, "ed"))
}

// objectOpeners open a noun phrase: after an imperative verb, its object.
var objectOpeners = map[string]bool{"the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "his": true, "her": true,
	"their": true, "its": true, "this": true, "that": true, "these": true, "those": true, "some": true, "any": true, "it": true,
	"me": true, "us": true, "them": true, "him": true, "all": true, "every": true, "each": true, "one": true, "two": true}

// setsValue reports an instruction that sets a value ("Bump the workshop
// cap to 36", "Hand the hiring plan to Dmitri", "Please use
// sam@fastmail.com from now on", "Send invoices to Mei from here on"):
// the speaker states the new value, and a rule reads it.
func setsValue(n string) bool {
	return reSetsValue.MatchString(strings.TrimSpace(n))
}

var reSetsValue = regexp.MustCompile(`^(?:please\s+)?[a-z]+\s.+\s(?:to|with|at|on|for|via)\s.+\s(?:from now on|going forward|from here on|moving forward)\b|^(?:please\s+)?(?:reply|respond|answer|write|talk|speak)\s+(?:to\s+me\s+)?in\s+\S+.*\s(?:from now on|going forward|from here on)\b|^(?:please\s+|let['’]?s\s+)?(?:change|set|update|move|bump|raise|lower|cut|reduce|increase|push|reschedule|switch|hand|reassign|assign|give|make)\s.+\s(?:to|over to)\s\S|^(?:please\s+)?use\s\S+.*\s(?:from now on|going forward|instead|now)\b|^(?:please\s+)?use\s.{1,60}?\s+as\s+(?:my|our)\s|^(?:please\s+)?send\s+(?:everything|all\s.+|my\s.+)\sto\s\S|^(?:please\s+)?(?:just\s+)?call\s+me\s+[^\s,.!?]+|^(?:please\s+|just\s+)?(?:reach|contact|email|e-mail|text|call|ring|find|message)\s+me\s+(?:at|on|via)\s\S|^(?:please\s+|let['’]?s\s+)?(?:put|mark|log|record|note|write|pencil|jot|keep|leave|hold)\s(?:down\s|in\s)?.+\s(?:as|at)\s\S`)

func firstWordRaw(s string) string {
	s = strings.TrimLeft(s, " *_-")
	if i := strings.IndexAny(s, " :,"); i >= 0 {
		return s[:i]
	}
	return s
}

// reActsOnOurs is someone acting on the speaker's things ("they revised
// the widget price to €2,500", "she moved our sync to Friday", "they
// reassigned me parking spot C4", "Jake's parents moved the rehearsal
// dinner to the Copper Kettle"): the thing and its value are the
// speaker's, whoever changed them.
var reActsOnOurs = regexp.MustCompile(`^(?:he|she|they|(?:my|our) (?:[\w-]+ )?[\w-]+|[\p{L}-]+['’]s [\w-]+) (?:(?:has|have|just|finally|already) )*(?:\w+ed|cut|set|put|bumped|moved|gave|sent)(?: (?:up|down|back|over))? (?:the|my|our|me|us|both kids|both of us|the kids|all of us)\b`)

// actsOnOurs reports a clause in which someone else acts on the speaker's
// thing: "they moved the standup", "my landlord raised the rent to
// $1,950". "My sister booked the Ritz for her wedding" is hers.
func actsOnOurs(low string) bool {
	if m := reTakesOverOurs.FindStringIndex(low); m != nil {
		// "his nephew Marcus Pruitt has taken over all the handyman work
		// for my units": whoever he is, he holds the speaker's thing now.
		low = low[m[1]:]
		n := padded(low)
		return !strings.Contains(n, " their ") && !strings.Contains(n, " his ") && !strings.Contains(n, " her ")
	}
	n := padded(low)
	return reActsOnOurs.MatchString(low) && !strings.Contains(n, " their ") && !strings.Contains(n, " his ") && !strings.Contains(n, " her ")
}

// reTakesOverOurs is someone named by a relation taking over a role or a
// task: "his nephew marcus pruitt has taken over", "her partner is
// handling".
var reTakesOverOurs = regexp.MustCompile(`^(?:his|her|their|my|our)\s+(?:[\w'’-]+\s+){1,3}(?:(?:has|have|just|now|finally|already|officially)\s+)*(?:taken over|took over|takes over|is taking over|stepped in|is stepping in|is handling|is now handling|handles)\b`)

// otherSubjectStarts are the first words reOtherSubject can match.
// reGenericSubject opens a clause about others in general: "some teams
// run three-week sprints", "most people pay $40", "New hires in Europe
// get 20 PTO days".
var reGenericSubject = regexp.MustCompile(`^(?:(?:some|many|most|lots of|a lot of|plenty of|few|several|other) [a-z]+s|(?:(?:new|all|most|the|some)\s+)?(?:new\s+|senior\s+|junior\s+|full-time\s+|part-time\s+)?(?:hires|employees|staff|contractors|interns|engineers|managers|folks|users|customers|students|members|tenants|residents|freelancers)(?:\s+(?:in|at|on|from)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)?) (?:[a-z]+ )?(?:run|use|pay|have|get|go|do|prefer|pick|choose|keep|stay|meet|work|take|are|were|charge|say|switch|switched|moved|move|receive|earn|start)\b`)

var otherSubjectStarts = map[string]bool{
	"my": true, "our": true, "your": true, "his": true, "her": true, "their": true,
	"he": true, "she": true, "they": true, "someone": true, "somebody": true,
	"everyone": true, "everybody": true, "people": true, "another": true,
	"other": true, "him": true,
	// A spouse or a sibling named without "my", as texts do: "hubby
	// only has 2 PTO days left". ("Mom" may be the one acting on the
	// speaker's thing, "Mom switched me to Dr. Park", and "Dad's
	// prescription delivery" the thing the speaker keeps for him.)
	"hubby": true, "wifey": true, "husband": true, "wife": true, "sis": true, "bro": true,
}

// otherSubjectPrefixes open a clause about someone else but start with a
// word too common for otherSubjectStarts.
var otherSubjectPrefixes = []string{"the other team", "a friend", "a colleague", "a coworker", "a neighbo", "the neighbo", "the kids", "the in-laws", "the family next door",
	"the wife", "the husband", "the missus", "the missis", "the other half"}

// reGotTheirs is someone having their own thing changed: "Dana got her
// section moved to Moffitt 310".
var reGotTheirs = regexp.MustCompile(`\b(?:got|gets|had|has|have)\s+(?:their|his|her)\s+(?:own\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:moved|changed|switched|bumped|pushed|rescheduled|postponed|cancell?ed|raised|cut|reduced|increased|lowered|upgraded|downgraded|extended|shortened|reassigned|transferred)\b`)

// reTheirThing is a clause in which someone else changes their own thing:
// "The neighbours moved their kids to Oakwood School", "Dana pushed her
// dentist appointment to Friday". What the speaker does to another's
// thing ("I moved her appointment") is not the speaker's either.
var reTheirThing = regexp.MustCompile(`^(?:[\p{L}\p{N}'’.-]+\s+){0,5}?(?:just\s+|also\s+|finally\s+|have\s+|has\s+|had\s+)?(?:moved|changed|switched|set|bumped|pushed|rescheduled|postponed|cancell?ed|canceled|booked|sold|bought|picked|replaced|swapped|upgraded|updated|raised|cut|reduced|increased|lowered|dropped|shifted|relocated|transferred|renamed|extended)\s+(?:up\s+|back\s+|over\s+)?(?:their|his|her)\b`)

// sentenceFilter returns why a whole sentence is refused, or "".
func (a *analyzer) sentenceFilter(raw, low string) string {
	low = unframe(reChannel.ReplaceAllString(low, " "))
	n := padded(low)
	// A proposal or a refusal after a dash or a semicolon is an aside
	// ("Board review is February 19 now — the chair asked for an extra
	// week"): it refuses its own clause (clauseFilter), not the sentence.
	head := n
	if i := strings.IndexAny(low, ";—–"); i > 0 {
		head = padded(low[:i])
	}
	// A remark after a statement of the present ("… is his speech
	// therapist from now on, she seems sweet …") reports or recalls for
	// itself (asideAt).
	statedLow, stated := low, n
	if i := asideAt(low); i > 0 {
		statedLow, stated = low[:i], padded(low[:i])
	}
	if c := withoutWhyWrong(statedLow); c != statedLow {
		statedLow, stated = c, padded(c)
	}
	switch {
	case isQuestion(raw, n):
		return ReasonQuestion
	case draftStarts.startsWith(n), draftCues.in(n), reInCart.MatchString(low):
		return ReasonDraft
	case declines.in(reHeldOffTillNow.ReplaceAllString(head, " ")):
		return ReasonDeclined
	case proposals.in(reNoThought.ReplaceAllString(reOfferingNoun.ReplaceAllString(reAsSuggested.ReplaceAllString(head, " "), " gift "), " ")) && !wantThenState(low) && !stateThenWant(low), reTask.MatchString(low) && reTask.MatchString(firstClause(low)), reTalkAbout.MatchString(head), reUrgedTo.MatchString(head),
		reShopHad.MatchString(raw) && !nameStops[fold(firstWord(raw))]:
		return ReasonProposal
	case (pasts.in(stated) || reBackThen.MatchString(statedLow)) && !pastThenNow(low), pastYear(low, a.turn.At.Year()):
		return ReasonPast
	case oneOffs.in(reHolidayThing.ReplaceAllString(reCause.ReplaceAllString(n, " "), " ")), reOnlyTonight.MatchString(low), oneTimeInstead(n), reOneTimeReason.MatchString(dropReportedWhen(n)) && !reFromDay.MatchString(n), reDayThisWeek.MatchString(n) && !reStanding.MatchString(n), reStandIn.MatchString(n), reCoverSoon.MatchString(n) && !reStanding.MatchString(n), reHolderBack.MatchString(n), reThisDayOnly.MatchString(n), reThenBack.MatchString(n), reBackAgain.MatchString(low), reBackAfterPast.MatchString(low), reDaysInstead.MatchString(low),
		reOneDayPlan.MatchString(low) && !reStanding.MatchString(n) && !reTakesEffect.MatchString(n):
		return ReasonException
	case a.turn.Speaker == "assistant" && (suggestions.in(n) || suggestionStarts.startsWith(n)):
		return ReasonSuggestion
	case imperatives[firstWord(strings.TrimPrefix(n, " "))] && strings.Count(n, " ") > 2 && !reNoticeFrame.MatchString(n) && !strings.HasPrefix(strings.TrimLeft(raw, " *_-"), firstWordRaw(raw)+":") && !setsValue(n) && !reNounLead.MatchString(n) && !compoundSubject(n):
		return ReasonRequest
	case (hearsay.in(reNoThought.ReplaceAllString(padded(beforeCause(reOpinionAside.ReplaceAllString(statedLow, ""))), " ")) || general.in(n)) && !opinionThenAct(low):
		return ReasonHearsay
	case reOursSame.MatchString(low), reEnvy.MatchString(low), reOverThere.MatchString(low):
		return ReasonOtherSubject
	case reUsedInPeriod.MatchString(low) && !strings.Contains(low, " now"):
		return ReasonPast
	case reNothingChanged.MatchString(low) && !reExceptChange.MatchString(low):
		return ReasonNegated
	case hypoSentence.in(reRelevanceIf.ReplaceAllString(withoutTakingOn(n), " ")), reStillDeciding.MatchString(low), reViewing.MatchString(low) && !reTakenPlace.MatchString(low):
		return ReasonHypothetical
	}
	return ""
}

// reTakingOn is "assume" said of taking on a duty, not of supposing: "Mr.
// Rutherford is assuming primary responsibility for the file", "she
// assumes the role of chair".
var reTakingOn = regexp.MustCompile(`\b(?:(?:is|are|am|i'm|he's|she's|will be|has been|have been)\s+assuming|assumes|assumed|will assume)\s+(?:the\s+|primary\s+|full\s+|sole\s+|day-to-day\s+|overall\s+|lead\s+)*(?:responsibility|responsibilities|role|duties|lead|ownership|control|command|management|chair|position|post)\b`)

// withoutTakingOn reads a duty taken on (reTakingOn) as "takes", which no
// hedge list holds.
func withoutTakingOn(n string) string {
	if !strings.Contains(n, "assum") {
		return n
	}
	return reTakingOn.ReplaceAllString(n, " takes ")
}

// reOnlyTonight limits a value to a day or part of one: "only 5 patio
// tables tonight".
var reOnlyTonight = regexp.MustCompile(`\bonly\b[^.;]*\b(?:tonight|today|this (?:morning|afternoon|evening))\b|\b(?:tonight|today)\b[^.;]*\bonly\b`)

// oneDay is a single day or part of one, said relative to the turn.
const oneDay = `today|tonight|tomorrow|this morning|this afternoon|this evening`

// reOneTime and reStanding tell a one-time change from a standing one:
// "This week we'll go to the coworking space on Thursday instead" is an
// exception; "From next week we meet on Thursdays instead" is not.
var (
	reOneTime  = regexp.MustCompile(`\b(?:this (?:week|weekend|time|month)|next week|` + oneDay + `)\b`)
	reStanding = regexp.MustCompile(`\b(?:from|starting|as of|beginning|effective|onwards?|going forward|every|each|always|anymore|(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b`)
)

// reCause is a one-time event given as the cause of a standing change:
// "After this week's hires we have 45 people".
var reCause = regexp.MustCompile(`\b(?:after|since|following|thanks to|because of|with) (?:this|last|next) (?:week|weekend|month)['’]s\b`)

// reStandIn is someone standing in while the holder will be away: "Omar
// is leading the team while Priya is on vacation next week". Until then
// the holder is the holder (one standing in now, "has stepped in as team
// lead while Priya is on leave", is the lead for now).
var reStandIn = regexp.MustCompile(`\b(?:while|whilst)\s+[\p{L}'’]+\s+(?:is|['’]s|are|['’]re|will be)\s+(?:(?:on|taking)\s+(?:vacation|holiday|leave|pto|parental leave|maternity leave|paternity leave|sick leave|sabbatical|a trip|jury duty)|out(?:\s+sick)?|away|off|sick|travel(?:l)?ing|recovering|abroad|at a conference|offsite)\s+(?:next\s+(?:week|month|weekend|monday|tuesday|wednesday|thursday|friday)|tomorrow|later this|from\s+(?:monday|tuesday|wednesday|thursday|friday|next)|in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december))\b`)

// reCoverSoon is someone covering for a coming day or week: "Jen's
// covering the front desk tomorrow" (a cover from a day on, "covering
// Mondays from now on", is standing: reStanding).
var reCoverSoon = regexp.MustCompile(`\b(?:covering|(?:to|will|['’]ll|can|could|would|i|we|they|he|she|you)\s+cover|covers|filling in|fills in|fill in|subbing|subs|standing in|stands in)\b[^.;]*\b(?:tomorrow|tonight|today|this (?:week|weekend|morning|afternoon|evening)|next (?:week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b`)

// reThenBack is the stored state coming back after a one-off: "…, then
// back to the front loop", "after that it's back to Tuesdays".
var reThenBack = regexp.MustCompile(`\b(?:then|after that|afterwards|and then)\s+(?:it['’]s\s+|it goes\s+|we['’]re\s+|we go\s+)?back to\b`)

// reDaysInstead is one day's occurrence done otherwise: "Running
// tonight's backup at 3am instead".
var reDaysInstead = regexp.MustCompile(`\b(?:tonight|today|tomorrow)['’]s\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\b[^.;]*\binstead\b`)

// reBackAgain says the stored state comes back after what the sentence
// told: "… Wednesday instead, back to Tuesday after", "back to normal in
// February", "Recycling got picked up on Friday last week …, but we're
// back on the normal schedule".
var reBackAgain = regexp.MustCompile(`,\s*(?:and\s+)?(?:it['’]s\s+|we['’]re\s+)?back to\s+(?:[\p{L}\d'’:-]+\s+){1,3}?(?:after|afterwards|after that|next week|the week after|from next week)\b` +
	`|\bback to normal\s+(?:after|in|from|next|tomorrow|on|by|` + dayName + `)\b` +
	`|\b(?:but|and|then|now)\s+(?:we['’]re|we are|it['’]s|it is|they['’]re|everything['’]s|things are)\s+back\s+(?:on|to)\s+(?:the\s+|our\s+)?(?:normal|usual|regular)\b`)

// reThisDayOnly is one coming day said as the only one: "this Friday
// only", "only this Friday", "just next Monday", "Fri only" (not
// "Fridays only", every one).
var reThisDayOnly = regexp.MustCompile(`\b(?:(?:this|next|this coming)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+only|(?:only|just)\s+(?:this|next|this coming)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:` + weekDays + `)\s+only)\b`)

// reHolderBack is the holder's coming return, which makes whoever stands
// in a stand-in: "…, she'll be back Wednesday", "until he's back", "…
// till the 16th, then Denise is back".
var reHolderBack = regexp.MustCompile(`\b(?:(?:she|he|they)(?:['’]ll| will) be back|(?:until|till|til|'til) (?:she|he|they|[\p{L}]+) (?:is|['’]s|are|['’]re|gets|get|comes|come) back|(?:until|till|til) (?:she|he|they) returns?|(?:then|after that|after which)\s+(?:she|he|they|[\p{L}]+)\s+(?:is|['’]s|are|['’]re|will be|['’]ll be|comes|gets)\s+back)\b`)

// reOneDayPlan is what the speaker will do on one coming day: "Tomorrow
// I'm setting my alarm for 5:45am to catch the early train". A standing
// change that begins then says so (reStanding, reTakesEffect).
var (
	reOneDayPlan  = regexp.MustCompile(`^(?:tomorrow|tonight)\s*,?\s+(?:i['’]m|we['’]re|i am|we are|i['’]ll|we['’]ll|i will|we will|i['’]m going to|we['’]re going to)\b`)
	reTakesEffect = regexp.MustCompile(`\b(?:takes? effect|kicks? in|goes live|go live|for good|permanently|new)\b`)
)

// reAsSuggested gives a done change's reason: "I've updated your
// easy-run HR cap to 150 bpm as Tom suggested" is done, not proposed.
var reAsSuggested = regexp.MustCompile(`\b(?:as|like)\s+(?:[\p{L}'’]+\s+){1,2}(?:suggested|recommended|proposed|asked|requested|wanted)\b`)

// reChannel is a chat channel or a hashtag, a name: "in #general" is no
// talk "in general".
var reChannel = regexp.MustCompile(`#[a-z][\w-]*`)

// reShopHad is a shop's offer, which is not what the speaker pays:
// "Bunnings had hearing aid batteries for $7.99 but they're the wrong
// size" (not "I had …").
var reShopHad = regexp.MustCompile(`^\p{Lu}[\p{L}'’&-]*(?:\s+\p{Lu}[\p{L}'’&-]*)?\s+(?:had|has|sells|sold|is selling|was selling|lists|listed|stocks|carries|carried)\s+[^.;!?]*\bfor\s+[$€£]\s?\d`)

// reHolidayThing is a holiday said of a thing that recurs or lasts, not
// of a day: "went with Smokehouse 51 for the holiday party catering".
var reHolidayThing = regexp.MustCompile(`\bholiday (?:party|parties|season|schedule|hours|bonus|card|cards|market|fair|lunch|dinner|event|concert|show|sale|catering|menu|staff|rota|roster)\b`)

// reReportedWhen is when news came, not when the change holds or how long
// a state lasts: "Herr Müller wrote this morning, the deadline … is now
// pushed to January 23". Its first group is the verb, without the time.
var reReportedWhen = regexp.MustCompile(`(?i)\b((?:wrote|called|emailed|texted|messaged|rang|phoned|telephoned|said|told me|told us|confirmed|let me know|let us know|got back to me|replied|answered)(?:\s+me|\s+us|\s+back|\s+it|\s+this|\s+that)?)\s+(?:` + oneDay + `)\b`)

// dropReportedWhen removes from s when news came (reReportedWhen),
// keeping its verb. A text without a word of oneDay has none, and is not
// run through the expression: every value written is.
func dropReportedWhen(s string) string {
	low := lexical.LowerASCII(s)
	if !strings.Contains(low, "today") && !strings.Contains(low, "tonight") && !strings.Contains(low, "tomorrow") && !strings.Contains(low, "this ") {
		return s
	}
	return reReportedWhen.ReplaceAllString(s, "$1")
}

// reFromDay says the day a standing change starts: "we pushed it to
// 10:15am starting today, which … since the free snacks" is no one-time
// change with its reason.
var reFromDay = regexp.MustCompile(`\b(?:starting|from|as of|effective|beginning)\s+(?:` + oneDay + `)\b`)

// reOneTimeReason is a change made for one time, with the passing reason
// for it: "I bumped the heat to 70F tonight because it's freezing",
// "Pickup is 2:45pm on Friday for the half day" (one weekday; "on
// Fridays" recurs).
var reOneTimeReason = regexp.MustCompile(`\b(?:` + oneDay + `|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b.*\b(?:(?:because|since|as|cause)\s+(?:it['’]s|it is|we['’]re|i['’]m|there['’]s|the)|(?:for|due to)\s+(?:the|a|an)\s)`)

// reDayThisWeek is one weekday said for this week or next only: "Therapy
// is Friday this week" ("Fridays", or "starting this week", is standing:
// reStanding).
var reDayThisWeek = regexp.MustCompile(`\b(?:` + weekDays + `)\b.*\b(?:this|next) week\b|\b(?:this|next) week\b.*\b(?:` + weekDays + `)\b`)

// weekDays are the days of the week, written out or short.
const weekDays = `monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri`

// oneTimeInstead reports a change planned "instead" for one time only
// ("this week we'll …"); said in the present, it is the state of that
// time ("Tom's on call this week instead of Devi").
func oneTimeInstead(n string) bool {
	return strings.Contains(n, " instead") && reOneTime.MatchString(n) && !reStanding.MatchString(n) && reWillDo.MatchString(n)
}

var reWillDo = regexp.MustCompile(`\b(?:will|(?:i|we|you|they|he|she|it)['’]ll|going to|gonna)\s`)

// reTask is a change still to be made, a task: "I need to update my
// address to 5 Mill Road on the DMV site", "remind me to switch the plan".
var reTask = regexp.MustCompile(`\b(?:(?:i|we)\s+(?:still\s+)?(?:need|have|ought|got)\s+to|(?:i|we)\s+(?:should|must)|(?:i|we)['’]ll\s+have\s+to|remind me to|(?:don['’]t|do not|never) forget to|remember to|make sure to)\s+(?:update|change|move|switch|set|edit|fix|correct|reschedule|cancel|book|tell|let|inform|notify|register|file|submit|put|add)\b`)

// firstClause is the first clause of a sentence (splitClauses): a task
// said after a change ("…, so pickup is 3:00 now and I have to book it out
// of my classroom") refuses its own clause, not the sentence.
func firstClause(low string) string {
	if cs := splitClauses(low); len(cs) > 0 {
		return cs[0]
	}
	return low
}

// reBackThen is "back in" a time ("back in the day", "back in college"),
// not back in a place ("I'm back in Room 118"); or a clause that opens
// on the last event of a kind ("last Ruiz party the cake pickup got
// pushed to Thursday", "last sprint planning got bumped to tuesday").
var reBackThen = regexp.MustCompile(`^last\s+(?:[\p{L}'’-]+\s+){0,2}(?:party|parties|wedding|event|order|show|gig|game|meet|tournament|trip|season|job|lease|contract|time|meeting|planning|standup|stand-up|retro|review|session|class|lesson|practice|rehearsal|appointment|appt|visit|checkup|check-up|call|sync|delivery|pickup|shipment|match|race|sprint|shift|dinner|lunch|brunch|meetup)\b|\bback in (?:the day|the (?:\d0|\d{4})s|(?:19|20)\d\d|'\d\d|(?:january|february|march|april|may|june|july|august|september|october|november|december)\b|(?:high school|college|school|grad school|university|uni)\b|my\b|our\b|those\b|the old days|the spring|the summer|the fall|the autumn|the winter)|^last\s+(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|fall|autumn|winter|christmas|easter|thanksgiving)\b|^back before\b`)

// reNoticeFrame opens a statement on a call to notice it, no request:
// "Please note the sponsor has extended the deadline to March 2".
var reNoticeFrame = regexp.MustCompile(`^\s*(?:please|kindly)\s+(?:note|be advised|be aware|update your (?:contact lists?|contacts|records|address books?|files|phones?))\b`)

// reStillDeciding closes a sentence on the speaker still making up their
// mind ("…, but lease not sign, still thinking", "…, haven't decided
// yet"): the doubt governs the whole sentence.
var reStillDeciding = regexp.MustCompile(`(?:^|[,;.!]\s*|\b(?:but|and|so)\s+)(?:(?:i'm|im|i am|we're|we are|i|we)\s+)?(?:still\s+(?:thinking|deciding|considering|mulling|weighing|undecided|on the fence|making up (?:my|our) minds?)|(?:haven't|havent|have not|not)\s+(?:yet\s+)?decided|undecided|on the fence)(?:\s+(?:about it|on it|it over|about that|on that|yet))*\s*[.!?…]*\s*$`)

// reViewing is a place gone to see, which is not the place taken: "went
// to see an apartment at 88 Oak Ave", "toured a venue on Elm St".
// reTakenPlace is the sentence saying it was taken after all.
var (
	reViewing    = regexp.MustCompile(`\b(?:(?:go|goes|went|gone|going|been)\s+(?:to\s+)?(?:see|look at|view|tour|check out)|viewed|toured|looked at|checked out)\s+(?:(?:a|an|the|one|two|some|another|that|this)\s+)?(?:(?:new|nice|bigger|smaller|cheaper)\s+)?(?:apartment|flat|house|place|unit|condo|room|studio|property|listing|venue|office space|rental)s?\b`)
	reTakenPlace = regexp.MustCompile(`\b(?:took|taking|take|signed|signing|rented|renting|leased|booked|booking|moving in|moved in|move in|chose|picked|going with|went with|put down|paid the deposit)\b`)
)

// reOursSame keeps the speaker's own thing as it was, beside another's
// change: "LAX base got a new crew sked number, 800-555-0311, ours at ORD
// stays the same".
var reOursSame = regexp.MustCompile(`\b(?:ours|mine)(?:\s+(?:at|in|for|on)\s+[\p{L}\d'’-]+)?\s+(?:stays|is staying|remains|is still|hasn't changed|has not changed|didn't change|did not change|is unchanged|stays put|is the same|are the same|didn't move|did not move)\b`)

// reBackAfterPast ends a sentence on a thing back to how it was after a
// change that is past: "soccer practice got moved to wednesday last week
// …, so glad it's back to thursdays".
var reBackAfterPast = regexp.MustCompile(`\b(?:last (?:week|month|time|weekend)|yesterday|for a (?:week|bit|while|few weeks)|temporarily)\b.*\b(?:it['’]s|it is|we['’]re|we are|they['’]re|is|are)\s+back\s+(?:to|on)\s+[^,.;!?]{1,30}[.!]*$`)

// reUrgedTo is someone telling or urging another to make a change, which
// is not one made: "Aunt Carol keeps telling mom to switch to her guy",
// "she told Dad to move it to Friday".
var reUrgedTo = regexp.MustCompile(`\b(?:keeps?|kept|keeps on|kept on)\s+(?:telling|asking|begging|bugging|nagging|pushing|urging|pestering|hounding|on at)\s+(?:[\p{L}'’]+\s+){1,3}?to\s+|\b(?:told|tells|telling|urged|urges|urging|begged|begs|begging|nagging|pestering)\s+(?:mom|mum|dad|him|her|them|us|my\s+[\p{L}]+|[\p{L}]+)\s+to\s+(?:switch|move|change|go with|use|drop|cancel|swap|try|hire|book|pick|get|sell|rent|sign)\b`)

// reMistakeWhy closes a correction on why the speaker had it wrong: "…,
// I was looking at last year's program".
var reMistakeWhy = regexp.MustCompile(`\bactually\b[^.;]*?(,\s*(?:i|we)\s+(?:was|were|had been)\s+(?:looking at|reading|thinking of|going off|going by|using|checking|mixing it up with|confusing it with)\b.*$)`)

// reEnvy says the speaker envies what the sentence tells: "The Skyline
// Astronomy Society … just hit 80 members, I'm a little jealous".
// reOverThere opens a sentence on a group placed elsewhere: "The Skyline
// Astronomy Society across the county".
var (
	reEnvy      = regexp.MustCompile(`\b(?:i['’]m|im|i am|we['’]re|we are)\s+(?:a\s+)?(?:little\s+|bit\s+|tad\s+|so\s+|kinda\s+|very\s+|super\s+|lowkey\s+)*(?:jealous|envious)\b`)
	reOverThere = regexp.MustCompile(`^the\s+(?:[\p{L}'’-]+\s+){1,4}(?:across|down|up|over)\s+(?:the\s+)?(?:county|town|road|street|city|state|river|way|hall)\b`)
)

// withoutWhyWrong is a correction (folded) without what it says of the
// value it corrects, which tells no past state: why the speaker had it
// wrong ("…, it's actually 3pm, I was looking at last year's program",
// reMistakeWhy) and where it was said ("…, not January 26-30 as
// previously printed", rePreviouslySaid).
func withoutWhyWrong(low string) string {
	if m := reMistakeWhy.FindStringSubmatchIndex(low); m != nil {
		low = low[:m[2]]
	}
	if strings.Contains(low, " as ") {
		low = rePreviouslySaid.ReplaceAllString(low, "as said")
	}
	return low
}

// rePreviouslySaid names where a corrected value was said, no past
// state: "…, not January 26-30 as previously printed".
var rePreviouslySaid = regexp.MustCompile(`\bas (?:previously|originally|earlier|first) (?:printed|stated|announced|said|listed|reported|mentioned|posted|shared|advertised|published|communicated)\b`)

// reUsedInPeriod is an amount used up or done in a past period, which
// counts what happened, not what is: "We went through like 8 boxes of
// Heartgard last month".
var reUsedInPeriod = regexp.MustCompile(`\b(?:went through|go through|used|used up|sold|spent|burned through|ate|drank|ordered|did|made|earned|handled|saw|treated|ran)\s+(?:like\s+|about\s+|around\s+|roughly\s+|maybe\s+|over\s+|almost\s+|nearly\s+)?\d[\d,.]*\s+[\p{L}-]+\b.*\blast\s+(?:week|month|year|quarter|shift|night|weekend|season|term)\b`)

// reHeldOffTillNow is a change put off until it was made: "… is $155, I
// held off as long as I could".
var reHeldOffTillNow = regexp.MustCompile(`\b(?:held|holding|hold) off (?:for )?(?:as long as (?:i|we) (?:could|can)|as long as possible|until now|till now)\b`)

// reNothingChanged says the matter stands as it was: "fasting draw is
// still the 14th, nothing's changed". reExceptChange says what did.
var (
	reNothingChanged = regexp.MustCompile(`\bnothing(?:['’]s| has| had)?\s+changed\b|\bnothing['’]s different\b|\bsame as (?:before|always)\b`)
	reExceptChange   = regexp.MustCompile(`\b(?:except|but|apart from|other than|besides|only)\b`)
)

// reInCart is a thing put in a shopping cart, which is not bought: "added
// size 2 diapers to my amazon cart".
var reInCart = regexp.MustCompile(`\b(?:to|in|into|on)\s+(?:my|our|the)\s+(?:[\p{L}-]+\s+)?(?:cart|basket|wishlist|wish list|saved items)\b`)

// reTried is a change the speaker tried to make, which is not one made:
// "i tried to get the electric bill due date moved to the 22nd".
var reTried = regexp.MustCompile(`(?:^|\b(?:i|we)(?:['’]ve| have)?\s+)(?:tried|attempted|been trying|was trying|were trying)\s+to\s+(?:get|have|move|change|switch|push|make|book|reschedule|set)\b`)

// reOfferingNoun is "offering" as a thing given ("my weekly offering to
// the church"), not a proposal ("the bank is offering 5%"), a proposal
// as a document or an event ("my proposal defense is now on March 30"),
// and "preferred" as what a thing is ("your preferred airline").
var reOfferingNoun = regexp.MustCompile(`\b(?:my|our|your|his|her|their|the)\s+preferred\b|\b(?:my|our|your|his|her|their|weekly|monthly|sunday|church)\s+offerings?\b|\b(?:proposal|proposals)\s+(?:defen[cs]e|deadline|review|meeting|due|draft|submission|date|hearing|presentation|doc|document)\b`)

// reTalkAbout is talk of a change, which is not the change: "there's talk
// of bumping the quota to 520k", "Summit Power keeps calling about moving
// the electric over", "we talked about switching to Fridays".
var reTalkAbout = regexp.MustCompile(`\b(?:there(?:['’]?s| is| has been)|theres)\s+(?:some\s+|been\s+|a lot of\s+|more\s+)?talk\b|\btalk\s+of\s+[\w'’-]+ing\b|\b(?:talk|talks|talking|talked|call|calls|calling|called|ask|asks|asking|asked|email|emails|emailing|emailed|texting|texted|bugging|pestering|hounding|nagging|chatting|chatted|speaking|spoke)\s+(?:[\w'’-]+\s+){0,2}?about\s+(?:[\w'’-]+\s+)?[\w'’-]+ing\b`)

// reAsking is the speaker asking someone else to make a change, which
// has not happened: "I'm asking finance to raise the headcount budget to
// 14", "we'll ask the landlord to fix it", "I left a message asking Dr.
// Raman's office to push my endo visit to the 21st", "… gal said she'd
// have to run it by the manager first"; or someone asking the
// speaker: "HR keeps nagging me to switch payroll to Rippling", "Jesse
// keeps after me to change the gate code"; a request sent by message,
// not yet answered: "emailed FreshDirect to change my delivery address".
var reAsking = regexp.MustCompile(`(?:\b(?:i|we|i['’]m|we['’]re|i am|we are|i['’]ll|we['’]ll|i['’]ve|we['’]ve)\s+|^(?:just\s+|already\s+|also\s+)?)(?:(?:going to|gonna|just|already|also|have|has|had)\s+)*(?:(?:left|leave|sent|send|put in)\s+(?:a|an)\s+(?:\w+\s+)?(?:message|note|email|text|voicemail|request|ticket)\s+)?(?:ask|asking|asked|begging|urging|pushing|pressing|nudging)\s+(?:[\w'’.-]+\s+){0,3}?to\s+\w|\b(?:ask|asked|asking)\s+(?:(?:them|him|her|the\s+[\w'’-]+)\s+)?(?:move|change|switch|reschedule|push|cancel|book|put)\s+(?:my|our|the|it|them)\b|\bwaiting to hear back\b|\bwaiting (?:on|for) (?:them|him|her|the \w+) to confirm\b|\b(?:nagging|bugging|pestering|hounding|pressuring|pushing|begging|urging|badgering)\s+(?:me|us)\s+(?:again\s+)?to\s+\w|\b(?:keeps?|kept|keeping|been|is|are)\s+(?:after|on at|on|at)\s+(?:me|us)\s+(?:again\s+)?to\s+\w|\b(?:ha(?:ve|s|d)|need(?:s|ed)?|got)\s+to\s+(?:run (?:it|that|this) (?:by|past)|check with|clear (?:it|that|this) with|get (?:it|that|this) (?:approved|signed off|okayed|ok['’]?d))\b|\bpending (?:approval|sign-?off)\b|\bwaiting (?:on|for) (?:approval|sign-?off|(?:the|an|their|his|her) (?:ok|okay|go-ahead|approval))\b|\b(?:emailed|e-mailed|texted|messaged|wrote to|dm['’]?d|pinged)\s+(?:[\w'’.-]+\s+){1,3}?to\s+(?:change|move|switch|update|cancel|reschedule|push|fix|swap|transfer|put)\b|\b(?:and|then|so)\s+asked\s+(?:[\w'’.-]+\s+){0,3}?to\s+\w|\bstill waiting (?:on|for) (?:a |their |the |his |her )?(?:callback|call back|reply|answer|confirmation)\b|\b(?:filled out|filled in|filling out|put in|sent in)\s+(?:a|the|an)\s+(?:[\w'’-]+\s+)?(?:form|request|paperwork|application)\s+to\s+(?:change|move|switch|update|cancel|transfer)\b`)

// reLearnedFrame opens a clause on how the speaker came to know what it
// says: "I was interested to learn that the choir across town …".
var reLearnedFrame = regexp.MustCompile(`^(?:i|we)\s+(?:was\s+|were\s+|am\s+|are\s+|just\s+)?(?:(?:interested|surprised|glad|sad|pleased|happy|sorry|amused)\s+to\s+)?(?:learn|learned|learnt|hear|heard|read|see|saw|notice|noticed|found out|find out)\s+(?:that\s+)?`)

// reNearbySubject opens a clause on someone placed by where they are
// from the speaker or from a place: "the taco truck next to us at the
// commissary pays $800", "the couple upstairs", "HOA next to bldg 4
// switched to Baker Snow & Ice", "Pete on the boat next to us pays
// $1,450".
var reNearbySubject = regexp.MustCompile(`^(?:the|a|an|that|this|those|these)\s+(?:[\w'’-]+\s+){0,3}?(?:next to (?:us|me|ours|mine)|next door|beside us|across the (?:street|road|hall|lot|way)|down the (?:street|road|hall|block)|across town|on the other side of town|around the corner|upstairs|downstairs|over there)\b|^(?:(?:the|a|an|that|this|those|these)\s+)?(?:[\w'’-]+\s+){0,4}?[\w'’-]+\s+(?:next (?:door )?to|beside|across from|behind|opposite)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+\s+(?:switched|moved|changed|went|got|has|have|had|is|are|pays|charges|uses|picked|hired|signed)\b`)

// reOfMyRelation opens a clause on a thing of someone the speaker names
// by their relation, after "of": "The landlord of my comadre Lupe raise
// her renta to $1,575".
var reOfMyRelation = regexp.MustCompile(`^(?:the|a)\s+[\p{L}-]+\s+of\s+my\s+(?:best\s+|old\s+|older\s+|younger\s+)?(?:friend|sister|brother|cousin|neighbou?r|mom|mum|mother|dad|father|comadre|compadre|aunt|uncle|t[ií]a|t[ií]o|coworker|co-worker|colleague|boss|roommate|flatmate)s?\b`)

// nearbySubject reports a clause that opens on someone placed by where
// they are (reNearbySubject): the place must say where the subject is,
// not where a verb before it sent something ("The confocal got moved
// downstairs to B108" is ours).
func nearbySubject(low string) bool {
	m := reNearbySubject.FindString(low)
	return m != "" && !reMovedVerb.MatchString(m)
}

// reMovedVerb is a verb of being sent or having gone.
var reMovedVerb = regexp.MustCompile(`\b(?:got|gets|was|were|is|are|been|moved|relocated|went|goes|taken|brought|sent|put)\s`)

// reRolesThing opens a clause on the people of someone named by a role:
// "the headliner's crew is posted up at the Ace", "the promoter's guy"
// (not "the dentist's office moved my appointment").
var reRolesThing = regexp.MustCompile(`^the [a-z]+(?:er|or|ist)['’]s (?:crew|team|band|people|guys|staff|family|folks|entourage|kids|wife|husband|partner|manager|assistant|friends?|guy)\b`)

// reOtherUnitSubject opens a clause on another team or group: "The data
// team is moving to Go" (not "the team", nor "our data team").
var reOtherUnitSubject = regexp.MustCompile(`^the [\w-]+ (?:[\w-]+ )?(?:team|teams|squad|group|department|division|org)\s+(?:is|are|was|were|has|have|had|will|['’]s|['’]re|just|also|now|moved|switched|picked|chose|uses|use|runs|run|went)\b`)

// reNotNegation are idioms of "n't" that deny nothing: "I can't stop
// watching The Bear", "can't wait", "couldn't be happier", "haven't
// looked back", and "not … until", which says when: "your deposit isn't
// due until March 1 now", "we don't open until 11 anymore"; and "no
// worries", "no problem".
var reNotNegation = regexp.MustCompile(`\bno (?:worries|problem|problems|prob|probs|biggie|stress|drama|complaints)\b|(?:\b(?:can['’]t|cannot|couldn['’]t)\s+(?:stop|get enough of|wait|be happier|be too careful|complain|hurt|go wrong|argue with that|recommend [\w ]{1,30} enough|believe)|\b(?:haven['’]t|hasn['’]t)\s+looked back|(?:n['’]t|\bnot)\s+(?:be\s+)?(?:due|ready|open|back|available|starting|happening|expected|needed|arriving|shipping|opening|closing)(?:\s+(?:back|at work))?\s+(?:until|till|til)|(?:n['’]t|\bnot)\s+(?:have to\s+|need to\s+)?(?:start|open|begin|close|arrive|ship|leave|kick off|launch|need|pay|return|renew|submit|file)(?:\s+(?:it|them))?\s+(?:until|till|til))\b`)

// reCallsMe is others naming the speaker: "Everyone calls me Kate".
var reCallsMe = regexp.MustCompile(`^(?:everyone|everybody|people|they|most people|my friends)\s+(?:now\s+)?(?:calls?|knows?)\s+me\b`)

// reNamesRelation opens a clause on someone's relation: "Ben's cousin
// started at Riverside", "Dana's husband moved", or on a relative named
// by title: "aunt carol just moved to 900 lake shore dr".
var reNamesRelation = regexp.MustCompile(`^(?:(?:aunt|uncle|cousin|grandma|grandpa|granny|nana|auntie)\s+\p{L}+\s+(?:just\s+|finally\s+|also\s+)?(?:moved|changed|switched|got|is|has|bought|sold|booked|picked|started|left)\b|[\p{L}-]+['’]s (?:(?:older|younger|little|big|best|new|old|former|ex|step)[ -])?(?:cousins?|friends?|sisters?|brothers?|siblings?|mom|mum|mother|dad|father|parents?|wife|husband|partner|spouse|girlfriend|boyfriend|sons?|daughters?|kids?|children|neighbou?rs?|boss|colleagues?|co-?workers?|roommates?|flatmates?|classmates?|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|family|in-laws?|fianc[ée]e?)\b)`)

// reDeptMoved is another department moving itself: "Marketing moved up
// to the 7th floor" (not "Facilities moved our sync into Room 6A").
var reDeptMoved = regexp.MustCompile(`^(?:the\s+)?(?:marketing|sales|finance|legal|engineering|hr|ops|operations|design|facilities|accounting|procurement|research|leadership|the board|customer success|recruiting|payroll)\s+(?:(?:has|have|just|also|already|finally)\s+)*(?:moved|relocated|switched|went|migrated|moves|move|is moving|are moving|transferred)\s+(?:up\s+|down\s+|over\s+|back\s+|across\s+)?(?:to|into|onto|from|off|out)\b`)

// pastThenNow reports a sentence that sets the past against the present:
// "Initially the deadline was March 2, but now it's March 16". Only its
// past clause is refused (clauseFilter); the present one may state.
func pastThenNow(low string) bool {
	i := -1
	for _, c := range []string{", but ", "; ", " — ", " – ", " but now ", ", now ", ", and now ", ", these days ", ", will now ", ", is now ", ", are now ", ", has now ", ", have now "} {
		if j := strings.Index(low, c); j > 0 && (i < 0 || j < i) {
			i = j
		}
	}
	if i < 0 {
		return false
	}
	tail := padded(low[i:])
	return !pasts.in(tail) && nowWords.in(tail)
}

var nowWords = phrases("now|these days|nowadays|currently|at the moment|going forward|from now on|as of today|today")

// messageFrames announce a statement rather than wish for one: "I wanted
// to let you know (that) Ravi owns the contracts" states, "I want Ravi to
// own them" proposes; so does one passed on ("Mrs. Delgado has asked me
// to let you all know that her number has changed").
var messageFrames = []string{"wanted to let you know", "want to let you know", "wanted to say", "want to say", "wanted to flag", "want to flag", "wanted to confirm", "want to confirm", "wanted to update you", "want to update you",
	"asked me to let you all know", "asked me to let you know", "asked me to tell you", "asked me to pass on", "asked me to pass along"}

// reAsAskedPhrase is who asked for what was done: "as requested", "as
// the clinic requested".
var reAsAskedPhrase = regexp.MustCompile(`\b(?:as (?:(?:you|they|he|she|the [\p{L}-]+|[\p{L}-]+['’]s [\p{L}-]+) )?(?:asked|requested|discussed|agreed)|like (?:you|they|the [\p{L}-]+) asked|per (?:your|their|the [\p{L}-]+['’]s) request)\b`)

// unframe removes message frames, and who asked for what was done, from
// a folded sentence.
func unframe(low string) string {
	if strings.Contains(low, "as ") || strings.Contains(low, "per your") {
		// "I've moved it to Thursday as requested": done as asked, not
		// asked for.
		low = reAsAskedPhrase.ReplaceAllString(low, "")
	}
	if !strings.Contains(low, "to ") {
		return low
	}
	for _, f := range messageFrames {
		low = strings.Replace(low, f, "", 1)
	}
	return low
}

// theirThing reports a clause in which someone changes their own thing
// (reTheirThing), other than how to reach them: "the landlord changed
// his number" is the landlord's contact, which the speaker keeps.
func theirThing(low string) bool {
	m := reTheirThing.FindStringIndex(low)
	if m == nil {
		return false
	}
	switch strings.Trim(firstWord(strings.TrimSpace(low[m[1]:])), ".,;:!?") {
	case "number", "phone", "mobile", "cell", "line", "email", "e-mail", "address", "contact", "details":
		return false
	}
	return true
}

// wantThenState reports a wish given as the cause of a change the
// sentence then states: "Marketing wants more runway, so launch is now
// April 1". The wish refuses its own clause (clauseFilter), not the
// sentence.
func wantThenState(low string) bool {
	i := strings.Index(low, ", so ")
	if i < 0 {
		return false
	}
	rest := low[i+len(", so "):]
	return proposals.in(padded(low[:i])) && !proposals.in(padded(rest)) && hasChangeCue(rest)
}

// stateThenWant reports a sentence that states a change, then, after a
// comma, a wish about something else: "Board retreat kicks off at 8:30
// now, chair wants breakfast done before the first session". The wish
// refuses neither the sentence nor the clause that states the change.
func stateThenWant(low string) bool {
	i := strings.Index(low, ", ")
	if i <= 0 {
		return false
	}
	first := padded(low[:i])
	return hasChangeCue(low[:i]) && !proposals.in(first) && !hypoClause.in(first) && !negations.in(first)
}

// reNoLookingBack closes a clause (padded, without its marks) on a
// change made for good: "…, never looking back".
var reNoLookingBack = regexp.MustCompile(`\b(?:never|not|no)\s+(?:looking|going|turning)\s+back(?:\s+now)?\s*$`)

// deniesMain reports a clause (n: padded) that denies what it says. A
// negation in the cause it gives does not deny the change before it: "…
// moved the rehearsal dinner to the Copper Kettle since Luigi's can't fit
// 40".
func deniesMain(n string) bool {
	n = reNoLookingBack.ReplaceAllString(reNotNegation.ReplaceAllString(n, " "), " ")
	// A cause, or what the change explains ("… which explains why the
	// coordinator couldn't find him"), denies nothing of the change.
	for _, c := range []string{" since ", " because ", " b/c ", " bc ", " cause ", " which explains ", " that explains ", " which is why ", " that's why ", " which means "} {
		if i := strings.Index(n, c); i > 0 && (hasChangeCue(n[:i]) || reOwnError.MatchString(n[:i])) {
			n = n[:i] + " "
		}
	}
	// A cause said first, then the change it led to: "movers can't do
	// the 24th anymore so dad moved it to thursday the 22nd".
	for _, c := range []string{" so ", " which is why ", " that's why "} {
		if i := strings.Index(n, c); i > 0 && reMovedDone.MatchString(n[i+len(c):]) && !negations.in(" "+n[i+len(c):]) && !strings.Contains(n[i+len(c):], "n't ") {
			n = n[i+len(c)-1:]
		}
	}
	return negations.in(n) || strings.Contains(n, "n't ")
}

// reMovedDone is a change made, said with its verb in the past: "dad
// moved it to thursday", "we switched to".
var reMovedDone = regexp.MustCompile(`^(?:[\p{L}'’]+\s+){0,3}?(?:moved|switched|changed|rescheduled|pushed|bumped|swapped|booked|rebooked|shifted|transferred)\b`)

// beforeCause is a sentence without the cause it gives ("… since my
// teeth are apparently a disaster"): an opinion in the cause is not the
// speaker's doubt about the rest.
func beforeCause(low string) string {
	for _, c := range []string{" since ", " because ", " as "} {
		if i := strings.Index(low, c); i > 0 {
			low = low[:i]
		}
	}
	return low
}

// opinionThenAct reports an opinion or a report given as the cause of
// what the speaker then did: "the vet thinks Biscuit needs grain-free so
// we switched him to Blue Buffalo". The opinion is not the speaker's
// claim; the act is. So is a doubt about what the speaker said before,
// then the correction: "I think I told you it was Dr. Lee, but my
// chiropractor is actually Dr. Bautista".
func opinionThenAct(low string) bool {
	if i := strings.Index(low, " but "); i >= 0 && strings.Contains(low[i:], " actually ") && reToldYou.MatchString(low[:i]) {
		return true
	}
	i := strings.Index(low, " so ")
	if i < 0 {
		return false
	}
	rest := low[i+len(" so "):]
	n := padded(rest)
	return firstPerson(rest) && hasChangeCue(rest) && !hearsay.in(n) && !proposals.in(n) && !hypoClause.in(n)
}

var (
	// reToldYou is the speaker recalling what they said: "I think I told
	// you", "I said".
	reToldYou = regexp.MustCompile(`\b(?:i|we)\s+(?:told you|said|mentioned|wrote)\b`)
	// reNoThought is a verb of thinking that reports no opinion: "I
	// couldn't think", "can't believe", "higher than we thought".
	// reOpinionAside is an opinion of someone, after the statement: "…,
	// he seems chill" says nothing of the statement's truth.
	reOpinionAside = regexp.MustCompile(`,\s*(?:and\s+)?(?:he|she|they|it|the new one)\s+(?:seems|seemed|sounds|looks)\s+(?:really\s+|super\s+|very\s+|kinda\s+|pretty\s+|so\s+)?[a-z]+(?:\s+(?:so far|tbh|lol|honestly))?\s*[.!]*\s*$` +
		// "…, and everyone seems so much happier in there, thank you!"
		`|,\s*(?:and\s+)?(?:everyone|everybody|people|the kids|the team|clients|students|members|customers)\s+(?:seems|seem|seemed|looks|look|sounds)\s+(?:so\s+|much\s+|really\s+|a lot\s+|way\s+)*(?:happier|happy|pleased|relieved|calmer|better|to love it|to like it)\b[^,.;!?]{0,20}(?:,\s*(?:thank you|thanks)(?:\s+so much)?)?\s*[.!]*\s*$`)
	reNoThought = regexp.MustCompile(`\b(?:can['’]t|cannot|couldn['’]t|could not|can not)\s+(?:even\s+)?(?:think|believe)\b|\bthan\s+(?:i|we|they|you|anyone|everyone)\s+(?:had\s+)?(?:thought|expected|planned|hoped|feared|wanted|would have liked|liked)\b`)
	// reRelevanceIf is a condition on the listener's use of what is said,
	// not on what is said: "it's 312-555-0246 now if you need to update
	// it anywhere", "in case you need it".
	reRelevanceIf = regexp.MustCompile(`\b(?:if|in case)\s+(?:you|anyone|anybody)\s+(?:need|needs|want|wants|wanna|ask|asks|'d like|’d like|would like|were wondering|are wondering|care|have to)\b|\bif (?:that|it) helps\b|\bif (?:anything|something|any issues?|questions?|problems?)\s+(?:comes? up|arises?|pops? up|happens)\b|\b(?:sorry|apologies|forgive me|excuse me|pardon me)\s+if\b|\bif (?:that|this) makes sense\b`)
)

// reportsOthers reports a clause about someone else's thing, said by the
// speaker or reported ("mike said his inspector got switched"): a
// reporting frame is not the subject.
func reportsOthers(low string) bool {
	if m := reSaidFrame.FindStringIndex(low); m != nil {
		low = low[m[1]:]
	}
	return (otherSubjectStarts[firstWord(low)] || hasPrefixAny(low, otherSubjectPrefixes)) && reOtherSubject.MatchString(low) && !actsOnOurs(low) && !reCallsMe.MatchString(low)
}

// reSaidFrame opens a clause with whom it reports: "mike said", "my
// sister told me that".
var reSaidFrame = regexp.MustCompile(`^(?:[\p{L}'’-]+\s+){1,2}(?:said|says|told me|tells me|mentioned|texted|wrote)\s+(?:that\s+)?`)

// clauseFilter returns why one clause is refused, or "".
func clauseFilter(low string) string {
	low = unframe(low)
	n := padded(low)
	switch {
	case hypoClause.in(withoutTakingOn(n)), modalMay(n):
		return ReasonHypothetical
	case deniesMain(n):
		return ReasonNegated
	case declines.in(n):
		return ReasonDeclined
	case proposals.in(reNoThought.ReplaceAllString(reOfferingNoun.ReplaceAllString(reAsSuggested.ReplaceAllString(n, " "), " gift "), " ")) && !stateThenWant(low), reAsking.MatchString(low), reTask.MatchString(low), reTalkAbout.MatchString(low), reTried.MatchString(low):
		return ReasonProposal
	case pasts.in(padded(withoutWhyWrong(low))) && !pastThenNow(low), reBackThen.MatchString(low):
		return ReasonPast // the past half of pastThenNow
	case reportsOthers(low),
		strings.Contains(n, " their own ") || strings.Contains(n, " his own ") || strings.Contains(n, " her own ") || strings.Contains(n, " its own ") || strings.Contains(n, "'s own "),
		reGenericSubject.MatchString(low), reOtherUnitSubject.MatchString(low), reOfMyRelation.MatchString(low), nearbySubject(reLearnedFrame.ReplaceAllString(low, "")), reRolesThing.MatchString(low), reDeptMoved.MatchString(low), reNamesRelation.MatchString(low) && !actsOnOurs(low),
		(strings.Contains(n, " their ") || strings.Contains(n, " his ") || strings.Contains(n, " her ")) && (theirThing(low) || reGotTheirs.MatchString(low)):
		// "Chen's team set their own runbook owner to Mei": their thing.
		return ReasonOtherSubject
	}
	return ""
}
