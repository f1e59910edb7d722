package contextasm

import (
	"encoding/binary"
	"slices"
	"strconv"
	"testing"
	"time"
)

// FuzzRankQueue: popping the queue while a stop rule allows, then taking
// the ones always taken, gives exactly what walking the fully sorted
// candidates does (every one before the stop, only the always ones
// after), whatever the scores and times (ties included), the IDs' order
// and the point where the stop falls. IDs are distinct, as the source's
// are (one candidate per fact).
func FuzzRankQueue(f *testing.F) {
	f.Add([]byte{}, 0)
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 2)
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0}, 3)
	f.Fuzz(func(t *testing.T, raw []byte, stop int) {
		var cs []candidate
		for i := 0; len(raw) >= 4; i++ {
			b := raw[:4]
			raw = raw[4:]
			cs = append(cs, candidate{
				score:  float64(b[0] % 5),
				at:     time.Unix(int64(b[1]%4), 0),
				id:     string(rune('a'+b[2]%6)) + strconv.Itoa(i),
				always: b[3]%3 == 0,
				space:  int(binary.LittleEndian.Uint16([]byte{b[2], b[3]})),
			})
		}
		ptrs := func() []*candidate {
			out := make([]*candidate, len(cs))
			for i := range cs {
				out[i] = &cs[i]
			}
			return out
		}
		sorted := ptrs()
		slices.SortStableFunc(sorted, compareCandidates)
		var want []*candidate
		taken := 0
		for _, c := range sorted {
			if taken >= stop && !c.always {
				continue
			}
			want = append(want, c)
			if !c.always {
				taken++
			}
		}
		q := newRankQueue(ptrs())
		var got []*candidate
		taken = 0
		for q.len() > 0 && taken < stop {
			c := q.pop()
			got = append(got, c)
			if !c.always {
				taken++
			}
		}
		got = append(got, q.always()...)
		if !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", describe(got), describe(want))
		}
	})
}

func describe(cs []*candidate) []candidate {
	out := make([]candidate, len(cs))
	for i, c := range cs {
		out[i] = *c
	}
	return out
}
