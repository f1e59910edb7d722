package detect

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// TestReadTurnThenCompare: a turn read ahead (ReadTurn) and compared with
// the records later answers as Analyze does, compared once, twice or from
// several goroutines at once (Compare changes nothing of the Reading).
func TestReadTurnThenCompare(t *testing.T) {
	known := []Record{
		fact("F-SHIP", "shipping_location", "Denver", "peer"),
		fact("F-BUDGET", "approved_budget", "$75,000 (manager approved)", "manager"),
		fact("F-MEET", "meeting_day", "Tuesday", "peer"),
		turnRec("T1", "Please ship the crates to Denver."),
	}
	for _, text := range []string{
		"Actually, ship them to Boston instead of Denver.",
		"The approved budget is now $90,000.",
		"[CEO] We must not exceed $80,000; the meeting moved to Thursday.",
		"Hypothetically, what if we shipped to Austin?",
		"Can you summarize where we are?",
		"",
	} {
		turn := Turn{Text: text, Authority: "peer", At: t0.Add(time.Hour)}
		want := Analyze(turn, known, DefaultOptions())
		r := ReadTurn(turn, DefaultOptions())
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got := r.Compare(known); !reflect.DeepEqual(got, want) {
					t.Errorf("%q: Compare = %+v, want Analyze's %+v", text, got, want)
				}
			}()
		}
		wg.Wait()
		if got := r.Compare(known); got.Constraint != nil && got.Constraint == r.Compare(known).Constraint {
			t.Errorf("%q: two results share a constraint", text)
		}
	}
}
