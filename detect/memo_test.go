package detect

import (
	"slices"
	"strings"
	"testing"
)

// TestMemoizedValuesAreTheCallers: the memoized extraction gives the same
// values as a fresh scan, and a caller changing its slice does not change
// what the next caller gets.
func TestMemoizedValuesAreTheCallers(t *testing.T) {
	for _, s := range []string{"Budget is $120,000 from March 3 at 5pm", strings.Repeat("raise to 15% ", 300)} {
		want := scanValues(s)
		got := extractValues(s)
		if !slices.Equal(got, want) {
			t.Fatalf("extractValues(%.40q) = %v, want %v", s, got, want)
		}
		for i := range got {
			got[i].start, got[i].norm = -1, "changed"
		}
		if again := extractValues(s); !slices.Equal(again, want) {
			t.Errorf("after a caller changed its copy: %v, want %v", again, want)
		}
	}
}

// TestMemoizedRecordReadings: a record value's memoized values and choice
// are the computed ones, asked once or twice.
func TestMemoizedRecordReadings(t *testing.T) {
	for _, val := range []string{"Denver", "$75,000 (Manager approved)", "2027-03-15", "Person 3", "March 3 at 5pm, $45k", "Postgres 16", ""} {
		for range 2 {
			if got, want := recordValues(val), scanRecordValues(val); !slices.Equal(got, want) {
				t.Errorf("recordValues(%q) = %v, want %v", val, got, want)
			}
			if got, want := recordChoices.Get(val), normChoice(val); got != want {
				t.Errorf("choice of %q = %q, want %q", val, got, want)
			}
		}
	}
}

// TestTrimmedReplacement: a remembered trimmed replacement is the computed
// one, asked once or twice.
func TestTrimmedReplacement(t *testing.T) {
	for _, s := range []string{"4 days in office from now on", "three-week sprints starting next sprint", "Boston instead of Denver", "moved to the", ""} {
		for range 2 {
			if got, want := trimmed(s), trimLead(trimTail(s)); got != want {
				t.Errorf("trimmed(%q) = %q, want %q", s, got, want)
			}
		}
	}
}

