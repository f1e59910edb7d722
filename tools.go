//go:build tools

// Package tools pins the code generators the build runs and the tools
// the tests build.
package tools

import (
	_ "github.com/99designs/gqlgen"
	_ "github.com/Khan/genqlient"
	_ "github.com/itchyny/gojq/cmd/gojq" // the jq of the README's examples, in internal/readme's test
)
