package facts

import (
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/tenancy"
)

// SpaceOf returns the space of partition p that facts of memory type mt
// live in: user memory in the caller's private space, capability memory
// in the capability's space, organizational knowledge (and any other
// type) in the organization's shared space. It is the one mapping from
// memory types to spaces; facts, search and conflicts all use it.
// Capability memory in a partition without a capability is a
// BAD_USER_INPUT fault.
func SpaceOf(p tenancy.Partition, mt MemoryType) (tenancy.Space, error) {
	switch mt {
	case MemoryUser:
		return p.Private(), nil
	case MemoryCapability:
		sp, ok := p.Capability()
		if !ok {
			return tenancy.Space{}, fault.BadInputf("memoryType", "capability memory needs a token with a capability claim")
		}
		return sp, nil
	default:
		return p.Shared(), nil
	}
}

// NarrowestSpace returns the narrowest of the spaces of fs in p, where a
// record about all of them belongs: a user's private space, else a
// capability's, else the shared space (also for no facts).
func NarrowestSpace(p tenancy.Partition, fs ...Fact) (tenancy.Space, error) {
	out := p.Shared()
	for _, f := range fs {
		sp, err := SpaceOf(p, f.MemoryType)
		if err != nil {
			return tenancy.Space{}, err
		}
		if narrowness(sp.Kind()) > narrowness(out.Kind()) {
			out = sp
		}
	}
	return out, nil
}

// narrowness orders space kinds, widest first.
func narrowness(k tenancy.SpaceKind) int {
	switch k {
	case tenancy.SpacePrivate:
		return 2
	case tenancy.SpaceCapability:
		return 1
	}
	return 0
}
