package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// caller returns a context carrying a verified identity of org and user.
func caller(t testing.TB, org, user string) context.Context {
	t.Helper()
	id := authority.Identity{Org: org, UserID: user, Authority: "manager", Kind: authority.KindAgent, AgentLevel: authority.AgentMaster, Capability: "billing"}
	vid, _ := storetest.Verified(t, id)
	return authority.NewContext(context.Background(), vid)
}

// populate writes facts with supersession chains in every space of org,
// and a record with a TTL.
func populate(t testing.TB, st *store.Store, org string) {
	t.Helper()
	clock := temporal.NewManual(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	svc := pipeline.New(pipeline.Options{Store: st, Clock: clock, Facts: facts.NewService(st, clock, authority.MustDefaultOrder())})
	for _, user := range []string{"alice", "bob"} {
		ctx := caller(t, org, user)
		for i, mt := range []facts.MemoryType{facts.MemoryOrganizational, facts.MemoryUser, facts.MemoryCapability} {
			key := fmt.Sprintf("%s-%s-%d", user, mt, i)
			prev := ""
			for v := range 3 {
				clock.Advance(time.Minute)
				in := facts.WriteInput{Key: key, Value: json.RawMessage(fmt.Sprintf(`{"v":%d}`, v)), MemoryType: mt, Supersedes: prev}
				if v == 2 {
					in.Kind = facts.Correction
				}
				f, err := svc.Write(ctx, in)
				if err != nil {
					t.Fatalf("write %s v%d: %v", key, v, err)
				}
				prev = f.ID
			}
		}
		id, _ := authority.FromContext(ctx)
		p, err := tenancy.For(id)
		if err != nil {
			t.Fatal(err)
		}
		err = st.Update(ctx, p, func(tx *store.Txn) error {
			return tx.Put(p.Private(), store.Table('W'), store.Suffix(nil).Raw("draft"), map[string]string{"x": "y"}, time.Hour)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

type record struct {
	value     string
	expiresAt uint64
}

// dump returns every key of st whose key starts with prefix, read from
// its engine (Badger's or TiKV's).
func dump(t testing.TB, st *store.Store, prefix []byte) map[string]record {
	t.Helper()
	out := map[string]record{}
	txn, err := st.Engine().Begin(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Discard()
	it := txn.NewIterator(store.IterOptions{Prefix: prefix})
	defer it.Close()
	for it.Seek(prefix); it.Valid(); it.Next() {
		var r record
		v := it.Value()
		if e, ok := v.(store.Expiring); ok {
			r.expiresAt = e.ExpiresAt()
		}
		if err := v.Value(func(b []byte) error { r.value = string(b); return nil }); err != nil {
			t.Fatal(err)
		}
		out[string(it.Key())] = r
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func compare(t testing.TB, got, want map[string]record) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d records, want %d", len(got), len(want))
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("record %q missing after restore", k)
		case g != w:
			t.Errorf("record %q = %+v, want %+v", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected record %q after restore", k)
		}
	}
}

func TestBackupRestore(t *testing.T) { enginetest.Each(t, testBackupRestore) }

func testBackupRestore(t *testing.T, src *store.Store) {
	populate(t, src, "org-a")
	populate(t, src, "org-b")
	populate(t, src, "org-ab") // shares a text prefix with org-a, not a key prefix
	all := dump(t, src, nil)
	if len(all) < 100 {
		t.Fatalf("populated store holds %d records, the test wants many", len(all))
	}

	tests := []struct {
		name, org string
		want      map[string]record
		wantOrgs  []string
	}{
		{"full", "", all, []string{"org-a", "org-ab", "org-b"}},
		{"one organization", "org-a", dump(t, src, store.OrgPrefix("org-a")), []string{"org-a"}},
	}
	for _, tc := range tests {
		for _, de := range enginetest.All { // a backup of either engine restores into either
			t.Run(tc.name+" into "+de.Name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := src.Backup(context.Background(), &buf, tc.org); err != nil {
					t.Fatal(err)
				}
				dst := de.Open(t)
				before := dump(t, dst, nil) // the fresh store's own metadata
				stats, err := dst.Restore(context.Background(), bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(stats.Orgs) != fmt.Sprint(tc.wantOrgs) || stats.Entries < len(tc.want) {
					t.Errorf("stats = %+v, want orgs %v and at least %d entries", stats, tc.wantOrgs, len(tc.want))
				}
				want := tc.want
				if tc.org != "" {
					want = merge(before, tc.want)
				}
				compare(t, dump(t, dst, nil), want)

				// Restoring again would mix two histories of one organization.
				_, err = dst.Restore(context.Background(), bytes.NewReader(buf.Bytes()))
				if !errors.Is(err, store.ErrRestoreOverlap) {
					t.Errorf("second restore: err = %v, want ErrRestoreOverlap", err)
				}
			})
		}
	}
}

func merge(a, b map[string]record) map[string]record {
	out := map[string]record{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func TestRestoreRejectsGarbage(t *testing.T) {
	src := storetest.Open(t)
	populate(t, src, "org-a")
	var buf bytes.Buffer
	if err := src.Backup(context.Background(), &buf, "org-a"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"text", []byte("hello, this is not a backup")},
		{"truncated", buf.Bytes()[:buf.Len()/2]},
		{"huge chunk", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := storetest.Open(t)
			before := dump(t, dst, nil)
			_, err := dst.Restore(context.Background(), bytes.NewReader(tc.in))
			if !errors.Is(err, store.ErrBadBackup) {
				t.Errorf("err = %v, want ErrBadBackup", err)
			}
			compare(t, dump(t, dst, nil), before) // nothing loaded
		})
	}
}
