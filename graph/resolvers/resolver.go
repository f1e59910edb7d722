// Package resolvers adapts GraphQL operations to domain calls. Resolvers
// take the identity from the context, make one domain call and map the
// result; no business rule lives here.
package resolvers

import (
	"context"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/conflicts"
	"github.com/stategraph/stategraph/consolidate"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/documents"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/feed"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/profile"
	"github.com/stategraph/stategraph/revision"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/telemetry"
)

// Resolver holds the domain services the resolvers call.
type Resolver struct {
	FactService *facts.Service
	// Pipeline writes and forgets facts.
	Pipeline         *pipeline.Pipeline
	Audit            *audit.Trail
	AssertionService *assertions.Service
	ConflictService  *conflicts.Service
	Context          *contextasm.Service
	Sessions         *session.Service
	Environment      *environment.Service
	// Revision records turns and applies what they supersede.
	Revision *revision.Service
	// Documents ingests and searches documents.
	Documents *documents.Service
	// Profiles writes and reads identity profiles.
	Profiles *profile.Service
	// Consolidation consolidates capability memory and reads its runs.
	Consolidation *consolidate.Service
	// Metrics counts domain events (conflicts, expiries, assembly).
	Metrics *telemetry.Metrics
	// Feed is the change feed subscriptions read; nil serves none.
	Feed *feed.Broker
	// PresentError presents the error that ends a subscription (the
	// handler's error presenter; set by graph.NewHandler).
	PresentError func(ctx context.Context, err error) *gqlerror.Error
}
