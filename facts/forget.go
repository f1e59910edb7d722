package facts

import (
	"encoding/json"

	"github.com/stategraph/stategraph/authority"
)

// Readable is the read rule of restrictedTo as a value, for readers that
// already hold the fact (context assembly).
type Readable struct{ s *Service }

// Readable returns the service's read rule.
func (s *Service) Readable() Readable { return Readable{s} }

// Visible reports whether caller may read f.
func (r Readable) Visible(caller authority.Identity, f Fact) bool { return r.s.visible(caller, f) }

// Erased is the value a forgotten fact keeps: the empty string.
var Erased = json.RawMessage(`""`)
