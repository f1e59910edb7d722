package resolvers

import (
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/graph/model"
)

// writeInput maps a FactInput (of writeFact or writeFacts) onto the
// domain's WriteInput.
func writeInput(input model.FactInput) facts.WriteInput {
	in := facts.WriteInput{
		ID:             deref(input.ID),
		Key:            input.Key,
		Value:          input.Value,
		MemoryType:     deref(input.MemoryType),
		Scope:          deref(input.Scope),
		ScopeID:        deref(input.ScopeID),
		DependsOn:      input.DependsOn,
		IsConstraint:   input.IsConstraint,
		ConstraintType: deref(input.ConstraintType),
		ValidFrom:      input.ValidFrom,
		Supersedes:     deref(input.Supersedes),
		Reason:         deref(input.Reason),
		Level:          deref(input.Level),
		RestrictedTo:   input.RestrictedTo,
	}
	if in.Supersedes != "" {
		in.Kind = deref(input.SupersessionKind)
	}
	if input.Declassify != nil {
		in.Declassify = *input.Declassify
	}
	if s := input.Source; s != nil {
		in.Source = &facts.Source{
			Type: deref(s.Type), Authority: deref(s.Authority), Identity: deref(s.Identity),
			TurnIndex: s.TurnIndex, EventIndex: s.EventIndex,
		}
	}
	return in
}
