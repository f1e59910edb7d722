package detect

import (
	"testing"

	"github.com/stategraph/stategraph/authority"
)

func TestParseDirective(t *testing.T) {
	tests := []struct {
		text          string
		ok            bool
		speaker, body string
		rank          string // level name, "" for unknown
	}{
		{"[VP] Vince (VP HR): Manager Mia can approve PTO up to 2 weeks", true, "Vince (VP HR)", "Manager Mia can approve PTO up to 2 weeks", "executive"},
		{"[BOARD] Board of Directors (Compensation Committee): Bonuses capped at $500k", true, "Board of Directors (Compensation Committee)", "Bonuses capped at $500k", "policy"},
		{"[C_LEVEL] Charles (CEO): Give the new CFO a $2M signing bonus", true, "Charles (CEO)", "Give the new CFO a $2M signing bonus", "executive"},
		{"[CONTRACTOR] Carl (Consulting Architect): MongoDB would be better", true, "Carl (Consulting Architect)", "MongoDB would be better", "guest"},
		{"Budget is $200K", false, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			d, ok := ParseDirective(tc.text, DefaultOptions())
			if ok != tc.ok || d.Speaker != tc.speaker || d.Body != tc.body {
				t.Fatalf("got %+v, %v; want speaker %q body %q ok %v", d, ok, tc.speaker, tc.body, tc.ok)
			}
			if want := authority.MustDefaultOrder().Rank(tc.rank); tc.rank != "" && d.Rank != want {
				t.Errorf("rank %d, want %s (%d)", d.Rank, tc.rank, want)
			}
		})
	}
}

// FuzzParseDirective: ParseDirective, which skips a text holding no '['
// and no '(', answers as the expressions do on every text.
func FuzzParseDirective(f *testing.F) {
	for _, s := range []string{
		"[VP] Vince (VP HR): Manager Mia can approve PTO up to 2 weeks",
		"Carl (Consulting Architect): MongoDB would be better",
		"  [BOARD]: Bonuses capped",
		"Budget is $200K",
		"Person 3",
		"Dana Reyes (owner) is out",
		"",
	} {
		f.Add(s)
	}
	opts := DefaultOptions()
	f.Fuzz(func(t *testing.T, text string) {
		got, gotOK := ParseDirective(text, opts)
		want, wantOK := parseDirective(text, opts)
		if gotOK != wantOK || got.Tag != want.Tag || got.Speaker != want.Speaker || got.Rank != want.Rank || got.Authority != want.Authority || got.Body != want.Body {
			t.Fatalf("ParseDirective(%q) = %+v, %v; the expressions say %+v, %v", text, got, gotOK, want, wantOK)
		}
	})
}

func TestPrevails(t *testing.T) {
	parse := func(s string) Directive {
		d, ok := ParseDirective(s, DefaultOptions())
		if !ok {
			t.Fatalf("not a directive: %q", s)
		}
		return d
	}
	tests := []struct {
		name         string
		newer, older string
		want         Verdict
	}{
		{"board over CEO, later", "[BOARD] Board (Compensation Committee): Executive signing bonuses capped at $500k", "[C_LEVEL] Charles (CEO): Give the new CFO a $2M signing bonus", NewerPrevails},
		{"VP over engineer", "[VP] Victor (VP Engineering): Ship the feature by Friday", "[INDIVIDUAL] Eva (Senior Engineer): The feature will take 3 weeks", NewerPrevails},
		{"manager after VP is outranked", "[MANAGER] Mark (Sales Manager): Give this customer a 25% discount", "[VP] Victoria (VP Sales): Maximum discount is 15% without executive approval", OlderPrevails},
		{"same speaker, later word", "[VP] Vince (VP HR): All PTO over 3 days now requires VP approval", "[VP] Vince (VP HR): Manager Mia can approve PTO up to 2 weeks", NewerPrevails},
		{"peers of equal rank contest", "[DIRECTOR] Diane (Engineering Director): Prioritize technical debt reduction", "[DIRECTOR] David (Product Director): Prioritize the mobile app launch", Contested},
		{"different topics", "[VP] Vince (VP HR): Offices close at 6pm", "[C_LEVEL] Charles (CEO): Give the new CFO a signing bonus", Unrelated},
		{"a shared rank word is no topic", "[VP] Victoria (VP Sales): Maximum discount is 15% without executive approval", "[BOARD] Board (Compensation Committee): Executive signing bonuses capped at $500k", Unrelated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Prevails(parse(tc.newer), parse(tc.older)); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
