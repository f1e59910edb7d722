package statebench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/statebench"
	"github.com/stategraph/stategraph/tokens"
)

var full = flag.Bool("longconv.full", false, "replay all long conversations (make bench-conversations), not the quick subset")

// convDir holds our own conversations and sentences (see its README.md).
const convDir = "../testdata/longconv"

// sentenceRow is one row of sentences.tsv.
type sentenceRow struct {
	id, key, value, speaker string
	changes                 bool
	newValues               []string // any of them is the right new value
	kind, sentence          string
}

func loadSentences(t testing.TB, name string) []sentenceRow {
	t.Helper()
	f, err := os.Open(filepath.Join(convDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []sentenceRow
	sc := bufio.NewScanner(f)
	header := true
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if header {
			header = false
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 8 {
			t.Fatalf("%s line %d: %d columns, want 8", name, n, len(c))
		}
		r := sentenceRow{id: c[0], key: c[1], value: c[2], speaker: c[3], changes: c[4] == "yes", kind: c[6], sentence: c[7]}
		if r.changes {
			r.newValues = strings.Split(c[5], "|")
		}
		if c[4] != "yes" && c[4] != "no" || r.changes && c[5] == "" || r.speaker != "USER" && r.speaker != "ASSISTANT" {
			t.Fatalf("%s line %d is malformed: %q", name, n, line)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

const (
	opWriteFact  = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`
	opRecordTurn = `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`
	opFact       = `query($id: ID!) { fact(id: $id) { isValid supersededBy { key value scope } } }`
)

// sentenceOutcome is what one row did to its fact.
type sentenceOutcome struct {
	row        sentenceRow
	superseded bool
	got        string // the successor's value
	note       string // why the row is a miss, or "" when it is right
}

// TestSentenceSupersession writes a fact, records one sentence as a turn
// (its own organization each, on a real server, with real tokens) and reads
// the fact back: a sentence that changes the fact must supersede it with the
// new value (and without the old one); any other must leave it valid. The
// sentences were written without reading the extraction rules; the held-out
// table was added before the rules were changed for its misses, and is
// reported on its own. Goal (issue 12, point 2): zero false supersessions
// and recall of real changes >= 90 %.
func TestSentenceSupersession(t *testing.T) {
	env := apitest.New(t)
	tables := []struct {
		file    string
		minRows int
		floor   float64 // recall below it fails: what the rules reach today
	}{
		{"sentences.tsv", 150, sentenceRecallFloor},
		{"sentences_heldout.tsv", 20, heldoutRecallFloor},
		{"sentences_heldout2.tsv", 20, heldout2RecallFloor},
		{"sentences_heldout3.tsv", 20, heldout3RecallFloor},
		{"sentences_heldout4.tsv", 20, heldout4RecallFloor},
		{"sentences_heldout5.tsv", 20, heldout5RecallFloor},
		{"sentences_heldout6.tsv", 20, heldout6RecallFloor},
		{"sentences_heldout7.tsv", 20, heldout7RecallFloor},
		{"sentences_heldout8.tsv", 20, heldout8RecallFloor},
		{"sentences_heldout9.tsv", 20, heldout9RecallFloor},
		{"sentences_heldout10.tsv", 20, heldout10RecallFloor},
		{"sentences_heldout11.tsv", 20, heldout11RecallFloor},
		{"sentences_heldout12.tsv", 20, heldout12RecallFloor},
		{"sentences_heldout13.tsv", 20, heldout13RecallFloor},
		{"sentences_heldout14.tsv", 20, heldout14RecallFloor},
		{"sentences_heldout15.tsv", 20, heldout15RecallFloor},
		{"sentences_heldout16.tsv", 20, heldout16RecallFloor},
		{"sentences_heldout17.tsv", 20, heldout17RecallFloor},
		{"sentences_heldout18.tsv", 20, heldout18RecallFloor},
		{"sentences_heldout19.tsv", 20, heldout19RecallFloor},
		{"sentences_heldout20.tsv", 20, heldout20RecallFloor},
		{"sentences_heldout21.tsv", 20, heldout21RecallFloor},
		{"sentences_heldout22.tsv", 20, heldout22RecallFloor},
		{"sentences_heldout23.tsv", 20, heldout23RecallFloor},
	}
	for _, tc := range tables {
		t.Run(strings.TrimSuffix(tc.file, ".tsv"), func(t *testing.T) {
			rows := loadSentences(t, tc.file)
			if len(rows) < tc.minRows {
				t.Fatalf("%s has %d rows, want at least %d", tc.file, len(rows), tc.minRows)
			}
			checkSentences(t, env, tc.file, rows, tc.floor)
		})
	}
}

// checkSentences plays rows and reports recall and false supersessions.
func checkSentences(t *testing.T, env *apitest.Env, file string, rows []sentenceRow, floor float64) {
	t.Helper()
	var out []sentenceOutcome
	for _, r := range rows {
		out = append(out, runSentence(t, env, r))
	}

	var changes, caught, keeps, falseSup int
	var misses []sentenceOutcome
	for _, o := range out {
		if o.row.changes {
			changes++
			if o.note == "" {
				caught++
			}
		} else {
			keeps++
			if o.superseded {
				falseSup++
			}
		}
		if o.note != "" {
			misses = append(misses, o)
		}
	}
	recall := float64(caught) / float64(max(changes, 1))
	logSentenceKinds(t, out)
	t.Logf("%s: %d changes, %d caught (recall %.1f%%); %d non-changes, %d falsely superseded", file, changes, caught, 100*recall, keeps, falseSup)
	if len(misses) > 0 {
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tkind\tspeaker\tfact\tsentence\tmiss")
		for _, o := range misses {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s=%s\t%s\t%s\n", o.row.id, o.row.kind, o.row.speaker, o.row.key, o.row.value, o.row.sentence, o.note)
		}
		tw.Flush()
		t.Logf("misses:\n%s", b.String())
	}
	if falseSup > 0 {
		t.Errorf("%d of %d non-changing sentences superseded their fact, want 0", falseSup, keeps)
	}
	// The goal is >= 90 %; the floor is what the rules reach today, so
	// that no change lowers it.
	if recall < sentenceRecallGoal {
		t.Logf("GOAL NOT MET: recall of real changes %.1f%% (%d/%d), goal >= %.0f%%", 100*recall, caught, changes, 100*sentenceRecallGoal)
	}
	if recall < floor {
		t.Errorf("recall of real changes %.1f%% (%d/%d), below the floor of %.0f%%", 100*recall, caught, changes, 100*floor)
	}
	for _, o := range out {
		if !o.row.changes && o.note != "" && !o.superseded {
			t.Errorf("%s could not be checked: %s", o.row.id, o.note)
		}
	}
}

// logSentenceKinds reports, per kind of sentence, how many rows came out
// right.
func logSentenceKinds(t *testing.T, out []sentenceOutcome) {
	t.Helper()
	type counts struct{ rows, right int }
	by := map[string]*counts{}
	var kinds []string
	for _, o := range out {
		name := o.row.kind
		if o.row.changes {
			name = "change: " + name
		} else {
			name = "no change: " + name
		}
		c := by[name]
		if c == nil {
			c = new(counts)
			by[name] = c
			kinds = append(kinds, name)
		}
		c.rows++
		if o.note == "" {
			c.right++
		}
	}
	slices.Sort(kinds)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\trows\tright\t")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", k, by[k].rows, by[k].right)
	}
	tw.Flush()
	t.Logf("by kind of sentence:\n%s", b.String())
}

// runSentence plays one row against env.
func runSentence(t *testing.T, env *apitest.Env, r sentenceRow) sentenceOutcome {
	t.Helper()
	o := sentenceOutcome{row: r}
	tok := apitest.Token(t, apitest.Identity("sentences-"+r.id, "u1"))
	resp := env.Do(t, tok, opWriteFact, map[string]any{"in": map[string]any{"key": r.key, "value": r.value}})
	if len(resp.Errors) > 0 {
		o.note = fmt.Sprintf("writeFact refused (%s): %s", resp.Code(), resp.Errors[0].Message)
		return o
	}
	var w struct{ WriteFact struct{ ID string } }
	resp.Decode(t, &w)
	env.Clock.Advance(time.Second) // the turn after the write; a table of thousands of rows stays on the day of apitest.Start
	resp = env.Do(t, tok, opRecordTurn, map[string]any{"in": map[string]any{"sessionId": "s-" + r.id, "speaker": r.speaker, "text": r.sentence}})
	if len(resp.Errors) > 0 {
		o.note = fmt.Sprintf("recordTurn refused (%s): %s", resp.Code(), resp.Errors[0].Message)
		return o
	}
	var f struct {
		Fact *struct {
			IsValid      bool
			SupersededBy *struct {
				Key   string
				Value json.RawMessage
				Scope string
			}
		}
	}
	env.MustDo(t, tok, opFact, map[string]any{"id": w.WriteFact.ID}, &f)
	if f.Fact == nil {
		o.note = "the fact is gone"
		o.superseded = true
		return o
	}
	o.superseded = !f.Fact.IsValid
	if sb := f.Fact.SupersededBy; sb != nil {
		o.got = jsonText(sb.Value)
		if sb.Scope != "" && sb.Scope != "GLOBAL" {
			o.got += " [" + sb.Scope + "]"
		}
	}
	switch {
	case !r.changes && o.superseded:
		o.note = fmt.Sprintf("false supersession: now %q", o.got)
	case r.changes && !o.superseded:
		o.note = "not superseded"
	case r.changes && !anyContains(o.got, r.newValues):
		o.note = fmt.Sprintf("superseded with %q, want %q", o.got, strings.Join(r.newValues, " or "))
	case r.changes && statebench.Contains(o.got, r.value) && !slices.ContainsFunc(r.newValues, func(v string) bool { return strings.EqualFold(v, strings.TrimSpace(o.got)) }):
		// (A new value that is exactly one the row names may hold the
		// old one: "#launch-2026" after "#launch".)
		o.note = fmt.Sprintf("new value %q still carries the old %q", o.got, r.value)
	case r.changes && len(strings.Fields(o.got)) > 2 && strings.Contains(strings.ToLower(r.sentence), strings.ToLower(strings.Trim(o.got, " .!"))) && len(o.got)*2 > len(r.sentence):
		// "I'm in the office Mondays and Wednesdays now" holds the new
		// days, but as the turn's text, not a value isolated from it.
		o.note = fmt.Sprintf("superseded with most of the sentence %q, want %q", o.got, strings.Join(r.newValues, " or "))
	}
	return o
}

// anyContains reports whether s says one of the phrases, as written or in
// a form of it a reader takes for the same value: a plural ("Fridays" for
// "Friday", "Hoka Cliftons" for "Hoka Clifton"), a time with the half of
// the day ("7:15am" for "7:15") or a day of the month with its ordinal
// ("June 21st" for "June 21").
func anyContains(s string, phrases []string) bool {
	for _, p := range phrases {
		forms := []string{p}
		if reWordEnd.MatchString(p) {
			forms = append(forms, p+"s")
		}
		if reClockEnd.MatchString(p) {
			forms = append(forms, p+"am", p+"pm", p+" am", p+" pm")
		}
		if reDayEnd.MatchString(p) {
			forms = append(forms, p+"st", p+"nd", p+"rd", p+"th")
		}
		for _, f := range forms {
			if statebench.Contains(s, f) {
				return true
			}
		}
	}
	return false
}

var (
	reWordEnd  = regexp.MustCompile(`\p{L}$`)
	reClockEnd = regexp.MustCompile(`\d:\d\d$`)
	reDayEnd   = regexp.MustCompile(`(?:^|[^\d:.,])\d{1,2}$`)
)

// jsonText is a JSON value as text: a string unquoted, anything else as is.
func jsonText(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	return string(raw)
}

// The sentence table's goal (issue 12, point 2) and the floor the rules
// reach today: a change that lowers recall below the floor fails.
const (
	sentenceRecallGoal   = 0.90
	sentenceRecallFloor  = 0.63 // 4,135 of 6,466 (63.9 %) at the end of the seventeenth session (2026-11-28), after 1,598 blind rows (799 changes) were added; how each round of rows was written and what it caught when first played and when added is told in testdata/longconv/README.md
	heldoutRecallFloor   = 0.90
	heldout2RecallFloor  = 0.90 // written 2026-11-27, after that day's rules: 6 of 10 then, 8 now; 9 of 10 after the sixth session's rules (not fitted)
	heldout3RecallFloor  = 0.60 // written later on 2026-11-27, after that session's rules: 3 of 10 then, 6 now
	heldout4RecallFloor  = 0.70 // written at the end of that session: 4 of 10 then (and one false supersession, since fixed), 6 now; 7 of 10 after the sixth session's rules (not fitted)
	heldout5RecallFloor  = 0.70 // written in the fourth session of 2026-11-27 after its rules (shapes, brands, continuations): 6 of 10, 0 false; 7 of 10 after the sixth session's rules (not fitted)
	heldout6RecallFloor  = 0.60 // written at the end of that session after the rules for the o… rows: 4 of 10 as written, 5 once s004 listed the ISO form of its date as the README asks; 0 false; 6 of 10 after the sixth session's rules (not fitted)
	heldout7RecallFloor  = 0.70 // written in the fifth session of 2026-11-27 after the rules for the cc, dd and ee rows: 4 of 10 as written, 6 after the rules for the ff rows (not fitted to it); 0 false; 7 of 10 after the sixth session's rules (not fitted)
	heldout8RecallFloor  = 0.20 // written after the rules for the ff, gg and hh rows: 1 of 10 as written, with three wrong values stored by detection (the moved pet's name, a web address cut at its first slash, the speaker's words around a value); 2 of 10 once those precision bugs were fixed, 3 after the rules for the ii rows (not fitted to it); 0 false
	heldout9RecallFloor  = 0.50 // written after the rules for the jj, kk, ll, mm and nn rows: 4 of 10 as written, with one false supersession ("I picked up one prescription at CVS while traveling": "picked" read as a choice), fixed; 0 false; 5 of 10 after a vocabulary batch written partly after seeing its misses
	heldout10RecallFloor = 0.50 // written after the rules for the oo to tt rows: 4 of 10 as written, with one false supersession ("Dropped into a Modo Yoga class while visiting my sister") and two wrong values read by detection ("the late shift, so I start at 11am", "a high-deductible plan: $2,500"), fixed; 0 false; 5 of 10 after the seventh session's rules (not fitted)
	heldout11RecallFloor = 0.50 // written in the seventh session of 2026-11-27 after the rules for the xx to xc rows: 3 of 10 as written, with one false supersession ("Tomorrow I'm setting my alarm for 5:45am to catch the early train"), fixed; 0 false; 5 of 10 after two rules its misses prompted ("since the …" begins a state, a standing instruction "… from here on" sets a value), so not a clean figure
	heldout12RecallFloor = 0.60 // written at the end of the seventh session of 2026-11-27, after the rules for the xx to xe rows: 6 of 10 as written, with two false supersessions ("I keep meaning to move from Gmail to Fastmail", "My book club's favorite author is Ted Chiang"), fixed; 0 false
	heldout13RecallFloor = 0.30 // written blind by a helper at the start of the eighth session of 2026-11-27 (it saw neither the rules nor the tables): 1 of 10 when first played, 0 false; 3 of 10 at the session's end, never fitted
	heldout14RecallFloor = 0.30 // written blind by a helper in the eighth session of 2026-11-27, first played after that session's rules: 3 of 10, with two false supersessions ("Going to pitch 3-week sprints at retro Thursday", "…, contractor's on hold"), fixed; 0 false
	heldout17RecallFloor = 0.60 // written blind by a helper at the start of the eleventh session (2026-11-28), first played at its end after all its rules: 6 of 10, 0 false, one value with an instruction in it ("1480 Harbor Blvd this weekend so send supplier stuff there"), now refused; recall never fitted
	heldout23RecallFloor = 0.60 // written blind by a helper at the start of the seventeenth session (2026-11-28), first played after all its rules: 6 of 10, 0 false; recall never fitted
	heldout22RecallFloor = 0.60 // written blind by a helper at the start of the sixteenth session (2026-11-28), first played after most of its rules: 6 of 10, 0 false; recall never fitted
	heldout21RecallFloor = 0.70 // written blind by a helper at the start of the fifteenth session (2026-11-28), first played after all its rules: 7 of 10, 0 false; recall never fitted
	heldout20RecallFloor = 0.40 // written blind by a helper at the start of the fourteenth session (2026-11-28), first played after most of its rules: 4 of 10, one false supersession ("my friends math tutor is mr reyes", a possessive typed without its apostrophe), fixed; recall never fitted
	heldout19RecallFloor = 0.30 // written blind by a helper at the start of the thirteenth session (2026-11-28), first played after most of its rules: 3 of 10, 0 false, one wrong value ("21st" for a date, now the date); recall never fitted
	heldout18RecallFloor = 0.50 // written blind by a helper at the start of the twelfth session (2026-11-28), first played at its end after all its rules: 5 of 10, 0 false, one wrong value ("5" of "sold 5 mugs … so I'm down to 7 now", read by detection; now the value the change lands on, "7"); recall never fitted
	heldout16RecallFloor = 0.30 // written blind by a helper at the start of the tenth session (2026-11-28), first played at its end after all its rules: 3 of 10, with two false supersessions ("Also save the warehouse landlord's number, 555-0188. Different guy from my apartment landlord", "I switched to Dr. Lin for my own cleanings, but the kids are staying with Okafor"), both fixed; recall never fitted
	heldout15RecallFloor = 0.60 // written blind by a helper at the start of the ninth session of 2026-11-27, first played at its end after all its rules: 5 of 10 as written, 0 false; 6 once h15c04 accepted "10:15am", the stored half of the day, for "10:15"; never fitted
)

// conversationGoal is a bar for a file, at the runner's default budget.
type conversationGoal struct {
	maxCSFRR, minCMMR float64
}

// TestConversationHarness replays our own conversations through the
// StateBench runner against an in-process server and reports, per file,
// required-phrase recall (cMMR) and resurrection (cSFRR), next to plain
// transcript replay of the same timelines at the same budget, and logs
// the gap to the goal of issue 12 (point 10): short timelines <= 5 % of
// contexts with a forbidden value and >= 65 % of required phrases; long
// conversations >= 70 % of required phrases and <= 5 % with a superseded
// value. It fails below the floor the service reaches today.
//
// By default it replays every short timeline and the first long
// conversation (a long one takes seconds); under -race, half the short
// timelines and a 60-turn conversation; with -longconv.full, every short
// timeline and all LongSet long conversations (make bench-conversations).
func TestConversationHarness(t *testing.T) {
	counter, err := tokens.New()
	if err != nil {
		t.Fatal(err)
	}
	shorts, longs := conversations(t, "short.jsonl"), conversations(t, "long.jsonl")
	var b bytes.Buffer
	switch {
	case *full:
		err = statebench.Long(&b, statebench.LongSet, 1)
	case statebench.RaceEnabled:
		// A long replay takes minutes under -race: half the short
		// timelines and one conversation of 60 turns of the same shape.
		shorts = shorts[:len(shorts)/2]
		err = statebench.LongOfTurns(&b, 60, 1)
	default:
		longs = longs[:1]
	}
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() > 0 {
		if longs, err = statebench.Load(&b); err != nil {
			t.Fatal(err)
		}
	}
	// goal is issue 12's bar; floor is what the service reaches today,
	// with a margin for the smaller sets replayed under -race: a change
	// that falls below the floor fails, and the gap to the goal is logged.
	tests := []struct {
		name        string
		timelines   []statebench.Timeline
		goal, floor conversationGoal
	}{
		{"short", shorts, conversationGoal{maxCSFRR: 0.05, minCMMR: 0.65}, conversationGoal{maxCSFRR: 0.45, minCMMR: 0.70}},
		{"long", longs, conversationGoal{maxCSFRR: 0.05, minCMMR: 0.70}, conversationGoal{maxCSFRR: 0.35, minCMMR: 0.60}},
	}
	const budget = 8000 // the runner's default
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res := replayConversations(t, tc.timelines, budget)
			base := statebench.TranscriptReplay(tc.timelines, budget, counter.Count)
			got := res.Report.Overall
			var b strings.Builder
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "\ttimelines\tqueries\tcSFRR\tcMMR\ttokens\t")
			row := func(name string, m statebench.Metrics) {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%.1f%%\t%.0f\t\n", name, len(tc.timelines), m.Queries, 100*m.CSFRR, 100*m.CMMR, m.MeanTokens)
			}
			row("stategraph", got)
			row("transcript replay", base.Overall)
			tw.Flush()
			t.Logf("%s conversations at budget %d (replayed in %s, %d runner warnings):\n%s", tc.name, budget, time.Since(start).Round(time.Second), res.Rejected, b.String())
			logBreakdown(t, tc.timelines, res)
			logMisses(t, tc.timelines, res)
			if got.CSFRR > tc.goal.maxCSFRR || got.CMMR < tc.goal.minCMMR {
				t.Logf("GOAL NOT MET: cSFRR %.1f%% (goal <= %.0f%%), cMMR %.1f%% (goal >= %.0f%%)",
					100*got.CSFRR, 100*tc.goal.maxCSFRR, 100*got.CMMR, 100*tc.goal.minCMMR)
			}
			if got.CSFRR > tc.floor.maxCSFRR {
				t.Errorf("cSFRR %.1f%%, above the floor of %.0f%%", 100*got.CSFRR, 100*tc.floor.maxCSFRR)
			}
			if got.CMMR < tc.floor.minCMMR {
				t.Errorf("cMMR %.1f%%, below the floor of %.0f%%", 100*got.CMMR, 100*tc.floor.minCMMR)
			}
		})
	}
}

func conversations(t testing.TB, name string) []statebench.Timeline {
	t.Helper()
	tls, err := statebench.LoadFile(filepath.Join(convDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return tls
}

// replayConversations replays timelines through the runner on two
// servers of their own whose clocks and ids the runner sets from each
// timeline, as `stategraph statebench` does with its loopback servers.
func replayConversations(t *testing.T, timelines []statebench.Timeline, budget int) statebench.Result {
	t.Helper()
	var servers []statebench.Server
	for range 2 {
		var gen *ids.Generator
		env := apitest.New(t, func(o *server.Options) {
			gen = ids.Seeded(o.Clock, 0)
			o.IDs = gen
		})
		servers = append(servers, statebench.Server{
			Client: &statebench.Client{URL: env.URL + "/graphql", HTTP: env.HTTP.Client()},
			Clock:  env.Clock, Reseed: gen.Reseed,
		})
	}
	res, err := statebench.Run(context.Background(), servers, timelines, statebench.Options{
		Budget: budget, RunID: "lc", Seed: 1,
		Mint: func(id authority.Identity) (string, error) {
			return authority.Mint(apitest.Secret, id, 2*time.Hour, "", "", time.Now())
		},
	})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	return res
}

// logBreakdown reports recall and resurrection per kind of value (the
// query's decision_type) and for values that changed and values that did
// not.
func logBreakdown(t *testing.T, timelines []statebench.Timeline, res statebench.Result) {
	t.Helper()
	gts := map[string][]statebench.GroundTruth{}
	for _, tl := range timelines {
		for _, e := range tl.Events {
			if e.Kind == statebench.KindQuery {
				gts[tl.ID] = append(gts[tl.ID], e.GroundTruth)
			}
		}
	}
	type counts struct{ queries, hits, required, resurrected int }
	by := map[string]*counts{}
	add := func(name string, q statebench.QueryResult, gt statebench.GroundTruth) {
		c := by[name]
		if c == nil {
			c = new(counts)
			by[name] = c
		}
		c.queries++
		c.hits += len(q.Hits)
		c.required += len(gt.MustMention)
		if len(q.Violations) > 0 {
			c.resurrected++
		}
	}
	for _, q := range res.Queries {
		gt := gts[q.Timeline][q.Query]
		add("kind "+string(gt.DecisionType), q, gt)
		if len(gt.MustNotMention) > 0 {
			add("value changed", q, gt)
		} else {
			add("value unchanged", q, gt)
		}
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tqueries\tcSFRR\tcMMR\t")
	for _, n := range names {
		c := by[n]
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.1f%%\t\n", n, c.queries, 100*float64(c.resurrected)/float64(c.queries), 100*float64(c.hits)/float64(max(c.required, 1)))
	}
	tw.Flush()
	t.Logf("by kind of value:\n%s", b.String())
}

// logMisses lists the queries whose context lacked a required phrase or
// carried a forbidden one (the first 25).
func logMisses(t *testing.T, timelines []statebench.Timeline, res statebench.Result) {
	t.Helper()
	required := map[string][]int{} // timeline -> required phrases per query
	for _, tl := range timelines {
		for _, e := range tl.Events {
			if e.Kind == statebench.KindQuery {
				required[tl.ID] = append(required[tl.ID], len(e.GroundTruth.MustMention))
			}
		}
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "timeline\tquery\tprompt\tfound\tforbidden present")
	n := 0
	for _, q := range res.Queries {
		gt := required[q.Timeline][q.Query]
		if len(q.Violations) == 0 && len(q.Hits) == gt {
			continue
		}
		if n++; n <= 25 {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d/%d\t%s\n", q.Timeline, q.Query, q.Prompt, len(q.Hits), gt, strings.Join(q.Violations, ", "))
		}
	}
	tw.Flush()
	if n > 0 {
		t.Logf("%d queries missed a required phrase or carried a forbidden one; the first %d:\n%s", n, min(n, 25), b.String())
	}
}

// BenchmarkRecordTurn10kFacts records user turns of our long conversations,
// one per op, over GraphQL on a real server whose partition already holds
// 10,000 facts (issue 12, point 10: recordTurn p50 <= 2 ms). It reports the
// median latency of one recordTurn as p50-ms; compare runs with benchstat.
func BenchmarkRecordTurn10kFacts(b *testing.B) {
	env := apitest.New(b)
	tok := apitest.Token(b, apitest.Identity("bench-turns", "u1"))
	const facts, batch = 10_000, 1_000
	for i := 0; i < facts; i += batch {
		in := make([]map[string]any, batch)
		for j := range in {
			n := i + j
			in[j] = map[string]any{"key": fmt.Sprintf("item_%d_owner", n), "value": fmt.Sprintf("person %d owns item %d in project %d", n%97, n, n%13)}
		}
		var out struct{ WriteFacts []struct{ ID string } }
		env.MustDo(b, tok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": in}, &out)
	}
	var turns []string
	for _, tl := range conversations(b, "long.jsonl")[:1] {
		for _, e := range tl.Events {
			if e.Kind == statebench.KindTurn && e.Speaker == "user" {
				turns = append(turns, string(e.Text))
			}
		}
	}
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		env.Clock.Advance(time.Second)
		start := time.Now()
		resp := env.Do(b, tok, opRecordTurn, map[string]any{"in": map[string]any{"sessionId": "bench", "speaker": "USER", "text": turns[i%len(turns)]}})
		took = append(took, time.Since(start))
		if len(resp.Errors) > 0 {
			b.Fatalf("recordTurn: %s", resp.Raw)
		}
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}
