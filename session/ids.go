package session

import "github.com/stategraph/stategraph/ids"

// WithIDs makes the service's item and turn ids with g (nil: ulid.Make)
// and returns the service.
func (s *Service) WithIDs(g *ids.Generator) *Service { s.ids = g; return s }
