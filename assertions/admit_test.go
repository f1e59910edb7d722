package assertions

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/temporal"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func valid() Input {
	return Input{
		Subject: "Entity#1", Predicate: "location", Object: json.RawMessage(`"Room#1"`), Context: "c",
		EpistemicStatus: Inference, Validity: &Validity{Mode: UntilChanged}, Provenance: &Provenance{},
	}
}

func TestAdmit(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Input)
		rule string // "" means admitted
	}{
		{"valid", func(*Input) {}, ""},
		{"null object", func(in *Input) { in.Object = json.RawMessage("null") }, RuleRequired},
		{"until time at max lease", func(in *Input) { in.Validity = &Validity{Mode: UntilTime, ExpiresAt: ptr(t0.Add(DefaultMaxLease))} }, ""},
		{"until time past max lease", func(in *Input) {
			in.Validity = &Validity{Mode: UntilTime, ExpiresAt: ptr(t0.Add(DefaultMaxLease + time.Second))}
		}, RuleLease},
		{"until time now", func(in *Input) { in.Validity = &Validity{Mode: UntilTime, ExpiresAt: ptr(t0)} }, RuleLease},
		{"forever", func(in *Input) { in.Validity = &Validity{Mode: "FOREVER"} }, RuleLease},
		{"until event blank", func(in *Input) { in.Validity = &Validity{Mode: UntilEvent, UntilEvent: " "} }, RuleLease},
		{"untilEvent with until changed", func(in *Input) { in.Validity = &Validity{Mode: UntilChanged, UntilEvent: "e"} }, RuleLease},
		{"observed perception, refs", func(in *Input) {
			in.EpistemicStatus, in.Provenance.Method, in.Refs = Perception, "Observed", []Ref{{Kind: "k", Locator: "l"}}
		}, ""},
		{"observed perception, no refs", func(in *Input) { in.EpistemicStatus, in.Provenance.Method = Perception, " observed " }, RulePerception},
		{"told perception, no refs", func(in *Input) { in.EpistemicStatus, in.Provenance.Method = Perception, "told" }, ""},
		{"observed inference, no refs", func(in *Input) { in.Provenance.Method = "observed" }, ""},
		{"unknown epistemic status", func(in *Input) { in.EpistemicStatus = "GUESS" }, ruleWellFormed},
		{"ref without locator", func(in *Input) { in.Refs = []Ref{{Kind: "k"}} }, ruleWellFormed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			tc.edit(&in)
			err := admit(&in, t0, DefaultMaxLease)
			switch {
			case tc.rule == "" && err != nil:
				t.Fatalf("got %v, want admitted", err)
			case tc.rule != "" && (err == nil || !strings.Contains(err.Error(), "admission rule "+tc.rule)):
				t.Fatalf("got %v, want rule %s", err, tc.rule)
			}
		})
	}
}

func TestLeaseIn(t *testing.T) {
	exp := t0.Add(time.Hour)
	ended := t0.Add(2 * time.Hour)
	cases := []struct {
		name   string
		a      Assertion
		v      temporal.View
		now    time.Time
		want   Status
		absent bool
	}{
		{"until time before expiry", Assertion{Validity: Validity{Mode: UntilTime, ExpiresAt: &exp}}, temporal.View{}, exp.Add(-time.Nanosecond), Active, false},
		{"until time at expiry", Assertion{Validity: Validity{Mode: UntilTime, ExpiresAt: &exp}}, temporal.View{}, exp, Expired, false},
		{"until time as of before expiry", Assertion{Validity: Validity{Mode: UntilTime, ExpiresAt: &exp}}, temporal.View{AsOf: &t0}, ended, Active, false},
		{"until time without time", Assertion{Validity: Validity{Mode: UntilTime}}, temporal.View{}, t0, Expired, false},
		{"unknown mode", Assertion{Validity: Validity{Mode: "FOREVER"}}, temporal.View{}, t0, Expired, false},
		{"until event without event", Assertion{Validity: Validity{Mode: UntilEvent}}, temporal.View{}, t0, Expired, false},
		{"until event", Assertion{Validity: Validity{Mode: UntilEvent, UntilEvent: "e"}}, temporal.View{}, ended, Active, false},
		{"until changed", Assertion{Validity: Validity{Mode: UntilChanged}}, temporal.View{}, ended.Add(1000 * time.Hour), Active, false},
		{"revoked, known", Assertion{Status: Revoked, EndedAt: &ended, RevokedBy: "ST-x", Validity: Validity{Mode: UntilChanged}}, temporal.View{}, ended, Revoked, false},
		{"revoked, not known yet", Assertion{Status: Revoked, EndedAt: &ended, RevokedBy: "ST-x", Validity: Validity{Mode: UntilChanged}}, temporal.View{KnownAt: &exp}, ended, Active, false},
		{"not created yet", Assertion{CreatedAt: exp, Validity: Validity{Mode: UntilChanged}}, temporal.View{AsOf: &t0}, ended, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.a.CreatedAt.IsZero() {
				tc.a.CreatedAt = t0
			}
			if tc.a.Status == "" {
				tc.a.Status = Active
			}
			got, ok := tc.a.In(tc.v, tc.now)
			if ok == tc.absent {
				t.Fatalf("ok = %v, want %v", ok, !tc.absent)
			}
			if ok && got.Status != tc.want {
				t.Fatalf("status = %s, want %s", got.Status, tc.want)
			}
			if ok && got.Status == Active && (got.EndedAt != nil || got.RevokedBy != "") {
				t.Errorf("an active view keeps its end: %+v", got)
			}
		})
	}
}

func TestVolatile(t *testing.T) {
	v, err := NewVolatile([]string{"location", "status", "availability", "current_*", "last_known_*"})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{
		"location": true, "Status": true, "user.availability": true, "current_task": true, "Entity#1:last_known_city": true,
		"user/current_mood": true, "name": false, "location_history": false, "statusquo": false, "user.name": false,
	} {
		if got := v.Match(key); got != want {
			t.Errorf("Match(%q) = %v, want %v", key, got, want)
		}
	}
	for _, bad := range [][]string{{""}, {"*"}, {"a*b"}, {"*a"}} {
		if _, err := NewVolatile(bad); err == nil {
			t.Errorf("NewVolatile(%q) accepted", bad)
		}
	}
	// By default no key is refused for its name alone.
	def, err := NewVolatile(DefaultVolatile)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"location", "current_address", "user.status", "now_playing", "last_known_city"} {
		if def.Match(key) {
			t.Errorf("default Match(%q) = true, want false", key)
		}
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"Entity#42", "Room#7", "#", "a#", "Entity#", "x#y#z", "Entity#42.location", ""} {
		f.Add(s, "Entity#42 is in Room#7")
	}
	f.Fuzz(func(t *testing.T, s, text string) {
		typ, id, ok := ParseRef(s)
		if ok && typ+"#"+id != s {
			t.Fatalf("ParseRef(%q) = %q, %q: does not round-trip", s, typ, id)
		}
		if ok {
			b, _ := json.Marshal(s)
			if got, ok := ObjectRef(b); !ok || got != s {
				t.Fatalf("ObjectRef(%s) = %q, %v", b, got, ok)
			}
		}
		if Mentions(text, s) && !strings.Contains(text, s) {
			t.Fatalf("Mentions(%q, %q) without the text containing it", text, s)
		}
		if s != "" && Mentions(s, s) != true {
			t.Fatalf("Mentions(%q, itself) = false", s)
		}
	})
}
