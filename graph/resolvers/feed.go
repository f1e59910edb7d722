package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/feed"
)

// readers are the reads a subscriber's view of a change goes through: the
// queries' own.
func (r *Resolver) readers() feed.Readers {
	return feed.Readers{Facts: r.FactService, Conflicts: r.ConflictService, Assertions: r.AssertionService}
}

// subscribe subscribes the caller of ctx to topic in its organization and
// streams each change as see shows it to the caller. A subscription that
// ends for a reason (dropped for falling behind, a failed read) ends with
// that error, presented by PresentError.
func subscribe[T any](ctx context.Context, r *Resolver, topic feed.Topic, accept func(feed.Event) bool,
	see func(context.Context, feed.Event) (T, bool, error)) (<-chan *T, error) {
	id, err := authority.FromContext(ctx)
	if err != nil {
		return nil, err
	}
	if r.Feed == nil {
		return nil, fault.New(fault.BadInput, "this server does not serve subscriptions")
	}
	sub, err := r.Feed.Subscribe(id.Org, topic, accept)
	if err != nil {
		return nil, err
	}
	return feed.Stream(ctx, sub, see, func(err error) {
		if err == nil {
			return
		}
		gerr := &gqlerror.Error{Message: "internal error", Extensions: map[string]any{"code": string(fault.Internal)}}
		if r.PresentError != nil {
			gerr = r.PresentError(ctx, err)
		}
		transport.AddSubscriptionError(ctx, gerr)
	}), nil
}
