package resolvers

import (
	"context"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/conflicts"
	"github.com/stategraph/stategraph/graph/model"
	"github.com/stategraph/stategraph/temporal"
)

// stateInput maps the GraphQL input of assertState.
func stateInput(in model.StateAssertionInput) assertions.Input {
	out := assertions.Input{
		Subject: deref(in.Subject), Predicate: deref(in.Predicate), Object: in.Object,
		Context: deref(in.Context), EpistemicStatus: deref(in.EpistemicStatus),
		Visibility: deref(in.Visibility), Tags: in.Tags, HypothesisGroup: deref(in.HypothesisGroup),
	}
	if v := in.Validity; v != nil {
		out.Validity = &assertions.Validity{Mode: deref(v.Mode), ExpiresAt: v.ExpiresAt, UntilEvent: deref(v.UntilEvent)}
	}
	if p := in.Provenance; p != nil {
		prov := &assertions.Provenance{Confidence: p.Confidence, Method: deref(p.Method)}
		if a := p.Author; a != nil {
			prov.Author = assertions.Author{Kind: a.Kind, ID: a.ID}
		}
		if o := p.Origin; o != nil {
			prov.Origin = assertions.Origin{Channel: deref(o.Channel), SessionID: deref(o.SessionID)}
		}
		out.Provenance = prov
	}
	for _, r := range in.Refs {
		out.Refs = append(out.Refs, assertions.Ref{Kind: r.Kind, Locator: r.Locator, Quote: deref(r.Quote), TS: r.Ts})
	}
	return out
}

// assertion loads assertion id in view v; nil when the caller has none.
func (r *Resolver) assertion(ctx context.Context, id string, v temporal.View) (*assertions.Assertion, error) {
	if id == "" {
		return nil, nil
	}
	a, ok, err := r.AssertionService.Get(ctx, id, v)
	if err != nil || !ok {
		return nil, err
	}
	return &a, nil
}

// decision loads decision id; nil when the caller has none.
func (r *Resolver) decision(ctx context.Context, id string, v temporal.View) (*conflicts.Decision, error) {
	if id == "" {
		return nil, nil
	}
	d, ok, err := r.ConflictService.Decision(ctx, id, v)
	if err != nil || !ok {
		return nil, err
	}
	return &d, nil
}

// candidate loads a conflict candidate in view v; nil when the caller
// cannot see it.
func (r *Resolver) candidate(ctx context.Context, c conflicts.Candidate, v temporal.View) (conflicts.Node, error) {
	switch c.Kind {
	case conflicts.KindAssertion:
		a, err := r.assertion(ctx, c.ID, v)
		if err != nil || a == nil {
			return nil, err
		}
		return a, nil
	case conflicts.KindFact:
		f, ok, err := r.FactService.Get(ctx, c.ID, v)
		if err != nil || !ok {
			return nil, err
		}
		return &f, nil
	}
	return nil, nil
}

// candidates loads cs, leaving out those the caller cannot see.
func (r *Resolver) candidates(ctx context.Context, cs []conflicts.Candidate, v temporal.View) ([]conflicts.Node, error) {
	out := make([]conflicts.Node, 0, len(cs))
	for _, c := range cs {
		n, err := r.candidate(ctx, c, v)
		if err != nil {
			return nil, err
		}
		if n != nil {
			out = append(out, n)
		}
	}
	return out, nil
}

// entityOf returns the entity id names in view v, or just its id when
// nothing else is known (the subject of an assertion is always an entity).
func (r *Resolver) entityOf(ctx context.Context, id string, v temporal.View) (*assertions.Entity, error) {
	e, ok, err := r.AssertionService.Entity(ctx, id, v)
	if err != nil {
		return nil, err
	}
	if !ok {
		e = assertions.Entity{ID: id}
	}
	return &e, nil
}

// optional maps an empty string to null.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
