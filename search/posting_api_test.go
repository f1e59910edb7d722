package search_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// TestPostingsWrittenAsJSON: a store whose postings hold the JSON values
// earlier versions wrote answers every view exactly as one written now,
// and a fact written now stores nothing in its common live postings.
func TestPostingsWrittenAsJSON(t *testing.T) {
	st := storetest.Open(t)
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clock := temporal.NewManual(t0)
	ix := search.New()
	fs := pipeline.New(pipeline.Options{
		Store: st, Clock: clock, Facts: facts.NewService(st, clock, authority.MustDefaultOrder()), Index: ix,
	})
	ctx := caller(t)
	p, err := tenancy.FromContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	earlier := t0.Add(-72 * time.Hour)
	writes := []facts.WriteInput{
		{Key: "venue", Value: json.RawMessage(`"the venue is Lisbon"`)},
		{Key: "budget", Value: json.RawMessage(`"the budget is 40k"`), ValidFrom: &earlier},
		{Key: "salary", Value: json.RawMessage(`"the salary band is E5"`), RestrictedTo: &permissions.Restriction{MinAuthority: "employee"}},
		{Key: "venue", Value: json.RawMessage(`"the venue is Porto"`), Supersedes: "venue"},
		{Key: "budget", Value: json.RawMessage(`"the budget was always 45k"`), Supersedes: "budget", Kind: facts.Correction},
		{Key: "salary", Value: json.RawMessage(`"the salary band is E6"`), Supersedes: "salary"},
	}
	for i, in := range writes {
		clock.Set(t0.Add(time.Duration(i) * time.Hour))
		in.MemoryType = facts.MemoryOrganizational
		if _, err := fs.Write(ctx, in); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	var views []temporal.View
	for h := -80; h <= 8; h += 4 {
		at := t0.Add(time.Duration(h) * time.Hour)
		views = append(views, temporal.View{AsOf: &at}, temporal.View{KnownAt: &at}, temporal.View{AsOf: &at, KnownAt: &at})
	}
	views = append(views, temporal.View{})
	terms := []string{search.TermAll, "venu", "budget", "salari", "lisbon", "porto"}
	read := func() string {
		t.Helper()
		var out string
		err := st.View(ctx, p, func(tx *store.Txn) error {
			for _, v := range views {
				for _, term := range terms {
					var got []search.Posting
					err := ix.Postings(tx, p.Shared(), term, v, 0, func(p search.Posting) bool { got = append(got, p); return true })
					if err != nil {
						return err
					}
					out += fmt.Sprintf("%v %v %q: %+v\n", v.AsOf, v.KnownAt, term, got)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := read()
	if strings.Count(want, "ID:") < 40 {
		t.Fatalf("the views found too few postings to compare:\n%s", want)
	}

	empty, total := 0, 0
	err = st.Update(ctx, p, func(tx *store.Txn) error {
		for _, table := range []store.Table{store.TableSearchLive, store.TableSearchHist} {
			type rec struct{ k, v []byte }
			var recs []rec
			err := tx.Scan(p.Shared(), table, nil, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
				post, err := search.ParsePosting(p.Shared(), suffix)
				if err != nil {
					return false, err
				}
				f, ok, err := facts.LoadTx(tx, p.Shared(), post.ID)
				if err != nil || !ok {
					return false, fmt.Errorf("posting of %s: fact %v, %w", post.ID, ok, err)
				}
				old, err := search.OldPostingValue(f, table == store.TableSearchLive)
				if err != nil {
					return false, err
				}
				total++
				err = it.Value(func(b []byte) error {
					if len(b) == 0 {
						empty++
					}
					return nil
				})
				if err != nil {
					return false, err
				}
				recs = append(recs, rec{append([]byte(nil), suffix...), old})
				return true, nil
			})
			if err != nil {
				return err
			}
			for _, r := range recs {
				if err := tx.PutRaw(p.Shared(), table, r.k, r.v); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if empty == 0 || empty == total {
		t.Errorf("%d of %d postings had an empty value, want the live unrestricted ones valid from their recording, and only those", empty, total)
	}
	if got := read(); got != want {
		t.Errorf("postings read from JSON values differ:\n got %s\nwant %s", got, want)
	}
	if !reflect.DeepEqual(want, read()) {
		t.Error("unstable reads")
	}
}
