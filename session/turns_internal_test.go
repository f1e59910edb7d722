package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// TestTurnsTxForwardHint: TurnsTx answers from its forward scan (from the
// key remembered from the session's previous call) exactly what the
// reverse scan answers, whatever happened since: turns recorded after it,
// a turn recorded in the past (below the remembered key), turns removed,
// views of the past, a limit larger than the session.
func TestTurnsTxForwardHint(t *testing.T) {
	st := storetest.Open(t)
	clock := temporal.NewManual(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	svc := NewService(st, clock, nil)
	_, p := storetest.Verified(t, authority.Identity{Org: "acme", UserID: "alice", Authority: "manager", Kind: authority.KindUser})
	update := func(fn func(tx *store.Txn) error) {
		t.Helper()
		if err := st.Update(context.Background(), p, fn); err != nil {
			t.Fatal(err)
		}
	}
	record := func(session string, at *time.Time) {
		t.Helper()
		clock.Advance(time.Second)
		update(func(tx *store.Txn) error {
			_, err := svc.RecordTurnTx(tx, TurnInput{SessionID: session, Speaker: SpeakerUser, Text: "turn", At: at})
			return err
		})
	}
	// check compares TurnsTx, with whatever start its last call left, with
	// the reverse scan alone, for several limits and views.
	check := func(step string) {
		t.Helper()
		past := clock.Now().Add(-5 * time.Second)
		for _, session := range []string{"s1", "s2"} {
			for _, v := range []temporal.View{{}, {KnownAt: &past}} {
				for _, limit := range []int{1, 3, 11, 40} {
					var got, want []Turn
					update(func(tx *store.Txn) error {
						var err error
						if got, err = TurnsTx(tx, session, v, limit); err != nil {
							return err
						}
						hints := turnStarts.m
						turnStarts.m = map[turnStartKey][]byte{}
						want, err = TurnsTx(tx, session, v, limit)
						turnStarts.m = hints
						return err
					})
					ids := func(ts []Turn) []string {
						var out []string
						for _, t := range ts {
							out = append(out, t.ID)
						}
						return out
					}
					if !slices.Equal(ids(got), ids(want)) {
						t.Errorf("%s: %s, known at %v, limit %d: got %v, want %v", step, session, v.KnownAt != nil, limit, ids(got), ids(want))
					}
				}
			}
		}
	}
	check("no turns")
	for i := range 30 {
		record(fmt.Sprintf("s%d", 1+i%2), nil)
		if i%7 == 0 {
			check(fmt.Sprintf("after %d turns", i+1))
		}
	}
	check("30 turns")
	old := clock.Now().Add(-time.Hour)
	record("s1", &old) // below every remembered start
	check("a turn in the past")
	for range 3 {
		record("s1", nil)
	}
	check("three more")
	// Remove the newest turns of s1: fewer than a limit lie above the
	// remembered start.
	update(func(tx *store.Txn) error {
		sp := tx.Partition().Private()
		var keys [][]byte
		err := tx.Scan(sp, store.TableTurn, store.Suffix(nil).Str("s1"), store.ScanOptions{Reverse: true, KeysOnly: true},
			func(suffix []byte, _ store.Item) (bool, error) {
				keys = append(keys, slices.Clone(suffix))
				return len(keys) < 8, nil
			})
		for _, k := range keys {
			err = errors.Join(err, tx.Delete(sp, store.TableTurn, k))
		}
		return err
	})
	check("eight removed")
	for range 300 {
		record("s2", nil)
	}
	check("more turns than a forward scan reads")
}

// BenchmarkTurnsTx reads a session's latest 11 turns (what every recorded
// turn reads) among 200 turns of 4 sessions: forward from the remembered
// start (hint=on) or in reverse (hint=off).
func BenchmarkTurnsTx(b *testing.B) {
	st := storetest.Open(b)
	clock := temporal.NewManual(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	svc := NewService(st, clock, nil)
	_, p := storetest.Verified(b, authority.Identity{Org: "acme", UserID: "alice", Authority: "manager", Kind: authority.KindUser})
	for i := range 200 {
		clock.Advance(time.Second)
		if err := st.Update(context.Background(), p, func(tx *store.Txn) error {
			_, err := svc.RecordTurnTx(tx, TurnInput{SessionID: fmt.Sprintf("s%d", i%4), Speaker: SpeakerUser, Text: "The budget for project 12 is $45k."})
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
	for _, hint := range []bool{true, false} {
		b.Run(fmt.Sprintf("hint=%v", map[bool]string{true: "on", false: "off"}[hint]), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if !hint {
					turnStarts.mu.Lock()
					clear(turnStarts.m)
					turnStarts.mu.Unlock()
				}
				if err := st.View(context.Background(), p, func(tx *store.Txn) error {
					_, err := TurnsTx(tx, "s1", temporal.View{}, 11)
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
