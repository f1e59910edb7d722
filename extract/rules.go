package extract

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Rule is one extraction rule: a pattern read at the start of a clause and
// the statement it builds.
type Rule struct {
	Name     string   // stable identifier, recorded in Statement.Rule
	Kind     string   // the Kind* of what it usually yields ("" when typed by value)
	Matches  string   // what it matches, in words
	Examples []string // sentences it turns into statements

	triggers []string // one of these must occur in the folded clause
	also     []string // and, when set, one of these too
	fp       bool     // the clause must open with the first person
	list     bool     // only on an item of a "Status:" line
	re       *regexp.Regexp
	build    func(c *clause, m match) (Statement, bool)
}

// clause is one clause being read, with what the sentence around it said.
type clause struct {
	text        string // as said
	low         string // folded
	ascii       string // text with ASCII letters lower-cased: rules run on it
	self        string // the speaker as a value: "user", "assistant" or a name
	selfKey     string // the speaker as an entity
	at          time.Time
	topic       string // a normalised topic from "For the X, …", or ""
	firstPerson bool   // the clause opens with I, we or let's
	sentence    string
	said        string // the last date phrase resolved, as said
}

// match is a rule's submatches by group name. The rule ran on the clause
// with ASCII letters lower-cased, so its offsets index the clause as said.
type match struct {
	re   *regexp.Regexp
	idx  []int
	text string
}

func (m match) get(name string) string {
	i := m.re.SubexpIndex(name)
	if i < 0 || 2*i+1 >= len(m.idx) || m.idx[2*i] < 0 {
		return ""
	}
	return m.text[m.idx[2*i]:m.idx[2*i+1]]
}

// Pattern fragments, expanded by compile.
var fragments = strings.NewReplacer(
	"{NP}", `(?P<np>(?:[^\s,;:!?()]+ ){0,7}?[^\s,;:!?()]+)`,
	"{OBJ}", `(?P<obj>(?:[^\s,;:!?()]+ ){0,5}?[^\s,;:!?()]+)`,
	"{FP}", `(?P<fp>(?:i|we)(?:['’](?:m|re|ve|ll|d))?)`,
	"{AUX}", `(?:(?:am|are|is|have|has|had|will|be|been|just|finally|recently|officially|now|also|actually|already|all|then|got|still|currently)\s+)*`,
	"{ADV}", `(?:(?:now|actually|also|still|officially|finally|just|already|currently|really|then|recently|all|only)\s+)*`,
	"{BE}", `(?:is|are|['’]s|['’]re|will be|['’]ll be|has been|have been|becomes|become|became|is going to be|are going to be|is now|are now)`,
	"{PASS}", `(?:(?:is|are|was|were|has been|have been|had been|has|have|had|been|got|will be|['’]s|just|now|officially|finally|actually|also|only)\s+)*`,
	"{FROM}", `(?:from\s+[^,;]{1,40}?\s+)?`,
	"{NUM}", `(?:\d[\d,.]*|[a-z]+(?:[ -][a-z]+)?)`,
	"{VAL}", `(?P<val>.+)`,
)

// compile builds a rule pattern. Patterns are lower-case and run on the
// clause with ASCII letters lower-cased (see lexical.LowerASCII): case folding in
// the regexp engine costs several times more.
//
// A pattern holding {FROM} ("moved from X to Y") compiles twice: without
// the optional "from X" (the common, cheaper case) and, in fromVariant,
// with it, used only when the clause says " from ".
func compile(p string) *regexp.Regexp {
	if !strings.Contains(p, "{FROM}") {
		return regexp.MustCompile(`^` + fragments.Replace(p))
	}
	re := regexp.MustCompile(`^` + fragments.Replace(strings.ReplaceAll(p, "{FROM}", "")))
	fromVariant[re] = regexp.MustCompile(`^` + fragments.Replace(p))
	return re
}

// fromVariant maps a rule pattern to its variant with "from X" (see compile).
var fromVariant = map[*regexp.Regexp]*regexp.Regexp{}

