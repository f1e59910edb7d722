package authority

import (
	"fmt"
	"slices"
	"strings"
)

// DefaultOrder is the authority order, lowest first.
var DefaultOrder = []string{"unverified", "guest", "subordinate", "peer", "employee", "system", "manager", "executive", "policy"}

// Order ranks authority names. The zero rank belongs to the lowest
// authority; unknown names rank as the lowest. It is immutable and safe for
// concurrent use.
type Order struct {
	names []string
	rank  map[string]int
}

// NewOrder returns an Order over names, lowest first.
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
	return o, nil
}

// MustDefaultOrder returns the default order.
func MustDefaultOrder() *Order {
	o, err := NewOrder(DefaultOrder)
	if err != nil {
		panic(err)
	}
	return o
}

// Rank returns the rank of name; unknown names rank lowest (0).
func (o *Order) Rank(name string) int {
	return o.rank[strings.ToLower(strings.TrimSpace(name))]
}

// Names returns the order, lowest first.
func (o *Order) Names() []string { return slices.Clone(o.names) }
