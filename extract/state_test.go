package extract

import (
	"os"
	"strings"
	"testing"
	"time"
)

// stateAt is a Monday morning.
var stateAt = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func TestStateClaims(t *testing.T) {
	endOfDay := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	endOfWeek := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	byDefault := stateAt.Add(DefaultLease)
	cases := []struct {
		sentence                   string
		subject, predicate, object string
		lease                      string
		until                      time.Time
		negated                    bool
	}{
		{"The build is red right now.", "build", "status", "red", LeaseDefault, byDefault, false},
		{"Alice is on call this week.", "Alice", "on_call", "on call", LeaseWeek, endOfWeek, false},
		{"The API is down at the moment", "API", "status", "down", LeaseDefault, byDefault, false},
		{"I'm in a meeting until 3", "I", "availability", "in a meeting", LeaseUntil, time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC), false},
		{"I’m in a meeting until 3pm.", "I", "availability", "in a meeting", LeaseUntil, time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC), false},
		{"I am in a meeting till 11:30", "I", "availability", "in a meeting", LeaseUntil, time.Date(2026, 11, 23, 11, 30, 0, 0, time.UTC), false},
		{"Bob is out of office until Thursday.", "Bob", "availability", "out of office", LeaseUntil, time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC), false},
		{"The staging cluster is down for maintenance until noon.", "staging cluster", "status", "down for maintenance", LeaseUntil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), false},
		{"Heads up: the deploy pipeline is red.", "deploy pipeline", "status", "red", LeaseDefault, byDefault, false},
		{"The API has been down since 9am.", "API", "status", "down", LeaseDefault, byDefault, false},
		{"I'm working from home today.", "I", "availability", "working from home", LeaseDay, endOfDay, false},
		{"I'm off today", "I", "state", "off", LeaseDay, endOfDay, false},
		{"Priya is in Lisbon this week.", "Priya", "location", "in Lisbon", LeaseWeek, endOfWeek, false},
		{"Our office is in Lisbon at the moment.", "Our office", "location", "in Lisbon", LeaseDefault, byDefault, false},
		{"Jonas is out sick.", "Jonas", "availability", "out sick", LeaseDefault, byDefault, false},
		{"Jonas's on call for payments this week", "Jonas", "on_call", "on call for payments", LeaseWeek, endOfWeek, false},
		{"I'll be offline for the next two hours.", "I", "status", "offline", LeaseDuration, stateAt.Add(2 * time.Hour), false},
		{"We're heads-down for half an hour", "We", "availability", "heads-down", LeaseDuration, stateAt.Add(30 * time.Minute), false},
		{"The checkout service is degraded for the rest of the day.", "checkout service", "status", "degraded", LeaseDay, endOfDay, false},
		{"Maria is presenting this afternoon.", "Maria", "activity", "presenting", LeaseDay, time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC), false},
		{"The API isn't down right now.", "API", "status", "down", LeaseDefault, byDefault, true},
		{"Alice is no longer on call", "Alice", "on_call", "on call", LeaseDefault, byDefault, true},
		{"Deploys are frozen this week.", "Deploys", "state", "frozen", LeaseWeek, endOfWeek, false},
		{"The latency is 900ms right now.", "latency", "state", "900ms", LeaseDefault, byDefault, false},
		{"Grace is the on-call engineer this week.", "Grace", "state", "the on-call engineer", LeaseWeek, endOfWeek, false},
		{"I'm in Porto until December 3.", "I", "location", "in Porto", LeaseUntil, time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), false},
		{"The payments API is unavailable until further notice.", "payments API", "status", "unavailable", LeaseChanged, time.Time{}, false},
		{"The build is red until the flaky test is fixed.", "build", "status", "red", LeaseEvent, time.Time{}, false},
		{"Tom is on leave this month.", "Tom", "availability", "on leave", LeaseMonth, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), false},
		{"It's raining right now.", "It", "activity", "raining", LeaseDefault, byDefault, false},
		{"I'm done for today.", "I", "state", "done", LeaseDay, endOfDay, false},
		{"The wifi is down again.", "wifi", "status", "down again", LeaseDefault, byDefault, false},
		{"The kids are at school until 3.", "kids", "location", "at school", LeaseUntil, time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC), false},
	}
	for _, tc := range cases {
		t.Run(tc.sentence, func(t *testing.T) {
			c, ok := State(tc.sentence, stateAt)
			if !ok {
				t.Fatalf("State(%q) = not state, want state", tc.sentence)
			}
			if c.Subject != tc.subject || c.Predicate != tc.predicate || c.Object != tc.object || c.Lease != tc.lease || !c.Until.Equal(tc.until) || c.Negated != tc.negated {
				t.Errorf("got subject %q predicate %q object %q lease %s until %s negated %v\nwant subject %q predicate %q object %q lease %s until %s negated %v",
					c.Subject, c.Predicate, c.Object, c.Lease, c.Until, c.Negated,
					tc.subject, tc.predicate, tc.object, tc.lease, tc.until, tc.negated)
			}
			if c.Cue == "" || c.Rule == "" {
				t.Errorf("claim %+v has no cue or rule", c)
			}
		})
	}
}

