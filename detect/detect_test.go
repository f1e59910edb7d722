package detect

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/constraint"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// fact builds a fact record.
func fact(id, key, value, authority string) Record {
	return Record{ID: id, Kind: RecordFact, Key: key, Value: value, Authority: authority, At: t0}
}

// turnRec builds a turn record.
func turnRec(id, text string) Record {
	return Record{ID: id, Kind: RecordTurn, Value: text, At: t0}
}

// want is the expected outcome of Analyze, checked field by field; an empty
// field is not checked.
type want struct {
	kind        Kind
	superseded  string // refs joined, e.g. "F1 T1"
	previous    string
	replacement string
	blocked     bool
}

// analyzeOne runs Analyze and renders its detections for comparison.
func analyzeOne(t *testing.T, text, authority string, known []Record) Result {
	t.Helper()
	return Analyze(Turn{Text: text, Authority: authority, At: t0.Add(time.Hour)}, known, DefaultOptions())
}

func refs(rs []Ref) string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return strings.Join(ids, " ")
}

func TestAnalyzeDetects(t *testing.T) {
	known := []Record{
		fact("F-SHIP", "shipping_location", "Denver", "peer"),
		fact("F-BUDGET", "approved_budget", "$75,000 (manager approved)", "manager"),
		fact("F-MEET", "meeting_day", "Tuesday", "peer"),
		fact("F-PRICE", "unit_price", "$40 per unit", "peer"),
		fact("F-STATUS", "project_status", "on track", "peer"),
		fact("F-QTY", "order_quantity", "200", "peer"),
		fact("F-LOC", "order_location", "Reno depot", "peer"),
		turnRec("T1", "Please ship the crates to Denver."),
		turnRec("T2", "Got it, shipping to Denver."),
	}
	tests := []struct {
		name, text, authority string
		want                  want
	}{
		{"explicit correction with instead", "Actually, ship them to Boston instead.", "peer",
			want{KindExplicit, "F-SHIP T1 T2", "Denver", "Boston", false}},
		{"explicit from-to names the old value", "We switched the shipping from Denver to Austin.", "peer",
			want{KindExplicit, "F-SHIP T1 T2", "Denver", "Austin", false}},
		{"explicit retraction, value by type", "No wait, change that to Friday.", "peer",
			want{KindExplicit, "F-MEET", "Tuesday", "Friday", false}},
		{"implicit same key new amount", "The approved budget is $90,000.", "manager",
			want{KindImplicit, "F-BUDGET", "$75,000", "$90,000", false}},
		{"authority cited by role", "Per the CFO, the budget is $60,000.", "peer",
			want{KindAuthority, "F-BUDGET", "$75,000", "$60,000", false}},
		{"authority from speaker prefix", "[VP Finance] I'm overriding that: budget is $95,000.", "peer",
			want{KindAuthority, "F-BUDGET", "$75,000", "$95,000", false}},
		{"temporal update of a price", "As of today, the unit price is $45.", "peer",
			want{KindTemporal, "F-PRICE", "$40 per unit", "$45", false}},
		{"status change", "Heads up: the project status is now at risk.", "peer",
			want{KindTemporal, "F-STATUS", "on track", "at risk", false}},
		{"keep protects the other slot", "Keep the location, but change the quantity to 350.", "peer",
			want{KindExplicit, "F-QTY", "200", "350", false}},
		{"of two new counts, the one the change lands on", "Sold 50 units at the fair, so the order quantity is now 150.", "peer",
			want{KindExplicit, "F-QTY", "200", "150", false}},
		{"a clause of its own after the value", "Heads up: the project status is officially at risk, we've lost two engineers.", "peer",
			want{KindExplicit, "F-STATUS", "on track", "at risk", false}},
		{"a count said in a clause is the count", "Orders keep growing, so the order quantity is going to 260 from now on.", "peer",
			want{KindExplicit, "F-QTY", "200", "260", false}},
		{"the speaker's own slip is the old value", "The approved budget is $95,000 now. sorry, $92,500, legal trimmed it.", "manager",
			want{KindTemporal, "F-BUDGET", "$75,000", "$92,500", false}},
		{"when it starts", "Order quantity is 240 starting Monday.", "peer",
			want{KindExplicit, "F-QTY", "200", "240", false}},
		{"an amount raised to", "The supplier raised the unit price to $48.", "peer",
			want{KindExplicit, "F-PRICE", "$40 per unit", "$48", false}},
		{"lower authority is blocked", "[Intern] The budget is $20,000 now.", "peer",
			want{KindTemporal, "F-BUDGET", "$75,000", "$20,000", true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := analyzeOne(t, tc.text, tc.authority, known)
			if len(res.Detections) != 1 {
				t.Fatalf("got %d detections, want 1: %+v", len(res.Detections), res.Detections)
			}
			d := res.Detections[0]
			got := want{d.Kind, refs(d.Superseded), d.Previous, d.Replacement, d.Blocked}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if d.Cue == "" || d.Confidence <= 0 || d.Confidence > 1 {
				t.Errorf("cue %q, confidence %v: want a cue and a confidence in (0,1]", d.Cue, d.Confidence)
			}
		})
	}
}

