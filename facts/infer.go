package facts

import (
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/constraint"
)

// InferMemoryType applies the specification's rules when a write names no
// memory type: what a user said about themselves is user memory; what a
// tool learned for an agent with a capability is that capability's memory;
// policies, system data and external documents are organizational
// knowledge.
func InferMemoryType(src SourceType, caller authority.Identity) MemoryType {
	switch src {
	case SourceUser:
		return MemoryUser
	case SourceTool:
		if caller.Capability != "" {
			return MemoryCapability
		}
	}
	return MemoryOrganizational
}

// DefaultSource is the source of a write that names none: the caller.
func DefaultSource(caller authority.Identity) Source {
	t := SourceUser
	switch caller.Kind {
	case authority.KindAgent:
		t = SourceTool
	case authority.KindService:
		t = SourceSystem
	}
	ident := caller.UserName
	if ident == "" {
		ident = caller.UserID
	}
	return Source{Type: t, Authority: caller.Authority, Identity: ident}
}

// InferConstraint says whether a fact's text states a constraint, and of
// which type of the constraint taxonomy. Policy sources are always
// constraints.
func InferConstraint(text string, src SourceType) (bool, string) {
	if m, ok := constraint.Classify(text); ok {
		return true, string(m.Type)
	}
	if src == SourcePolicy {
		return true, string(constraint.Policy)
	}
	return false, ""
}
