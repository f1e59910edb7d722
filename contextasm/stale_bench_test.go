package contextasm

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/benchcpu"
)

// BenchmarkStaleValues prepares the retired values of an assembly at
// 100,000 facts (BenchmarkAssembleContext's): 130 current values and 120
// retired ones, of eight words each from a vocabulary of 2,000, for eight
// turns of ten sentences and five sentences.
func BenchmarkStaleValues(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	value := func() string {
		w := make([]string, 8)
		for i := range w {
			w[i] = "w" + strconv.FormatInt(int64(rng.Intn(2000))*7919+1000, 36)
		}
		return strings.Join(w, " ")
	}
	current := make([]string, 130)
	for i := range current {
		current[i] = value()
	}
	retired := make([]Retired, 120)
	for i := range retired {
		retired[i] = Retired{ID: strconv.Itoa(i), Value: value(), New: current[i]}
	}
	texts := make([]string, 13) // eight turns of ten sentences, five sentences
	for i := range texts {
		n := 1
		if i < 8 {
			n = 10
		}
		s := make([]string, n)
		for j := range s {
			s[j] = "We talked about " + value() + "."
		}
		texts[i] = strings.Join(s, " ")
	}
	staleValues(retired, current, texts) // remember the distinctive values
	b.ReportAllocs()
	cpu0 := benchcpu.Used()
	for b.Loop() {
		staleValues(retired, current, texts)
	}
	b.ReportMetric(float64((benchcpu.Used()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
