package httpguard

import (
	"errors"
	"os"
	"runtime"
	"testing"
	"time"
)

func TestDiskGuardCheck(t *testing.T) {
	errIO := errors.New("io error")
	tests := []struct {
		name    string
		free    uint64
		probeEr error
		wantErr error // matched with errors.Is; nil means no error
	}{
		{"plenty", 10 << 30, nil, nil},
		{"exactly the minimum", 1 << 30, nil, nil},
		{"low", 1<<30 - 1, nil, ErrLowDisk},
		{"probe fails", 0, errIO, errIO},
		{"unknown platform", 0, ErrDiskUnknown, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewDiskGuard("/data", 1<<30, func(dir string) (uint64, error) {
				if dir != "/data" {
					t.Errorf("probe dir = %q, want /data", dir)
				}
				return tc.free, tc.probeEr
			})
			err := g.Check()
			if (err == nil) != (tc.wantErr == nil) || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Fatalf("Check() = %v, want %v", err, tc.wantErr)
			}
			var low *LowDiskError
			if errors.As(err, &low) && (low.Free != tc.free || low.Min != 1<<30 || low.Dir != "/data") {
				t.Errorf("LowDiskError = %+v, want free %d min %d dir /data", low, tc.free, 1<<30)
			}
		})
	}
}

func TestDiskGuardCaches(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	calls := 0
	free := uint64(100)
	g := NewDiskGuard("/data", 50, func(string) (uint64, error) {
		calls++
		return free, nil
	})
	g.now = clk.now

	steps := []struct {
		advance   time.Duration
		free      uint64
		wantCalls int
		wantLow   bool
	}{
		{0, 100, 1, false},
		{500 * time.Millisecond, 10, 1, false}, // cached: the drop is not seen yet
		{499 * time.Millisecond, 10, 1, false},
		{time.Millisecond, 10, 2, true}, // a second after the first probe
		{time.Second, 100, 3, false},
	}
	for i, s := range steps {
		clk.advance(s.advance)
		free = s.free
		err := g.Check()
		if calls != s.wantCalls || errors.Is(err, ErrLowDisk) != s.wantLow {
			t.Errorf("step %d: calls %d, err %v; want calls %d, low %v", i, calls, err, s.wantCalls, s.wantLow)
		}
	}
}

func TestFreeBytes(t *testing.T) {
	free, err := FreeBytes(t.TempDir())
	if runtime.GOOS != "linux" {
		if !errors.Is(err, ErrDiskUnknown) {
			t.Errorf("FreeBytes on %s: %v, want ErrDiskUnknown", runtime.GOOS, err)
		}
		return
	}
	if err != nil || free == 0 {
		t.Errorf("FreeBytes = %d, %v; want > 0", free, err)
	}
	if _, err := FreeBytes("/does/not/exist"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("FreeBytes(missing) error = %v, want ErrNotExist", err)
	}
}