func TestAnalyzeIgnores(t *testing.T) {
	known := []Record{
		fact("F-MEET", "meeting_day", "Tuesday", "peer"),
		fact("F-VENDOR", "selected_vendor", "Northwind", "peer"),
		fact("F-BUDGET", "project_budget", "$50,000", "peer"),
		turnRec("T1", "Book the meeting for Tuesday."),
		turnRec("T2", "We're going with Northwind for the contract."),
	}
	tests := []struct {
		name, text string
		scope      Scope
	}{
		{"negated move", "We did not move the meeting.", ScopeGlobal},
		{"negated change", "The budget hasn't changed.", ScopeGlobal},
		{"quoting the old value", "As I mentioned, the original vendor was Northwind.", ScopeGlobal},
		{"question", "Did the budget change?", ScopeGlobal},
		{"question without mark", "Can we move the meeting to Friday", ScopeGlobal},
		{"hypothetical", "What if we moved it to Friday?", ScopeHypothetical},
		{"hypothetical statement", "Let's say the budget is $80,000.", ScopeHypothetical},
		{"draft", "Draft: budget of $65,000 for review.", ScopeDraft},
		{"restating the current value", "Remember, we're going with Northwind for the contract.", ScopeGlobal},
		{"confirmation of the current value", "The meeting is on Tuesday.", ScopeGlobal},
		{"addition, not replacement", "Actually, add a catering order too.", ScopeGlobal},
		{"unrelated statement", "The office coffee machine is broken.", ScopeGlobal},
		{"introduction", "I'm Dana from Contoso.", ScopeGlobal},
		{"a delivery is no drop", "Westwind dropped off a quote for the contract.", ScopeGlobal},
		{"empty", "", ScopeGlobal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := analyzeOne(t, tc.text, "peer", known)
			if len(res.Detections) != 0 {
				t.Errorf("got detections %+v, want none", res.Detections)
			}
			if res.Scope != tc.scope {
				t.Errorf("scope: got %s, want %s", res.Scope, tc.scope)
			}
		})
	}
}

func TestAnalyzeTurnsOnly(t *testing.T) {
	known := []Record{
		turnRec("T1", "We're going with Northwind for the contract."),
		turnRec("T2", "I'll prepare the paperwork for Northwind."),
		turnRec("T3", "Can you check Fabrikam's availability?"),
	}
	res := analyzeOne(t, "Let's proceed with Fabrikam for the contract.", "peer", known)
	if len(res.Detections) != 1 {
		t.Fatalf("got %d detections, want 1: %+v", len(res.Detections), res.Detections)
	}
	d := res.Detections[0]
	if got := refs(d.Superseded); got != "T1 T2" {
		t.Errorf("superseded: got %q, want %q", got, "T1 T2")
	}
	if d.Previous != "Northwind" || d.Replacement != "Fabrikam" {
		t.Errorf("got %q → %q, want Northwind → Fabrikam", d.Previous, d.Replacement)
	}
}

