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
	env.Clock.Advance(time.Minute)
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
	sentenceRecallFloor  = 0.64 // 2,012 of 3,116 (64.6 %) at the end of the twelfth session (2026-11-28), since the 160 rows sd to sg, written blind in a last round (restaurant with two locations, dementia caregiver, team lead in Slack shorthand, holiday-let host) and played once before any rule for it: 35 of 80 then, 1 false (fixed) and 8 wrong values (2 fixed; the 6 that hold a clause or more count as misses); 36 when added; before them 1,976 of 3,036 (65.1 %) since the 160 rows rz to sc, written blind in a round of four personas chosen to test precision (one who talks of others' changes, a head of several teams, one weighing options aloud, the assistant's side) and played once before any rule for it: 51 of 80 then, 1 false and 1 wrong value, fixed; 51 when added; before them 1,925 of 2,956 with that session's rules, and 1,921 (65.0 %) since the 160 rows rv to ry, written blind in a last round of four personas and played once before any rule for it (hygienist and bookkeeper, son abroad in British English, startup office manager, marathon coach: 32 of 80 then, 5 false and 1 wrong value, all fixed; 34 when added); before them 1,887 of 2,876 (65.6 %) since the 478 rows ri to ru, written blind in three more rounds of four personas each and each round played once before any rule for it (property manager, new parent typing one-handed, sales manager, Australian retiree: 32 of 80 then, 3 false, 2 wrong values; drama teacher, meal-prep cook, open-source maintainer, cross-country move: 44 of 80, 0 false, 2 wrong values; truck driver dictating, Indian-English PhD student, board secretary, streamer: 45 of 80, 2 false, 1 wrong value; 121 of 240 (50 %) then, 5 false, all fixed; 130 of 239 (54 %) when added, 0 false; rqc20 and rqn20 were left out, their stored value "in transit" being short-lived state that writeFact refuses); before them 1,757 of 2,637 with that session's rules, and 1,749 (66.3 %) when the 320 rows ra to rh were added, written blind in two rounds of four personas each and each round played once before any rule for it (food truck, retired librarian, college texting, German translator: 40 of 80 then, 4 false; landscaping, allergy parent, DJ, HR officer: 46 of 80, 2 false; 86 of 160 (54 %) then, 6 false, all fixed; 95 (59 %) when added, 0 false); before them 1,654 of 2,477 with that session's rules, and 1,649 (66.6 %) at the end of the eleventh session (2026-11-28), since the 1,196 rows zr to zy and qa to qy, written blind in eight rounds of four personas each and each round played once before any rule for it (chef, elder care, photographer, wedding: 31 of 80 then, 3 false; landlord, teacher, runner, the assistant's own reports: 38, 3 false; consultant, grandparent, founder, co-parenting partner: 24, 4 false; nurse, pet sitter, home buyer, bilingual: 38, 1 false; graduate student, electrician, venue manager, short replies: 41, 2 false; farmer, IT admin, co-parent, family reunion: 36, 2 false; music teacher, a parent's move, engineer, office manager: 43, 4 false; front of house, knee surgery, beekeeper, family members: 39, 4 false (played after the first 28 tables were added: 1,607 of 2,397 then); 290 of 640 (45 %) then, 23 false, all fixed; 329 (51 %) when added, 0 false; zrc20, zrn20, qnc06 and qnn06 were left out, their stored value being short-lived state that writeFact refuses); before them 1,319 of 1,839 (71.7 %) with that session's rules, and 1,301 (70.7 %) at the end of the tenth session (2026-11-28), since the 638 rows zb to zq, written blind in four rounds of four personas each and each round played once before any rule for it (bookkeeper, dog owner and bassist, site manager, student: 29 of 80 then, 1 false; facilities manager, kitchen renovation, online shop, voice dictation: 35 of 80, 1 false; patient, team lead in shorthand, parent of teens, corrections: 37 of 80, 2 false; rideshare driver, workshop organiser, volunteer coordinator, British English: 45 of 80, 1 false; 146 of 320 (46 %) then, 183 (57 %) when added, 0 false; zhc20 and zhn20 were left out, their stored value being short-lived state that writeFact refuses); before them 1,118 of 1,520 (73.6 %) with that session's rules, and 1,104 (72.6 %) when the rows yx, yy, yz and za were added, written blind at the end of the ninth session of 2026-11-27 after all its rules (yx, parent: 6 of 20 changes caught when first played, 1 false ("aunt carol just moved to 900 lake shore dr, grandma says she's never leaving elm st"); 7 now; yy, founder: 9; 10; yz, retiree: 9, 1 false ("Just this coming Sunday the service is at 9 …; after that it goes back to half past ten"); 10; za, travel: 7 and a wrong value ("2" of "extended … by two nights, so 6 nights total"); 9: 31 of 80 (39 %) then, 2 false; 36 now, 0 false); before them 1,070 of 1,440 (74.3 %; lower than before: 280 more rows written blind) since the rows yj to yw of the ninth session of 2026-11-27, written blind by helpers in personas of their own and each round played before any rule for it (yj, nurse: 6 of 20 changes caught when first played, 2 false; 8 now; yk, landlord: 7, 1 false; 11; yl, sales chat: 10, 2 false; 11; ym, non-native speaker: 3; 12; yn, assistant's actions: 5; 8; yo, coach: 6, 1 false; 14 (these six, 37 of 120 and 6 false, before the session's rules); yp, teacher: 10; 15; yq, freelancer: 9, 1 false; 10; yr, IT operations: 8; 10; ys, caregiver: 7; 7 (these four, 34 of 80 and 1 false, after the first of the session's rules); yt, chef: 9, 2 false; 10; yu, graduate student: 9, 1 false; 9; yv, estate agent: 12; 14; yw, wedding: 11; 11 (these four, 41 of 80 and 3 false, after most of them): 112 of 280 (40 %) when first played, 10 false; 145 of 280 (52 %) when they were added, 150 at the session's end, 0 false); before them 921 of 1,160 (79.4 %; lower than before: the new rows, written blind by helpers who saw neither the rules nor the tables, are far harder than the rows written in-house) since the rows ya to yi of the eighth session of 2026-11-27 (ya, terse professional: 11 of 20 changes caught when first played, 1 false ("HR asked to move my quarterly review to Dec 19. Said no, the 12th stands."); 15 now; yb, chatty parent: 2 of 20; 10 now; yc, engineer: 9 of 20, 1 false ("we're scoping the Postgres 16 upgrade for Q2, prod stays on 13 until then"); 11 now; yd, mixed: 9 of 20; 11 now; ye, long two-clause messages: 7 of 20, 1 false ("… I've been poking around at grad students like this Devon Park …"); 10 now; yf, small-business owner: 1 of 20, 1 false ("Hit 43k in sales last month, above target for once."); 4 now; yg, retiree: 1 of 20 and a wrong value ("the 18th of March, same hour"); 4 now; yh, graduate student: 3 of 20 and a date written "2026-09-19 (2026-09-19)"; 7 now; yi, traveller and event planner: 6 of 20; 9 now: 49 of 180 (27 %) when first played, 4 false; 81 of 180 (45 %) now, 0 false); before them 835 of 980 (85.2 %) since the rows xx, yy, zz, xa, xb, xc, xd, xe and xf, written in the seventh session of 2026-11-27 before its rules (xx: 17 of 20 changes caught then, 1 false ("The unit upstairs rents for $2,400"); 20 now; yy, more colloquial: 13 of 20, 2 false ("I interviewed with the Growth team but decided to stay on Payments", "The bank's advertising 5.9% for new customers"); 18 now; zz: 15 of 20, 0 false; 19 now; xa: 8 of 20, 0 false, but a wrong value stored by detection ("the 5th floor over the weekend") and a junk fact ("up.amount") written by extraction, both fixed, and 1 false on the way ("The 5th floor has the nicer kitchen"), fixed; 13 now; xb: 11 of 20, 1 false ("Omar is leading the team while Priya is on vacation next week") and 1 wrong value ("Tuesdays" of "Tuesdays and Fridays"); 18 now; xc: 11 of 20, 0 false, 1 wrong value (a whole clause, "Deploys go out on Tuesdays"), and 1 false on the way ("Worst case the budget drops to $40k"), fixed; 15 now; xd, written after sentences_heldout11.tsv: 11 of 20, 2 false ("Pickup is 2:45pm on Friday for the half day", "Tom mentors the new interns"); 13 now; xe: 10 of 20, 1 false ("New hires in Europe get 20 PTO days"); 11 now; xf, written after sentences_heldout12.tsv: 15 of 20, 1 false ("The fall cohort has 30 students"); 16 now); before them 689 of 800 since the rows jj to ww, written in the sixth session of 2026-11-27 before its rules (jj: 15 of 20 changes caught then, 0 false; 20 now; kk: 12 of 20, 2 false; 18 now; ll: 12 of 20, 1 false; 20 now; mm, chat style: 10 of 20, 0 false, 1 false on the way, fixed; 18 now; nn, business: 12 of 20, 0 false; 18 now; oo, deltas and corrections: 9 of 20, 1 false and 2 wrong values (a bare "week", "the 7th floor"); 19 now; pp, long narrative sentences: 11 of 20, 1 false and 1 wrong value ("it's my favorite now."); 16 now; qq, health, home and ops: 13 of 20, 1 false; 16 now; rr, key styles and the assistant's own actions: 14 of 20, 3 false; 18 now; ss, measures and kinds: 10 of 20, 2 false and 2 wrong values (a bare "3" for "3 liters", "8" of "8-6"), 1 false on the way ("My work laptop runs Linux"), fixed; 16 now; tt, corrections and chat: 12 of 20, 0 false, 1 wrong value ("Ordering Counter Culture"); 14 now; uu, written after sentences_heldout10.tsv: 14 of 20, 1 false ("The client is asking for 99.9% uptime"); 15 now; vv: 11 of 20, 4 false ("Kofi is leading design at his new company", "Tariq mentors a lot of junior engineers", "School starts at 8:45am tomorrow for the late start", "Therapy is Friday this week") and 1 wrong value ("Leo's"); 15 now; ww, status and ownership: 14 of 20, 4 false (another owner's or another thing of the kind: "for a different client", "the marketing team's budget", "another deck", "our other bank"); 14 now); before them 437 of 520 since the rows cc, dd, ee, ff, gg, hh and ii (lower than before: hh and ii are the hardest rounds yet), written in the fifth session of 2026-11-27 before its rules (cc: 14 of 20 changes caught then, 2 false; 18 now; dd: 13 of 20, 1 false; 19 now; ee: 7 of 20, 1 false; 17 now; ff: 7 of 20, 0 false, 1 false on the way, fixed; 15 now; gg: 8 of 20, 1 false; 14 now; hh: 4 of 20, 0 false but two values mangled by detection, 1 false on the way, fixed; 10 now; ii: 4 of 20, 0 false but two wrong values; 8 now); before them 331 of 380 since the rows a, b, e, l, o, d and bb, written in the fourth session of 2026-11-27 before its rules (a: 7 of 15 changes caught then, 1 false; b: 3 of 10; e: 5 of 15, 1 false; l: 8 of 15; o: 7 of 15, 1 false; d: 6 of 10; bb: 4 of 15, 1 false); before them 242 of 285 since the rows w, x, y, z, q, u and m (w: 18 of 40 changes caught when written; x: 17 of 30, 2 false; y: 10 of 20; z: 12 of 20; q: 7 of 15; u: 6 of 15; m: 7 of 15, 1 false)
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
