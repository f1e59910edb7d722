package assemble_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/assemble"
)

// TestBuildEvidence: evidence fills what facts and the working set leave,
// best first, rendered in the order said with its date and speaker, in
// its own section before the recent conversation; what does not fit is
// OVER_BUDGET, and the budget holds.
func TestBuildEvidence(t *testing.T) {
	c := newCounter(t)
	day := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	var ev []assemble.Evidence
	for i := range 40 {
		ev = append(ev, assemble.Evidence{
			ID: fmt.Sprintf("T-%02d#%d", i/4, i%4), Speaker: []string{"USER", "ASSISTANT"}[i%2],
			Text: fmt.Sprintf("Sentence %d said about the vendor contract renewal terms.", i),
			At:   day.Add(time.Duration(i/4) * time.Hour), Score: float64(i % 7),
		})
	}
	in := assemble.Input{
		Budget: 400, Identity: identity(), Environment: env(),
		Facts:    []assemble.Fact{{ID: "F1", Key: "vendor", Value: "Acme", Score: 3}},
		Turns:    []assemble.Turn{{ID: "T-99", Speaker: "USER", Text: "The renewal is due soon.", At: day.Add(48 * time.Hour), Score: 1}},
		Evidence: ev,
	}
	o := assemble.Build(in, c)
	if o.Tokens > in.Budget || o.Tokens != c.Count(o.Text) {
		t.Fatalf("tokens %d, budget %d, count %d", o.Tokens, in.Budget, c.Count(o.Text))
	}
	var titles []string
	for _, s := range o.Sections {
		titles = append(titles, s.Title)
	}
	if got := strings.Join(titles, "|"); got != "Identity|Environment|Facts|Earlier in the conversation|Recent conversation" {
		t.Errorf("sections = %s", got)
	}
	body, _ := section(o, "Earlier in the conversation")
	lines := strings.Split(body, "\n")
	if !strings.HasPrefix(lines[0], "- 2026-03-02 ") {
		t.Errorf("evidence line without its date: %q", lines[0])
	}
	// Packed best first: every included sentence scores at least as much
	// as every excluded one.
	minIn, maxOut := 1e9, -1.0
	n := 0
	for _, e := range ev {
		if inc, ok := included(o, assemble.KindEvidence, e.ID); ok {
			n++
			minIn = min(minIn, inc.Score)
			if !strings.Contains(body, e.Text) {
				t.Errorf("included %s is not in the section", e.ID)
			}
		} else if excluded(o, assemble.KindEvidence, e.ID, assemble.ReasonOverBudget) {
			maxOut = max(maxOut, e.Score)
		} else {
			t.Errorf("%s neither included nor OVER_BUDGET", e.ID)
		}
	}
	if n == 0 || n == len(ev) || len(lines) != n {
		t.Fatalf("%d of %d sentences included (%d lines); the budget should hold some", n, len(ev), len(lines))
	}
	if minIn < maxOut {
		t.Errorf("a sentence scoring %.0f was left out while one scoring %.0f is in", maxOut, minIn)
	}
	// Rendered in the order said.
	last := ""
	for _, l := range lines {
		var i int
		if _, err := fmt.Sscanf(l[strings.Index(l, "Sentence"):], "Sentence %d", &i); err != nil {
			t.Fatal(err)
		}
		cur := fmt.Sprintf("%03d", i)
		if cur < last {
			t.Errorf("evidence not in the order said:\n%s", body)
			break
		}
		last = cur
	}
	// Facts and the turn come before evidence in the allocation.
	if _, ok := included(o, assemble.KindFact, "F1"); !ok {
		t.Error("the fact was displaced by evidence")
	}
	if _, ok := included(o, assemble.KindTurn, "T-99"); !ok {
		t.Error("the recent turn was displaced by evidence")
	}
}
