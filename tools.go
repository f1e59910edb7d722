//go:build tools

// Package tools pins the code generators the build runs.
package tools

import (
	_ "github.com/99designs/gqlgen"
	_ "github.com/Khan/genqlient"
)
