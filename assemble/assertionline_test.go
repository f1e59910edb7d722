package assemble

import (
	"cmp"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// assertionLineJoined is an assertion's line as it was first written: the
// parts joined, without the newline. FuzzAssertionLine holds the
// one-buffer version (assertionLineNL) to it.
func assertionLineJoined(a Assertion) string {
	var parts []string
	for _, s := range []string{a.Subject, a.Predicate, a.Object} {
		if s = clean(s); s != "" {
			parts = append(parts, s)
		}
	}
	var meta []string
	if s := strings.ToLower(clean(a.Status)); s != "" {
		meta = append(meta, s)
	}
	if h := clean(a.Hypothesis); h != "" {
		meta = append(meta, "hypothesis "+h)
	}
	switch a.Lease.Kind {
	case LeaseUntilChanged:
		meta = append(meta, "until changed")
	case LeaseUntilTime:
		if !a.Lease.Until.IsZero() {
			meta = append(meta, "until "+a.Lease.Until.Format(time.RFC3339))
		}
	case LeaseUntilEvent:
		meta = append(meta, "until "+cmp.Or(clean(a.Lease.Event), "an event"))
	}
	text := "- " + strings.Join(parts, " ")
	if len(meta) > 0 {
		text += " (" + strings.Join(meta, ", ") + ")"
	}
	return text
}

// FuzzAssertionLine: an assertion's line is its parts joined, whatever
// its texts (unclean, empty, not ASCII, not UTF-8) and lease.
func FuzzAssertionLine(f *testing.F) {
	for _, c := range []struct {
		subject, predicate, object, status, hypothesis, event string
		kind                                                  int
		until                                                 int64
	}{
		{"vendor", "status", "shortlisted", "INFERENCE", "", "", 0, 0},
		{"printer", "status", "jammed", "PERCEPTION", "", "", 1, 1767610800},
		{"printer", "status", "jammed", "PERCEPTION", "", "", 1, -62135596800},
		{"deal", "stage", "signed", "REPORTED", "", "finance approval", 2, 0},
		{"deal", "stage", "signed", "REPORTED", "", "  ", 2, 0},
		{" a  b ", "", "\tc\n", "", "h1", "", 3, 0},
		{"", "", "", "", "", "", 4, 0},
		{"Ärger", "Größe", "日本 語", "ÉTAT", "hyp\u00a0two", "ev", 0, 0},
		{"x\xff", "y", "z", "İNFERENCE", "", "", 1, 253402300799},
	} {
		f.Add(c.subject, c.predicate, c.object, c.status, c.hypothesis, c.event, c.kind, c.until)
	}
	kinds := []LeaseKind{LeaseUntilChanged, LeaseUntilTime, LeaseUntilEvent, "", "OTHER"}
	f.Fuzz(func(t *testing.T, subject, predicate, object, status, hypothesis, event string, kind int, until int64) {
		a := Assertion{Subject: subject, Predicate: predicate, Object: object, Status: status, Hypothesis: hypothesis,
			Lease: Lease{Kind: kinds[(kind%len(kinds)+len(kinds))%len(kinds)], Event: event}}
		if until != 0 {
			a.Lease.Until = time.Unix(until, 0).UTC()
		}
		if got, want := assertionLineNL(a), assertionLineJoined(a)+"\n"; got != want {
			t.Fatalf("assertionLineNL(%+v) = %q, want %q", a, got, want)
		}
	})
}

// FuzzScoreReason: a score's reason, written in one buffer, is what
// strconv's 'f', 2 between the words gave.
func FuzzScoreReason(f *testing.F) {
	for _, v := range []float64{0, -1, 0.005, 0.668547588445885, 1.1436101924955384, 123456789.125, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.NaN()} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		want := "no query match, fits budget"
		if v > 0 {
			want = "relevant (score " + strconv.FormatFloat(v, 'f', 2, 64) + ")"
		}
		if got := scoreReason(v); got != want {
			t.Fatalf("scoreReason(%v) = %q, want %q", v, got, want)
		}
	})
}
