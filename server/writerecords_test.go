package server_test

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
	"github.com/stategraph/stategraph/store"
)

// TestWriteFactRecords lists, by table, the records one writeFact stores
// (written, rewritten or deleted: each is one entry of the storage
// engine's commit, a skiplist insert and a log record), for a new key, a
// supersession that changes words, and one that restates the same words.
// It is what a write costs in records; a change of the layout shows here
// (testdata/writefact_records.golden). Statistics shards are drawn at
// random, so a statistics record is counted as one entry whether the
// write created, rewrote or deleted it.
func TestWriteFactRecords(t *testing.T) {
	env := apitest.New(t, apitest.OnBadger(t))
	tok := apitest.Token(t, apitest.Identity("acme", "writer"))
	db := env.Server.Store().Badger()
	const write = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`
	steps := []struct {
		name string
		in   map[string]any
	}{
		{"a new key", map[string]any{"key": "launch.date", "value": "The launch moves to March 12 in Porto"}},
		{"a supersession changing words", map[string]any{"key": "launch.date", "value": "The launch moves to April 2 in Porto", "supersedes": "launch.date"}},
		{"a supersession keeping the words", map[string]any{"key": "launch.date", "value": "The launch moves to Porto in April 2", "supersedes": "launch.date"}},
	}
	var out strings.Builder
	before := versions(t, db)
	for _, s := range steps {
		if r := env.Do(t, tok, write, map[string]any{"in": s.in}); len(r.Errors) > 0 {
			t.Fatalf("%s: %s", s.name, r)
		}
		after := versions(t, db)
		byTable := map[string]int{}
		total := 0
		for k, v := range after {
			if before[k] != v {
				byTable[tableOf(t, k)]++
				total++
			}
		}
		for k := range before {
			if _, ok := after[k]; !ok {
				byTable[tableOf(t, k)]++
				total++
			}
		}
		fmt.Fprintf(&out, "%s: %d records\n", s.name, total)
		for _, tb := range slices.Sorted(maps.Keys(byTable)) {
			fmt.Fprintf(&out, "  %-40s %d\n", tb, byTable[tb])
		}
		before = after
	}
	golden.Check(t, "writefact_records.golden", out.String())
}

// versions returns every key of db with the version (commit timestamp) of
// its latest write.
func versions(t *testing.T, db *badger.DB) map[string]uint64 {
	t.Helper()
	m := map[string]uint64{}
	err := db.View(func(txn *badger.Txn) error {
		o := badger.DefaultIteratorOptions
		o.PrefetchValues = false
		it := txn.NewIterator(o)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			m[string(it.Item().Key())] = it.Item().Version()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// tableNames name the tables of store/keys.go a writeFact touches.
var tableNames = map[store.Table]string{
	store.TableFact:           "F fact",
	store.TableFactCard:       "f card",
	store.TableFactCardEpoch:  "g card epoch (and corpus version)",
	store.TableFactByKey:      "K by key",
	store.TableFactByTime:     "T by time",
	store.TableFactValid:      "H valid head",
	store.TableAudit:          "L audit entry",
	store.TableAuditByRec:     "l audit by record",
	store.TableSearchLive:     "I live posting",
	store.TableSearchHist:     "i history posting",
	store.TableSearchStats:    "S statistics shard",
	store.TableSearchVersion:  "s statistics version",
	store.TableFactRestricted: "z restricted marker",
}

// tableOf names the table of a tenant key (org seg, space kind, owner
// seg, table, suffix), or says the key is the system's.
func tableOf(t *testing.T, k string) string {
	t.Helper()
	seg := func(k string) (string, string) {
		if len(k) < 2 || len(k) < 2+int(binary.BigEndian.Uint16([]byte(k))) {
			t.Fatalf("key %q: short segment", k)
		}
		n := int(binary.BigEndian.Uint16([]byte(k)))
		return k[2 : 2+n], k[2+n:]
	}
	org, rest := seg(k)
	if org == "" {
		return "system"
	}
	_, rest = seg(rest[1:]) // the space kind, then the owner
	if rest == "" {
		t.Fatalf("key %q: no table", k)
	}
	if name, ok := tableNames[store.Table(rest[0])]; ok {
		return name
	}
	return fmt.Sprintf("%c", rest[0])
}
