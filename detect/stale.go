package detect

import (
	"sort"
	"time"
)

// Change is one replacement the conversation made: Old gave way to New at
// At, for Key ("" when only turns were involved). Build it from a Detection
// with Detection.Change.
type Change struct {
	Key, Old, New string
	At            time.Time
}

// Change returns the change d records, as of at.
func (d Detection) Change(at time.Time) Change {
	return Change{Key: d.Key, Old: d.Previous, New: d.Replacement, At: at}
}

// Stale reports whether write restates a value the conversation has already
// replaced: the latest change (by At, then slice order) that names the
// write's value, for a related key, names it as the old value, and the write
// is not newer than that change. A value restored later ("let's go back to
// X") is current again, so a write of it is not stale.
func Stale(write Record, changes []Change) bool {
	_, ok := StaleBy(write, changes)
	return ok
}

// StaleBy is Stale that also returns the change that retired the write's
// value.
func StaleBy(write Record, changes []Change) (Change, bool) {
	val := bare(write.Value)
	if val == "" {
		return Change{}, false
	}
	cs := append([]Change(nil), changes...)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].At.Before(cs[j].At) })
	var retired *Change
	for i, c := range cs {
		if !relatedKeys(write.Key, c.Key) {
			continue
		}
		switch {
		case sameValue(val, c.New):
			retired = nil
		case sameValue(val, c.Old):
			retired = &cs[i]
		}
	}
	if retired != nil && (write.At.IsZero() || !write.At.After(retired.At)) {
		return *retired, true
	}
	return Change{}, false
}

// Touches reports whether change c can matter to StaleBy for write: it is
// about a related key and names the write's value, as old or new value.
// A caller that must judge only some changes (those a reader may know)
// needs to vet only these.
func Touches(write Record, c Change) bool {
	val := bare(write.Value)
	return val != "" && relatedKeys(write.Key, c.Key) && (sameValue(val, c.New) || sameValue(val, c.Old))
}

// relatedKeys reports whether two keys can name the same slot: either is
// empty, or they share a word ("approved_budget" and "budget_v2").
func relatedKeys(a, b string) bool {
	return a == "" || b == "" || overlap(terms(a), terms(b)) > 0
}

// sameValue reports whether a and b state the same value: one contains the
// other, or they carry the same strong typed values.
func sameValue(a, b string) bool {
	b = bare(b)
	if b == "" {
		return false
	}
	if containsFold(a, b) || containsFold(b, a) {
		return true
	}
	av, bv := extractValues(a), extractValues(b)
	return coveredBy(av, bv) && coveredBy(bv, av)
}
