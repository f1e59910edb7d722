package authority

import (
	"fmt"
	"slices"
	"strings"
)

// DefaultOrder is the authority order, lowest first.
var DefaultOrder = []string{"unverified", "guest", "subordinate", "peer", "employee", "system", "manager", "executive", "policy"}

// Order ranks authority names. The zero rank belongs to the lowest
// authority. A name that is not in the order is mapped through the order's
// role table (WithRoles); what no rule maps ranks as the lowest. It is
// immutable and safe for concurrent use.
type Order struct {
	names []string
	rank  map[string]int
	roles []RoleRule // most specific first
}

// NewOrder returns an Order over names, lowest first, with the default
// role table (see WithRoles).
func NewOrder(names []string) (*Order, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("authority: empty authority order")
	}
	o := &Order{rank: make(map[string]int, len(names))}
	for i, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			return nil, fmt.Errorf("authority: empty name in authority order")
		}
		if _, dup := o.rank[n]; dup {
			return nil, fmt.Errorf("authority: %q appears twice in the authority order", n)
		}
		o.rank[n] = i
		o.names = append(o.names, n)
	}
	return o.WithRoles(nil)
}

// MustDefaultOrder returns the default order with the default role table.
func MustDefaultOrder() *Order {
	o, err := NewOrder(DefaultOrder)
	if err != nil {
		panic(err)
	}
	return o
}

// WithRoles returns a copy of o that maps free-text roles through rules,
// then through the default role table. Every authority a rule names must
// be in the order. Among the rules matching a role, the one with the most
// literal words wins; among equally specific ones, rules wins over the
// defaults, and an earlier rule over a later one. Default rules naming an
// authority that a custom order lacks are dropped.
func (o *Order) WithRoles(rules []RoleRule) (*Order, error) {
	for _, r := range rules {
		if _, ok := o.rank[r.Authority]; !ok {
			return nil, fmt.Errorf("authority: role rule %q maps onto %q, which is not in the authority order %s",
				r.Pattern, r.Authority, strings.Join(o.names, ","))
		}
	}
	all := slices.Clone(rules)
	for _, r := range MustDefaultRoles() {
		if _, ok := o.rank[r.Authority]; ok {
			all = append(all, r)
		}
	}
	slices.SortStableFunc(all, func(a, b RoleRule) int { return b.literal() - a.literal() })
	c := *o
	c.roles = all
	return &c, nil
}

// Resolve returns the name in the order that name stands for: name itself
// when it is in the order, else the authority of the most specific matching
// role rule. ok is false when nothing maps it; such a name ranks lowest.
func (o *Order) Resolve(name string) (resolved string, ok bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if _, in := o.rank[n]; in {
		return n, true
	}
	words := roleWords(n)
	if len(words) == 0 || len(words) > maxRoleWords {
		return "", false
	}
	if _, in := o.rank[strings.Join(words, " ")]; in {
		return strings.Join(words, " "), true
	}
	for _, r := range o.roles {
		if matchWords(r.words, words) {
			return r.Authority, true
		}
	}
	return "", false
}

// maxRoleWords bounds the roles that are matched at all; a longer string is
// not a role and ranks lowest.
const maxRoleWords = 32

// RankOf returns the rank of name, resolved as Resolve does, and false
// when nothing maps it. Callers that must tell an unknown authority from the
// lowest one (detection: an unknown authority never blocks) use it; the
// same role phrase ranks the same in a token and in a conversation turn.
func (o *Order) RankOf(name string) (int, bool) {
	n, ok := o.Resolve(name)
	if !ok {
		return -1, false
	}
	return o.rank[n], true
}

// Rank returns the rank of name, resolved as Resolve does; names that
// resolve to nothing rank lowest (0).
func (o *Order) Rank(name string) int {
	n, _ := o.Resolve(name)
	return o.rank[n]
}

// Lowest returns the lowest authority, the one unknown names rank as.
func (o *Order) Lowest() string { return o.names[0] }

// Known reports whether name is in the order itself (not via a role).
func (o *Order) Known(name string) bool {
	_, ok := o.rank[strings.ToLower(strings.TrimSpace(name))]
	return ok
}

// RoleWords returns the words that name a rank rather than a topic: the
// order's names and the patterns of its one-word role rules ("ceo",
// "manager", "board"), lower case, deduplicated, in no particular order.
func (o *Order) RoleWords() []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, n := range o.names {
		for _, w := range roleWords(n) {
			add(w)
		}
	}
	for _, r := range o.roles {
		if len(r.words) == 1 {
			add(r.words[0])
		}
	}
	return out
}

// Names returns the order, lowest first.
func (o *Order) Names() []string { return slices.Clone(o.names) }
