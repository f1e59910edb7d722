package audit_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// caller returns a context carrying a verified identity of organization
// acme.
func caller(t *testing.T) context.Context {
	t.Helper()
	secret := []byte("audit-test-secret-0123456789")
	tok, err := authority.Mint(secret, authority.Identity{Org: "acme", UserID: "alice", Authority: "manager"}, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	return authority.NewContext(context.Background(), id)
}

// TestTrailReadsEveryEncoding: a record's trail holds the entries written
// as JSON by earlier versions and those written now, in time order, as
// they were recorded, in the views that see them.
func TestTrailReadsEveryEncoding(t *testing.T) {
	st := storetest.Open(t)
	ctx := caller(t)
	p, err := tenancy.FromContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 5, 4, 3, 2, 1, 123_456_789, time.UTC)
	old := audit.Entry{ID: "AU-01OLD", At: t0, Actor: "Alice (alice)", Action: "WRITTEN", Record: "F-1", Kind: "fact"}
	now := audit.Entry{ID: "AU-02NEW", At: t0.Add(time.Minute), Actor: "Alice (alice)", Action: "SUPERSEDED", Record: "F-1", Kind: "fact", By: "F-2", Detail: "CHANGE (EXPLICIT_WRITE)"}
	err = st.Update(ctx, p, func(tx *store.Txn) error {
		// As versions before the binary encoding wrote an entry: JSON.
		if err := tx.Put(p.Shared(), store.TableAudit, store.Suffix(nil).Time(old.At).Raw(old.ID), old, 0); err != nil {
			return err
		}
		if err := tx.Put(p.Shared(), store.TableAuditByRec, store.Suffix(nil).Str(old.Record).Time(old.At).Raw(old.ID), nil, 0); err != nil {
			return err
		}
		return audit.Record(tx, p.Shared(), now)
	})
	if err != nil {
		t.Fatal(err)
	}
	between := t0.Add(30 * time.Second)
	cases := []struct {
		name string
		v    temporal.View
		want []audit.Entry
	}{
		{"current", temporal.View{}, []audit.Entry{old, now}},
		{"known before the second", temporal.View{KnownAt: &between}, []audit.Entry{old}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := audit.NewTrail(st).ForRecord(ctx, "F-1", tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("trail = %+v, want %+v", got, tc.want)
			}
		})
	}
}
