package authority

import (
	"context"
	"slices"

	"github.com/stategraph/stategraph/fault"
)

// Kind is what a caller is: a human user, an agent acting for one, or a
// service.
type Kind string

// The caller kinds, as they appear in the token's "kind" claim.
const (
	KindUser    Kind = "user"
	KindAgent   Kind = "agent"
	KindService Kind = "service"
)

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool { return k == KindUser || k == KindAgent || k == KindService }

// AgentLevel is an agent's maturity, which gates capability memory.
type AgentLevel string

// The agent levels, lowest first.
const (
	AgentJunior AgentLevel = "junior"
	AgentSenior AgentLevel = "senior"
	AgentMaster AgentLevel = "master"
)

// Valid reports whether l is empty or a known level.
func (l AgentLevel) Valid() bool {
	return l == "" || l == AgentJunior || l == AgentSenior || l == AgentMaster
}

// Identity is layer 1 of the context: who is asking. It is read-only and
// comes from the verified token's claims.
type Identity struct {
	UserID      string
	UserName    string
	Org         string
	Authority   string
	Department  string
	Permissions []string
	Kind        Kind
	AgentLevel  AgentLevel
	Capability  string
	// Groups are the groups of the token's "groups" claim: who may see a
	// document (package documents).
	Groups []string

	verified bool
}

// Verified reports whether the identity was produced by a Verifier.
func (id Identity) Verified() bool { return id.verified }

// InGroup reports whether the identity belongs to group g.
func (id Identity) InGroup(g string) bool { return slices.Contains(id.Groups, g) }

// HasPermission reports whether the identity holds permission p.
func (id Identity) HasPermission(p string) bool { return slices.Contains(id.Permissions, p) }

type ctxKey struct{}

// NewContext returns a context carrying id.
func NewContext(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// FromContext returns the verified identity carried by ctx, or an
// UNAUTHENTICATED error when there is none.
func FromContext(ctx context.Context) (Identity, error) {
	id, ok := ctx.Value(ctxKey{}).(Identity)
	if !ok || !id.verified {
		return Identity{}, fault.New(fault.Unauthenticated, "authentication required: send a valid bearer token")
	}
	return id, nil
}
