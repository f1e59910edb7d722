package store

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stategraph/stategraph/tenancy"
)

// FuzzDueAndTenantKeys checks that tenant keys parse back (parseKey is the
// inverse of key) and that due keys never fall in a tenant's range.
func FuzzDueAndTenantKeys(f *testing.F) {
	f.Add("org-a", "lease", "ST-01", int64(0), []byte("suffix"))
	f.Add("o", "", "", int64(-1), []byte{})
	f.Fuzz(func(t *testing.T, org, queue, ref string, ns int64, suffix []byte) {
		if org == "" || len(org) > maxSeg || len(queue) > maxSeg {
			return
		}
		p, err := tenancy.Background(org)
		if err != nil {
			t.Fatal(err)
		}
		k := key(p.Shared(), TableAssertion, suffix)
		pk, err := parseKey(k)
		if err != nil || pk.Org != org || pk.Table != TableAssertion || !bytes.Equal(pk.Suffix, suffix) {
			t.Fatalf("parseKey(key(%q, %q)) = %+v, %v", org, suffix, pk, err)
		}
		at := time.Unix(0, ns).UTC()
		dk := dueKey(queue, at, org, ref)
		if _, err := parseKey(dk); err == nil {
			t.Fatalf("due key %q parses as a tenant key", dk)
		}
		r := NewReader(dk[len(duePrefix(queue)):])
		if got := r.Time(); !got.Equal(at) {
			t.Fatalf("due time %v, want %v", got, at)
		}
		if gotOrg, gotRef := r.Str(), r.Rest(); r.Err() != nil || gotOrg != org || gotRef != ref {
			t.Fatalf("due key decodes to %q %q, want %q %q", gotOrg, gotRef, org, ref)
		}
	})
}

func TestDueSchedule(t *testing.T) {
	s, err := Open(Options{InMemory: true, MaxRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	for i, org := range []string{"org-b", "org-a"} {
		p, _ := tenancy.Background(org)
		err := s.Update(ctx, p, func(tx *Txn) error {
			return tx.Schedule("lease", t0.Add(time.Duration(i)*time.Hour), "ST-"+org)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	due, err := s.DueBefore(ctx, "lease", t0, 10)
	if err != nil || len(due) != 1 || due[0].Org != "org-b" || due[0].Ref != "ST-org-b" {
		t.Fatalf("due at t0 = %+v, %v", due, err)
	}
	due, _ = s.DueBefore(ctx, "lease", t0.Add(time.Hour), 10)
	if len(due) != 2 || due[1].Org != "org-a" {
		t.Fatalf("due at t0+1h = %+v, want both, earliest first", due)
	}
	if got, _ := s.DueBefore(ctx, "other", t0.Add(time.Hour), 10); len(got) != 0 {
		t.Errorf("another queue sees %+v", got)
	}
	p, _ := tenancy.Background("org-a")
	if err := s.Update(ctx, p, func(tx *Txn) error { return tx.Unschedule("lease", t0.Add(time.Hour), "ST-org-a") }); err != nil {
		t.Fatal(err)
	}
	if due, _ = s.DueBefore(ctx, "lease", t0.Add(time.Hour), 10); len(due) != 1 {
		t.Errorf("after unschedule = %+v", due)
	}
}
