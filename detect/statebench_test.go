package detect

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/statebench"
)

// tally counts detections on one class of turns.
type tally struct{ turns, detected, blocked int }

func (t tally) rate() float64 {
	if t.turns == 0 {
		return 0
	}
	return float64(t.detected) / float64(t.turns)
}

func (t tally) String() string {
	return fmt.Sprintf("%d/%d = %.1f%% (blocked %d)", t.detected, t.turns, 100*t.rate(), t.blocked)
}

// evaluation is the outcome of replaying timelines through Analyze.
type evaluation struct {
	positive, negative, after tally
	byTrack                   map[string]*[2]tally // positives, negatives
	stale, staleTotal         int                  // stale writes recognised / stale writes
	freshFlagged, freshTotal  int                  // fresh writes wrongly flagged / fresh writes
	misses, falses            []string
}

// evaluate replays each timeline in file order. Facts are the initial ones
// plus earlier writes, applied naively (supersedes by id or key); known turns
// are the last ten. A turn is positive when the next event is a supersession
// write, or, in implicit-detection timelines, when it is the last user turn
// or names the value of a supersession write; a turn right after a
// supersession write is excluded (the write already recorded the change).
func evaluate(ts []statebench.Timeline) evaluation {
	ev := evaluation{byTrack: map[string]*[2]tally{}}
	for _, tl := range ts {
		var facts, turns []Record
		for _, f := range tl.InitialState.PersistentFacts {
			if f.Valid() {
				facts = append(facts, Record{ID: f.ID, Kind: RecordFact, Key: f.Key, Value: string(f.Value), Authority: string(f.Source.Authority), At: f.TS})
			}
		}
		implicit := tl.DetectionMode == "implicit"
		lastUser := -1
		var supValues []string
		for i, e := range tl.Events {
			if e.Kind == statebench.KindTurn && e.Speaker == "user" {
				lastUser = i
			}
			if e.Kind == statebench.KindSupersession {
				for _, w := range e.Writes {
					supValues = append(supValues, string(w.Value))
				}
			}
		}
		var staleVals []string
		for _, e := range tl.Events {
			if e.Kind == statebench.KindQuery {
				for _, p := range e.GroundTruth.MustNotMention {
					staleVals = append(staleVals, string(p))
				}
			}
		}
		bt := ev.byTrack[tl.Track]
		if bt == nil {
			bt = new([2]tally)
			ev.byTrack[tl.Track] = bt
		}
		var changes []Change
		for i, e := range tl.Events {
			switch e.Kind {
			case statebench.KindTurn:
				pos := i+1 < len(tl.Events) && tl.Events[i+1].Kind == statebench.KindSupersession
				if implicit && e.Speaker == "user" {
					pos = pos || i == lastUser
					for _, v := range supValues {
						pos = pos || statebench.Contains(string(e.Text), v)
					}
				}
				after := i > 0 && tl.Events[i-1].Kind == statebench.KindSupersession
				known := append(append([]Record(nil), facts...), turns...)
				res := Analyze(Turn{Text: string(e.Text), Speaker: string(e.Speaker), Authority: string(tl.InitialState.IdentityRole.Authority), At: e.TS}, known, DefaultOptions())
				found, blocked := len(res.Detections) > 0, false
				for _, d := range res.Detections {
					blocked = blocked || d.Blocked
					if !d.Blocked {
						changes = append(changes, d.Change(e.TS))
					}
				}
				count := func(t *tally) {
					t.turns++
					if found {
						t.detected++
					}
					if blocked {
						t.blocked++
					}
				}
				line := fmt.Sprintf("%s [%s] %s: %q → %s", tl.ID, tl.Track, e.Speaker, e.Text, describe(res))
				switch {
				case pos:
					count(&ev.positive)
					count(&bt[0])
					if !found {
						ev.misses = append(ev.misses, line)
					}
				case after:
					count(&ev.after)
				default:
					count(&ev.negative)
					count(&bt[1])
					if found {
						ev.falses = append(ev.falses, line)
					}
				}
				turns = append(turns, Record{ID: fmt.Sprintf("T%d", i), Kind: RecordTurn, Value: string(e.Text), At: e.TS})
				if len(turns) > 10 {
					turns = turns[1:]
				}
			case statebench.KindStateWrite, statebench.KindSupersession:
				for _, w := range e.Writes {
					if w.Layer != statebench.LayerFacts {
						continue
					}
					rec := Record{ID: w.ID, Kind: RecordFact, Key: w.Key, Value: string(w.Value), Authority: string(w.Source.Authority), At: e.TS}
					if implicit && e.Kind == statebench.KindStateWrite {
						isStale := false
						for _, p := range staleVals {
							isStale = isStale || statebench.Contains(rec.Value, p)
						}
						got := Stale(rec, changes)
						if isStale {
							ev.staleTotal++
							if got {
								ev.stale++
							}
						} else {
							ev.freshTotal++
							if got {
								ev.freshFlagged++
							}
						}
					}
					if w.Supersedes != "" {
						for j, f := range facts {
							if f.ID == string(w.Supersedes) || f.Key == string(w.Supersedes) {
								facts = append(facts[:j], facts[j+1:]...)
								break
							}
						}
					}
					facts = append(facts, rec)
				}
			}
		}
	}
	return ev
}

func describe(r Result) string {
	if len(r.Detections) == 0 {
		return "none (" + string(r.Scope) + ")"
	}
	var parts []string
	for _, d := range r.Detections {
		parts = append(parts, fmt.Sprintf("%s %v cue=%q %q→%q conf=%.2f blocked=%v", d.Kind, d.Superseded, d.Cue, d.Previous, d.Replacement, d.Confidence, d.Blocked))
	}
	return strings.Join(parts, " | ")
}

// TestStateBenchDetection replays the train and dev splits and logs recall
// on supersession turns, the false-positive rate on other turns, and how
// many stale writes Stale recognises. Run with -v to see the figures; set
// DETECT_DUMP=1 to list misses and false positives.
func TestStateBenchDetection(t *testing.T) {
	for _, split := range []string{"train.jsonl", "dev.jsonl"} {
		t.Run(split, func(t *testing.T) {
			path := filepath.Join("../testdata/statebench", split)
			ts, err := statebench.LoadFile(path)
			if err != nil {
				t.Fatalf("LoadFile: %v", err)
			}
			ev := evaluate(ts)
			t.Logf("supersession turns detected: %v", ev.positive)
			t.Logf("other turns flagged (false positives): %v", ev.negative)
			t.Logf("turns right after a supersession write, flagged: %v", ev.after)
			t.Logf("stale writes recognised: %d/%d; fresh writes wrongly flagged: %d/%d", ev.stale, ev.staleTotal, ev.freshFlagged, ev.freshTotal)
			var names []string
			for n := range ev.byTrack {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				bt := ev.byTrack[n]
				t.Logf("  %-26s positives %-28v negatives %v", n, bt[0], bt[1])
			}
			if os.Getenv("DETECT_DUMP") != "" {
				for _, m := range ev.misses {
					t.Logf("MISS %s", m)
				}
				for _, f := range ev.falses {
					t.Logf("FP   %s", f)
				}
			}
			if ev.positive.turns == 0 || ev.negative.turns == 0 {
				t.Fatalf("no labelled turns: %+v", ev)
			}
		})
	}
}
