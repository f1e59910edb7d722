package assemble

import (
	"cmp"
	"strings"
	"testing"
	"time"
)

// assertionLineJoined is assertionLine as it was first written: the
// parts joined. FuzzAssertionLine holds the one-buffer version to it.
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
		if got, want := assertionLine(a), assertionLineJoined(a); got != want {
			t.Fatalf("assertionLine(%+v) = %q, want %q", a, got, want)
		}
	})
}