func TestScopeAndConstraint(t *testing.T) {
	tests := []struct {
		text     string
		scope    Scope
		wantType constraint.Type // "" for none
		wantCue  string
	}{
		{"Suppose we hire two more engineers.", ScopeHypothetical, "", ""},
		{"Hypothetically, the launch could slip.", ScopeHypothetical, "", ""},
		{"This is a tentative plan.", ScopeDraft, "", ""},
		{"Use the staging cluster for this task.", ScopeTask, "", ""},
		{"We must never share salary data.", ScopeGlobal, constraint.Prohibition, "never"},
		{"The report is due by Friday.", ScopeGlobal, constraint.Deadline, "due by"},
		{"Marketing spend is capped at $10,000.", ScopeGlobal, constraint.Budget, "capped at"},
		{"Refunds over $500 require Finance approval.", ScopeGlobal, constraint.Policy, "require finance approval"},
		{"Discounts of no more than 15% are allowed.", ScopeGlobal, constraint.Limit, "no more than"},
		{"All services must use TLS.", ScopeGlobal, constraint.Requirement, "must"},
		{"The sky is blue.", ScopeGlobal, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			res := Analyze(Turn{Text: tc.text}, nil, DefaultOptions())
			if res.Scope != tc.scope {
				t.Errorf("scope: got %s, want %s", res.Scope, tc.scope)
			}
			var gotType constraint.Type
			var gotCue string
			if res.Constraint != nil {
				gotType, gotCue = res.Constraint.Type, res.Constraint.Cue
			}
			if gotType != tc.wantType || gotCue != tc.wantCue {
				t.Errorf("constraint: got %q (%q), want %q (%q)", gotType, gotCue, tc.wantType, tc.wantCue)
			}
		})
	}
}

// TestRank: detection ranks authorities and role phrases with the
// authority package's order and role table, nothing of its own.
func TestRank(t *testing.T) {
	order := authority.MustDefaultOrder()
	tests := []struct {
		authority string
		want      string // a name of the order, or "" for unknown
	}{
		{"policy", "policy"},
		{"Peer", "peer"},
		{"Board of Directors", "policy"},
		{"CFO", "executive"},
		{"VP Sales", "executive"},
		{"vp of", "executive"},
		{"Support Manager", "manager"},
		{"Head of Sales", "manager"},
		{"Engineering Director", "manager"},
		{"Managing Director", "executive"},
		{"c level", "executive"},
		{"Senior Engineer", "employee"},
		{"External", "guest"},
		{"Contractor", "guest"},
		{"", ""},
		{"Wizard", ""},
	}
	for _, tc := range tests {
		t.Run(tc.authority, func(t *testing.T) {
			want := -1
			if tc.want != "" {
				want = order.Rank(tc.want)
			}
			if got := DefaultOptions().Rank(tc.authority); got != want {
				t.Errorf("Rank(%q) = %d, want %d (%s)", tc.authority, got, want, tc.want)
			}
			got, ok := order.RankOf(tc.authority)
			if got != want || ok != (want >= 0) {
				t.Errorf("order.RankOf(%q) = %d, %v; detection ranks %d", tc.authority, got, ok, want)
			}
		})
	}
}

// TestRankConfigured: a configured role rule changes what detection makes
// of a role phrase in a turn, as it changes what a token's role ranks.
func TestRankConfigured(t *testing.T) {
	rules, err := authority.ParseRoles("Head of *=executive")
	if err != nil {
		t.Fatal(err)
	}
	order, err := authority.MustDefaultOrder().WithRoles(rules)
	if err != nil {
		t.Fatal(err)
	}
	known := []Record{fact("F1", "project_budget", "$50,000", "Engineering Director")}
	turn := Turn{Text: "Per the Head of Sales, the project budget is $70,000.", Authority: "employee"}
	tests := []struct {
		name        string
		opts        Options
		wantBlocked bool
		wantKind    Kind
	}{
		{"default table: a head is a manager, as the director", DefaultOptions(), false, KindAuthority},
		{"head of configured executive", Options{Order: order, MinConfidence: 0.5}, false, KindAuthority},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Analyze(turn, known, tc.opts)
			if len(res.Detections) != 1 {
				t.Fatalf("got %d detections, want 1", len(res.Detections))
			}
			d := res.Detections[0]
			if d.Blocked != tc.wantBlocked || d.Kind != tc.wantKind {
				t.Errorf("got kind %s blocked %v, want %s blocked %v", d.Kind, d.Blocked, tc.wantKind, tc.wantBlocked)
			}
			if got, want := tc.opts.Rank(d.Authority), tc.opts.Rank("Head of Sales"); got != want {
				t.Errorf("statement authority %q ranks %d, want the Head of Sales' %d", d.Authority, got, want)
			}
		})
	}
	// The fact's author outranks a configured-down head: the turn is blocked.
	down, err := authority.ParseRoles("Head of *=subordinate")
	if err != nil {
		t.Fatal(err)
	}
	low, err := authority.MustDefaultOrder().WithRoles(down)
	if err != nil {
		t.Fatal(err)
	}
	res := Analyze(turn, known, Options{Order: low, MinConfidence: 0.5})
	if len(res.Detections) != 1 || !res.Detections[0].Blocked {
		t.Errorf("head configured subordinate: got %+v, want one blocked detection", res.Detections)
	}
}

