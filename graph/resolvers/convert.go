package resolvers

import (
	"time"

	"github.com/stategraph/stategraph/graph/model"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/temporal"
)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func ptrs[T any](s []T) []*T {
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

func view(asOf, knownAt *time.Time) temporal.View {
	var v temporal.View
	if asOf != nil {
		t := asOf.UTC()
		v.AsOf = &t
	}
	if knownAt != nil {
		t := knownAt.UTC()
		v.KnownAt = &t
	}
	return v
}

// nonNil returns s, or an empty slice for nil, for non-null GraphQL lists.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func turnInput(in model.TurnInput) session.TurnInput {
	return session.TurnInput{SessionID: in.SessionID, Speaker: in.Speaker, SpeakerID: deref(in.SpeakerID), Text: in.Text, At: in.At}
}
