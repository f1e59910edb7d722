// Package scalars marshals stategraph's custom GraphQL scalars.
package scalars

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// maxValueBytes bounds a JSON scalar given as input.
const maxValueBytes = 1 << 20

// MarshalValue writes a JSON value as is.
func MarshalValue(v json.RawMessage) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		if len(v) == 0 {
			_, _ = io.WriteString(w, "null")
			return
		}
		_, _ = w.Write(v)
	})
}

// UnmarshalValue encodes a decoded GraphQL input value as JSON.
func UnmarshalValue(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("JSON value cannot be encoded: %w", err)
	}
	if len(b) > maxValueBytes {
		return nil, fmt.Errorf("JSON value is larger than %d bytes", maxValueBytes)
	}
	return b, nil
}
