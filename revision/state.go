package revision

import (
	"encoding/json"
	"errors"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
)

// assertStates turns each real sentence that states short-lived state
// ("the build is red right now", "Alice is on call this week") into a
// state assertion with the lease the sentence says (extract.State), in
// tx, and returns the indexes of those sentences: they are state, not
// facts, so extraction leaves them alone. A sentence that names a
// restricted fact the speaker reads stays with the facts: a state
// assertion carries no restriction, and would show the organization what
// the fact hides.
func (s *Service) assertStates(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, ar extract.Result, k known, res *Result) (map[int]bool, error) {
	stated := map[int]bool{}
	if s.assertions == nil || spk.assistant {
		return stated, nil
	}
	for _, sent := range ar.Sentences {
		if sent.Reason != "" {
			continue
		}
		c, ok := extract.State(sent.Text, t.At)
		if !ok || c.Negated || namesRestricted(sent.Text, k) {
			continue
		}
		stated[sent.Index] = true
		subject := c.Subject
		if subject == "I" || subject == "i" || subject == "we" || subject == "We" {
			subject = spk.id
		}
		obj, err := json.Marshal(c.Object)
		if err != nil {
			return nil, err
		}
		v := &assertions.Validity{Mode: assertions.UntilTime}
		switch c.Lease {
		case extract.LeaseChanged:
			v.Mode = assertions.UntilChanged
		case extract.LeaseEvent:
			v.Mode, v.UntilEvent = assertions.UntilEvent, c.Event
		default:
			until := c.Until
			v.ExpiresAt = &until
		}
		writer := caller
		writer.Authority = spk.authority
		a, err := s.assertions.AssertTx(tx, writer, assertions.Input{
			Subject: subject, Predicate: c.Predicate, Object: obj, Context: t.SessionID, EpistemicStatus: assertions.Perception,
			Validity: v,
			Provenance: &assertions.Provenance{
				Author: assertions.Author{Kind: spk.name, ID: spk.id},
				Origin: assertions.Origin{Channel: "conversation", SessionID: t.SessionID},
				Method: "told",
			},
			Refs: []assertions.Ref{{Kind: "turn", Locator: t.ID, Quote: sent.Text}},
		})
		var fe *fault.Error
		if errors.As(err, &fe) {
			delete(stated, sent.Index) // not admitted as state: extraction may read it
			continue
		}
		if err != nil {
			return nil, err
		}
		res.Asserted = append(res.Asserted, a)
	}
	return stated, nil
}

// namesRestricted reports whether text names a restricted fact of k.
func namesRestricted(text string, k known) bool {
	for _, f := range k.facts {
		if f.RestrictedTo != nil && !f.RestrictedTo.Empty() && extract.Names(text, f.Key) {
			return true
		}
	}
	return false
}

// withoutSentences is ar without the statements of the sentences skip
// names.
func withoutSentences(ar extract.Result, skip map[int]bool) extract.Result {
	if len(skip) == 0 {
		return ar
	}
	out := ar
	out.Statements = nil
	for _, st := range ar.Statements {
		if !skip[st.Index] {
			out.Statements = append(out.Statements, st)
		}
	}
	return out
}
