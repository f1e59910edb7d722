// Package ids makes the ids of new records: a kind prefix ("F-", "T-",
// "AU-" ...) and a ULID whose time is the service clock's reading and
// whose random part comes from the generator's entropy: crypto/rand in
// production, a seeded stream in replays, so that a replay on a manual
// clock makes the same ids every time it runs.
package ids

import (
	"crypto/rand"
	"encoding/binary"
	"io"
	"math/bits"
	mrand "math/rand/v2"
	"sync"

	"github.com/oklog/ulid/v2"

	"github.com/stategraph/stategraph/temporal"
)

// Generator makes ids. It is safe for concurrent use. A nil *Generator is
// usable and behaves as ulid.Make: the wall clock and crypto entropy.
//
// Ids made within one millisecond of the clock increase (monotonic
// entropy), so a clock that stands still still yields distinct, ordered
// ids.
type Generator struct {
	clock temporal.Clock
	mu    sync.Mutex
	src   *ulid.MonotonicEntropy
}

// New returns a Generator reading the time from clock, with crypto
// entropy.
func New(clock temporal.Clock) *Generator {
	return &Generator{clock: clock, src: ulid.Monotonic(rand.Reader, 0)}
}

// Seeded returns a Generator reading the time from clock, with entropy
// from a stream seeded with seed: the same seed and the same clock
// readings give the same ids.
func Seeded(clock temporal.Clock, seed uint64) *Generator {
	g := &Generator{clock: clock}
	g.Reseed(seed)
	return g
}

// Reseed restarts a seeded generator's entropy from seed (a replay does
// at the start of each timeline, so that its ids do not depend on what the
// generator made before). On a generator made by New it switches to the
// seeded stream.
func (g *Generator) Reseed(seed uint64) {
	var key [32]byte
	for i := range 4 {
		// splitmix64 spreads a small seed over the whole key.
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		binary.LittleEndian.PutUint64(key[8*i:], z^z>>31)
	}
	g.mu.Lock()
	g.src = ulid.Monotonic(mrand.NewChaCha8(key), 0)
	g.mu.Unlock()
}

// SeedOf derives a seed from a name (a timeline's id) and a base seed.
func SeedOf(base uint64, name string) uint64 {
	// FNV-1a, then mixed with the base.
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return bits.RotateLeft64(h, 17) ^ base
}

// New returns prefix followed by a fresh ULID.
func (g *Generator) New(prefix string) string { return prefix + g.ULID().String() }

// ULID returns a fresh ULID: the clock's millisecond (clamped to the range
// a ULID holds) and the next bits of the entropy.
func (g *Generator) ULID() ulid.ULID {
	if g == nil {
		return ulid.Make()
	}
	ms := int64(0)
	if t := g.clock.Now(); t.Unix() >= 0 {
		ms = t.UnixMilli()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	id, err := ulid.New(min(uint64(ms), ulid.MaxTime()), g.src)
	if err != nil {
		// Only a monotonic overflow (2^80 ids in one millisecond) or a
		// failing entropy source gets here: fall back to fresh bits
		// rather than fail a write.
		return ulid.MustNew(min(uint64(ms), ulid.MaxTime()), io.Reader(rand.Reader))
	}
	return id
}