func TestStateRefusesFacts(t *testing.T) {
	for _, s := range []string{
		"Alice is the on-call lead for the payments team.",
		"Our office is in Lisbon.",
		"Herr Müller wrote this morning, the deadline for the manual is now pushed to January 23.",
		"Q1 roadmap's approved, the VP signed off this morning with no changes to the data section.",
		"Sam's consultant put his Concerta up to 27mg at the review, he started on it this morning.",
		"I'm at 12 Elm Row now.",
		"I currently live in Berlin.",
		"Alice is on call every other week.",
		"The service is down for maintenance every Sunday.",
		"The launch is today.",
		"The meeting is at 3 today.",
		"The deadline is this week.",
		"I'm off tomorrow.",
		"Alice will be on call next week.",
		"The build was red yesterday.",
		"The API was down this morning.",
		"Is the build red right now?",
		"If the API is down right now, page Bob.",
		"Suppose the build is red right now.",
		"Hypothetically, Alice is on call this week.",
		"Draft: the API is down at the moment.",
		"I think the API is down right now.",
		"The API might be down right now.",
		"We're going with Postgres for now.",
		"The plan is Postgres for now.",
		"Our logo is red.",
		"The budget is $40k.",
		"Lena owns the onboarding deck.",
		"Jonas is taking the onboarding deck off Lena's hands.",
		"Prices are up 5% this quarter.",
		"The widget is out of stock.",
		"Submissions are accepted until December 3.",
		"All purchases over $25k are frozen until Q2.",
		"The hiring freeze is in effect until the board approves the budget.",
		"The audit is not due this week.",
		"We're down to 3 candidates.",
		"The feature flag is off.",
		"The report is scheduled for today.",
		"The server room is down the hall.",
		"Bob is sick of meetings.",
		"The API is slow.",
		"Alice's role is staff engineer.",
		"",
		"Right now.",
		"now playing: Bohemian Rhapsody",
	} {
		t.Run(s, func(t *testing.T) {
			if c, ok := State(s, stateAt); ok {
				t.Errorf("State(%q) = %+v, want not state", s, c)
			}
		})
	}
}

// TestStateCited: a relayed state is read without its frame and names
// whom it cites.
func TestStateCited(t *testing.T) {
	for _, tc := range []struct{ sentence, subject, cited string }{
		{"Per the COO, the API is down right now.", "API", "the COO"},
		{"Ops says the payments API is degraded.", "payments API", "Ops"},
		{"The API is down right now.", "API", ""},
	} {
		c, ok := State(tc.sentence, stateAt)
		if !ok || c.Subject != tc.subject || c.Cited != tc.cited {
			t.Errorf("State(%q) = %+v, %v; want subject %q cited %q", tc.sentence, c, ok, tc.subject, tc.cited)
		}
	}
}

// TestStateOpeningSentence: only the opening sentence is read.
func TestStateOpeningSentence(t *testing.T) {
	if _, ok := State("Our office is in Lisbon. The API is down right now.", stateAt); ok {
		t.Error("a state sentence after the opening one was read")
	}
	if _, ok := State("The API is down right now. Our office is in Lisbon.", stateAt); !ok {
		t.Error("the opening state sentence was not read")
	}
}

// TestStateLeaseBounds: a bare hour is the next one after at, in at's
// location; no lease passes MaxStateLease; State is deterministic.
func TestStateLeaseBounds(t *testing.T) {
	lisbon := time.FixedZone("WET", 0)
	ny := time.FixedZone("EST", -5*3600)
	cases := []struct {
		name, sentence string
		at, want       time.Time
	}{
		{"afternoon hour", "I'm busy until 3", time.Date(2026, 11, 23, 14, 0, 0, 0, lisbon), time.Date(2026, 11, 23, 15, 0, 0, 0, lisbon)},
		{"morning hour", "I'm busy until 9", time.Date(2026, 11, 23, 8, 0, 0, 0, lisbon), time.Date(2026, 11, 23, 9, 0, 0, 0, lisbon)},
		{"hour passed", "I'm busy until 3", time.Date(2026, 11, 23, 16, 0, 0, 0, lisbon), time.Date(2026, 11, 24, 3, 0, 0, 0, lisbon)},
		{"am said", "I'm on call until 9am", time.Date(2026, 11, 23, 22, 0, 0, 0, lisbon), time.Date(2026, 11, 24, 9, 0, 0, 0, lisbon)},
		{"end of day elsewhere", "I'm off today", time.Date(2026, 11, 23, 20, 0, 0, 0, ny), time.Date(2026, 11, 24, 0, 0, 0, 0, ny)},
		{"same weekday is next week", "Bob is away until Monday", time.Date(2026, 11, 23, 9, 0, 0, 0, lisbon), time.Date(2026, 11, 30, 0, 0, 0, 0, lisbon)},
		{"end of week on Sunday", "Alice is on call this week", time.Date(2026, 11, 29, 23, 0, 0, 0, lisbon), time.Date(2026, 11, 30, 0, 0, 0, 0, lisbon)},
		{"capped", "I'm on leave for 90 days", stateAt, stateAt.Add(MaxStateLease)},
		{"end of week phrase", "Ops is on duty until the end of the week", stateAt, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := State(tc.sentence, tc.at)
			if !ok || !c.Until.Equal(tc.want) {
				t.Fatalf("State(%q, %s) = %+v, %v; want until %s", tc.sentence, tc.at, c, ok, tc.want)
			}
			again, _ := State(tc.sentence, tc.at)
			if again != c {
				t.Errorf("not deterministic: %+v then %+v", c, again)
			}
		})
	}
}

