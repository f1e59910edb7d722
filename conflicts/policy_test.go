package conflicts

import (
	"strings"
	"testing"
	"time"
)

func TestParsePolicy(t *testing.T) {
	cases := []struct {
		in, pred string
		p        Policy
		bad      bool
	}{
		{"location=latest", "location", Latest, false},
		{" status = Highest_Authority ", "status", HighestAuthority, false},
		{"mood=highest_confidence", "mood", HighestConfidence, false},
		{"location", "", "", true},
		{"=latest", "", "", true},
		{"location=", "", "", true},
		{"location=oldest", "", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			pred, p, err := ParsePolicy(tc.in)
			if (err != nil) != tc.bad || pred != tc.pred || p != tc.p {
				t.Fatalf("ParsePolicy(%q) = %q, %q, %v", tc.in, pred, p, err)
			}
		})
	}
	if _, err := ParsePolicies([]string{"a=latest", "a=highest_confidence"}); err == nil {
		t.Error("a predicate configured twice was accepted")
	}
}

func TestSelect(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cs := []Contender{
		{ID: "a", At: t0, Rank: 5, Confidence: 0.9},
		{ID: "b", At: t0.Add(time.Minute), Rank: 2, Confidence: 0.9},
		{ID: "c", At: t0.Add(2 * time.Minute), Rank: 2, Confidence: 0.1},
	}
	for p, want := range map[Policy]string{Latest: "c", HighestAuthority: "a", HighestConfidence: "b"} {
		if got := cs[p.Select(cs)].ID; got != want {
			t.Errorf("%s kept %s, want %s", p, got, want)
		}
		// The choice does not depend on the order of the candidates.
		rev := []Contender{cs[2], cs[1], cs[0]}
		if got := rev[p.Select(rev)].ID; got != want {
			t.Errorf("%s on reversed input kept %s, want %s", p, got, want)
		}
	}
}

func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{"location=latest", "a=highest_authority", "=", "a==b", "x=HIGHEST_CONFIDENCE", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pred, p, err := ParsePolicy(s)
		if err != nil {
			return
		}
		if pred == "" || !p.Valid() || strings.TrimSpace(pred) != pred {
			t.Fatalf("ParsePolicy(%q) = %q, %q", s, pred, p)
		}
		again, p2, err := ParsePolicy(pred + "=" + string(p))
		if err != nil || again != pred || p2 != p {
			t.Fatalf("ParsePolicy does not round-trip %q: %q %q %v", s, again, p2, err)
		}
	})
}
