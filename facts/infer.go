package facts

import (
	"regexp"

	"github.com/stategraph/stategraph/authority"
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

// constraintRules are checked in order; the first match names the type.
// Each is a phrase family that states an obligation or a bound.
var constraintRules = []struct {
	typ string
	re  *regexp.Regexp
}{
	// A prohibition: something must not happen.
	{"PROHIBITION", regexp.MustCompile(`(?i)\b(must not|must never|never|do not|don't|cannot|can't|prohibited|forbidden|not allowed|not permitted)\b`)},
	// A bound on an amount: a cap, ceiling or maximum.
	{"LIMIT", regexp.MustCompile(`(?i)\b(max|maximum|at most|no more than|not exceed|cannot exceed|up to|cap|capped|ceiling|limit|limited to)\b`)},
	// A deadline: a time something must happen by.
	{"DEADLINE", regexp.MustCompile(`(?i)\b(deadline|due (by|on)|no later than|must be (done|completed|delivered|submitted) by)\b`)},
	// An obligation.
	{"REQUIREMENT", regexp.MustCompile(`(?i)\b(must|required|requires|mandatory|shall|have to|has to)\b`)},
	// A standing rule.
	{"POLICY", regexp.MustCompile(`(?i)\b(policy|rule|regulation|compliance)\b`)},
}

// InferConstraint says whether a fact's text states a constraint, and of
// which type. Policy sources are always constraints.
func InferConstraint(text string, src SourceType) (bool, string) {
	for _, r := range constraintRules {
		if r.re.MatchString(text) {
			return true, r.typ
		}
	}
	if src == SourcePolicy {
		return true, "POLICY"
	}
	return false, ""
}