func TestCapTextAuthority(t *testing.T) {
	known := []Record{fact("F1", "project_budget", "$50,000", "manager")}
	opts := DefaultOptions()
	for _, capped := range []bool{false, true} {
		t.Run(fmt.Sprint("capped=", capped), func(t *testing.T) {
			opts.CapTextAuthority = capped
			res := Analyze(Turn{Text: "Per the CEO, the project budget is $70,000.", Authority: "employee"}, known, opts)
			if len(res.Detections) != 1 {
				t.Fatalf("got %d detections, want 1", len(res.Detections))
			}
			if got := res.Detections[0].Blocked; got != capped {
				t.Errorf("blocked: got %v, want %v", got, capped)
			}
		})
	}
}

func TestStale(t *testing.T) {
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	changes := []Change{
		{Key: "", Old: "Northwind", New: "Fabrikam", At: at(10)},
		{Key: "design_choice", Old: "card layout", New: "green theme", At: at(20)},
		{Key: "design_choice", Old: "green theme", New: "card layout", At: at(30)},
		{Key: "approved_budget", Old: "$75,000", New: "$80,000", At: at(40)},
	}
	tests := []struct {
		name  string
		write Record
		want  bool
	}{
		{"restates a replaced vendor", Record{Key: "selected_vendor", Value: "Northwind", At: at(1)}, true},
		{"write without time", Record{Key: "selected_vendor", Value: "Northwind"}, true},
		{"newer write is a real change", Record{Key: "selected_vendor", Value: "Northwind", At: at(11)}, false},
		{"the replacement is fresh", Record{Key: "selected_vendor", Value: "Fabrikam", At: at(1)}, false},
		{"restored value is current", Record{Key: "design_choice", Value: "card layout", At: at(1)}, false},
		{"value replaced last is stale", Record{Key: "design_choice", Value: "green theme", At: at(2)}, true},
		{"same amount with a note", Record{Key: "approved_budget", Value: "$75,000 (manager approved)", At: at(1)}, true},
		{"unrelated key", Record{Key: "office_city", Value: "$75,000", At: at(1)}, false},
		{"empty value", Record{Key: "approved_budget", At: at(1)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Stale(tc.write, changes); got != tc.want {
				t.Errorf("Stale(%+v) = %v, want %v", tc.write, got, tc.want)
			}
		})
	}
}

