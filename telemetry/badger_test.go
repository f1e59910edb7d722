package telemetry

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

type fakeDB struct {
	lsm, vlog int64
	levels    []badger.LevelInfo
}

func (f fakeDB) Size() (int64, int64)       { return f.lsm, f.vlog }
func (f fakeDB) Levels() []badger.LevelInfo { return f.levels }

func TestBadgerCollectorFake(t *testing.T) {
	tests := []struct {
		name        string
		db          fakeDB
		wantPending int
	}{
		{"empty", fakeDB{}, 0},
		{"below threshold", fakeDB{lsm: 10, vlog: 20, levels: []badger.LevelInfo{{Score: 0}, {Score: 0.99}}}, 0},
		{"two levels over", fakeDB{lsm: 1 << 30, vlog: 1 << 31, levels: []badger.LevelInfo{{Score: 1}, {Score: 0.5}, {Score: 3.2}}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := fmt.Sprintf(`
# HELP stategraph_badger_lsm_bytes Size of Badger's LSM tree in bytes, as last computed by Badger (about once a minute).
# TYPE stategraph_badger_lsm_bytes gauge
stategraph_badger_lsm_bytes %d
# HELP stategraph_badger_pending_compactions LSM levels over their compaction threshold (compaction score >= 1), i.e. that Badger would compact now.
# TYPE stategraph_badger_pending_compactions gauge
stategraph_badger_pending_compactions %d
# HELP stategraph_badger_vlog_bytes Size of Badger's value log in bytes, as last computed by Badger (about once a minute).
# TYPE stategraph_badger_vlog_bytes gauge
stategraph_badger_vlog_bytes %d
`, tc.db.lsm, tc.wantPending, tc.db.vlog)
			if err := testutil.CollectAndCompare(NewBadgerCollector(tc.db), strings.NewReader(want)); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestBadgerCollectorLint(t *testing.T) {
	problems, err := testutil.CollectAndLint(NewBadgerCollector(fakeDB{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

func openBadger(t testing.TB, opts badger.Options) *badger.DB {
	t.Helper()
	db, err := badger.Open(opts.WithLogger(nil))
	if err != nil {
		t.Fatalf("open badger: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("close badger: %v", err)
		}
	})
	return db
}

func gauge(t testing.TB, c prometheus.Collector, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	got := series(t, reg, name)
	v, ok := got[""]
	if !ok || len(got) != 1 {
		t.Fatalf("%s: series %v, want one unlabelled", name, got)
	}
	return v
}

// TestBadgerPendingCompactions builds an L0 backlog in a real in-memory
// database with compaction disabled and checks that the collector sees it.
func TestBadgerPendingCompactions(t *testing.T) {
	const memtable = 64 << 10
	db := openBadger(t, badger.DefaultOptions("").WithInMemory(true).
		WithMemTableSize(memtable).WithValueThreshold(1024).WithNumCompactors(0).
		WithNumLevelZeroTables(2).WithNumLevelZeroTablesStall(100))
	c := NewBadgerCollector(db)
	if got := gauge(t, c, "stategraph_badger_pending_compactions"); got != 0 {
		t.Fatalf("fresh db: pending = %v, want 0", got)
	}
	// Fill several memtables; full ones are flushed to L0 in the background,
	// so wait until L0 holds enough tables (no compactor removes them).
	for i := range 4 * memtable / 512 {
		err := db.Update(func(txn *badger.Txn) error {
			return txn.Set(fmt.Appendf(nil, "k%05d", i), make([]byte, 512))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; db.Levels()[0].NumTables < 2; i++ {
		if i == 1000 {
			t.Fatalf("L0 has %d tables after 10 s, the test needs 2", db.Levels()[0].NumTables)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := gauge(t, c, "stategraph_badger_pending_compactions"); got != 1 {
		t.Errorf("L0 over threshold: pending = %v, want 1 (levels %+v)", got, db.Levels())
	}
}

// TestBadgerSize checks the size gauges against an on-disk database, whose
// sizes Badger computes when it opens.
func TestBadgerSize(t *testing.T) {
	dir := t.TempDir()
	db, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(txn *badger.Txn) error {
		for i := range 100 {
			if err := txn.Set(fmt.Appendf(nil, "k%03d", i), make([]byte, 2048)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil { // flushes the memtable to an SST
		t.Fatal(err)
	}
	db = openBadger(t, badger.DefaultOptions(dir))
	c := NewBadgerCollector(db)
	lsm, vlog := db.Size()
	if lsm <= 0 || vlog <= 0 {
		t.Fatalf("badger reports lsm=%d vlog=%d, the test needs both > 0", lsm, vlog)
	}
	if got := gauge(t, c, "stategraph_badger_lsm_bytes"); got != float64(lsm) {
		t.Errorf("lsm gauge = %v, want %d", got, lsm)
	}
	if got := gauge(t, c, "stategraph_badger_vlog_bytes"); got != float64(vlog) {
		t.Errorf("vlog gauge = %v, want %d", got, vlog)
	}
}