// TestTrimTail: a replacement loses the function words and the chat
// fillers a cut left at its end, when it takes effect, a clause after a
// comma whose subject is a person ("closed, we've got our cast") or that
// gives a reason, and the sentence's full stop.
func TestTrimTail(t *testing.T) {
	tests := []struct{ in, want string }{
		{"4 days in office from", "4 days in office"},
		{"on hold though", "on hold"},
		{"Tokyo too", "Tokyo"},
		{"three-week sprints starting next sprint", "three-week sprints"},
		{"Blue Buffalo, anyway", "Blue Buffalo"},
		{"Oat Milk", "Oat Milk"},
		{"wrong, it's Track2026!", "Track2026!"},
		{"wrong, the actual one is panda8888", "panda8888"},
		{"wrong, correct one is panda8888", "panda8888"},
		{"the new unit, it's #40 at Hwy 6 Self Storage", "#40 at Hwy 6 Self Storage"},
		// Its purpose.
		{"every other weekend to match the new grid", "every other weekend"},
		{"the 7:15 to Boston", "the 7:15 to Boston"},
		// A clause after the value's comma whose subject is a person; a
		// value with a comma of its own stays whole.
		{"closed, we've got our cast", "closed"},
		{"48 Harbor Road, Suite 200", "48 Harbor Road, Suite 200"},
		{"Jan 29, pushing the promo emails back a week", "Jan 29"},
		{"Friday 3pm, meeting room 2", "Friday 3pm, meeting room 2"},
		{"84 Lumber, way better pricing on LVLs", "84 Lumber"},
		{"30 September 2026 not June", "30 September 2026"},
		{"tacoTuesday88, which my roommate picked", "tacoTuesday88"},
		{"Wednesday 11am itself", "Wednesday 11am"},
		// A reason or a remark on the old thing after the comma; when it
		// takes effect, shortened.
		{"the side gate, the one by the front door kept rusting", "the side gate"},
		{"Fridays, because the crowd keeps growing", "Fridays"},
		{"Northgate Gas, Harper kept cancelling on us", "Northgate Gas"},
		{"Wednesdays at 6, committee signed it off last night", "Wednesdays at 6"},
		{"Leeds so first aid contact is Imran Shah", "Leeds"},
		{"his nephew's company, Reliable Pipes, took over", "his nephew's company, Reliable Pipes"},
		{"Casa Lima, Alfred Street", "Casa Lima, Alfred Street"},
		{"March 15 when I switched to the annual plan", "March 15"},
		{"the aud in Bldg A, not C anymore", "the aud in Bldg A"},
		{"thurs 22:00 UTC going fwd", "thurs 22:00 UTC"},
		{"May onwards", "May"},
		{"Onward Credit Union", "Onward Credit Union"},
		// The sentence's full stop, not an abbreviation's.
		{"5pm.", "5pm"},
		{"Dr. Pruitt Jr.", "Dr. Pruitt Jr."},
		{"5 p.m.", "5 p.m."},
	}
	for _, tc := range tests {
		if got := trimTail(tc.in); got != tc.want {
			t.Errorf("trimTail(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestWithName: a bare number beside a stored name and number keeps the
// name it is said with.
func TestWithName(t *testing.T) {
	tests := []struct{ repl, prev, text, want string }{
		{"308", "Hall B 214", "so I'm in Maple Hall 308 now.", "Maple Hall 308"},
		{"22", "Stall 14", "the market moved us to stall 22 now.", "22"},
		{"14", "12", "We are 14 now.", "14"},
		{"308", "Hall B 214", "I 308", "308"},
		{"Maple Hall 308", "Hall B 214", "so I'm in Maple Hall 308 now.", "Maple Hall 308"},
	}
	for _, tc := range tests {
		if got := withName(tc.repl, tc.prev, tc.text); got != tc.want {
			t.Errorf("withName(%q, %q, %q) = %q, want %q", tc.repl, tc.prev, tc.text, got, tc.want)
		}
	}
}

// TestTrimLead: the verb or the words a replacement opens with are not
// the value.
func TestTrimLead(t *testing.T) {
	tests := []struct{ in, want string }{
		{"targeted for June 17", "June 17"},
		{"officially closed", "closed"},
		{"the one on Market Square", "Market Square"},
		{"that one over by the station", "the station"},
		{"the one to watch", "the one to watch"},
		{"the one on", "the one on"},
		{"Market Square", "Market Square"},
	}
	for _, tc := range tests {
		if got := trimLead(tc.in); got != tc.want {
			t.Errorf("trimLead(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSelfCorrects: a value said in place of one just said follows words
// that take the slip back, at a clause's start; not a word ending in them.
func TestSelfCorrects(t *testing.T) {
	tests := []struct {
		s, value string
		want     bool
	}{
		{"sorry, $14.5k, they shaved off the support plan", "$14.5k", true},
		{"the budget is $15k, I mean $14.5k", "$14.5k", true},
		{"make that $150,000", "$150,000", true},
		{"we still await $14.5k from them", "$14.5k", false},
		{"the budget is $14.5k", "$14.5k", false},
	}
	for _, tc := range tests {
		if got := SaidInstead(tc.s, tc.value); got != tc.want {
			t.Errorf("SaidInstead(%q, %q) = %v, want %v", tc.s, tc.value, got, tc.want)
		}
	}
}

func TestCutTail(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Mrs. Brandt from the Steuerkanzlei Brandt in Esslingen.", "Mrs. Brandt from the Steuerkanzlei Brandt in Esslingen"},
		{"Dr. Lee now", "Dr. Lee"},
		{"Thursday. Then lunch", "Thursday"},
		{"Blue Buffalo because he likes it", "Blue Buffalo"},
	}
	for _, tc := range tests {
		if got := cutTail(tc.in); got != tc.want {
			t.Errorf("cutTail(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitSentencesTitle(t *testing.T) {
	got := splitSentences("It is Mrs. Brandt now. Dr. Lee left. The memo is from Feb. It ends.")
	want := []string{"It is Mrs. Brandt now.", "Dr. Lee left.", "The memo is from Feb.", "It ends."}
	if !slices.Equal(got, want) {
		t.Errorf("splitSentences = %q, want %q", got, want)
	}
}
