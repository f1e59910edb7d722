package extract

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// TestMemoizedKeyReadings: the memoized readings of keys and stored values
// are the computed ones, asked once or twice, and a caller appending to
// the words anchorWords returns does not change what the next caller gets.
func TestMemoizedKeyReadings(t *testing.T) {
	for _, key := range []string{"project_12.owner", "offsiteVenue", "user.current_address", "budget", "vetAppointment", "team offsite city"} {
		for range 2 {
			e, a := NormalizeKey(key)
			if we, wa := normalizeKey(key); e != we || a != wa {
				t.Errorf("NormalizeKey(%q) = %q, %q, want %q, %q", key, e, a, we, wa)
			}
			topic, attrs := anchorWords(key)
			wt, wa := scanAnchorWords(key)
			if !slices.Equal(topic, wt) || !slices.Equal(attrs, wa) {
				t.Errorf("anchorWords(%q) = %v, %v, want %v, %v", key, topic, attrs, wt, wa)
			}
			_ = append(topic, "changed")
			_ = append(attrs, "changed")
		}
	}
	for _, v := range []string{"Postgres", "$45k", "2 weeks", "ana@example.org", "v2.3", "Dana Reyes", "March 3", "2026-03-10 (March 10)", "phase 3", ""} {
		if got, want := storedKindMemo.Get(v), scanStoredKind(v); got != want {
			t.Errorf("storedKind(%q) = %+v, want %+v", v, got, want)
		}
	}
	for _, v := range []string{"Postgres", "Honda Civic", "CVS on Main", "Lincoln Elementary", "Chase", "Floor 2", "BA117", "#launch", "Dr. Lang", "6.5%", "300 Mbps", "us-east-1", "March 10", ""} {
		for range 2 {
			if got, want := categoryOf(v), scanCategory(v); got != want {
				t.Errorf("categoryOf(%q) = %q, want %q", v, got, want)
			}
			if got, want := shapeOf(v), scanShape(v); (got == nil) != (want == nil) || got != nil && got.String() != want.String() {
				t.Errorf("shapeOf(%q) = %v, want %v", v, got, want)
			}
		}
	}
	if scanShape("March 10") != nil || scanCategory("Honda Civic") != "car" || scanCategory("Chase Hale") != "" {
		t.Error("a date has a shape, or a car or a common word reads wrong")
	}
}

// TestMemoizedTimedReadings: the readings remembered under a time (a
// stored value's date reading, a clause's candidates of a kind) are the
// computed ones, at the same time and at others, in UTC or not.
func TestMemoizedTimedReadings(t *testing.T) {
	utc := time.Date(2026, 12, 30, 17, 0, 0, 0, time.UTC)
	times := []time.Time{utc, utc.In(time.FixedZone("UTC+14", 14*3600)), time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC)}
	values := []string{"March 3", "2026-03-10", "tomorrow", "the 14th", "Dana Reyes", "$45k", "phase 3", "next Friday", ""}
	clauses := []string{"The review moved to March 3", "the budget is $45k now", "Jonas takes over on Friday", "we grew to 350 testers", "call 555-0100 or ana@example.org"}
	kinds := []string{anchorDate, anchorMoney, anchorCount, anchorName, anchorEmail, anchorPhone, anchorCode, anchorVersion, anchorDuration}
	for _, at := range times {
		for range 2 {
			for _, v := range values {
				_, want := takeDate(v, at)
				if got := storedDate(v, at); got != want {
					t.Errorf("storedDate(%q, %v) = %v, want %v", v, at, got, want)
				}
			}
			for _, cl := range clauses {
				for _, k := range kinds {
					got, want := candidatesAt(cl, k, at), candidates(cl, k, at)
					if !slices.Equal(got, want) {
						t.Errorf("candidatesAt(%q, %s, %v) = %v, want %v", cl, k, at, got, want)
					}
					_ = append(got, span{})
				}
			}
		}
	}
}

// TestFoldedSentences: a sentence's memoized fold is fold's.
func TestFoldedSentences(t *testing.T) {
	for _, s := range []string{"The Budget is $45K now", "We’re moving the ‘launch’", ""} {
		for range 2 {
			if got, want := foldedSentences.Get(s), fold(s); got != want {
				t.Errorf("fold(%q) = %q, want %q", s, got, want)
			}
		}
	}
}

// TestAnchorSentences: the remembered reading of a sentence's clauses
// (anchorSentences) is the computed one, asked once or twice, and the
// remembered words of a synonym phrase are those it splits into.
func TestAnchorSentences(t *testing.T) {
	for _, s := range []string{
		"Actually, Dana Reyes owns project 12 now.",
		"The venue coordinator left; the new contact is ana@example.org",
		"Four kids joined the class, bringing it to 28",
		"We had 500 testers, not 300 — but the room was 60",
		"Facilities reassigned Priya to spot C4",
		"", "  .",
	} {
		for range 2 {
			if got, want := anchorSentences.Get(s), readAnchorSentence(s); !reflect.DeepEqual(got, want) {
				t.Errorf("anchorSentences(%q) = %+v, want %+v", s, got, want)
			}
		}
	}
	if got := readAnchorSentence("Sorry, the budget is $45k, not $40k; we had to cut it"); !got.corr || len(got.clauses) != 2 ||
		got.clauses[0].text != "the budget is $45k" || got.clauses[0].stative || got.clauses[1].stative {
		t.Errorf("a correction's clauses read %+v", got)
	}
	for _, p := range []string{"meeting room", "sign-off dates", ""} {
		for range 2 {
			want := strings.FieldsFunc(p, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r)) })
			for i := range want {
				want[i] = singular(want[i])
			}
			if got := phraseWords.Get(p); !slices.Equal(got, want) {
				t.Errorf("phraseWords(%q) = %q, want %q", p, got, want)
			}
		}
	}
}

// TestPreparedAndDrops: Anchor reads a prepared sentence as one it reads
// first, and the remembered Drops is the computed one.
func TestPreparedAndDrops(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	facts := []struct{ key, value string }{{"project_12.owner", "Person 3"}, {"board_review_date", "February 12"}, {"office", "Floor 2"}}
	for _, s := range []string{"Actually, Dana Reyes owns project 12 now.", "Board review is February 19 now", "We moved from Floor 2 to Floor 7", "We dropped Postgres."} {
		var want []Statement
		for _, f := range facts {
			st, _ := Anchor(s, f.key, f.value, at)
			want = append(want, st)
		}
		Prepare(s)
		for i, f := range facts {
			if got, _ := Anchor(s, f.key, f.value, at); !reflect.DeepEqual(got, want[i]) {
				t.Errorf("Anchor(%q, %s) prepared = %+v, want %+v", s, f.key, got, want[i])
			}
		}
		for range 2 {
			if got, want := Drops(s), drops(s); got != want {
				t.Errorf("Drops(%q) = %v, want %v", s, got, want)
			}
		}
	}
}
