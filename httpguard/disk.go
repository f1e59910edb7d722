package httpguard

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrLowDisk is matched by the error DiskGuard.Check returns when free space
// is below the minimum; errors.As with *LowDiskError gives the figures.
var ErrLowDisk = errors.New("httpguard: low disk space")

// ErrDiskUnknown is returned by FreeBytes where free space cannot be measured
// (operating systems other than Linux). DiskGuard then lets writes through.
var ErrDiskUnknown = errors.New("httpguard: free disk space unknown on this platform")

// LowDiskError reports free space below the minimum. It unwraps to ErrLowDisk.
type LowDiskError struct {
	Dir  string
	Free uint64 // bytes available to the process
	Min  uint64 // the configured minimum
}

func (e *LowDiskError) Error() string {
	return fmt.Sprintf("httpguard: low disk space: %s has %d bytes free, minimum %d", e.Dir, e.Free, e.Min)
}

// Unwrap returns ErrLowDisk.
func (e *LowDiskError) Unwrap() error { return ErrLowDisk }

// Probe returns the bytes available to the process on the file system of dir.
type Probe func(dir string) (free uint64, err error)

// cacheFor is how long DiskGuard reuses a probe result.
const cacheFor = time.Second

// DiskGuard refuses work when the file system holding a directory (the
// Badger directory) runs low, before Badger fails half-way through a write.
// It probes at most once per second and is safe for concurrent use.
type DiskGuard struct {
	dir   string
	min   uint64
	probe Probe
	now   func() time.Time

	mu      sync.Mutex
	checked time.Time
	err     error
}

// NewDiskGuard returns a guard requiring minFree bytes free in dir, measured
// with probe (FreeBytes in production).
func NewDiskGuard(dir string, minFree uint64, probe Probe) *DiskGuard {
	return &DiskGuard{dir: dir, min: minFree, probe: probe, now: time.Now}
}

// Check returns nil when enough space is free, a *LowDiskError (matching
// ErrLowDisk) when not, and the probe's error, wrapped, when it fails. Where
// free space is unknown (ErrDiskUnknown) it returns nil. Write paths call it
// before writing; results are cached for a second.
func (g *DiskGuard) Check() error {
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.checked.IsZero() && now.Sub(g.checked) < cacheFor {
		return g.err
	}
	g.checked, g.err = now, g.measure()
	return g.err
}

func (g *DiskGuard) measure() error {
	free, err := g.probe(g.dir)
	switch {
	case errors.Is(err, ErrDiskUnknown):
		return nil
	case err != nil:
		return fmt.Errorf("httpguard: measure free space of %s: %w", g.dir, err)
	case free < g.min:
		return &LowDiskError{Dir: g.dir, Free: free, Min: g.min}
	}
	return nil
}

// Ready is Check in the form Readyz takes.
func (g *DiskGuard) Ready(context.Context) error { return g.Check() }
