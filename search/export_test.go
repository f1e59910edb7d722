package search

import (
	"encoding/json"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/tenancy"
)

// ParsePosting exposes parsePosting to the external tests.
func ParsePosting(sp tenancy.Space, suffix []byte) (Posting, error) { return parsePosting(sp, suffix) }

// OldPostingValue is the value versions before the binary encoding wrote
// in a posting of f: live, or in the history.
func OldPostingValue(f facts.Fact, live bool) ([]byte, error) {
	cl, _ := classOf(f.RestrictedTo)
	hv := histValue{ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, Class: cl}
	if !live {
		hv.SupersededAt = f.SupersededAt
	}
	return json.Marshal(hv)
}
