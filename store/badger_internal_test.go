package store

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBadgerSyncFinalLogs: every memtable log is synced while it may still
// be written, and once more after a newer one appeared; then never again.
// The directory is synced when a log appeared.
func TestBadgerSyncFinalLogs(t *testing.T) {
	dir := t.TempDir()
	touch := func(name string) { touchFiles(t, dir, name) }
	steps := []syncStep{
		{"first sync", func() { touch("00001.mem"); touch("000001.sst") }, []string{"00001.mem", "."}},
		{"the log is written", func() {}, []string{"00001.mem"}},
		{"rotation: both logs and the directory", func() { touch("00002.mem") }, []string{"00001.mem", "00002.mem", "."}},
		{"the old log is final", func() {}, []string{"00002.mem"}},
		{"flushed and deleted", func() { _ = os.Remove(filepath.Join(dir, "00001.mem")) }, []string{"00002.mem"}},
		{"two rotations", func() { touch("00003.mem"); touch("00004.mem") }, []string{"00002.mem", "00003.mem", "00004.mem", "."}},
		{"only the newest again", func() {}, []string{"00004.mem"}},
	}
	runSyncSteps(t, dir, steps)
}

// TestBadgerSyncNumbersOutgrowTheirWidth: Badger pads a log's number to
// five digits, which 100000 outgrows; it is still the newest.
func TestBadgerSyncNumbersOutgrowTheirWidth(t *testing.T) {
	dir := t.TempDir()
	touch := func(name string) { touchFiles(t, dir, name) }
	runSyncSteps(t, dir, []syncStep{
		{"first sync", func() { touch("99999.mem") }, []string{"99999.mem", "."}},
		{"rotation past five digits", func() { touch("100000.mem") }, []string{"99999.mem", "100000.mem", "."}},
		{"the six-digit log is the newest", func() {}, []string{"100000.mem"}},
		{"and the one after it is seen", func() { touch("100001.mem") }, []string{"100000.mem", "100001.mem", "."}},
	})
}

// touchFiles creates empty files in dir.
func touchFiles(t testing.TB, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// touchTables creates n empty table files in dir.
func touchTables(t testing.TB, dir string, n int) {
	t.Helper()
	for i := range n {
		touchFiles(t, dir, fmt.Sprintf("%06d.sst", i))
	}
}

// syncStep is a change to a Badger directory and the paths (relative to
// it) the next sync must sync, in order.
type syncStep struct {
	name   string
	do     func()
	synced []string
}

// runSyncSteps runs one badgerSync over dir through steps.
func runSyncSteps(t *testing.T, dir string, steps []syncStep) {
	t.Helper()
	var synced []string
	sync := badgerSyncWith(dir, func(path string) error {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		synced = append(synced, rel)
		return nil
	})
	for _, st := range steps {
		synced = nil
		st.do()
		if err := sync(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if !slices.Equal(synced, st.synced) {
			t.Errorf("%s: synced %q, want %q", st.name, synced, st.synced)
		}
	}
}

// TestBadgerSyncDoesNotList: once a sync has listed the directory, the
// next ones, while no log follows the newest, sync it without listing the
// directory again (whose entries would cost an allocation each).
func TestBadgerSyncDoesNotList(t *testing.T) {
	dir := t.TempDir()
	touchFiles(t, dir, "00007.mem", "00008.mem", "000003.vlog", "MANIFEST", "KEYREGISTRY")
	touchTables(t, dir, 60)
	var synced []string
	sync := badgerSyncWith(dir, func(path string) error {
		synced = append(synced, filepath.Base(path))
		return nil
	})
	if err := sync(); err != nil {
		t.Fatal(err)
	}
	synced = nil
	if err := sync(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"00008.mem"}; !slices.Equal(synced, want) {
		t.Errorf("second sync synced %q, want %q", synced, want)
	}
	allocs := testing.AllocsPerRun(50, func() {
		synced = synced[:0]
		if err := sync(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 10 {
		t.Errorf("a sync allocates %.0f times: it lists the directory's 65 files", allocs)
	}
}

// BenchmarkBadgerSync measures a sync's own work (the directory it reads,
// the files it opens) beside 60 tables, with fdatasync left out.
func BenchmarkBadgerSync(b *testing.B) {
	dir := b.TempDir()
	touchFiles(b, dir, "00007.mem", "000003.vlog", "MANIFEST")
	touchTables(b, dir, 60)
	sync := badgerSyncWith(dir, func(path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		return f.Close()
	})
	b.ReportAllocs()
	for b.Loop() {
		if err := sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBadgerSyncRetriesAfterError: a log whose sync failed is synced
// again, final or not.
func TestBadgerSyncRetriesAfterError(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"00001.mem", "00002.mem"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fail := true
	var synced []string
	sync := badgerSyncWith(dir, func(path string) error {
		synced = append(synced, filepath.Base(path))
		if fail {
			return os.ErrInvalid
		}
		return nil
	})
	if err := sync(); err == nil {
		t.Fatal("a failed fdatasync was not reported")
	}
	fail, synced = false, nil
	if err := sync(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"00001.mem", "00002.mem", filepath.Base(dir)}; !slices.Equal(synced, want) {
		t.Errorf("after a failed sync: synced %q, want %q", synced, want)
	}
}

// TestBadgerLogger: Badger's messages reach slog at their level (info as
// debug), formatted, and only when that level is enabled.
func TestBadgerLogger(t *testing.T) {
	tests := []struct {
		name  string
		level slog.Level
		log   func(badgerLogger)
		want  string
	}{
		{"error", slog.LevelInfo, func(b badgerLogger) { b.Errorf("disk %s", "full") }, `level=ERROR msg=badger msg="disk full"`},
		{"warning", slog.LevelInfo, func(b badgerLogger) { b.Warningf("slow %d", 3) }, `level=WARN msg=badger msg="slow 3"`},
		{"info is debug", slog.LevelDebug, func(b badgerLogger) { b.Infof("flushed %d", 1) }, `level=DEBUG msg=badger msg="flushed 1"`},
		{"debug is silent at info", slog.LevelInfo, func(b badgerLogger) { b.Debugf("write %d", 1); b.Infof("x") }, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}})
			tc.log(badgerLogger{slog.New(h)})
			if got := strings.TrimSpace(buf.String()); got != tc.want {
				t.Errorf("logged %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCloseWaitsForOpenTransactions: Close waits for a transaction begun
// before it (a change-feed stream still reading while the server shuts
// down), which then iterates without meeting a closed database, and
// refuses transactions begun after it.
func TestCloseWaitsForOpenTransactions(t *testing.T) {
	s, err := Open(Options{InMemory: true, MaxRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	txn, err := s.eng.Begin(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a transaction was open", err)
	case <-time.After(100 * time.Millisecond):
	}
	it := txn.NewIterator(IterOptions{Prefix: []byte{0}})
	for it.Seek([]byte{0}); it.Valid(); it.Next() {
	}
	it.Close()
	txn.Discard()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return after the transaction ended")
	}
	if _, err := s.eng.Begin(context.Background(), false); err == nil {
		t.Error("a transaction began after Close")
	}
}