func FuzzState(f *testing.F) {
	for _, s := range []string{"The build is red right now.", "I'm in a meeting until 3", "until", "I'm until 99:99", "x is y for 9999999999 days", "’s 's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := State(s, stateAt)
		if !ok {
			return
		}
		if c.Subject == "" || c.Object == "" || c.Rule == "" || c.Lease == "" {
			t.Fatalf("State(%q) = %+v: a claim without subject, object, rule or lease", s, c)
		}
		if !c.Until.IsZero() && (!c.Until.After(stateAt) || c.Until.Sub(stateAt) > MaxStateLease) {
			t.Fatalf("State(%q) lease ends %s, outside (at, at+MaxStateLease]", s, c.Until)
		}
	})
}

func BenchmarkState(b *testing.B) {
	sentences := []string{
		"The build is red right now.", "Alice is the on-call lead for the payments team.",
		"Our office is in Lisbon.", "I'm in a meeting until 3", "value 17 of batch 3, a short sentence about the project",
		"Person 4", "$3000", "2027-05-15", "Lena owns the onboarding deck.",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		State(sentences[i%len(sentences)], stateAt)
	}
}

// TestStateHeldOut reads testdata/state_heldout.tsv, written after the
// rules: no fact may read as state (writeFact would refuse it), and at
// least 90% of the state sentences must.
func TestStateHeldOut(t *testing.T) {
	raw, err := os.ReadFile("testdata/state_heldout.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var states, caught int
	for _, line := range strings.Split(string(raw), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sentence, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		_, got := State(sentence, stateAt)
		switch want {
		case "state":
			states++
			if got {
				caught++
			} else {
				t.Logf("missed state: %q", sentence)
			}
		case "fact":
			if got {
				t.Errorf("fact read as state: %q", sentence)
			}
		default:
			t.Fatalf("bad verdict %q", want)
		}
	}
	if recall := float64(caught) / float64(states); recall < 0.9 {
		t.Errorf("state recall %.1f%% (%d of %d), want >= 90%%", 100*recall, caught, states)
	}
}

// TestDropStartMarks checks that the cue test before reStartMark never
// changes what it takes out.
func TestDropStartMarks(t *testing.T) {
	for _, s := range []string{
		"", "The project is at risk as of today", "value 3 of client 5",
		"Starting Monday the office is closed", "EFFECTIVE IMMEDIATELY we freeze hiring",
		"From today, Bob leads", "as  of today", "as of", "ſtarting tomorrow we ship",
		"the build is red, effective March 3rd", "fromage is not from", "As Of This Week",
		"starting", "café as of today", "on call starting next sprint",
	} {
		if got, want := dropStartMarks(s), reStartMark.ReplaceAllString(s, ""); got != want {
			t.Errorf("dropStartMarks(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzDropStartMarks(f *testing.F) {
	for _, s := range []string{"as of today", "ſtarting tomorrow", "From Today", "value 1 of client 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := dropStartMarks(s), reStartMark.ReplaceAllString(s, ""); got != want {
			t.Errorf("dropStartMarks(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestStateRefusals checks that the union State reads answers as the
// sets it joins, read one by one, on the held-out and test sentences.
func TestStateRefusals(t *testing.T) {
	lines := []string{"I was in a meeting", "what if the build is red", "value 3 of client 5"}
	for _, name := range []string{"state_heldout.tsv", "heldout.tsv", "sentences.tsv"} {
		raw, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(raw), "\n")...)
	}
	sets := []phraseSet{hypoSentence, hypoClause, draftCues, hearsay, pasts, statePast, stateHabitual}
	for _, line := range lines {
		sentence, _, _ := strings.Cut(line, "\t")
		n := padded(fold(sentence))
		want := false
		for _, ps := range sets {
			want = want || ps.in(n)
		}
		if got := stateRefusals.in(n); got != want {
			t.Errorf("stateRefusals.in(%q) = %v, want %v", n, got, want)
		}
	}
}
