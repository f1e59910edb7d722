package conflicts

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Policy decides a conflict on its own, deterministically.
type Policy string

// The policies.
const (
	// Latest keeps the most recently recorded candidate.
	Latest Policy = "latest"
	// HighestAuthority keeps the candidate written with the highest
	// authority, then the latest.
	HighestAuthority Policy = "highest_authority"
	// HighestConfidence keeps the candidate with the highest provenance
	// confidence (none counts as 0), then the latest.
	HighestConfidence Policy = "highest_confidence"
)

// Valid reports whether p is a known policy.
func (p Policy) Valid() bool { return p == Latest || p == HighestAuthority || p == HighestConfidence }

// Policies maps a predicate to its policy.
type Policies map[string]Policy

// ParsePolicy parses one "predicate=policy" setting of --conflict-policy.
func ParsePolicy(s string) (predicate string, p Policy, err error) {
	pred, pol, ok := strings.Cut(s, "=")
	pred, pol = strings.TrimSpace(pred), strings.TrimSpace(pol)
	if !ok || pred == "" || pol == "" {
		return "", "", fmt.Errorf("conflict policy %q: want predicate=policy", s)
	}
	if len(pred) > 256 {
		return "", "", fmt.Errorf("conflict policy %q: predicate longer than 256 bytes", s)
	}
	p = Policy(strings.ToLower(pol))
	if !p.Valid() {
		return "", "", fmt.Errorf("conflict policy %q: unknown policy %q (want latest, highest_authority or highest_confidence)", s, pol)
	}
	return pred, p, nil
}

// ParsePolicies parses every setting; a predicate given twice is an error.
func ParsePolicies(settings []string) (Policies, error) {
	out := Policies{}
	for _, s := range settings {
		pred, p, err := ParsePolicy(s)
		if err != nil {
			return nil, err
		}
		if _, dup := out[pred]; dup {
			return nil, fmt.Errorf("conflict policy: predicate %q configured twice", pred)
		}
		out[pred] = p
	}
	return out, nil
}

// Contender is what a policy knows of a candidate.
type Contender struct {
	ID         string
	At         time.Time // when it was recorded
	Rank       int       // authority rank of its writer
	Confidence float64
}

// Select returns the index of the contender p keeps. Ties fall to the
// latest, then the greatest id, so the choice never depends on input order.
// cs must not be empty.
func (p Policy) Select(cs []Contender) int {
	best := 0
	for i := 1; i < len(cs); i++ {
		if p.compare(cs[i], cs[best]) > 0 {
			best = i
		}
	}
	return best
}

func (p Policy) compare(a, b Contender) int {
	var primary int
	switch p {
	case HighestAuthority:
		primary = cmp.Compare(a.Rank, b.Rank)
	case HighestConfidence:
		primary = cmp.Compare(a.Confidence, b.Confidence)
	}
	return cmp.Or(primary, a.At.Compare(b.At), cmp.Compare(a.ID, b.ID))
}

// Names returns the configured predicates, sorted.
func (ps Policies) Names() []string {
	var out []string
	for k := range ps {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
