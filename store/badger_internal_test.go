package store

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBadgerSyncFinalLogs: every memtable log is synced while it may still
// be written, and once more after a newer one appeared; then never again.
// The directory is synced when a log appeared.
func TestBadgerSyncFinalLogs(t *testing.T) {
	dir := t.TempDir()
	var synced []string
	sync := badgerSyncWith(dir, func(path string) error {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		synced = append(synced, rel)
		return nil
	})
	touch := func(name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name   string
		do     func()
		synced []string
	}{
		{"first sync", func() { touch("00001.mem"); touch("000001.sst") }, []string{"00001.mem", "."}},
		{"the log is written", func() {}, []string{"00001.mem"}},
		{"rotation: both logs and the directory", func() { touch("00002.mem") }, []string{"00001.mem", "00002.mem", "."}},
		{"the old log is final", func() {}, []string{"00002.mem"}},
		{"flushed and deleted", func() { _ = os.Remove(filepath.Join(dir, "00001.mem")) }, []string{"00002.mem"}},
		{"two rotations", func() { touch("00003.mem"); touch("00004.mem") }, []string{"00002.mem", "00003.mem", "00004.mem", "."}},
		{"only the newest again", func() {}, []string{"00004.mem"}},
	}
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
