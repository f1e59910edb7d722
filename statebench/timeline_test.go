package statebench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dataDir holds the real StateBench splits (MIT, Parslee LLC; see its
// LICENSE).
const dataDir = "../testdata/statebench"

// loadSplit loads a real split.
func loadSplit(t testing.TB, name string) []Timeline {
	t.Helper()
	path := filepath.Join(dataDir, name)
	ts, err := LoadFile(path)
	if err != nil {
		t.Fatalf("LoadFile(%s): %v", name, err)
	}
	return ts
}

func TestLoadRealSplits(t *testing.T) {
	for _, tc := range []struct {
		file string
		want int
	}{
		{"train.jsonl", 839},
		{"dev.jsonl", 209},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ts := loadSplit(t, tc.file)
			if len(ts) != tc.want {
				t.Fatalf("got %d timelines, want %d", len(ts), tc.want)
			}
			for _, tl := range ts {
				if tl.ID == "" || tl.Track == "" {
					t.Errorf("timeline without id or track: %+v", tl.Actors)
				}
				if tl.InitialState.Environment["now"] == "" {
					t.Errorf("%s: environment has no now", tl.ID)
				}
				for i, e := range tl.Events {
					if err := checkEvent(e); err != nil {
						t.Errorf("%s event %d: %v", tl.ID, i, err)
					}
				}
			}
		})
	}
}

// checkEvent reports an event that did not decode into a usable shape.
func checkEvent(e Event) error {
	if e.TS.IsZero() {
		return errors.New("no timestamp")
	}
	switch e.Kind {
	case KindTurn:
		if e.Text == "" || e.Speaker == "" {
			return errors.New("turn without text or speaker")
		}
	case KindStateWrite, KindSupersession:
		if len(e.Writes) == 0 {
			return errors.New("write event without writes")
		}
		for _, w := range e.Writes {
			if w.Key == "" || w.Layer == "" {
				return errors.New("write without key or layer")
			}
		}
	case KindQuery:
		// Some queries have empty phrase lists (their decision is free text).
		if e.Prompt == "" || e.GroundTruth.Decision == "" {
			return errors.New("query without prompt or decision")
		}
	default:
		return errors.New("unknown kind " + string(e.Kind))
	}
	return nil
}

func TestLoadTolerant(t *testing.T) {
	const line = `{"id":"X-1","track":"supersession","actors":null,
	"initial_state":{"identity_role":{"user_name":"Ann","authority":null},
	  "persistent_facts":[{"id":"F1","key":"budget","value":150000,"source":{"type":"user","identity":null,"authority":"peer"},"ts":"2025-11-27T16:00:00","is_valid":null,"depends_on":null}],
	  "working_set":[{"item_type":"context","content":"x","ts":"2025-11-27T16:00:00Z","priority":0}],
	  "environment":{"now":"2025-11-27T16:00:00","flag":true}},
	"events":[
	  {"ts":"2025-11-27T16:01:00","type":"conversation_turn","speaker":"user","text":"Make that $150,000.","implicit_supersession":{"of":"F1"}},
	  {"ts":"2025-11-27T16:02:00+01:00","type":"supersession","writes":[{"id":"W-AUTO","layer":"persistent_facts","key":"budget","value":["a",1],"supersedes":"budget"}]},
	  {"ts":null,"type":"query","prompt":"Budget?","ground_truth":{"must_mention":["$150,000",15],"must_not_mention":null}}]}`
	oneLine := strings.NewReplacer("\n", "", "\t", "").Replace(line)
	ts, err := Load(strings.NewReader("\n" + oneLine + "\n\n"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(ts) != 1 {
		t.Fatalf("got %d timelines, want 1", len(ts))
	}
	tl := ts[0]
	f := tl.InitialState.PersistentFacts[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"numeric value", f.Value, Text("150000")},
		{"null is_valid means valid", f.Valid(), true},
		{"zone-less ts is UTC", f.TS, time.Date(2025, 11, 27, 16, 0, 0, 0, time.UTC)},
		{"bool env", tl.InitialState.Environment["flag"], Text("true")},
		{"null authority", tl.InitialState.IdentityRole.Authority, Text("")},
		{"object as text", tl.Events[0].ImplicitSupersession, Text(`{"of":"F1"}`)},
		{"zone converted to UTC", tl.Events[1].TS, time.Date(2025, 11, 27, 15, 2, 0, 0, time.UTC)},
		{"array value", tl.Events[1].Writes[0].Value, Text(`["a",1]`)},
		{"null ts", tl.Events[2].TS.IsZero(), true},
		{"numeric phrase", tl.Events[2].GroundTruth.MustMention[1], Text("15")},
		{"kind", tl.Events[2].Kind, KindQuery},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantLine int
		wantIs   error
	}{
		{"bad json", `{"id":"a"}` + "\n" + `{"id":`, 2, nil},
		{"bad timestamp", "\n\n" + `{"id":"a","events":[{"type":"query","ts":"yesterday"}]}`, 3, ErrTimestamp},
		{"wrong type", `{"id":"a","events":{}}`, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(tc.in))
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("got error %v, want a *LineError", err)
			}
			if le.Line != tc.wantLine {
				t.Errorf("got line %d, want %d", le.Line, tc.wantLine)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("got %v, want it to wrap %v", err, tc.wantIs)
			}
		})
	}
}

func TestLoadFileMissing(t *testing.T) {
	_, err := LoadFile(filepath.Join(t.TempDir(), "none.jsonl"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want os.ErrNotExist", err)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add(`{"id":"a","events":[{"type":"query","ts":"2025-11-27T16:00:00"}]}`)
	f.Add(`{"initial_state":{"persistent_facts":[{"value":1.5,"ts":null}]}}`)
	f.Add("\n\n{}\n")
	f.Fuzz(func(t *testing.T, in string) {
		ts, err := Load(strings.NewReader(in))
		var le *LineError
		if err != nil && !errors.As(err, &le) {
			t.Fatalf("error is not a *LineError: %v", err)
		}
		if err == nil && len(ts) > strings.Count(in, "\n")+1 {
			t.Fatalf("got %d timelines from %d lines", len(ts), strings.Count(in, "\n")+1)
		}
	})
}