func TestDetectionChange(t *testing.T) {
	d := Detection{Key: "k", Previous: "a", Replacement: "b"}
	if got, want := d.Change(t0), (Change{Key: "k", Old: "a", New: "b", At: t0}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func FuzzAnalyze(f *testing.F) {
	f.Add("Actually, ship them to Boston instead.", "Denver")
	f.Add("[VP] I'm overriding that. The budget is $80,000.", "$75,000")
	f.Add("Keep the location, but change the quantity to 750.", "1000")
	f.Add("Carol (CEO): purchases over $25k are frozen until Q2", "approved")
	f.Add("from  to \xff$. ? [", "")
	f.Fuzz(func(t *testing.T, text, old string) {
		known := []Record{
			fact("F1", "some_value", old, "manager"),
			turnRec("T1", old),
			turnRec("T2", text),
		}
		res := Analyze(Turn{Text: text, Authority: "peer"}, known, DefaultOptions())
		for _, d := range res.Detections {
			if len(d.Superseded) == 0 || d.Cue == "" {
				t.Fatalf("detection without refs or cue: %+v", d)
			}
			if d.Confidence < 0 || d.Confidence > 1 {
				t.Fatalf("confidence %v out of range", d.Confidence)
			}
			for _, r := range d.Superseded {
				if r.ID != "F1" && r.ID != "T1" && r.ID != "T2" {
					t.Fatalf("unknown ref %+v", r)
				}
			}
		}
		Stale(Record{Key: "some_value", Value: text}, []Change{{Old: old, New: text}})
	})
}

func BenchmarkAnalyze(b *testing.B) {
	known := []Record{
		fact("F-SHIP", "shipping_location", "Denver", "peer"),
		fact("F-BUDGET", "approved_budget", "$75,000 (manager approved)", "manager"),
		fact("F-MEET", "meeting_day", "Tuesday", "peer"),
		turnRec("T1", "Please ship the crates to Denver."),
		turnRec("T2", "Got it, shipping to Denver."),
	}
	turn := Turn{Text: "Actually, ship them to Boston instead. The budget is $90,000.", Authority: "peer"}
	opts := DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		Analyze(turn, known, opts)
	}
}

// TestQuotedOldValueNamesTheTarget: "the value was: X" names the record
// whose whole value is X, not another record that merely shares a date.
func TestQuotedOldValueNamesTheTarget(t *testing.T) {
	known := []Record{
		fact("F-LAUNCH", "launch_date", "March 1st launch", "peer"),
		fact("F-PLAN", "derived_plan", "Code freeze Feb 15, QA Feb 16-28, Launch March 1", "peer"),
	}
	res := analyzeOne(t, "Correction: leadership pushed the launch. The value was: March 1st launch. The actual value is: April 15.", "peer", known)
	if len(res.Detections) != 1 || refs(res.Detections[0].Superseded) != "F-LAUNCH" {
		t.Fatalf("detections = %+v, want exactly F-LAUNCH superseded", res.Detections)
	}
}

// TestRestatementWithParentheses: a turn that repeats a record's value,
// parentheses included, restates it and supersedes nothing.
func TestRestatementWithParentheses(t *testing.T) {
	known := []Record{{ID: "V1", Kind: RecordEnvironment, Key: "deadline", Value: "Quarter ends tomorrow (Dec 31). Final day for Q4 deals.", At: t0}}
	if res := analyzeOne(t, "Update: Quarter ends tomorrow (Dec 31). Final day for Q4 deals.", "peer", known); len(res.Detections) != 0 {
		t.Errorf("a restatement superseded %+v", res.Detections)
	}
	if res := analyzeOne(t, "Update: the quarter now ends on Dec 30.", "peer", known); len(res.Detections) != 1 {
		t.Errorf("a new date of the signal: detections %+v, want 1", res.Detections)
	}
}

func TestStatements(t *testing.T) {
	tests := []struct{ in, want string }{
		{"I'm Paula from CompanyTwo. What discount was discussed for BigClient? I want to be competitive.", "I'm Paula from CompanyTwo. I want to be competitive."},
		{"Did the budget change?", ""},
		{"Can we move the meeting to Friday", ""},
		{"The budget is $50,000.", "The budget is $50,000."},
	}
	for _, tc := range tests {
		if got := Statements(tc.in); got != tc.want {
			t.Errorf("Statements(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNarrates(t *testing.T) {
	tests := []struct {
		name, text, current string
		want                bool
	}{
		{"history of a date", "The original launch date was Friday March 15th. Then we moved it to Thursday March 14th. The final launch date is Monday March 18th.", "Monday March 18th", true},
		{"recap", "To recap: we originally planned Friday March 15th, but Monday March 18th is the one.", "Monday March 18th", true},
		{"only the current value", "The launch is Monday March 18th.", "Monday March 18th", false},
		{"other slot without history", "Launch Monday March 18th, code freeze Friday March 15th.", "Monday March 18th", false},
		{"does not state the current value", "The launch was Friday March 15th.", "Monday March 18th", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Narrates(tc.text, tc.current); got != tc.want {
				t.Errorf("Narrates = %v, want %v", got, tc.want)
			}
			// NarratesAny is Narrates of any of the values.
			for _, cur := range [][]string{nil, {tc.current}, {"Tuesday", tc.current}, {tc.current, "12 people"}, {"Tuesday"}} {
				want := slices.ContainsFunc(cur, func(c string) bool { return Narrates(tc.text, c) })
				if got := NarratesAny(tc.text, cur); got != want {
					t.Errorf("NarratesAny(%q) = %v, want %v", cur, got, want)
				}
			}
		})
	}
}

// FuzzWhole: a value carried to the end of its word stays within the
// text, opens as the value did, and never panics whatever the offsets.
func FuzzWhole(f *testing.F) {
	f.Add("Send escalations to oncall@acme.io from now on.", 20, 31)
	f.Add("Jordan is the new design lead.", -1, 0)
	f.Add("a.b", 0, 1)
	f.Add("x@", 0, 1)
	f.Fuzz(func(t *testing.T, text string, start, end int) {
		val := value{start: start, end: end}
		if start >= 0 && start <= end && end <= len(text) {
			val.text = text[start:end]
		}
		got := whole(text, val)
		if !strings.HasPrefix(got, val.text) {
			t.Fatalf("whole(%q, %d..%d) = %q, not opening with %q", text, start, end, got, val.text)
		}
		if got != val.text && !strings.Contains(text, got) {
			t.Fatalf("whole(%q, %d..%d) = %q, not in the text", text, start, end, got)
		}
	})
}

func TestWhole(t *testing.T) {
	text := "Send escalations to oncall@acme.io from now on."
	i := strings.Index(text, "oncall@acme")
	if got := whole(text, value{text: "oncall@acme", start: i, end: i + len("oncall@acme")}); got != "oncall@acme.io" {
		t.Errorf("whole = %q, want oncall@acme.io", got)
	}
	if got := whole("It's Jordan.", value{text: "Jordan", start: 5, end: 11}); got != "Jordan" {
		t.Errorf("whole = %q, want Jordan (a sentence's full stop ends it)", got)
	}
	link := "the link is zoom.us/j/884412 now."
	if got := whole(link, value{text: "zoom.us", start: 12, end: 19}); got != "zoom.us/j/884412" {
		t.Errorf("whole = %q, want zoom.us/j/884412 (a web address runs through its path)", got)
	}
	if got := whole("Ops/Dev owns it.", value{text: "Ops", start: 0, end: 3}); got != "Ops" {
		t.Errorf("whole = %q, want Ops (a slash after a word with no dot is no path)", got)
	}
}

// TestTheOfAName: a capital "The" inside a sentence opens the name ("The
// Bear"); opening the sentence, it is the sentence's.
func TestTheOfAName(t *testing.T) {
	tests := []struct{ text, want string }{
		{"I can't stop watching The Bear now.", "The Bear"},
		{"We booked The Glasshouse for June.", "The Glasshouse"},
		{"The Glasshouse is booked.", "Glasshouse"},
	}
	for _, tc := range tests {
		var got []string
		for _, v := range scanValues(tc.text) {
			if v.typ == tName {
				got = append(got, v.text)
			}
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("names of %q = %q, want %q among them", tc.text, got, tc.want)
		}
	}
}

// TestWithUnit: a bare number said with the previous value's unit keeps it.
func TestWithUnit(t *testing.T) {
	tests := []struct{ repl, prev, text, want string }{
		{"3", "2 liters", "I'm aiming for 3 liters of water a day now.", "3 liters"},
		{"3", "2 liters", "Make it 3.", "3"},
		{"3", "2", "3 liters", "3"},
		{"Kyoto", "2 liters", "Kyoto liters", "Kyoto"},
	}
	for _, tc := range tests {
		if got := withUnit(tc.repl, tc.prev, tc.text); got != tc.want {
			t.Errorf("withUnit(%q, %q, %q) = %q, want %q", tc.repl, tc.prev, tc.text, got, tc.want)
		}
	}
}

// TestLandedOn: of a turn's new amounts, counts or times, the one a change
// lands on is the value; when two are, the first stays.
func TestLandedOn(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"sold 5 mugs at the market so I'm down to 7 now", "7"},
		{"After that 1:26 half, goal's now 2:59.", "2:59"},
		{"Changed it: 5 desks go to 7, and now 9 chairs.", "5"},
		// Of two new names, the one the change lands on, not its owner.
		{"Heads up, the Patels switched venues, they're at Lakeview Pavilion now.", "Lakeview Pavilion"},
		{"Hanley & Ross went to $900 a return, so I signed with Marcia Bell instead.", "Marcia Bell"},
		{"The Hampton Inn block fell through, so we booked the team rooms at the Courtyard Marriott instead.", "Courtyard Marriott"},
	}
	for _, tc := range tests {
		v := view(tc.text)
		if v == nil {
			t.Fatalf("%q: nothing that changes state", tc.text)
		}
		first := slices.IndexFunc(v.values, func(x value) bool { return !x.old })
		if first < 0 {
			t.Fatalf("%q: no new value", tc.text)
		}
		if got := v.values[landedOn(v, first, func(string) bool { return false }, func(string) bool { return false })].text; got != tc.want {
			t.Errorf("landedOn(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestNumberInAnIdentifier: a number that is part of a handle, a
// password or a tag is no number of its own.
func TestNumberInAnIdentifier(t *testing.T) {
	tests := []struct {
		text string
		want bool // a bare number "321" is scanned
	}{
		{"it is sharma@321 actually", false},
		{"ticket #321 is closed", false},
		{"we are at 321 now", true},
	}
	for _, tc := range tests {
		got := slices.ContainsFunc(scanValues(tc.text), func(v value) bool { return v.typ == tNumber && v.text == "321" })
		if got != tc.want {
			t.Errorf("scanValues(%q) has the number 321 = %v, want %v", tc.text, got, tc.want)
		}
	}
}
