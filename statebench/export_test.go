package statebench

import (
	"fmt"
	"io"
	"math/rand/v2"
)

// LongOfTurns writes one conversation shaped like Long's but of about
// turns turns (at least 40): what a test under the race detector can
// afford to replay.
func LongOfTurns(w io.Writer, turns int, seed uint64) error {
	if turns < 40 {
		return fmt.Errorf("statebench: a long conversation needs at least 40 turns, not %d", turns)
	}
	g := newConvGen(rand.New(rand.NewPCG(seed, 0x10c0ffee)))
	return writeLine(w, g.long(fmt.Sprintf("LONG-%d-T%d", seed, turns), turns))
}