// Rules is the documented rule set, in the order it is tried on a clause.
// The first rule that yields a statement wins the clause.
var Rules = []Rule{
	{
		Name: "progress-count", Kind: KindCount,
		Matches:  "the speaker finished N of M things: <noun>.completed = N",
		Examples: []string{"I've finished 14 of the 20 interviews.", "We have reviewed 7 out of 12 PRs"},
		triggers: []string{" of "},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}(?P<verb>[a-z]+(?: through)?)\s+(?P<n>{NUM})\s+(?:out\s+)?of\s+(?:the\s+|my\s+|our\s+|all\s+|those\s+)?(?:(?P<total>{NUM})\s+)?(?P<noun>[\p{L}-]+(?:\s+[\p{L}-]+)?)`),
		build:    buildProgress,
	},
	{
		Name: "progress-count-passive", Kind: KindCount,
		Matches:  "N of M things are done: <noun>.completed = N",
		Examples: []string{"14 of the 20 interviews are done."},
		triggers: []string{" of "},
		re:       compile(`(?:we're at\s+|we are at\s+|i'm at\s+|i am at\s+)?(?P<n>{NUM})\s+(?:out\s+)?of\s+(?:the\s+|my\s+|our\s+)?(?:(?P<total>{NUM})\s+)?(?P<noun>[\p{L}-]+(?:\s+[\p{L}-]+)??)\s+(?:are|is|have been|has been|were)\s+(?:now\s+)?(?:done|finished|complete|completed|reviewed|booked|signed|sent|closed|fixed|migrated)`),
		build:    buildProgress,
	},
	{
		Name: "owner-takes-off-hands", Kind: KindOwnership,
		Matches:  "X is taking Y off Z's hands: y.owner = X",
		Examples: []string{"Jonas is taking the onboarding deck off Lena's hands."},
		triggers: []string{" off "},
		re:       compile(`{NP}\s+(?:is\s+|are\s+|['’]s\s+|will\s+|has\s+|have\s+|['’]ll\s+)?{ADV}(?:taking|took|takes|take|taken)\s+(?:over\s+)?{OBJ}\s+off\s+(?:of\s+)?\S+\s+hands`),
		build:    buildOwner,
	},
	{
		Name: "owner-verb", Kind: KindOwnership,
		Matches:  "X owns / is responsible for / takes over / handles / leads Y: y.owner = X",
		Examples: []string{"Lena owns the onboarding deck.", "Marco is now responsible for the vendor contracts", "I'm taking over the launch checklist", "Hana's on the hook for the API docs from here on"},
		triggers: []string{"own", "responsib", "in charge", "over", "handl", "lead", "run", "manag", "picked up", "picking up", "inherit", "driv", "maintain", "on point", "on the hook", "accountable", "looking after", "looks after"},
		re:       compile(`{NP}\s+{AUX}(?:owns?|responsible for|in charge of|on the hook for|accountable for|looking after|looks after|taking over|took over|takes over|take over|taken over|handles|handling|leads|leading|runs|running|manages|managing|the (?:new )?owner of|picked up|picking up|inherit(?:s|ed)|driving|drives|on point for|maintains)\s+{OBJ}(?P<rest>(?:\s+(?:from|now|starting|as of|going forward|effective|this|next|today|for now|from now on|instead|after|,|\.).*)?)$`),
		build:    buildOwner,
	},
	{
		Name: "owner-role", Kind: KindOwnership,
		Matches:  "X is the (new) lead / head / DRI of Y: y.owner = X",
		Examples: []string{"Alex is the new tech lead for payments."},
		triggers: []string{"lead", "dri", "manager", "point person", "head"},
		re:       compile(`{NP}\s+{AUX}the\s+(?:new\s+)?(?:tech\s+)?(?:lead|dri|manager|point person|head)\s+(?:of|for|on)\s+{OBJ}(?P<rest>(?:\s+(?:from|now|starting|as of|going forward|effective|this|next|today|for now|from now on|instead|after|,|\.).*)?)$`),
		build:    buildOwner,
	},
	{
		Name: "owner-stepped-in", Kind: KindOwnership,
		Matches:  "X stepped in / took over / is acting as (the) (team) lead / manager / head (of Y): y.owner = X",
		Examples: []string{"Marcus has stepped in as team lead while Priya is on leave.", "Ana is acting as head of support."},
		triggers: []string{"stepped", "stepping", "steps", "took over", "taken over", "taking over", "acting", "filling in", "standing in"},
		re:       compile(`{NP}\s+{AUX}(?:stepped in|stepping in|steps in|stepped up|took over|taken over|taking over|acting|filling in|standing in)\s+as\s+(?:the\s+|our\s+)?(?:new\s+|interim\s+|acting\s+)?(?P<obj>(?:[\p{L}-]+\s+)?(?:lead|dri|manager|head|owner|point person)(?:\s+(?:of|for|on)\s+[^,;]+?)?)(?P<rest>(?:\s+(?:while|until|during|from|now|starting|as of|for now|this|next|,|\.).*)?)$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("obj"), c.selfKey)
			if !ok || s.attr != "owner" || s.entity == "" {
				return Statement{}, false
			}
			return ownerStatement(c, s.entity, m.get("np"))
		},
	},
	{
		Name: "owner-possessive", Kind: KindOwnership,
		Matches:  "Y is X's (responsibility / job / area) (now), X a person's name: y.owner = X",
		Examples: []string{"The on-call runbook is Mei's.", "The launch checklist is now Dmitri's", "The vendor contracts are Ravi's responsibility now."},
		triggers: []string{"'s", "’s"},
		re:       compile(`{NP}\s+(?:is|are)\s+{ADV}(?P<who>[\p{L}-]+)['’]s(?:\s+(?:responsibility|job|area|domain|remit|baby))?(?:\s+now|\s+from now on|\s+going forward)?\s*[.!]?$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok || choiceHeads[lastKeyWord(s.entity)] || choiceHeads[s.head] || s.entity == c.selfKey {
				// "The caterer is Bellini's": a business's name, chosen.
				return Statement{}, false
			}
			return ownerStatement(c, s.entity, m.get("who"))
		},
	},
	{
		Name: "owner-new-role", Kind: KindOwnership,
		Matches:  "X is the new lead / owner / manager / DRI / point person (of a team or thing said before the role): <thing>.owner = X",
		Examples: []string{"Elif is the new team lead.", "Omar is now the release owner"},
		triggers: []string{"lead", "owner", "manager", "dri", "point person", "head"},
		re:       compile(`^(?P<who>(?:[^\s,;:!?()]+ ){0,2}?[^\s,;:!?()]+)\s+{BE}\s+(?:now\s+)?(?:the|our)\s+(?:new\s+)?(?P<what>(?:[\p{L}-]+\s+){1,3}?)(?:lead|owner|manager|dri|point person|head)(?:\s+now)?$`),
		build: func(c *clause, m match) (Statement, bool) {
			return ownerOfNP(c, m.get("what"), m.get("who"))
		},
	},
	{
		Name: "count-first-person", Kind: KindCount,
		Matches:  "we're up to / down to / at N things, we need N things: <noun>.count",
		Examples: []string{"We're up to 95 guests after the last RSVPs.", "We need 15 laptops, not 12", "We're down to 3 open tickets."},
		triggers: []string{"up to", "down to", "need", "at"},
		re:       compile(`^{FP}\s+{AUX}(?P<verb>up to|down to|need|needs|now need|at|now at)\s+(?P<n>{NUM})\s+(?P<noun>[\p{L}-]+(?:\s+[\p{L}-]+)?)`),
		build:    buildCountHave,
	},
	{
		Name: "we-launch-on", Kind: KindDate,
		Matches:  "we're launching / shipping / going live / kicking off on D: launch.date (ship.date, go_live.date, kickoff.date)",
		Examples: []string{"We're now launching on April 7.", "we are shipping on the 12th of May"},
		triggers: []string{"launching", "shipping", "going live", "kicking off", "releasing"},
		re:       compile(`^{FP}\s+{AUX}(?P<verb>launching|shipping|going live|kicking off|releasing)\s+(?:on\s+|in\s+)?{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := c.date(m.get("val"))
			if !ok {
				return Statement{}, false
			}
			ent := map[string]string{"launching": "launch", "shipping": "ship", "going live": "go_live", "kicking off": "kickoff", "releasing": "release"}[fold(m.get("verb"))]
			return c.statement(ent, "date", v, KindDate), true
		},
	},
	{
		Name: "label-new-value", Kind: "",
		Matches:  "New / final / revised figure (number, date, price, ...) for Y: V: typed by V",
		Examples: []string{"New figure for the headcount for the offsite: 82.", "Final number on the venue hire: £25,950", "Revised date for the audit: March 3"},
		triggers: []string{"new", "final", "revised", "updated", "latest"},
		re:       compile(`^(?:new|final|revised|updated|latest)\s+(?:figure|number|count|total|value|price|date|estimate|amount|cost|quote|time|deadline|address|contact|owner|pick|choice)\s+(?:for|on|of)\s+(?P<np>[^:]{1,60}):\s*{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "label-new-own", Kind: "",
		Matches:  "New address / number / email (as of / from T): V, said of the speaker's own: user.<attribute>, typed by V",
		Examples: []string{"New address as of Monday: 91 Canal Walk, Durham.", "My new phone number as of today: +44 7700 900456"},
		triggers: []string{"new", "updated", "changed"},
		re:       compile(`^(?:(?:my|our)\s+)?(?:new|updated|changed)\s+(?P<attr>(?:home\s+)?address|phone(?:\s+number)?|mobile(?:\s+number)?|number|e-?mail(?:\s+address)?|contact\s+details)(?:\s+(?:as\s+of|from|starting|effective)\s+[^:]{1,30})?:\s*{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP("my "+m.get("attr"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "self-home", Kind: KindLocation,
		Matches:  "home is A / send everything to A (from now on): user.address",
		Examples: []string{"Finally done with the move; home is 161 Gillespie Crescent, Nottingham.", "Send everything to 5 Tannery Yard, Exeter from now on.", "You can send stuff to 63 Tannery Yard, Aberdeen — that's my place."},
		triggers: []string{"home", "send", "ship", "deliver", "forward", "mail"},
		re:       compile(`^(?:(?:my\s+)?home(?:\s+address)?\s+{BE}\s+(?:now\s+)?|(?:(?:please|you can|you could|just)\s+)?(?:send|ship|deliver|forward|mail)\s+(?:everything|stuff|things|it all|all (?:my\s+)?(?:mail|post|deliveries|parcels|packages)|my\s+(?:mail|post|deliveries|parcels|packages)|(?:mail|post|deliveries|parcels|packages))\s+to\s+)(?P<val>.+)$`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takePlace(m.get("val"))
			if !ok || !reAddress.MatchString(v) {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "address", v, KindLocation), true
		},
	},
	{
		Name: "owner-passive", Kind: KindOwnership,
		Matches:  "Y is owned by / assigned to / handed over to X: y.owner = X",
		Examples: []string{"The vendor contract is now owned by Priya.", "The Q3 report was reassigned to Omar"},
		triggers: []string{"owned", "handled", "run by", "led by", "managed", "assigned", "reassigned", "handed", "passed", "given", "transferred", "belong", "taken over"},
		re:       compile(`{NP}\s+{PASS}(?:owned|handled|run|led|managed|assigned|reassigned|handed(?:\s+over|\s+off)?|passed(?:\s+over|\s+on)?|given|transferred|belongs|belong|taken over)\s+(?:by|to)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			return ownerOfNP(c, m.get("np"), m.get("val"))
		},
	},
	{
		Name: "owner-person-for", Kind: KindOwnership,
		Matches:  "the person (one) on the hook for / responsible for / in charge of Y is X: y.owner = X",
		Examples: []string{"The person on the hook for the onboarding deck is Tobias.", "The one responsible for the vendor renewal is now Hanna"},
		triggers: []string{"on the hook", "responsible", "accountable", "in charge"},
		re:       compile(`^(?:the\s+)?(?:person|one|point person)\s+(?:on the hook|responsible|accountable|in charge)\s+(?:for|of)\s+(?P<np>.+?)\s+{BE}\s+(?:now\s+)?{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			return ownerOfNP(c, m.get("np"), m.get("val"))
		},
	},
	{
		Name: "choice-for", Kind: KindChoice,
		Matches:  "(after a decision: settled / decided / final answer) V for (the) Y: y.choice = V",
		Examples: []string{"Settled it — MariaDB for the database for the billing service.", "Decided: Buildkite for CI"},
		triggers: []string{" for "},
		re:       compile(`^(?P<val>[^\s,;:]+(?:\s+[^\s,;:]+){0,3}?)\s+for\s+(?P<np>.+)$`),
		build: func(c *clause, m match) (Statement, bool) {
			if v := m.get("val"); !containsAny(fold(c.sentence), decisionMarks) || !reWholeName.MatchString(v) || nameStops[fold(firstWord(v))] {
				return Statement{}, false
			}
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.statement(s.entity, "choice", m.get("val"), KindChoice), true
		},
	},
	{
		Name: "moved-its-address", Kind: KindLocation,
		Matches:  "(we've moved / I moved …) it's A (from now on): user.address",
		Examples: []string{"We've moved — it's 48 Wexford Avenue, Leeds from now on.", "Finally moved house; it is 3 Quay Lane now"},
		triggers: []string{"it's", "it’s", "it is"},
		re:       compile(`^it(?:'s|’s| is)\s+(?:now\s+)?(?P<val>\d.+)$`),
		build: func(c *clause, m match) (Statement, bool) {
			if !containsAny(fold(c.sentence), movedMarks) {
				return Statement{}, false
			}
			v, ok := takePlace(m.get("val"))
			if !ok || !reAddress.MatchString(v) {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "address", v, KindLocation), true
		},
	},
	{
		Name: "owner-with", Kind: KindOwnership,
		Matches:  "Y sits / lies / rests with X: y.owner = X",
		Examples: []string{"The quarterly budget review sits with Jonas.", "Responsibility for the audit now rests with Dana"},
		triggers: []string{"sits with", "sit with", "lies with", "rests with", "rest with"},
		re:       compile(`{NP}\s+{AUX}(?:sits|sit|lies|rests|rest)\s+with\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			np := m.get("np")
			if i := strings.Index(fold(np), "responsibility for "); i == 0 {
				np = np[len("responsibility for "):]
			}
			return ownerOfNP(c, np, m.get("val"))
		},
	},
	{
		Name: "owner-assign-gerund", Kind: KindOwnership,
		Matches:  "Reassigning / handing Y to X: y.owner = X",
		Examples: []string{"Reassigning the quarterly budget review to Yusuf.", "Handing the release notes over to Tobias"},
		triggers: []string{"reassigning", "assigning", "handing", "passing", "transferring", "giving"},
		re:       compile(`^(?:reassigning|assigning|handing|passing|transferring|giving)\s+(?:over\s+|off\s+)?{OBJ}\s+(?:over\s+|off\s+|on\s+)?to\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			return ownerOfNP(c, m.get("obj"), m.get("val"))
		},
	},
	{
		Name: "owner-assign", Kind: KindOwnership,
		Matches:  "someone assigned / handed Y to X: y.owner = X",
		Examples: []string{"I handed the budget review over to Sam.", "We've reassigned the audit to Dana"},
		triggers: []string{"assign", "reassign", "handed", "passed", "gave", "transferred", "delegat"},
		also:     []string{" to "},
		re:       compile(`(?:{FP}|(?P<subj>[^\s,;:!?()]+))\s+{AUX}(?:assigned|reassigned|handed|passed|gave|transferred|delegated)\s+(?:over\s+|off\s+)?{OBJ}\s+(?:over\s+|off\s+|on\s+)?to\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			if !namedSubject(m.get("subj")) || strings.HasPrefix(fold(m.get("obj")), "from ") {
				return Statement{}, false // "I've been reassigned from EMEA to APAC": no thing handed
			}
			return ownerOfNP(c, m.get("obj"), m.get("val"))
		},
	},
	{
		Name: "owner-replaces", Kind: KindOwnership,
		Matches:  "X replaced / succeeded Z as owner (lead) of Y: y.owner = X",
		Examples: []string{"Jonas replaced Lena as owner of the onboarding deck."},
		triggers: []string{"replac", "succeed"},
		also:     []string{" as "},
		re:       compile(`{NP}\s+{AUX}(?:replaced|replaces|replacing|succeeded|succeeds|succeeding)\s+\S+(?:\s+\S+)?\s+as\s+(?:the\s+)?(?:new\s+)?(?:owner|lead|dri|manager|head|point person)\s+(?:of|for|on)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			return ownerOfNP(c, strings.TrimRight(m.get("val"), " .!"), m.get("np"))
		},
	},
	{
		Name: "choice-replaces", Kind: KindChoice,
		Matches:  "X replaces Z as (the) Y / for (the) Y: y.choice = X (for Y: typed by X)",
		Examples: []string{"Lit replaces Angular as the frontend framework for the dashboard.", "Postgres replaced MySQL as our main database", "Seville replaces Kraków for the team offsite."},
		triggers: []string{"replac"},
		also:     []string{" as ", " for "},
		re:       compile(`^(?P<who>(?:[^\s,;:!?()]+ ){0,3}?[^\s,;:!?()]+)\s+(?:replaces|replaced|is replacing|has replaced)\s+(?:[^\s,;:!?()]+ ){0,3}?[^\s,;:!?()]+\s+(?P<prep>as|for)\s+(?P<np>.+)$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(strings.TrimRight(m.get("np"), " .!"), c.selfKey)
			v, ok2 := takeChoice(m.get("who"))
			if !ok || !ok2 || s.entity == "" {
				return Statement{}, false
			}
			if m.get("prep") == "for" {
				// "Seville replaces Kraków for the team offsite": typed by the value.
				if st, ok := c.typed(s, v, true); ok {
					return st, true
				}
			}
			attr := s.attr
			if attr == "" {
				attr = "choice"
			}
			return c.statement(s.entity, attr, v, KindChoice), true
		},
	},
	{
		Name: "self-move", Kind: KindLocation,
		Matches:  "the speaker moved / is moving to P: user.address (a street address) or user.location",
		Examples: []string{"I moved to 12 Elm Row.", "We're relocating to Lisbon in March", "i just moved into 4 Rue Cler", "We finally made the move to Denver.", "We packed up and moved out to Seattle"},
		triggers: []string{"mov", "relocat", "settled"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:(?:packed|sold|wrapped|cleared|boxed|gave notice|quit)(?:\s+[\p{L}'’]+){0,3}\s+and\s+)?(?:moved|moving|move|relocated|relocating|relocate|settled|made the move|made the big move|made the jump)\s+(?:(?:downstairs|upstairs|next door|across town|across the street|down the hall|out|house|flats?|apartments?)\s*,?\s+)?(?:in\s*)?(?:to|into|over\s+to|back\s+to|down\s+to|up\s+to|in)\s+{VAL}`),
		build:    buildSelfPlace,
	},
	{
		Name: "self-at", Kind: KindLocation,
		Matches:  "the speaker lives / is (now) at or in P: user.address or user.location",
		Examples: []string{"I'm at 12 Elm Row now.", "We live in Porto these days", "I am now based in Berlin", "We're staying at the Hyatt Regency (user.hotel)"},
		triggers: []string{" at ", " in "},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}(?:(?P<verb>live|living|lives|based|residing|reside|located|settled|staying)\s+)?(?:at|in)\s+{VAL}`),
		build:    buildSelfPlace,
	},
	{
		Name: "self-destination", Kind: KindLocation,
		Matches:  "the speaker is flying / heading / travelling to P: user.destination",
		Examples: []string{"I'm flying to Tokyo on Friday.", "We're heading to Oslo next week"},
		triggers: []string{"flying", "heading", "travel", "driving", "going to", "off to", "fly "},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}(?:flying|heading|travell?ing|driving|going|off|fly|headed)\s+(?:back\s+|out\s+|over\s+)?to\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takePlace(m.get("val"))
			if !ok {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "destination", v, KindLocation), true
		},
	},
	{
		Name: "flight", Kind: KindBooking,
		Matches:  "a flight code after flight / flying / booked on: user.flight (or <np>.flight)",
		Examples: []string{"My flight is now LH 1234.", "I'm booked on BA 287 instead"},
		triggers: []string{"flight", "flying", "booked on", "rebooked"},
		re:       compile(`(?:(?P<np>(?:my|our|the|[^\s,;:]+['’]s)(?: [^\s,;:]+){0,2}? flight(?: number)?)\s+{BE}\s+{ADV}|{FP}\s+{AUX}(?:flying|booked|rebooked|on)\s+(?:on\s+)?(?:flight\s+)?)(?P<val>.+)`),
		build: func(c *clause, m match) (Statement, bool) {
			fm := reFlight.FindStringSubmatchIndex(m.get("val"))
			if fm == nil || fm[0] > 12 {
				return Statement{}, false
			}
			v := m.get("val")[fm[0]:fm[1]]
			ent := c.selfKey
			e, named := c.entityOf(m.get("np"), ent)
			if !named {
				return Statement{}, false
			}
			ent = e
			return c.statement(ent, "flight", v, KindBooking), true
		},
	},
	{
		Name: "price-verb", Kind: KindAmount,
		Matches:  "Y costs / is priced at / sells for M: y.price",
		Examples: []string{"The widget now costs $12.", "the gadget is priced at €9.50"},
		triggers: []string{"cost", "priced", "sell", "go for", "goes for", "retail", "listed"},
		re:       compile(`{NP}\s+{ADV}(?:costs|cost|will cost|now costs|is priced at|are priced at|sells for|sell for|goes for|go for|retails for|retail for|is listed at|are listed at)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			v, ok2 := takeMoney(m.get("val"))
			if !ok || !ok2 {
				return Statement{}, false
			}
			return c.statement(s.entity, "price", v, KindAmount), true
		},
	},
	{
		Name: "capacity-verb", Kind: KindAmount,
		Matches:  "Y holds / seats / fits N: y.capacity",
		Examples: []string{"The room holds 40.", "the van seats nine people"},
		triggers: []string{"hold", "seat", "fit", "take", "accommodat", "sleep", "room for", "space for", "capacity for"},
		re:       compile(`{NP}\s+{ADV}(?:holds|hold|seats|seat|fits|fit|can hold|can seat|can fit|takes|accommodates|can accommodate|sleeps|has room for|has space for|has capacity for)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			v, ok2 := takeNum(m.get("val"))
			if !ok || !ok2 {
				return Statement{}, false
			}
			return c.statement(s.entity, "capacity", v, KindAmount), true
		},
	},
	{
		Name: "change-to", Kind: "",
		Matches:  "Y was cut / raised / set / changed to V, or went from X to V: typed by V (amount, date, place, choice)",
		Examples: []string{"The marketing budget was cut to $40k.", "The price went from $10 to $12"},
		triggers: []string{"cut", "reduc", "rais", "increas", "lower", "bump", "drop", "trim", "slash", "set", "chang", "capp", "adjust", "updat", "went", "goes", "rose", "fell", "came", "going", "coming", "grew", "grow", "jump", "climb", "shrank", "shrunk", "expand", "up to", "down to"},
		also:     []string{" to ", " until ", " till ", " for ", " at "},
		re:       compile(`{NP}\s+{PASS}(?:went\s+(?:up\s+|down\s+)?{FROM}to|(?:cut|reduced|raised|increased|lowered|bumped|dropped|trimmed|slashed|set|changed|capped|adjusted|updated|(?:went|goes|going|came|coming) (?:up|down)|rose|fell|grew|grown|jumped|climbed|shrank|shrunk|expanded|(?:is|are|['’]s|['’]re) (?:now )?(?:up|down))\s+(?:back\s+|out\s+|up\s+|down\s+|forward\s+|over\s+|in\s+)?{FROM}(?:to|until|till|for|at))\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "imperative-set", Kind: "",
		Matches:  "Change / set / update / bump / move Y to V (an instruction that sets the value): typed by V; hand / reassign / give Y to X: y.owner = X",
		Examples: []string{"Bump the workshop cap to 36.", "Reassign the onboarding deck to Dmitri", "Please move the review to Friday"},
		triggers: []string{"change", "set", "update", "move", "bump", "raise", "lower", "cut", "reduce", "increase", "push", "reschedule", "switch", "hand", "reassign", "assign", "give", "make"},
		re:       compile(`^(?:please\s+|let['’]?s\s+)?(?P<verb>change|set|update|move|bump|raise|lower|cut|reduce|increase|push|reschedule|switch|hand|reassign|assign|give|make)\s+(?:up\s+|down\s+|back\s+|over\s+)?{OBJ}\s+(?:up\s+|down\s+|back\s+|over\s+)?to\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("obj"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			switch fold(m.get("verb")) {
			case "hand", "reassign", "assign", "give":
				return ownerStatement(c, s.entity, m.get("val"))
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "imperative-record", Kind: "",
		Matches:  "Put / mark / log / record / note Y (down) as V, (let's) keep / hold Y at V (an instruction that records the value): typed by V",
		Examples: []string{"Put the seat count for the training course down as 800.", "Mark the migration status as blocked", "Log the headcount as 42", "Let's keep the budget at $40k."},
		triggers: []string{"put", "mark", "log", "record", "note", "write", "pencil", "jot", "keep", "leave", "hold"},
		re:       compile(`^(?:please\s+|let['’]?s\s+)?(?:put|mark|log|record|note|write|pencil|jot|keep|leave|hold)\s+(?:down\s+|in\s+)?{NP}\s+(?:down\s+|in\s+)?(?:as|at)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "rename", Kind: KindChoice,
		Matches:  "(we voted to / decided to) rename Y (to) V, rename ourselves V: y.name",
		Examples: []string{"The team voted to rename ourselves Atlas.", "We're renaming the newsletter to The Weekly Ledger"},
		triggers: []string{"renam"},
		re:       compile(`(?:[^,;:!?]*?\s)?(?:voted to |decided to |agreed to |chose to |going to |have |has |had |'ve |’ve |just |officially )?renam(?:e|ed|es|ing)\s+(?P<obj>ourselves|us|itself|(?:the|our|my)\s+[\p{L}-]+(?:\s+[\p{L}-]+)??)\s+(?:to\s+|as\s+)?(?P<val>.+)$`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takeChoice(m.get("val"))
			if !ok || !isUpperRune([]rune(v)[0]) {
				return Statement{}, false
			}
			ent := ""
			switch obj := fold(m.get("obj")); obj {
			case "ourselves", "us", "itself":
				// The group renamed is the one the sentence names.
				for _, g := range []string{"team", "band", "company", "club", "group", "studio", "startup", "squad"} {
					if strings.Contains(c.low, g) {
						ent = g
					}
				}
			default:
				s, ok := normNP(m.get("obj"), c.selfKey)
				if !ok {
					return Statement{}, false
				}
				ent = s.entity
			}
			if ent == "" {
				return Statement{}, false
			}
			return c.statement(ent, "name", v, KindChoice), true
		},
	},
	{
		Name: "shifted-by", Kind: KindDate,
		Matches:  "Y is (now) a week / two days later / earlier (than planned): D: y.date",
		Examples: []string{"Kickoff's a week later than planned: January 19.", "The review is now two days earlier, on March 3"},
		triggers: []string{"later", "earlier", "sooner"},
		re:       compile(`{NP}\s+{BE}\s+{ADV}(?:a|an|one|two|three|four|five|six|a few|a couple of|\d+)\s+(?:days?|weeks?|months?|hours?)\s+(?:later|earlier|sooner)(?:\s+than\s+(?:planned|expected|scheduled|before|originally planned))?\s*(?:[:,—–-]\s*|\s+)(?:on\s+|to\s+)?{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			v, ok2 := c.date(m.get("val"))
			if !ok || !ok2 || s.entity == "" {
				return Statement{}, false
			}
			return c.statement(s.entity, orDefault(s.attr, "date"), v, KindDate), true
		},
	},
	{
		Name: "lock-in-for", Kind: "",
		Matches:  "(let's) lock in / pencil in / nail down V for Y: typed by V",
		Examples: []string{"Let's lock in Thursday for the retro.", "Pencil in March 3 for the board review", "Nail down $4,000 for the deposit."},
		triggers: []string{"lock", "pencil", "nail", "pin"},
		re:       compile(`^(?:please\s+|let['’]?s\s+|we(?:['’]ll| will| can)?\s+)?(?:lock in|lock down|pencil in|pin down|nail down)\s+(?P<val>(?:[^,;]|,\d)+?)\s+(?:for|as the date for|as the day for)\s+{NP}$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok || s.entity == "" {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "at-value-for", Kind: "",
		Matches:  "we're (now) at V for Y: typed by V",
		Examples: []string{"We're at 77 for the number of laptops we need to order.", "We are now at $12k for the travel budget"},
		triggers: []string{" at "},
		also:     []string{" for ", " on "},
		re:       compile(`(?:we['’]re|we are|i['’]m|i am)\s+{ADV}at\s+(?P<val>[^,;]+?)\s+(?:for|on)\s+{NP}$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok || s.entity == "" {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "it-is-for", Kind: "",
		Matches:  "V it is (for Y): a decision, typed by V",
		Examples: []string{"Lisbon it is for the team offsite.", "Harbour Grey it is for the living room paint colour"},
		triggers: []string{" it is"},
		re:       compile(`(?P<val>[^,;]+?)\s+it\s+is\s+(?:for|as)\s+{NP}$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			v := m.get("val")
			if !ok || s.entity == "" || !reWholeName.MatchString(v) {
				return Statement{}, false
			}
			if st, ok := c.typed(s, v, true); ok {
				return st, true
			}
			return c.statement(s.entity, "choice", v, KindChoice), true
		},
	},
	{
		Name: "move-to", Kind: "",
		Matches:  "Y was moved / pushed / postponed / rescheduled / switched to V: typed by V (date, place, choice)",
		Examples: []string{"The launch got pushed to December 4th", "The offsite moved to Porto", "The meeting moved from Tuesday to Thursday", "Kickoff slid a week, to March 10."},
		triggers: []string{"mov", "relocat", "push", "postpon", "reschedul", "delay", "shift", "brought", "pulled", "slip", "slid", "switch", "schedul", "booked", "extend", "confirm"},
		also:     []string{" to ", " until ", " till ", " for ", " at "},
		re:       compile(`{NP}\s+{PASS}(?:mov(?:ed|es|ing)|relocat(?:ed|es|ing)|pushed|postponed|rescheduled|delayed|shifted|brought forward|pulled (?:in|forward)|slip(?:ped|s|ping)|slid|slides|sliding|switched|scheduled|booked|extended|confirmed)\s+(?:back\s+|out\s+|up\s+|down\s+|forward\s+|over\s+|in\s+)?(?:(?:by\s+)?(?:a|an|one|two|three|four|five|six|a few|a couple of|\d+)\s+(?:days?|weeks?|months?|hours?)\s*,?\s+)?{FROM}(?:to|until|till|for|at)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: "change-to-active", Kind: "",
		Matches:  "the speaker (or a named person) moved / pushed / cut Y to V: typed by V",
		Examples: []string{"We moved the offsite to Porto.", "I pushed the dentist appointment to Friday", "Finance cut the travel budget to $5k", "My landlord raised the rent to $1,950"},
		triggers: []string{"cut", "reduc", "rais", "increas", "lower", "bump", "drop", "trim", "slash", "set", "chang", "upp", "capp", "adjust", "revis", "updat", "went", "goes", "rose", "fell", "grew", "doubl", "halv", "tripl", "came", "come", "mov", "relocat", "push", "postpon", "reschedul", "delay", "shift", "brought", "pulled", "slip", "slid", "switch", "swapp", "schedul", "plann", "booked", "extend", "fixed", "confirm", "lock", "pencil", "going", "coming"},
		also:     []string{" to ", " until ", " till ", " for "},
		re:       compile(`(?:{FP}|(?P<subj>(?:my|our)\s+[^\s,;:!?()]+|[^\s,;:!?()]+))\s+{AUX}(?P<verb>mov(?:ed|ing)|push(?:ed|ing)|postponed|re-?scheduled|delayed|bumped|shifted|brought forward|pulled (?:in|forward)|relocated|chang(?:ed|ing)|switched|swapped|set|scheduled|booked|fixed|extended|cut|reduced|raised|increased|lowered|trimmed|slashed|upped|capped|adjusted|doubled|halved|tripled)\s+{OBJ}\s+(?:back\s+|out\s+|up\s+|down\s+|forward\s+|over\s+)?{FROM}(?:to|until|till|for)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			if fw := fold(firstWord(m.get("obj"))); prepositions[fw] {
				return Statement{}, false // "… trimmed to $30k for Q3": no object
			}
			s, ok := normNP(m.get("obj"), c.selfKey)
			obj := fold(m.get("obj"))
			if subj := fold(m.get("subj")); !ok || !namedSubject(m.get("subj")) && !(strings.HasPrefix(subj, "my ") || strings.HasPrefix(subj, "our ")) &&
				!((subj == "they" || subj == "he" || subj == "she") && (strings.HasPrefix(obj, "our ") || strings.HasPrefix(obj, "my "))) {
				// "My landlord raised the rent": someone of the speaker's
				// acting on the speaker's thing (the clause filter let it
				// through: actsOnOurs), or anyone acting on what the
				// speaker calls ours ("They doubled our API limit"); "they
				// moved the launch" names no one's.
				return Statement{}, false
			}
			return c.typed(s, m.get("val"), true)
		},
	},
	{
		Name: RuleActionSet, Kind: "",
		Matches:  "I've updated / rebooked / moved / changed Y to (for) V (an action done): typed by V",
		Examples: []string{"Done — I've rebooked the dentist appointment for January 30.", "I've updated the delivery address to 5 Tannery Yard, Exeter, as you asked."},
		triggers: []string{"updated", "rebooked", "booked", "moved", "changed", "rescheduled", "set", "switched"},
		re:       compile(`^{FP}\s+{AUX}(?:updated|rebooked|booked|moved|changed|rescheduled|set|switched)\s+{OBJ}\s+(?:to|for)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("obj"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			return c.typed(s, reAsAsked.ReplaceAllString(m.get("val"), ""), true)
		},
	},
	{
		Name: "upgrade-to-active", Kind: KindChoice,
		Matches:  "the speaker upgraded / migrated / renamed Y to V: y.version (upgrades) or y.choice",
		Examples: []string{"We upgraded the cluster to Kubernetes 1.31.", "We migrated the auth service to Go"},
		triggers: []string{"upgrad", "downgrad", "migrat", "renam"},
		also:     []string{" to "},
		re:       compile(`(?:{FP}|(?P<subj>[^\s,;:!?()]+))\s+{AUX}(?P<verb>upgraded|downgraded|migrated|renamed)\s+{OBJ}\s+{FROM}to\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("obj"), c.selfKey)
			if !ok || !namedSubject(m.get("subj")) {
				return Statement{}, false
			}
			v, ok := takeChoice(m.get("val"))
			attr := "choice"
			if strings.HasSuffix(fold(m.get("verb")), "graded") {
				attr = "version"
			}
			return c.statement(s.entity, attr, v, KindChoice), ok
		},
	},
	{
		Name: "date-verb", Kind: KindDate,
		Matches:  "Y starts / ends / launches / ships / is due D: y.start, y.end, y.date or y.deadline",
		Examples: []string{"The offsite starts on March 3rd.", "The report is due Friday", "v2 ships next Tuesday", "the deposit isn't due until March 1 now"},
		triggers: []string{"start", "begin", "kick", "end", "finish", "wrap", "launch", "ship", "live", "land", "open", "close", "due", "expir", "happen", "take place", "takes place", "depart", "leav", "arriv", "run"},
		re:       compile(`{NP}\s+{AUX}(?P<not>(?:isn['’]t|is not|aren['’]t|are not|won['’]t|will not|doesn['’]t|does not|don['’]t|do not)\s+(?:be\s+)?)?(?P<verb>start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)? off|end(?:s|ing)?|finishes|wraps(?: up)?|launch(?:es|ing)?|ship(?:s|ping)?|go(?:es|ing)? live|lands|opens|closes|due|expires|happen(?:s|ing)|tak(?:es|ing) place|departs|leaves|arrives|runs (?:until|through|till)|runs on|run on)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			if strings.HasPrefix(fold(m.get("val")), "of ") {
				return Statement{}, false // "the deadline is end of May": a noun, not a verb
			}
			if m.get("not") != "" && !strings.HasPrefix(fold(m.get("val")), "until ") {
				return Statement{}, false // "isn't due until March 1" says when; "isn't due Friday" does not
			}
			s, ok := normNP(m.get("np"), c.selfKey)
			v, ok2 := c.date(m.get("val"))
			if !ok || !ok2 {
				return Statement{}, false
			}
			attr := verbAttribute(fold(m.get("verb")))
			ent := s.entity
			switch {
			case s.attr == "deadline":
				attr = "deadline"
			case s.attr != "" && !isDateAttr(s.attr):
				ent += "_" + s.attr // "our flight to Rome leaves" → rome_flight
			}
			return c.statement(ent, attr, v, KindDate), true
		},
	},
	{
		Name: "copula-place-or-date", Kind: "",
		Matches:  "Y is in / at / on / due / scheduled for V: y.location (a place) or y.date (a date)",
		Examples: []string{"The offsite is in Lisbon.", "The review is on Thursday at 3pm", "the launch party is on Dec 4"},
		triggers: []string{" in ", " at ", " on ", " for ", " due", " by ", " until "},
		also:     []string{" is ", " are ", "'s ", "'re ", "’s ", "’re ", " be ", " been ", " become"},
		re:       compile(`{NP}\s+{BE}\s+{ADV}(?:(?:located|held|happening|taking place|based|hosted|moving|relocating|being held|due|scheduled|set|planned|booked|slated|penciled|pencilled|confirmed|fixed|locked|pinned|now)\s+)*(?P<prep>in|at|on|for|by|until)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			val := m.get("val")
			if reStatus.MatchString(m.get("prep") + " " + val) {
				return Statement{}, false // "is at risk as of today": a status
			}
			dateText := val
			if fold(m.get("prep")) == "in" {
				dateText = "in " + val
			}
			if v, ok := c.date(dateText); ok {
				attr := s.attr
				if attr == "" || !isDateAttr(attr) {
					if s.attr != "" {
						return Statement{}, false
					}
					attr = "date"
					if !reDateWord.MatchString(v) && !strings.Contains(v, "-") {
						attr = "time"
					}
				}
				return c.statement(s.entity, attr, v, KindDate), true
			}
			if p := fold(m.get("prep")); p == "in" || p == "at" {
				if v, ok := takePlace(val); ok {
					attr := s.attr
					if attr == "" {
						attr = "location"
					} else if !isPlaceAttr(attr) {
						return Statement{}, false
					}
					return c.statement(s.entity, attr, v, KindLocation), true
				}
			}
			return Statement{}, false
		},
	},
	{
		Name: "progress-status", Kind: KindStatus,
		Matches:  "Y is done / live / blocked / cancelled / on hold …: y.status",
		Examples: []string{"The migration is done.", "the API redesign is now blocked", "Phase 2 has been cancelled"},
		triggers: []string{"done", "finish", "complet", "live", "ship", "merge", "deploy", "release", "launch", "block", "hold", "cancel", "called off", "pause", "progress", "underway", "under way", "review", "approv", "resolv", "closed", "fixed", "ready", "booked", "confirm", "signed", "submit", "paid", "overdue", "postpon", "delay", "finali", "wrapped", "sorted", "running", "broken", "track", "schedule", "risk", "sold out", "reopen", "rolled back", "revert", "start", "stock", "available", "sent", "green", "red", "down", "off", "enabl", "disabl", "activ", "inactiv", "archiv", "deprecat", "froz", "unfroz", "deliver", "arriv", "dispatch", "transit", "return", "refund"},
		re:       compile(`{NP}\s+(?:(?:is|are|['’]s|['’]re|has been|have been|was|were|got|just|now|officially|finally|all|fully|actually|also)\s+)+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok || s.attr != "" && s.attr != "status" {
				return Statement{}, false
			}
			v, ok := takeStatus(m.get("val"))
			if !ok || !endsNear(m.get("val"), v) {
				return Statement{}, false
			}
			return c.statement(s.entity, "status", v, KindStatus), true
		},
	},
	{
		Name: "status-active", Kind: KindStatus,
		Matches:  "the speaker finished / shipped / cancelled Y: y.status = the verb",
		Examples: []string{"We shipped the mobile app.", "I finally finished the tax return"},
		triggers: []string{"finish", "complet", "ship", "merge", "deploy", "cancel", "closed", "launch", "submit", "paid", "signed", "wrapped", "sent", "fixed", "resolv", "releas", "approv", "finali", "called off", "paused"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}(?P<val>finished|completed|shipped|merged|deployed|cancell?ed|closed|launched|submitted|paid|signed|wrapped up|sent|fixed|resolved|released|approved|finali[sz]ed|called off|paused)\s+(?:off\s+|up\s+|out\s+)?{OBJ}(?P<rest>(?:\s+(?:today|yesterday|this\s+\w+|last\s+night|just\s+now|now|earlier(?:\s+today)?|on\s+time|early))?)\s*[.!]?$`),
		build: func(c *clause, m match) (Statement, bool) {
			if reLeadPronoun.MatchString(m.get("obj")) {
				return Statement{}, false // "I paid it at the council offices": "it" is what was paid
			}
			s, ok := normNP(m.get("obj"), c.selfKey)
			if !ok || s.attr != "" || reNum.MatchString(m.get("obj")) {
				return Statement{}, false
			}
			return c.statement(s.entity, "status", m.get("val"), KindStatus), true
		},
	},
	{
		Name: "status-intransitive", Kind: KindStatus,
		Matches:  "Y shipped / launched / went live / finished.: y.status = the verb",
		Examples: []string{"The beta launched today.", "The migration finished"},
		triggers: []string{"shipped", "launched", "landed", "live", "finished", "completed", "wrapped", "started", "begun", "kicked off", "closed", "merged", "failed", "passed", "succeeded", "ended", "shut down", "sold out"},
		re:       compile(`{NP}\s+{ADV}(?:(?:has|have)\s+)?(?P<val>shipped|launched|landed|gone live|went live|finished|completed|wrapped up|started|begun|kicked off|closed|merged|failed|passed|succeeded|ended|shut down|sold out)(?:\s+(?:today|yesterday|this\s+\w+|last\s+night|just\s+now|now|earlier(?:\s+today)?|on\s+time|early))?\s*[.!]?$`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok || s.attr != "" {
				return Statement{}, false
			}
			return c.statement(s.entity, "status", m.get("val"), KindStatus), true
		},
	},
	{
		Name: "contact-use-as", Kind: KindContact,
		Matches:  "use E as my (main) email / number: user.email or user.phone",
		Examples: []string{"Use jo@work.io as my main email.", "Please use 555-0199 as my number from now on"},
		triggers: []string{"use "},
		re:       regexp.MustCompile(`^(?:please\s+)?use\s+(?P<val>` + emailPat + `|` + phonePat + `)\s+as\s+(?:my|our)\s+(?:(?:main|primary|new|default|usual|contact|preferred)\s+)*(?P<what>e-?mail(?:\s+address)?|(?:phone\s+)?number|phone|mobile|cell)\b`),
		build: func(c *clause, m match) (Statement, bool) {
			attr := "phone"
			if strings.Contains(fold(m.get("what")), "mail") {
				attr = "email"
			}
			if (attr == "email") != strings.Contains(m.get("val"), "@") {
				return Statement{}, false
			}
			return c.statement(c.selfKey, attr, m.get("val"), KindContact), true
		},
	},
	{
		Name: "choice-going-with", Kind: KindChoice,
		Matches:  "we're going with / let's go with / we picked / we settled on X: <topic>.choice",
		Examples: []string{"We're going with Bellini's for the team dinner.", "Let's go with plan B.", "For the caterer, we picked Café Lumière", "The team decided on 3 days in office."},
		triggers: []string{"going with", "go with", "went with", "gone with", "decided", "settled", "picked", "chose", "chosen", "selected", "opted", "using", "use", "switched", "switching", "landed on", "ended up", "went for", "going for", "locked in", "signed with", "hired", "sticking with", "book"},
		re:       compile(`(?:{FP}\s+{AUX}|(?:the\s+)?(?:team|group|committee|board|leadership|management|everyone|we all)\s+{AUX}|let['’]?s\s+|lets\s+)?{ADV}(?:(?:going to |decided to |ended up )?(?:go|going|went|gone) with|decided (?:on|to use)|settled on|picked|chose|chosen|selected|opted for|using|use|switch(?:ed|ing) to|landed on|ended up with|(?:went|going) for|locked in|signed with|hired|sticking with|booked|ended up booking|ended up choosing|ended up picking)\s+{VAL}`),
		build:    buildChoice,
	},
	{
		Name: "choice-is-pick", Kind: KindChoice,
		Matches:  "X is the pick / our choice / the winner (for Y): <y>.choice",
		Examples: []string{"Bellini's is the pick.", "Postgres is our choice for the datastore"},
		triggers: []string{" the ", " our ", " my "},
		re:       compile(`(?P<val>.+?)(?:\s+{BE}|['’]s|['’]re)\s+{ADV}(?P<det>the|our|my)\s+(?:(?:final|new|clear|top|main|primary|usual|regular|current|official|[a-z]+-[a-z]+)\s+)*(?:(?:go-to|favou?rite)\s+(?P<what>[a-z]+(?:\s+[a-z]+)??)|(?P<head>pick|choice|winner|decision|selection|go-to|[a-z]+))(?:\s+(?:for|of|at|with|on)\s+(?P<topic>[^,;.!?]+?))?(?:\s+(?:now|from now on|going forward|for now|these days|again))?\s*[.!]?$`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takeChoice(m.get("val"))
			if !ok {
				return Statement{}, false
			}
			ent := c.topic
			if what := m.get("what"); what != "" {
				// "Ritual is my go-to coffee shop": the choice of a coffee shop.
				e, ok := c.entityOf(what, "")
				if !ok || e == "" {
					return Statement{}, false
				}
				return c.statement(e, "choice", v, KindChoice), true
			}
			h := fold(m.get("head"))
			if (roleNouns[h] || agentNoun(h)) && (m.get("topic") != "" || fold(m.get("det")) != "the") {
				// "Dana is our new accountant", "Priya is the new contact
				// for legal": a person in a role, keyed as "Our accountant
				// is Dana" is.
				who, ok := takeWho(m.get("val"), c.self, c.lower())
				if !ok {
					return Statement{}, false
				}
				e, named := c.entityOf(m.get("topic"), c.selfKey)
				if !named {
					return Statement{}, false
				}
				return c.statement(e, h, who, KindPerson), true
			}
			switch h {
			case "pick", "choice", "winner", "decision", "selection", "go-to":
			default:
				if !choiceHeads[h] {
					return Statement{}, false
				}
				ent = h // "Node 20 is our runtime" → runtime.choice
			}
			e, named := c.entityOf(m.get("topic"), ent)
			if !named {
				return Statement{}, false
			}
			ent = e
			return c.statement(ent, "choice", v, KindChoice), true
		},
	},
	{
		Name: "count-have", Kind: KindCount,
		Matches:  "we have / there are N things: <noun>.count",
		Examples: []string{"We now have 12 confirmed guests.", "There are 35 people signed up"},
		triggers: []string{"have", "there", "got"},
		re:       compile(`(?:{FP}\s+{AUX}(?:have|['’]ve got|got|now have)|there\s+(?:are|is|['’]re)|there['’]s)\s+{ADV}(?P<n>{NUM})\s+(?P<noun>[\p{L}-]+(?:\s+[\p{L}-]+)??)(?:\s+(?:signed up|confirmed|registered|booked|coming|attending|in total|total|so far|now|left|remaining))?\s*[.!]?$`),
		build:    buildCountHave,
	},
	{
		Name: "contact-email", Kind: KindContact,
		Matches:  "an email address said as the speaker's or a named person's: <who>.email",
		Examples: []string{"My new email is ana.lima@example.org.", "Reach me at jo@corp.io from now on", "Priya's email is priya@x.dev"},
		triggers: []string{"@"},
		re:       regexp.MustCompile(`^(?:(?P<np>(?:my|our|your|[\p{L}'’]+['’]s)(?:\s+[\p{L}-]+){0,2}?\s+(?:e-?mail)(?:\s+address)?)\s+(?:is|['’]s|has changed to|changed to|is now)\s+|.*?\b(?:e-?mail|reach|contact|ping|write to|find)\s+(?P<me>me|us)\s+(?:at|on|via)\s+)(?:now\s+)?(?P<val>` + emailPat + `)`),
		build:    buildContact("email"),
	},
	{
		Name: "contact-phone", Kind: KindContact,
		Matches:  "a phone number said as the speaker's or a named person's: <who>.phone",
		Examples: []string{"My phone number is +44 20 7946 0958.", "Call me on 555-0142 instead"},
		triggers: []string{"phone", "number", "cell", "mobile", "call", "text", "reach"},
		re:       regexp.MustCompile(`^(?:(?P<np>(?:my|our|your|the|[\p{L}'’]+['’]s)(?:\s+[\p{L}-]+){0,2}?\s+(?:phone|phone number|number|cell|cell number|mobile|mobile number))(?:\s+is|\s*['’]s|\s+has changed to|\s+changed to|\s+is now)\s+|.*?\b(?:call|text|reach|ring)\s+(?P<me>me|us)\s+(?:at|on)\s+)(?:now\s+)?(?P<val>` + phonePat + `)`),
		build: func(c *clause, m match) (Statement, bool) {
			if np := fold(m.get("np")); strings.HasPrefix(np, "the ") {
				// "Got a new phone — the number's 555-0188": the
				// speaker's, when the sentence says the speaker has a new
				// one; "the number is 555-0188" alone is no one's.
				if !containsAny(fold(c.sentence), newNumberMarks) {
					return Statement{}, false
				}
				for _, w := range strings.Fields(np)[1:] {
					// "the main number", "the office number": another's
					// line, whoever got a new phone.
					if !plainNumberWords[strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")] {
						return Statement{}, false
					}
				}
				return c.statement(c.selfKey, "phone", strings.TrimSpace(m.get("val")), KindContact), true
			}
			return buildContact("phone")(c, m)
		},
	},
	{
		Name: "contact-of", Kind: KindContact,
		Matches:  "reach Y at / Y's contact (number, email) is / Y is on / the best way to reach Y is E: y.email or y.phone",
		Examples: []string{"You can reach our account manager at the cloud vendor at +44 7700 900963.", "The venue coordinator's contact is +44 7700 900302.", "The contractor is on dana.bright@quillworks.com now.", "The best way to get hold of the venue coordinator is +44 7700 900762.", "The contractor has a new number: +44 7700 900456.", "Please use sam.r@fastmail.com for me from now on."},
		triggers: []string{"@", "+", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
		also:     []string{"reach", "contact", "number", "phone", "email", "e-mail", "details", " on ", "hold of", "use "},
		re:       regexp.MustCompile(`(?i)^(?:(?:you can |we can |i can )?(?:reach|contact|get hold of|call|text|ping)\s+(?P<np>.+?)\s+(?:at|on|via)\s+|the best way to (?:reach|contact|get hold of)\s+(?P<np2>.+?)\s+is\s+(?:via\s+|by\s+|on\s+)?|(?P<np3>.+?)(?:['’]s)?\s+(?:new\s+)?(?:contact(?: details)?|number|phone number|phone|mobile|email address|email|e-mail|details)\s+(?:is|are)\s+(?:now\s+)?|(?P<np4>.+?)\s+(?:is|are)\s+(?:now\s+)?(?:on|at)\s+|(?P<np5>.+?)\s+(?:has|have|got)\s+(?:a\s+)?new\s+(?:number|phone number|phone|mobile|email address|email|e-mail|contact(?: details| info| information)?|details)\s*:?\s*|(?:please\s+)?use\s+(?P<me>))(?P<val>` + emailPat + `|` + phonePat + `)`),
		build: func(c *clause, m match) (Statement, bool) {
			np := m.get("np") + m.get("np2") + m.get("np3") + m.get("np4") + m.get("np5")
			entity := c.selfKey // "Please use sam@x.io for me from now on"
			if np != "" {
				// "my accountant" is the accountant, not the speaker.
				if w := fold(firstWord(np)); w == "my" || w == "our" {
					np = strings.TrimSpace(np[len(w):])
				}
				s, ok := normNP(np, c.selfKey)
				if !ok || s.entity == "" {
					return Statement{}, false
				}
				entity = s.entity
			}
			v := strings.TrimSpace(m.get("val"))
			attr := "phone"
			if strings.Contains(v, "@") {
				attr = "email"
			} else if len(v) < 7 {
				return Statement{}, false
			}
			return c.statement(entity, attr, v, KindContact), true
		},
	},
	{
		Name: "status-item", Kind: KindStatus,
		Matches:  "an item of a \"Status:\" line: Y done / blocked / in progress: y.status",
		Examples: []string{"Status: API migration done, billing migration blocked on legal, search revamp in progress."},
		list:     true,
		re:       compile(`{NP}\s+(?P<val>(?:` + statusWords + `)\b.*)`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok || s.attr != "" {
				return Statement{}, false
			}
			val := m.get("val")
			v, ok := takeStatus(val)
			if !ok || !endsNear(val, v) && !(v == "blocked" && strings.HasPrefix(fold(val), "blocked on ")) {
				return Statement{}, false
			}
			return c.statement(s.entity, "status", v, KindStatus), true
		},
	},
	{
		Name: "self-reports-to", Kind: KindPerson,
		Matches:  "the speaker reports to X: user.manager = X",
		Examples: []string{"I report to Daniel since the reorg.", "We now report directly to Amara Osei"},
		triggers: []string{"report"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:report|reporting)\s+(?:directly\s+)?(?:in\s+)?to\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takeChoice(m.get("val"))
			if !ok || !reWholeName.MatchString(v) || nameStops[fold(firstWord(v))] {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "manager", v, KindPerson), true
		},
	},
	{
		Name: "self-call-me", Kind: KindChoice,
		Matches:  "(please) call me N (from now on): user.name = N",
		Examples: []string{"Please call me Kate from now on.", "Call me Sam, everyone does"},
		triggers: []string{"call me"},
		re:       compile(`(?:please\s+)?(?:just\s+|you\s+can\s+)?call\s+me\s+(?P<val>[^\s,.!?;]+(?:\s+[^\s,.!?;]+)?)`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takeChoice(m.get("val"))
			if !ok || !reWholeName.MatchString(v) {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "name", v, KindChoice), true
		},
	},
	{
		Name: "self-flying", Kind: KindChoice,
		Matches:  "we're flying A (this time / now): user.airline = A",
		Examples: []string{"We're flying United this time.", "I'm flying KLM to Lisbon"},
		triggers: []string{"flying"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}flying\s+(?:with\s+)?{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			val := m.get("val")
			if i := reFlyingTail.FindStringIndex(val); i != nil {
				val = val[:i[0]] // "KLM to Lisbon": the airline, not the trip
			}
			v, ok := takeChoice(val)
			if !ok || !reWholeName.MatchString(v) || dateWords[fold(firstWord(v))] {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "airline", v, KindChoice), true
		},
	},
	{
		Name: "role-started-as", Kind: KindPerson,
		Matches:  "X started / joined / took the helm / was named as (our) (new) R (a role or a title): user.r = X",
		Examples: []string{"Ingrid started as our nanny on Monday.", "Tomás has joined as our new accountant", "Miguel Ortiz took the helm as CEO this week."},
		triggers: []string{" as "},
		re:       compile(`(?P<val>[^\s,;:]+(?:\s+[^\s,;:]+)?)\s+{AUX}(?:started|starts|starting|joined|joins|joining|came on|comes on|signed on|begins|began|took the helm|takes the helm|taking the helm|was named|has been named|was appointed|has been appointed|got appointed|got named|stepped in|stepped up|took over)\s+as\s+(?:(?:our|my|the)\s+)?(?:new\s+|interim\s+|acting\s+)?(?P<head>[a-z]+)\b`),
		build: func(c *clause, m match) (Statement, bool) {
			h := fold(m.get("head"))
			if !roleNouns[h] && !agentNoun(h) && !choiceHeads[h] && !execTitles[h] {
				return Statement{}, false
			}
			who, ok := takeWho(m.get("val"), c.self, c.lower())
			if !ok || !reWholeName.MatchString(who) {
				return Statement{}, false
			}
			return c.statement(c.selfKey, h, who, KindPerson), true
		},
	},
	{
		Name: "we-meet-on", Kind: KindDate,
		Matches:  "we meet / sync / get together on (every) D-day(s): meeting.date = D",
		Examples: []string{"We meet on Wednesdays now.", "We sync every Thursday from next week"},
		triggers: []string{"meet", "sync", "get together", "catch up"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:meet|sync|get together|catch up)(?:\s+up)?\s+(?:on\s+|every\s+|on\s+every\s+)?(?P<val>monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b`),
		build: func(c *clause, m match) (Statement, bool) {
			d := m.get("val")
			return c.statement("meeting", "date", strings.ToUpper(d[:1])+d[1:], KindDate), true
		},
	},
	{
		Name: "we-have-until", Kind: KindDate,
		Matches:  "we have / we've got until D (now): user.deadline = D",
		Examples: []string{"We have until Monday now.", "We've got till March 3 to submit"},
		triggers: []string{"until", "till"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:have|got|get)\s+(?:until|till)\s+{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := c.date(m.get("val"))
			if !ok {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "deadline", v, KindDate), true
		},
	},
	{
		Name: "we-have-to-spend", Kind: KindAmount,
		Matches:  "we have / we've got A to spend (now): user.budget = A",
		Examples: []string{"We have $6,500 to spend now.", "I've got £300 left to spend this month"},
		triggers: []string{"to spend"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:have|got|get)\s+(?P<val>[$£€]\s?\d[\d,.]*\s*[km]?)\s+(?:left\s+)?to\s+spend\b`),
		build: func(c *clause, m match) (Statement, bool) {
			return c.statement(c.selfKey, "budget", strings.TrimSpace(m.get("val")), KindAmount), true
		},
	},
	{
		Name: "self-earns", Kind: KindAmount,
		Matches:  "I'm (now) on / I earn / I make / I'm paid A (an amount): user.salary = A",
		Examples: []string{"I got a raise — I'm on $98,000 now.", "I earn £52,000 a year these days"},
		triggers: []string{" on ", "earn", "make", "making", "paid"},
		re:       compile(`(?:i['’]m|i am|i)\s+{ADV}(?:on|earning|making|paid|earn|make|get paid|getting paid)\s+(?P<val>[$£€]\s?\d[\d,.]*\s*[km]?)(?P<rest>(?:\s+(?:a year|per year|a month|per month|an hour|per hour|now|these days|from now on|since|after|as of|starting|,|\.).*)?)$`),
		build: func(c *clause, m match) (Statement, bool) {
			v, rest := strings.TrimSpace(m.get("val")), fold(m.get("rest"))
			if strings.Contains(rest, " for ") || strings.Contains(rest, " on ") {
				return Statement{}, false // "I'm on $20 a month for Netflix" is a price
			}
			if digits := strings.TrimLeft(strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' || r == 'k' || r == 'K' || r == 'm' {
					return r
				}
				return -1
			}, v), "0"); len(digits) < 4 && !strings.ContainsAny(digits, "kKm") && !strings.Contains(rest, "hour") {
				return Statement{}, false // pay is thousands a year, or by the hour
			}
			return c.statement(c.selfKey, "salary", v, KindAmount), true
		},
	},
	{
		Name: "self-class", Kind: KindChoice,
		Matches:  "the speaker is (now) on / went / has gone V, V a time zone or a diet: user.timezone or user.diet",
		Examples: []string{"I'm on CET now since relocating to Berlin.", "I went fully vegan in January", "We're on UTC+2 now"},
		triggers: []string{" on ", "went", "gone", "go ", "going", "switched", "moved", "now", "officially", "fully", "am ", "'m ", "’m ", " are ", "'re ", "’re "},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:(?:went|gone|going|go|switched|switching|moved|moving)\s+)?(?:(?:to|on|over to)\s+)?(?:fully\s+|completely\s+|strictly\s+|totally\s+)?(?P<val>[\p{L}+:\d-]+(?:\s+time)?)(?P<rest>(?:\s+(?:now|again|from now on|these days|since|as of|starting|for|in|after|this|,|\.).*)?)$`),
		build: func(c *clause, m match) (Statement, bool) {
			v := strings.TrimSuffix(m.get("val"), " time")
			attr := valueClass(v)
			if attr == "" {
				return Statement{}, false
			}
			return c.statement(c.selfKey, attr, v, KindChoice), true
		},
	},
	{
		Name: "self-upgraded-to", Kind: KindChoice,
		Matches:  "the speaker upgraded / downgraded (the account) to V: user.plan = V",
		Examples: []string{"I upgraded to Premium this morning.", "We downgraded to the Starter tier"},
		triggers: []string{"upgrad", "downgrad"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:upgraded|downgraded|upgrading|downgrading)\s+(?:(?:us|me|my account|our account|the account|my subscription|our subscription|my plan|our plan)\s+)?to\s+(?:the\s+)?{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			v, ok := takeChoice(reTierWord.ReplaceAllString(m.get("val"), ""))
			if !ok || !reWholeName.MatchString(v) {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "plan", v, KindChoice), true
		},
	},
	{
		Name: "self-based", Kind: KindLocation,
		Matches:  "the speaker is (now) P-based: user.location = P",
		Examples: []string{"We're Seattle-based now after the move."},
		triggers: []string{"-based"},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?P<val>[\p{L}][\p{L}.]*(?:\s+[\p{L}][\p{L}.]*)?)-based\b`),
		build: func(c *clause, m match) (Statement, bool) {
			v := m.get("val")
			if !reWholeName.MatchString(v) {
				return Statement{}, false
			}
			return c.statement(c.selfKey, "location", v, KindLocation), true
		},
	},
	{
		Name: "self-team-of", Kind: KindCount,
		Matches:  "we're (now) a team of N: team.count = N",
		Examples: []string{"With the three new hires we're a team of 11."},
		triggers: []string{"team of"},
		re:       compile(`(?:.*?\s)?(?:we['’]re|we are|we['’]ve become|we have become|we became|we['’]ll be|we will be)\s+{ADV}(?:now\s+)?a\s+team\s+of\s+(?P<n>{NUM})\b`),
		build: func(c *clause, m match) (Statement, bool) {
			n := strings.TrimRight(m.get("n"), ",.")
			if !isNumber(n) {
				return Statement{}, false
			}
			return c.statement("team", "count", n, KindCount), true
		},
	},
	{
		Name: "we-ship-version", Kind: KindChoice,
		Matches:  "we're shipping / releasing version V: release.version = V",
		Examples: []string{"We're shipping 2.4 instead.", "We're releasing v3.1 after all"},
		triggers: []string{"shipping", "releasing", "ship ", "release "},
		fp:       true,
		re:       compile(`{FP}\s+{AUX}{ADV}(?:shipping|releasing|ship|release)\s+(?:version\s+|v)?(?P<val>\d+(?:\.\d+)+)\b`),
		build: func(c *clause, m match) (Statement, bool) {
			return c.statement("release", "version", m.get("val"), KindChoice), true
		},
	},
	{
		Name: "copula", Kind: "",
		Matches:  "Y('s attribute) is V when Y names an attribute (owner, address, budget, deadline, venue, caterer, …) or V is typed: typed by the attribute",
		Examples: []string{"The owner of the onboarding deck is Jonas.", "My address is 12 Elm Row", "The marketing budget is now $40k", "The caterer is Bellini's"},
		triggers: []string{" is ", " are ", "'s ", "'re ", "’s ", "’re ", " be ", " been ", " become"},
		re:       compile(`{NP}\s+{BE}\s+{ADV}{VAL}`),
		build: func(c *clause, m match) (Statement, bool) {
			s, ok := normNP(m.get("np"), c.selfKey)
			if !ok {
				return Statement{}, false
			}
			if st, ok := c.typed(s, m.get("val"), false); ok {
				return st, true
			}
			// "The road bike I'm buying is Trek Domane": what the speaker
			// chose, named.
			if reChosenNP.MatchString(fold(m.get("np"))) && s.entity != "" {
				if v, ok := takeChoice(m.get("val")); ok && reWholeName.MatchString(v) {
					return c.statement(s.entity, "choice", v, KindChoice), true
				}
			}
			return Statement{}, false
		},
	},
}

// lower reports a clause written without capitals, where a name may be
// lower case ("jonas owns the deck").
func (c *clause) lower() bool { return c.text == strings.ToLower(c.text) }

// statement builds a statement for this clause.
func (c *clause) statement(entity, attr, value, kind string) Statement {
	key := attr
	if entity != "" {
		key = entity + "." + attr
	}
	return Statement{Entity: entity, Attribute: attr, Key: key, Value: value, Kind: kind, Sentence: c.sentence}
}

// movedMarks say the speaker moved home ("we've moved — it's …").
var movedMarks = []string{"we've moved", "we have moved", "we moved", "i've moved", "i have moved", "i moved", "moved house", "moved flat", "just moved", "new place", "new address"}

// decisionMarks open a sentence that settles a choice ("Settled it —
// MariaDB for the database").
var decisionMarks = []string{"settled it", "settled on", "decided", "decision:", "final answer", "final decision", "locked in", "it's official", "we picked", "we chose"}

var placeAttrs = map[string]bool{"address": true, "location": true, "venue": true, "destination": true, "city": true, "hotel": true}
var dateAttrs = map[string]bool{"date": true, "deadline": true, "time": true, "start": true, "end": true}
var moneyAttrs = map[string]bool{"price": true, "budget": true, "rent": true, "salary": true, "rate": true}
var countAttrs = map[string]bool{"number": true, "capacity": true, "headcount": true, "count": true, "total": true, "limit": true, "quota": true, "cap": true, "threshold": true, "timeout": true, "target": true, "goal": true, "dose": true, "size": true, "length": true, "duration": true}

func isPlaceAttr(a string) bool { return placeAttrs[a] }
func isDateAttr(a string) bool  { return dateAttrs[a] }

// reChosenNP is a noun phrase naming a thing by the speaker's choosing
// it: "the road bike I'm buying", "the laptop we picked".
var reChosenNP = regexp.MustCompile(`\s(?:i|we)(?:'m|’m|'re|’re| am| are| have| 've| ’ve)?\s+(?:buying|getting|ordering|using|picking|choosing|going with|leaning towards?|picked|chose|bought|ordered|booked|went with|settled on)$`)

// choiceHeads are nouns whose value is a chosen thing.
var choiceHeads = map[string]bool{
	"caterer": true, "vendor": true, "venue": true, "hotel": true, "restaurant": true,
	"supplier": true, "provider": true, "framework": true, "database": true, "db": true,
	"tool": true, "stack": true, "platform": true, "language": true, "color": true,
	"colour": true, "theme": true, "plan": true, "pick": true, "choice": true,
	"winner": true, "decision": true, "contractor": true, "agency": true,
	"photographer": true, "dj": true, "band": true, "florist": true, "airline": true,
	"bank": true, "design": true, "logo": true, "font": true, "library": true,
	"host": true, "cms": true, "crm": true, "model": true, "laptop": true, "car": true,
	"approach": true, "strategy": true, "name": true, "title": true, "format": true,
	"carrier": true, "dentist": true, "doctor": true, "school": true, "gym": true,
	"backend": true, "frontend": true, "runtime": true, "editor": true, "ide": true,
	"cloud": true, "region": true, "partner": true, "sponsor": true, "speaker": true,
	"landlord": true, "pediatrician": true, "lawyer": true, "accountant": true,
	"therapist": true, "coach": true, "tutor": true, "trainer": true, "babysitter": true,
	"nanny": true, "plumber": true, "electrician": true, "mechanic": true, "vet": true,
	"realtor": true, "agent": true, "advisor": true, "mentor": true,
	"priority": true, "focus": true, "policy": true, "method": true, "methodology": true,
	"solution": true, "direction": true, "process": true, "workflow": true, "architecture": true,
	"layout": true, "setup": true,
	"keynote": true, "branch": true, "version": true, "zone": true, "image": true,
	"tag": true, "tier": true, "package": true, "edition": true, "instance": true,
	"os": true, "distro": true, "browser": true, "menu": true, "cake": true, "flavor": true, "flavour": true,
}

// typed reads V for subject s, choosing the kind from s's attribute word,
// then from V's shape. changed is true after a change verb ("moved to").
func (c *clause) typed(s subject, val string, changed bool) (Statement, bool) {
	attr := s.attr
	head := attr
	if head == "" {
		head = s.head
	}
	v := strings.TrimSpace(stripFiller(val))
	if m := reEmail.FindStringIndex(v); m != nil && m[0] == 0 {
		return c.statement(s.entity, "email", strings.TrimRight(v[:m[1]], "."), KindContact), true
	}
	if m := rePhone.FindStringIndex(v); m != nil && m[0] == 0 && m[1]-m[0] >= 7 && !strings.ContainsAny(v[m[1]:min(m[1]+1, len(v))], "%") && (strings.HasPrefix(v, "+") || strings.Count(v[:m[1]], " ") >= 2) {
		return c.statement(s.entity, "phone", strings.TrimSpace(v[:m[1]]), KindContact), true
	}
	if m := reDayList.FindString(v); m != "" {
		// "I switched my gym days to Tuesdays and Fridays": days that
		// recur, kept as said (not the first of them, not a place).
		return c.statement(s.entity, orDefault(attr, "days"), m, KindDate), true
	}
	if (attr == "" || attr == "time") && eventHeads[head] {
		// "Move the standup to 10": an hour, not an amount; kept as said.
		if m := reBareHour.FindStringSubmatch(strings.TrimSpace(val)); m != nil {
			if h, _ := strconv.Atoi(m[1]); h >= 1 && h <= 23 {
				return c.statement(s.entity, "time", m[1], KindDate), true // as said: the value contract
			}
		}
	}
	switch {
	case head == "owner":
		if s.attr == "" {
			return Statement{}, false // "the owner is happy": owner of what?
		}
		return ownerStatement(c, s.entity, val)
	case roleNouns[attr]:
		if progressive(val) {
			return Statement{}, false
		}
		if v, ok := takeWho(val, c.self, c.lower()); ok {
			return c.statement(s.entity, attr, v, KindPerson), true
		}
		return Statement{}, false
	case placeAttrs[head]:
		if v, ok := takePlace(val); ok {
			if attr == "" {
				attr = "location"
				if reAddress.MatchString(v) || head == "address" {
					attr = "address"
				}
			}
			return c.statement(s.entity, attr, v, KindLocation), true
		}
		if v, ok := takeChoice(val); ok && head == "venue" {
			return c.statement(s.entity, orDefault(attr, "choice"), v, KindChoice), true
		}
		return Statement{}, false
	case moneyAttrs[head]:
		if v, ok := takeMoney(atLevel(val)); ok {
			return c.statement(s.entity, orDefault(attr, "amount"), v, KindAmount), true
		}
		return Statement{}, false
	case countAttrs[head]:
		if v, ok := takeNum(atLevel(val)); ok {
			kind, def := KindAmount, "amount"
			if head == "headcount" || head == "count" || head == "total" || head == "number" || head == "size" && isNumber(v) {
				kind, def = KindCount, "count"
			}
			if attr == "number" {
				attr = "count" // "the number of laptops": a count of laptops
			}
			return c.statement(s.entity, orDefault(attr, def), v, kind), true
		}
		return Statement{}, false
	case dateAttrs[head]:
		if v, ok := c.date(val); ok {
			return c.statement(s.entity, orDefault(attr, "date"), v, KindDate), true
		}
		return Statement{}, false
	case head == "email":
		if m := reEmail.FindStringIndex(val); m != nil && m[0] < 8 {
			return c.statement(s.entity, "email", val[m[0]:m[1]], KindContact), true
		}
		return Statement{}, false
	case head == "phone":
		if m := rePhone.FindStringIndex(val); m != nil && m[0] < 8 {
			return c.statement(s.entity, "phone", strings.TrimSpace(val[m[0]:m[1]]), KindContact), true
		}
		return Statement{}, false
	case head == "flight":
		if m := reFlight.FindStringIndex(val); m != nil && m[0] < 8 {
			return c.statement(s.entity, "flight", val[m[0]:m[1]], KindBooking), true
		}
		// "The flight was delayed to 11pm": typed by the value below.
	case codeAttrs[head]:
		if v, ok := takeCode(val); ok {
			return c.statement(s.entity, orDefault(attr, head), v, KindCode), true
		}
		return Statement{}, false
	case head == "frequency":
		if v, ok := takeFrequency(val); ok {
			return c.statement(s.entity, "frequency", v, KindChoice), true
		}
		return Statement{}, false
	case head == "status":
		if v, ok := takeStatus(val); ok {
			return c.statement(s.entity, "status", v, KindStatus), true
		}
		return Statement{}, false
	case attr != "":
		// An attribute word typed by its value only ("the vendor is Acme").
		if v, ok := takeChoice(val); ok {
			return c.statement(s.entity, attr, v, KindChoice), true
		}
		return Statement{}, false
	case choiceHeads[head]:
		if _, st := takeStatus(val); st || progressive(val) {
			return Statement{}, false
		}
		if v, ok := takeChoice(val); ok {
			return c.statement(s.entity, "choice", v, KindChoice), true
		}
		return Statement{}, false
	}
	// No attribute word: type by the value's shape.
	if v, ok := takeFrequency(val); ok {
		return c.statement(s.entity, "frequency", v, KindChoice), true
	}
	if v, ok := takeMoney(val); ok {
		return c.statement(s.entity, "amount", v, KindAmount), true
	}
	if v, said, at, ok := takeDateAt(val, c.at); ok && (changed || at == 0) {
		c.said = said
		attr := "date"
		if !reResolved.MatchString(v) {
			attr = "time"
		}
		return c.statement(s.entity, attr, v, KindDate), true
	}
	if changed {
		if v, ok := takePlace(val); ok {
			return c.statement(s.entity, "location", v, KindLocation), true
		}
		if v, ok := takeNum(val); ok {
			return c.statement(s.entity, "amount", v, KindAmount), true
		}
	}
	return Statement{}, false
}

// reFrequency is how often a thing recurs, said as the whole value ("the
// on-call rotation is weekly now", "the retro is every two weeks").
var reFrequency = regexp.MustCompile(`(?i)^((?:bi-?)?(?:hourly|daily|weekly|monthly|quarterly|yearly|annually|annual)|fortnightly|semi-?annually|twice a (?:day|week|month|year)|once a (?:day|week|month|quarter|year)|every (?:other |two |three |four |six )?(?:day|week|month|quarter|year|weekday|morning|evening)s?)(?:\s+now)?\s*[.!]?$`)

func takeFrequency(val string) (string, bool) {
	m := reFrequency.FindStringSubmatch(strings.TrimSpace(stripFiller(val)))
	if m == nil {
		return "", false
	}
	return fold(m[1]), true
}

// eventHeads are things that happen at an hour: "the standup" moved to 10
// is at 10:00.
var eventHeads = map[string]bool{
	"standup": true, "stand-up": true, "meeting": true, "call": true, "sync": true, "demo": true,
	"retro": true, "retrospective": true, "review": true, "interview": true, "appointment": true,
	"dinner": true, "lunch": true, "breakfast": true, "class": true, "session": true, "kickoff": true,
	"party": true, "ceremony": true, "pickup": true, "drop-off": true, "briefing": true, "huddle": true,
	"check-in": true, "checkin": true, "one-on-one": true, "1:1": true, "webinar": true, "workshop": true,
	"rehearsal": true, "practice": true, "training": true, "lesson": true, "game": true, "show": true,
}

var reBareHour = regexp.MustCompile(`(?i)^(?:at\s+)?(\d{1,2})(?:\s+o['’]clock)?(?:\s+(?:now|instead|sharp))?\s*[.!]?$`)

var codeAttrs = map[string]bool{"password": true, "passcode": true, "pin": true, "code": true}

// reCode is a password or code said as one token that holds a digit
// ("tulip42", "4471", "X9-KL2"), optionally quoted, and nothing after it.
var reCode = regexp.MustCompile(`^["'“‘]?([\p{L}\d_#@!$%&*+=-]*\d[\p{L}\d_#@!$%&*+=-]*)["'”’]?(?:\s+now)?\s*[.!]?$`)

// takeCode reads a code value: "the wifi password is now tulip42", not
// "the code is messy".
func takeCode(val string) (string, bool) {
	m := reCode.FindStringSubmatch(strings.TrimSpace(stripFiller(val)))
	if m == nil || len(m[1]) < 3 {
		return "", false
	}
	return m[1], true
}

// atLevel drops the "at" of a level ("the guest count is at 85", "the
// budget is sitting at $5,000").
func atLevel(val string) string {
	v := strings.TrimSpace(val)
	for _, p := range []string{"sitting at ", "holding at ", "standing at ", "at "} {
		if len(v) > len(p) && strings.EqualFold(v[:len(p)], p) {
			return v[len(p):]
		}
	}
	return val
}

// progressive reports a value that opens with a verb in -ing ("coming on
// Thursday"): the copula was an auxiliary, not a choice.
func progressive(val string) bool {
	w := firstWord(strings.TrimSpace(val))
	return len(w) > 4 && strings.HasSuffix(w, "ing") && w == strings.ToLower(w)
}

func orDefault(a, d string) string {
	if a == "" {
		return d
	}
	return a
}

// reOrdinalOption is a choice that only points at a list ("the second
// option", "the other one").
var reOrdinalOption = regexp.MustCompile(`^(?:the\s+)?(?:first|second|third|fourth|last|other|latter|former|cheaper|bigger|smaller|same|\w+est)\s+(?:option|one|choice|proposal)\b`)

// vagueChoice words open a choice that names nothing ("what we discussed").
var vagueChoice = map[string]bool{
	"up": true, "it": true, "that": true, "this": true, "what": true, "whatever": true,
	"whichever": true, "something": true, "anything": true, "one": true, "either": true,
	"both": true, "them": true, "those": true, "these": true, "him": true, "her": true,
}

// objStop words cannot open an owned thing ("Jonas runs every morning").
var objStop = map[string]bool{
	"every": true, "each": true, "daily": true, "weekly": true, "late": true, "early": true,
	"fast": true, "smoothly": true, "well": true, "out": true, "away": true, "home": true,
	"today": true, "tomorrow": true, "around": true, "behind": true, "ahead": true, "low": true,
	"high": true, "into": true, "things": true, "everything": true, "it": true, "that": true,
}

// prepositions cannot open an object noun phrase.
var prepositions = map[string]bool{
	"to": true, "until": true, "at": true, "in": true, "on": true, "with": true,
	"for": true, "from": true, "by": true, "into": true, "through": true, "till": true,
	"over": true, "under": true, "about": true, "around": true, "after": true, "before": true,
}

// ownerStatement builds <entity>.owner = who; entity is normalised.
func ownerStatement(c *clause, entity, who string) (Statement, bool) {
	v, ok := takeWho(who, c.self, c.lower())
	if !ok || entity == "" {
		return Statement{}, false
	}
	return c.statement(entity, "owner", v, KindOwnership), true
}

// lastKeyWord is the last word of a normalised entity ("team_caterer" →
// "caterer").
func lastKeyWord(entity string) string {
	return entity[strings.LastIndexByte(entity, '_')+1:]
}

// ownerOfNP builds <np>.owner = who from a noun phrase as said.
func ownerOfNP(c *clause, np, who string) (Statement, bool) {
	s, ok := normNP(np, c.selfKey)
	if !ok {
		return Statement{}, false
	}
	return ownerStatement(c, s.entity, who)
}

func buildOwner(c *clause, m match) (Statement, bool) {
	obj := m.get("obj")
	if fw := fold(firstWord(obj)); prepositions[fw] || objStop[fw] || fw != "" && fw[0] >= '0' && fw[0] <= '9' {
		// "I've started running 5k three times a week": an activity, not a thing owned.
		return Statement{}, false
	}
	if gerund, rest, ok := strings.Cut(obj, " "); ok && agentNouns[fold(gerund)] != "" && reThingAfter.MatchString(rest) {
		// "Eleanor Price has taken over hosting the book club":
		// book_club.host, the one who does what the gerund says.
		s, ok := normNP(rest, c.selfKey)
		if !ok || s.entity == "" {
			return Statement{}, false
		}
		v, ok := takeWho(m.get("np"), c.self, c.lower())
		if !ok {
			return Statement{}, false
		}
		return c.statement(s.entity, agentNouns[fold(gerund)], v, KindOwnership), true
	}
	s, ok := normNP(obj, c.selfKey)
	if !ok {
		return Statement{}, false
	}
	return ownerStatement(c, s.entity, m.get("np"))
}

// reThingAfter opens a noun phrase on a determiner: "the book club", not
// "Maya to therapy", whom the gerund acts on.
var reThingAfter = regexp.MustCompile(`(?i)^(?:the|our|my|this|that)\s`)

// agentNouns name the one who does what a gerund says: "hosting the book
// club" is done by its host.
var agentNouns = map[string]string{"hosting": "host", "coaching": "coach", "managing": "manager", "organizing": "organizer",
	"organising": "organiser", "teaching": "teacher", "editing": "editor", "chairing": "chair", "coordinating": "coordinator",
	"leading": "lead", "running": "owner", "driving": "driver", "cleaning": "cleaner", "walking": "walker", "doing": "owner"}

// progressVerbs are what the speaker did to N of M things.
var progressVerbs = map[string]bool{}

func init() {
	for _, v := range strings.Fields("finished done completed interviewed read written wrote reviewed sent processed graded called visited run ran watched submitted closed fixed migrated tested onboarded hired filled booked paid answered signed got gotten gone went checked contacted scheduled shipped translated edited drafted") {
		progressVerbs[v] = true
	}
}

// isNumber reports a whole number as said ("14", "1,200", "forty").
func isNumber(s string) bool {
	return s != "" && reNum.FindString(s) == s
}

func buildProgress(c *clause, m match) (Statement, bool) {
	if v := m.get("verb"); v != "" && !progressVerbs[strings.Fields(fold(v))[0]] {
		return Statement{}, false
	}
	if !isNumber(strings.TrimRight(m.get("n"), ",.")) {
		return Statement{}, false
	}
	noun := fold(m.get("noun"))
	if t := m.get("total"); t != "" && !isNumber(t) {
		noun = fold(t) + " " + noun
	}
	ws := words(noun)
	for i, w := range ws {
		switch w {
		case "so", "today", "now", "this", "already", "and", "for", "in", "on", "at", "by", "yet", "i", "we":
			ws = ws[:i]
		}
		if i >= len(ws) {
			break
		}
	}
	if len(ws) == 0 {
		return Statement{}, false
	}
	return c.statement(joinKey(ws), "completed", strings.TrimRight(m.get("n"), ",."), KindCount), true
}

func buildCountHave(c *clause, m match) (Statement, bool) {
	if !isNumber(strings.TrimRight(m.get("n"), ",.")) {
		return Statement{}, false
	}
	ws := words(fold(m.get("noun")))
	if len(ws) == 0 || pronouns[ws[0]] || countDeltas[ws[0]] || timeWords[ws[0]] || ws[0] == "now" {
		// "We need 3 more laptops" says how many to add, not how many;
		// "I'm down to 7 now" names nothing counted.
		return Statement{}, false
	}
	if strings.HasSuffix(m.get("verb"), "at") && !pluralNoun(ws[len(ws)-1]) && !pluralNoun(ws[0]) {
		return Statement{}, false // "we're at 5 Main Street" is a place
	}
	if ws[0] == "new" && len(ws) > 1 {
		ws = ws[1:] // "4 new desks" counts desks
	}
	if m.get("verb") != "" && len(ws) > 1 && !pluralNoun(ws[1]) {
		ws = ws[:1] // "95 guests after the last RSVPs"
	}
	for _, w := range ws {
		if dateAttrs[w] || w == "days" || w == "weeks" || w == "hours" || w == "minutes" || w == "years" || w == "months" {
			return Statement{}, false
		}
	}
	return c.statement(joinKey(ws), "count", strings.TrimRight(m.get("n"), ",."), KindCount), true
}

// reTierWord is the word that follows a plan's name ("the Free tier").
var reTierWord = regexp.MustCompile(`(?i)\s+(?:plan|tier|subscription|membership|package|edition|level)\b`)

// timeZones and diets are values that say which attribute they are:
// "I'm on CET now" sets the speaker's time zone, "I went vegan" the diet.
var (
	timeZones = map[string]bool{
		"utc": true, "gmt": true, "bst": true, "ist": true, "cet": true, "cest": true, "eet": true, "eest": true, "wet": true, "west": true,
		"est": true, "edt": true, "cst": true, "cdt": true, "mst": true, "mdt": true, "pst": true, "pdt": true, "akst": true, "akdt": true, "hst": true,
		"jst": true, "kst": true, "sgt": true, "hkt": true, "aest": true, "aedt": true, "acst": true, "awst": true, "nzst": true, "nzdt": true,
		"eastern": true, "central": true, "mountain": true, "pacific": true,
	}
	diets = map[string]bool{
		"vegan": true, "vegetarian": true, "pescatarian": true, "pescetarian": true, "keto": true, "paleo": true, "gluten-free": true,
		"dairy-free": true, "halal": true, "kosher": true, "flexitarian": true, "plant-based": true, "carnivore": true, "lactose-free": true,
	}
	reUTCOffset = regexp.MustCompile(`(?i)^(?:utc|gmt)[+-]\d{1,2}(?::?\d\d)?$`)
)

// valueClass names the attribute a value of a closed class sets, or "".
// A time zone is said in capitals ("CET", not "cet" the word) unless it
// is a region's ("Pacific time").
func valueClass(v string) string {
	f := fold(v)
	switch {
	case reUTCOffset.MatchString(v), timeZones[f] && (v == strings.ToUpper(v) || len(f) > 4):
		return "timezone"
	case diets[f]:
		return "diet"
	}
	return ""
}

// countDeltas open a number that changes a count rather than stating it.
var countDeltas = map[string]bool{"more": true, "extra": true, "additional": true, "fewer": true, "less": true, "further": true, "other": true}

// pluralNoun reports a word that reads as a plural noun ("tickets"), so
// "3 open tickets" counts open tickets while "95 guests after" counts guests.
func pluralNoun(w string) bool {
	switch w {
	case "this", "was", "is", "as", "has", "its", "us", "yes", "plus", "less", "thus", "across", "unless", "towards", "besides", "does", "gets", "goes", "makes", "needs":
		return false
	}
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

func buildSelfPlace(c *clause, m match) (Statement, bool) {
	v, ok := takePlace(m.get("val"))
	if !ok {
		return Statement{}, false
	}
	attr := "location"
	switch {
	case reAddress.MatchString(v):
		attr = "address"
	case m.get("verb") == "staying" && reWholeName.MatchString(v):
		attr = "hotel" // "we're staying at the Hyatt Regency": where we lodge
	}
	return c.statement(c.selfKey, attr, v, KindLocation), true
}

func buildChoice(c *clause, m match) (Statement, bool) {
	val := m.get("val")
	topic := c.topic
	lowVal := fold(val)
	// "… for the team dinner" / "… as the caterer" names the topic.
	attr := "choice"
	for _, sep := range []string{" for ", " as "} {
		if i := strings.Index(lowVal, sep); i > 0 {
			t := reChoiceTail.ReplaceAllString(strings.TrimRight(val[i+len(sep):], " .!,;"), "")
			if s, ok := normNP(t, c.selfKey); ok && len(strings.Fields(t)) <= 7 && !hasDateCue(t) {
				topic = s.entity
				if strings.Contains(fold(t), " for ") && s.head != "" && !strings.Contains(s.entity, s.head) {
					// "the caterer for the launch party": the party's caterer.
					attr = s.head
				}
			}
			break
		}
	}
	if fw := firstWord(lowVal); vagueChoice[fw] || lowVal == "the flow" || strings.HasPrefix(lowVal, "the flow ") || reOrdinalOption.MatchString(lowVal) {
		return Statement{}, false
	}
	v, ok := takeChoice(val)
	if !ok {
		return Statement{}, false
	}
	return c.statement(topic, attr, v, KindChoice), true
}

// RuleActionSet is the rule of a completed action the speaker reports
// ("I've rebooked your appointment for January 30"): said by the
// assistant, it states a change the assistant made.
const RuleActionSet = "action-set"

// ReportsAction reports whether a sentence reports a change its speaker
// made ("Done — I changed your seat to 3C", "I've rescheduled your
// dentist appointment to December 9", "Done, your table is now booked for
// 8pm", "All set: your deliveries will now arrive on Wednesdays"),
// whichever rule read its value.
//
// Beyond those shapes, a sentence reports a completed action when it opens
// on a word of completion ("Done — daily standup now starts at 10:15am",
// "Noted — your parking spot is P3-027 starting Monday", "Updated! Lily's
// bus pickup is now 7:35am") or says, anywhere, that the speaker did a
// change ("…, so I've moved your yoga sessions to Tuesdays", "I've
// recorded Ava Community Energy as your electricity provider", "I changed
// CODEOWNERS so Tomás is the default reviewer"). An offer or a question
// ("Should I set …?", "I can move …") is neither: its verb is not in the
// perfect or the past, or the sentence asks.
func ReportsAction(sentence string) bool {
	body, _ := stripLead(sentence)
	low := fold(body)
	if reActionDone.MatchString(low) {
		return true
	}
	full, ok := told(sentence)
	return ok && (reDoneLead.MatchString(full) || reDidChange.MatchString(full))
}

// told returns the folded sentence, and whether it tells rather than asks
// or offers ("Should I set …?", "I can move …").
func told(sentence string) (string, bool) {
	full := fold(strings.TrimSpace(sentence))
	return full, !strings.HasSuffix(full, "?") && !reOffer.MatchString(full)
}

// ReportsOutcome reports a sentence that tells, as done, what came of a
// change someone else made or confirmed: the completion, then "so" and
// the state it leaves ("Your trainer confirmed the switch, so you're on
// Tuesdays and Thursdays at 6:30am", "Biscuit's records have been
// transferred, so Oakridge Animal Clinic is her vet from now on",
// "Comcast's promo ended, so your internet bill went up to $94.99"), or
// another's change to the listener's thing told as done ("Geico lowered
// your premium to $128 a month", "your permit was approved"), or news
// relayed from who sent it (reRelayedNews). An offer or a question is
// none; what is only asked for ("I asked the host if we could …")
// completes nothing.
func ReportsOutcome(sentence string) bool {
	full, ok := told(sentence)
	return ok && (reOutcomeSo.MatchString(full) || reOutcomeDone.MatchString(full) || reRelayedNews.MatchString(full))
}

// reRelayedNews is news the assistant passes on from who sent it, as they
// told it: "Priya emailed the whole team: standup is at 10:15 starting
// today", "The building manager texted that the garage code was reset
// today, it's 8820 now". What the news says is read as any statement is:
// a question, an offer, a "might" or a one-time change in it changes
// nothing ("Priya emailed asking if everyone would be okay moving
// standup").
var reRelayedNews = regexp.MustCompile(`^(?:[\p{L}\d.&'’-]+\s+){1,4}(?:emailed|texted|messaged|wrote|replied|called|confirmed|e-mailed|dm['’]?d)(?:\s+(?:back|again|the whole team|everyone|to confirm))?(?:\s*:|\s+that)\s+`)

// reOutcomeDone is another's change to the listener's thing, told as
// done: "Geico lowered your premium to $128 a month", "your permit was
// approved this morning", "it's been approved".
var reOutcomeDone = regexp.MustCompile(`\b(?:your|the)\s+(?:[\p{L}'’-]+\s+){0,3}?(?:was|were|has been|have been|got)\s+(?:approved|confirmed|renewed|processed|transferred|rescheduled|moved|changed|updated|lowered|raised|reduced|increased|cancell?ed|extended)\b|\b(?:lowered|raised|cut|increased|reduced|moved|changed|rescheduled|transferred|updated|extended|renewed|approved|confirmed)\s+your\b|\bit['’]s been (?:approved|confirmed|renewed|processed)\b`)

// reOutcomeSo is a completion, then "so" and what it leaves.
var reOutcomeSo = regexp.MustCompile(`^[^;?]{0,80}?\b(?:confirmed|approved|accepted|processed|transferred|went through|came through|cleared|ended|expired|finali[sz]ed|signed off(?: on)?|(?:has|have|had) been (?:approved|confirmed|transferred|processed|moved|changed|updated|rebooked|rescheduled|reassigned))\b[^;?]{0,60}?,?\s+so\s+`)

// ReportsDone reports a turn with a sentence that is only a word of
// completion ("Done.", "All set!", "Updated."; "Noted." acknowledges) or
// that reports, in words of its own, a change its speaker made (ReportsAction: "I updated the recurring
// invite", "I already bumped the autopay to match"): the turn's other
// sentences report what was done ("Done. Your Hertz midsize is cancelled
// and you have an Avis full-size SUV", "Standup is now at 9:30 every day.
// I updated the recurring invite").
func ReportsDone(sentences []Sentence) bool {
	for _, s := range sentences {
		if reDoneOnly.MatchString(fold(strings.TrimSpace(s.Text))) || s.Reason == "" && len(strings.Fields(s.Text)) > 2 && ReportsAction(s.Text) {
			return true
		}
	}
	return false
}

var (
	// reDoneOnly is a sentence of completion alone.
	reDoneOnly = regexp.MustCompile(`^(?:done|all done|all set|updated|booked|changed|rescheduled|sorted|confirmed)\s*[!.]*$`)
	// reDoneLead opens a sentence on a word of completion.
	reDoneLead = regexp.MustCompile(`^(?:done|updated|noted|got it|all set|all done|confirmed|saved|booked|changed|rescheduled|recorded|logged)\b\s*[!.,:;—–-]`)
	// reDidChange is the speaker's own completed change, in the perfect
	// or the past: "I've moved", "I have recorded", "we just switched".
	// (after a call first: "I called the clinic and rescheduled …").
	reDidChange = regexp.MustCompile(`(?:^|[\s,;:—–-])(?:i|we)(?:['’]ve| have)?\s+(?:just\s+|now\s+|already\s+|also\s+|gone ahead and\s+)?(?:(?:called|phoned|rang|emailed|contacted|messaged|texted|spoke (?:to|with)|talked (?:to|with)|reached out to|checked with|got in touch with|got hold of)\s+(?:[\p{L}\d'’.-]+\s+){1,4}?and\s+(?:then\s+)?)?(?:updated|rebooked|booked|moved|changed|rescheduled|set|switched|noted|recorded|saved|logged|marked|added|replaced|swapped|cancell?ed|edited|assigned|reassigned|transferred|confirmed|arranged|scheduled|extended|renewed|upgraded|downgraded|enrolled|registered|signed you up|signed|bumped|pushed|placed|ordered|renamed|reset|rotated|cleared|removed|raised|lowered|increased|decreased|reduced|applied|paused|resumed|activated|deactivated|enabled|disabled|adjusted|capped|deleted|put|fixed|corrected)\b|^(?:sorry,?\s+)?i\s+(?:had|got)\s+(?:that|it|this)\s+wrong\b`)
	// reOffer is a change offered or weighed, not done: "should I set",
	// "want me to move", "I can update", "I'll switch", "let me change".
	reOffer = regexp.MustCompile(`\b(?:(?:should|shall|can|could|may|might|would|will|do)\s+(?:i|we)|(?:want|like)\s+me\s+to|i(?:['’]ll| will| can| could| would| might)|let me|happy to|if you(?:['’]d| would)? like)\b`)
)

// reDayList is two or more weekdays said together: "Tuesdays and
// Fridays", "Mon, Wed and Fri".
var reDayList = regexp.MustCompile(`(?i)^(?:` + dayName + `)(?:\s*(?:,|and|&|,\s*and)\s*(?:` + dayName + `))+\b`)

const dayName = `(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:days?)?`

// particles complete a verb ("moved up to"), never name its object.
var particles = map[string]bool{"up": true, "down": true, "back": true, "out": true, "over": true, "forward": true,
	"ahead": true, "along": true, "away": true, "in": true, "off": true, "on": true, "around": true, "across": true}

var reActionDone = regexp.MustCompile(`^(?:(?:done|ok|okay|all set|sure|great|got it)[\s,.!:;—–-]+)?(?:(?:i|we)(?:['’]ve| have)?\s+(?:just\s+|now\s+|already\s+|also\s+)?(?:updated|rebooked|booked|moved|changed|rescheduled|set|switched)\s+.+?|(?:your|the)\s+.+?\s+(?:is|has been)\s+(?:now\s+)?(?:updated|rebooked|booked|moved|changed|rescheduled|set|switched))\s+(?:to|for)\s+\S|^(?:done|all set|all done)[\s,.!:;—–-]+(?:your|the)\s+.+?\s+will\s+now\s+\S+\s+(?:on|at|to|for|from)\s+\S`)

// reAsAsked closes a value with who asked for it.
var reAsAsked = regexp.MustCompile(`(?i),?\s+(?:as (?:you )?(?:asked|requested|discussed|agreed)|like you asked|per your request)\b.*$`)

// reChoiceTail closes a choice's topic with a word of time or change.
var reChoiceTail = regexp.MustCompile(`(?i)\s+(?:instead|now|after all|from now on|going forward|this time|from today|for now)$`)

func buildContact(attr string) func(c *clause, m match) (Statement, bool) {
	return func(c *clause, m match) (Statement, bool) {
		ent := c.selfKey
		e, named := c.entityOf(m.get("np"), ent)
		if !named {
			return Statement{}, false
		}
		ent = e
		return c.statement(ent, attr, strings.TrimSpace(m.get("val")), KindContact), true
	}
}

// agentNoun reports a noun for someone who does something for the
// speaker ("designer", "nutritionist", "electrician"): "Leo's our
// designer going forward" names a person in a role.
func agentNoun(h string) bool {
	if len(h) < 6 || notAgents[h] || choiceHeads[h] {
		return false
	}
	for _, suf := range []string{"er", "or", "ist", "ian"} {
		if strings.HasSuffix(h, suf) {
			return true
		}
	}
	return false
}

// execTitles are the titles of who runs something.
var execTitles = map[string]bool{"ceo": true, "cto": true, "cfo": true, "coo": true, "cmo": true, "cio": true, "ciso": true, "cpo": true, "chair": true, "chairman": true, "chairwoman": true, "chairperson": true, "president": true, "principal": true, "headteacher": true, "headmaster": true, "captain": true, "treasurer": true, "secretary": true}

// notAgents end like agent nouns and are not.
var notAgents = map[string]bool{"number": true, "member": true, "winner": true, "corner": true, "letter": true, "matter": true, "answer": true, "border": true, "finger": true, "weather": true, "summer": true, "winter": true, "center": true, "centre": true, "theater": true, "error": true, "mirror": true, "flavor": true, "colour": true, "favor": true, "factor": true, "sector": true, "anchor": true, "indicator": true, "calendar": true, "poster": true, "folder": true, "order": true, "power": true, "paper": true, "dinner": true, "counter": true, "filter": true, "chapter": true, "cluster": true, "browser": true, "server": true, "container": true, "trailer": true, "banner": true, "printer": true, "buffer": true, "barrier": true, "carrier": true, "premier": true, "charter": true, "register": true, "quarter": true, "monitor": true, "editor": true, "motor": true, "vendor": true, "budget": true, "christian": true}

// reFlyingTail ends an airline's name: where to, from, when.
var reFlyingTail = regexp.MustCompile(`\s+(?:to|from|into|out of|on|this|next|via|back)\b`)

// newNumberMarks say the speaker has a new number.
// plainNumberWords say the speaker's own number after "the": "the
// number's", "the new cell number is".
var plainNumberWords = map[string]bool{"new": true, "phone": true, "cell": true, "mobile": true, "number": true}

var newNumberMarks = []string{"new phone", "new number", "new mobile", "new cell", "changed my number", "changed numbers", "my number changed", "switched numbers", "new sim"}

// namedSubject accepts a subject said as a capitalised name (or none, when
// the first person matched instead).
func namedSubject(s string) bool {
	if s == "" {
		return true
	}
	r := []rune(s)
	return unicode.IsUpper(r[0]) && !personal[fold(s)]
}

// verbAttribute names the date a verb sets.
func verbAttribute(v string) string {
	switch {
	case strings.HasSuffix(v, " on"):
		return "date" // "payroll runs on the 28th"
	case strings.HasPrefix(v, "start"), strings.HasPrefix(v, "begin"), strings.HasPrefix(v, "kick"), strings.HasPrefix(v, "open"):
		return "start"
	case strings.HasPrefix(v, "end"), strings.HasPrefix(v, "finish"), strings.HasPrefix(v, "wrap"), strings.HasPrefix(v, "close"), strings.HasPrefix(v, "expire"), strings.HasPrefix(v, "runs"):
		return "end"
	case strings.Contains(v, "due"):
		return "deadline"
	case strings.HasPrefix(v, "depart"), strings.HasPrefix(v, "leave"):
		return "departure"
	case strings.HasPrefix(v, "arrive"), strings.HasPrefix(v, "land"):
		return "arrival"
	}
	return "date"
}

// endsNear reports that the status word closes its clause (allowing a
// trailing time word), so "the launch is done with QA signing off" is not
// read as a bare status.
func endsNear(val, status string) bool {
	i := strings.Index(fold(val), fold(status))
	if i < 0 {
		return false
	}
	rest := strings.TrimSpace(fold(val[i+len(status):]))
	rest = strings.TrimRight(rest, ".! ")
	if rest == "" {
		return true
	}
	for _, w := range []string{"now", "today", "yesterday", "as of today", "already", "at last", "finally", "for now", "again", "too", "as well", "this week", "this morning", "last night", "as of now"} {
		if rest == w {
			return true
		}
	}
	return false
}

// entityOf returns the entity the noun phrase np names, or def when np is
// empty; false when np names none.
func (c *clause) entityOf(np, def string) (string, bool) {
	if np == "" {
		return def, true
	}
	s, ok := normNP(np, c.selfKey)
	return s.entity, ok
}

// reLeadPronoun opens an object on a pronoun: what follows it places or
// times the act, and names no thing.
var reLeadPronoun = regexp.MustCompile(`(?i)^(?:it|them|this|that|these|those)\b`)
