// Package tenancy derives storage partitions from verified identities.
//
// A Partition is the only way to name storage, and the only way to get one
// is from a verified authority.Identity. Inside a partition a caller reaches
// three spaces: the organization's shared space (organizational knowledge),
// the caller's private space (user memory) and, for a caller with a
// capability, that capability's space (capability memory). No other space
// can be named, so a caller cannot address another organization's or
// another user's records.
package tenancy

import (
	"context"
	"errors"

	"github.com/stategraph/stategraph/authority"
)

// ErrUnverified is returned when a partition is asked for from an identity
// that no Verifier produced.
var ErrUnverified = errors.New("tenancy: identity is not verified")

// SpaceKind says whose records a space holds.
type SpaceKind byte

// The space kinds. Their byte values are part of the key layout.
const (
	SpaceShared     SpaceKind = 'o' // organizational knowledge
	SpacePrivate    SpaceKind = 'u' // one user's memory
	SpaceCapability SpaceKind = 'c' // one capability's memory
)

// Space is one storage space of a partition. It carries its partition's
// organization, so a Space is a complete address prefix.
type Space struct {
	org   string
	kind  SpaceKind
	owner string
}

// Org returns the organization the space belongs to.
func (s Space) Org() string { return s.org }

// Kind returns the kind of the space.
func (s Space) Kind() SpaceKind { return s.kind }

// Owner returns the user or capability owning the space ("" for shared).
func (s Space) Owner() string { return s.owner }

// Partition is what a verified caller may address: their organization's
// shared space, their own private space and their capability's space.
type Partition struct {
	org, user, capability string
}

// For returns the partition of a verified identity.
func For(id authority.Identity) (Partition, error) {
	if !id.Verified() {
		return Partition{}, ErrUnverified
	}
	return Partition{org: id.Org, user: id.UserID, capability: id.Capability}, nil
}

// FromContext returns the partition of the verified identity in ctx.
func FromContext(ctx context.Context) (Partition, error) {
	id, err := authority.FromContext(ctx)
	if err != nil {
		return Partition{}, err
	}
	return For(id)
}

// Background returns the partition of organization org for work the
// service does on its own, outside any request (the lease sweep): it owns
// only org's shared space. org must come from a record the store already
// holds for that organization (store.DueBefore), never from request input.
func Background(org string) (Partition, error) {
	if org == "" {
		return Partition{}, errors.New("tenancy: background partition needs an organization")
	}
	return Partition{org: org}, nil
}

// BackgroundCapability returns the partition of capability capability of
// organization org for work the service does on its own (scheduled
// consolidation): it owns org's shared space and that capability's space,
// and no private space. org and capability must come from records the
// store already holds (store.DueBefore), never from request input.
func BackgroundCapability(org, capability string) (Partition, error) {
	if org == "" || capability == "" {
		return Partition{}, errors.New("tenancy: background capability partition needs an organization and a capability")
	}
	return Partition{org: org, capability: capability}, nil
}

// Caller returns the verified identity in ctx and its partition.
func Caller(ctx context.Context) (authority.Identity, Partition, error) {
	id, err := authority.FromContext(ctx)
	if err != nil {
		return authority.Identity{}, Partition{}, err
	}
	p, err := For(id)
	return id, p, err
}

// Org returns the organization.
func (p Partition) Org() string { return p.org }

// User returns the user id.
func (p Partition) User() string { return p.user }

// Shared returns the organization's shared space.
func (p Partition) Shared() Space { return Space{org: p.org, kind: SpaceShared} }

// Private returns the caller's private space.
func (p Partition) Private() Space { return Space{org: p.org, kind: SpacePrivate, owner: p.user} }

// Capability returns the caller's capability space, if the caller has a
// capability.
func (p Partition) Capability() (Space, bool) {
	if p.capability == "" {
		return Space{}, false
	}
	return Space{org: p.org, kind: SpaceCapability, owner: p.capability}, true
}

// Spaces returns every space the caller may read: private (when there is
// a user: a background partition has none), capability (when present),
// then shared.
func (p Partition) Spaces() []Space {
	sp := make([]Space, 0, 3) // one allocation, not one per append
	if p.user != "" {
		sp = append(sp, p.Private())
	}
	if c, ok := p.Capability(); ok {
		sp = append(sp, c)
	}
	return append(sp, p.Shared())
}

// Owns reports whether s is one of p's spaces.
func (p Partition) Owns(s Space) bool {
	if s.org != p.org || p.org == "" {
		return false
	}
	switch s.kind {
	case SpaceShared:
		return s.owner == ""
	case SpacePrivate:
		return p.user != "" && s.owner == p.user
	case SpaceCapability:
		return p.capability != "" && s.owner == p.capability
	}
	return false
}
