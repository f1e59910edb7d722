// Package resolvers adapts GraphQL operations to domain calls. Resolvers
// take the identity from the context, make one domain call and map the
// result; no business rule lives here.
package resolvers

import (
	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/session"
)

// Resolver holds the domain services the resolvers call.
type Resolver struct {
	FactService *facts.Service
	Audit       *audit.Trail
	Context     *contextasm.Service
	Sessions    *session.Service
	Environment *environment.Service
}
