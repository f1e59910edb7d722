package facts

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
)

// normalized returns c with every time in UTC, as a decoded card has them.
func normalized(c Card) Card {
	f := &c.Fact
	utc := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		u := t.UTC()
		return &u
	}
	f.ValidFrom, f.RecordedAt = f.ValidFrom.UTC(), f.RecordedAt.UTC()
	f.ValidTo, f.SupersededAt, f.NeedsReviewAt = utc(f.ValidTo), utc(f.SupersededAt), utc(f.NeedsReviewAt)
	if f.Forgotten != nil {
		f.Forgotten = &Tombstone{By: f.Forgotten.By, At: f.Forgotten.At.UTC()}
	}
	if f.Stale != nil {
		f.Stale = &Staleness{Reason: f.Stale.Reason, ReplacedBy: f.Stale.ReplacedBy, At: f.Stale.At.UTC()}
	}
	return c
}

// FuzzCard round-trips cards through their encoding: every field comes
// back, times at every year the service accepts, with a restriction
// unmarshalled or remembered by a cache.
func FuzzCard(f *testing.F) {
	f.Add("F-1", "budget", `"$150,000"`, "GLOBAL", "", true, int64(1767600000), int64(0), uint8(0))
	f.Add("F-2", "room", `{"n": 4}`, "SESSION", "s1", false, int64(-62135596800), int64(253402300799), uint8(0xff))
	f.Add("", "", `""`, "", "", false, int64(0), int64(1), uint8(0x55))
	f.Fuzz(func(t *testing.T, id, key, value, scope, scopeID string, constraint bool, from, to int64, opt uint8) {
		at := func(sec int64) time.Time {
			return time.Unix(sec%(1<<40), sec%int64(time.Second)).In(time.FixedZone("x", 3600))
		}
		tp := func(sec int64) *time.Time { t := at(sec); return &t }
		fact := Fact{
			ID: id, Key: key, Value: json.RawMessage(value), Scope: Scope(scope), ScopeID: scopeID,
			IsConstraint: constraint, ConstraintType: key, Source: Source{Type: SourceUser, Authority: scopeID},
			ValidFrom: at(from), RecordedAt: at(to), Supersedes: id + "-old", SupersededBy: id + "-new",
		}
		if opt&1 != 0 {
			fact.ValidTo = tp(to)
		}
		if opt&2 != 0 {
			fact.SupersededAt = tp(from + to)
		}
		if opt&4 != 0 {
			fact.NeedsReviewAt = tp(from - 7)
		}
		if opt&8 != 0 {
			// Stored records are JSON, so a restriction holds valid UTF-8.
			fact.RestrictedTo = &permissions.Restriction{Roles: []string{strings.ToValidUTF8(key, "?")}, MinAuthority: strings.ToValidUTF8(scope, "?")}
		}
		if opt&16 != 0 {
			fact.Forgotten = &Tombstone{By: id, At: at(to)}
		}
		if opt&32 != 0 {
			fact.Stale = &Staleness{Reason: key, ReplacedBy: value, At: at(from)}
		}
		want := normalized(CardOf(fact))
		b, err := encodeCard(CardOf(fact))
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := decodeCard(string(b), nil)
		if err != nil || !ok {
			t.Fatalf("decode: ok %v, err %v", ok, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip:\ngot  %+v\nwant %+v", got, want)
		}
		// Through a cache's remembered restrictions, the first time and
		// again: the same card.
		cs := NewCards()
		for range 2 {
			got, ok, err := decodeCard(string(b), cs.restriction)
			if err != nil || !ok || !reflect.DeepEqual(got, want) {
				t.Fatalf("decode with remembered restrictions: ok %v, err %v\ngot  %+v\nwant %+v", ok, err, got, want)
			}
		}
		for i := 1; i < len(b); i++ {
			if _, ok, err := decodeCard(string(b[:i]), nil); ok || err == nil {
				t.Fatalf("a card cut at %d of %d bytes decodes", i, len(b))
			}
		}
	})
}

// TestCardsFollowWrites reads cards through the cache between writes that
// change them: a supersession, a derived fact flagged for review, a
// forgotten fact. The cache never answers with a card the store has
// replaced, and answers from memory while nothing changed.
func TestCardsFollowWrites(t *testing.T) {
	st := storetest.Open(t)
	clock := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	svc := NewService(st, nil, authority.MustDefaultOrder())
	caller := authority.Identity{UserID: "u", Org: "o", Authority: "manager", Kind: authority.KindAgent}
	p := partition(t, caller)
	n := 0
	// write stores in as the write pipeline's link and index stages do,
	// retiring the fact it supersedes and flagging what derives from it.
	write := func(in WriteInput) Fact {
		t.Helper()
		n++
		f := Fact{ID: fmt.Sprintf("F-%d", n), Key: in.Key, Value: in.Value, MemoryType: MemoryOrganizational,
			Scope: ScopeGlobal, DependsOn: in.DependsOn, ValidFrom: clock, RecordedAt: clock}
		err := st.Update(context.Background(), p, func(tx *store.Txn) error {
			sp := p.Shared()
			if in.Supersedes != "" {
				old, _, err := svc.Find(tx, in.Supersedes)
				if err != nil {
					return err
				}
				at := clock
				old.SupersededBy, old.SupersededAt, old.ValidTo = f.ID, &at, &at
				f.Supersedes = old.ID
				if err := svc.Unlist(tx, sp, old); err != nil {
					return err
				}
				if err := svc.Put(tx, sp, old); err != nil {
					return err
				}
				if err := svc.FlagDerived(tx, old.ID, clock); err != nil {
					return err
				}
			}
			for _, d := range in.DependsOn {
				if err := svc.LinkDerived(tx, sp, d, f.ID); err != nil {
					return err
				}
			}
			if err := svc.Put(tx, sp, f); err != nil {
				return err
			}
			return svc.Index(tx, sp, f)
		})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	cards := NewCards()
	read := func(f Fact) Card {
		t.Helper()
		var c Card
		err := st.View(context.Background(), p, func(tx *store.Txn) error {
			_, sp, err := svc.find(tx, f.ID)
			if err != nil {
				return err
			}
			epoch, err := cards.Epoch(tx, sp)
			if err != nil {
				return err
			}
			if epoch == "" {
				t.Fatal("no card epoch after a write")
			}
			c, err = cards.Read(tx, sp, epoch, f.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	base := write(WriteInput{Key: "budget", Value: []byte(`"$150,000"`)})
	derived := write(WriteInput{Key: "remaining", Value: []byte(`"$50,000"`), DependsOn: []string{base.ID}})
	if c := read(base); c.Text != "$150,000" || c.Fact.SupersededBy != "" {
		t.Fatalf("card of the base = %+v", c)
	}
	if c := read(derived); c.Fact.NeedsReviewAt != nil {
		t.Fatalf("derived fact needs review before its base changed: %+v", c)
	}
	if n := cards.n; n != 2 {
		t.Fatalf("%d cards cached, want 2", n)
	}
	read(base) // from memory
	if n := cards.n; n != 2 {
		t.Fatalf("%d cards cached after a hit, want 2", n)
	}
	next := write(WriteInput{Key: "budget", Value: []byte(`"$120,000"`), Supersedes: base.ID})
	if c := read(base); c.Fact.SupersededBy != next.ID || c.Fact.SupersededAt == nil {
		t.Errorf("the cache answered with the card before the supersession: %+v", c.Fact)
	}
	if c := read(derived); c.Fact.NeedsReviewAt == nil {
		t.Errorf("the cache answered with the card before the review flag: %+v", c.Fact)
	}
}

// TestCardSlots: a card read through a slot is the card Read returns,
// from the slot once it is set; a slot set for another fact, or under an
// epoch a write has replaced, still gives the card asked for.
func TestCardSlots(t *testing.T) {
	st := storetest.Open(t)
	clock := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	svc := NewService(st, nil, authority.MustDefaultOrder())
	caller := authority.Identity{UserID: "u", Org: "o", Authority: "manager", Kind: authority.KindAgent}
	p := partition(t, caller)
	sp := p.Shared()
	write := func(id, key, value string) {
		t.Helper()
		f := Fact{ID: id, Key: key, Value: []byte(value), MemoryType: MemoryOrganizational, Scope: ScopeGlobal, ValidFrom: clock, RecordedAt: clock}
		err := st.Update(context.Background(), p, func(tx *store.Txn) error {
			if err := svc.Put(tx, sp, f); err != nil {
				return err
			}
			return svc.Index(tx, sp, f)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cards := NewCards()
	read := func(id string, slot *CardSlot) (got, want Card) {
		t.Helper()
		err := st.View(context.Background(), p, func(tx *store.Txn) error {
			epoch, err := cards.Epoch(tx, sp)
			if err != nil {
				return err
			}
			if got, err = cards.ReadSlot(tx, sp, epoch, id, slot); err != nil {
				return err
			}
			want, err = ReadCard(tx, sp, id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return got, want
	}
	write("F-1", "budget", `"$150,000"`)
	write("F-2", "venue", `"Lisbon"`)
	var one, two CardSlot
	for round := range 3 { // a cache miss, then from the slots
		for _, c := range []struct {
			id   string
			slot *CardSlot
		}{{"F-1", &one}, {"F-2", &two}, {"F-1", nil}} {
			if got, want := read(c.id, c.slot); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: ReadSlot(%s) = %+v, ReadCard gives %+v", round, c.id, got, want)
			}
		}
		if one.v.Load() == 0 || two.v.Load() == 0 || one.v.Load() == two.v.Load() {
			t.Fatalf("round %d: slots %x and %x", round, one.v.Load(), two.v.Load())
		}
	}
	// F-1's slot asked for F-2 gives F-2's card, and now names F-2's.
	if got, want := read("F-2", &one); !reflect.DeepEqual(got, want) || one.v.Load() != two.v.Load() {
		t.Fatalf("another fact's slot: %+v, want %+v; slot %x, F-2's %x", got, want, one.v.Load(), two.v.Load())
	}
	write("F-2", "venue", `"Porto"`) // a new epoch: the slots name the old generation
	if got, want := read("F-2", &two); !reflect.DeepEqual(got, want) || got.Text != "Porto" {
		t.Fatalf("after a write: %+v, want %+v", got, want)
	}
}
