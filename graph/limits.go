package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/store"
)

// Limits bound what one GraphQL request may ask for. A request over any
// limit is refused with a BAD_USER_INPUT error naming the limit, before any
// resolver runs. Zero fields take their DefaultLimits value.
type Limits struct {
	// MaxComplexity bounds the operation's cost: every field costs 1 plus
	// the cost of its selection; a field with `first`/`last` arguments (a
	// page) multiplies its selection's cost by the page size (first or
	// last, store.DefaultPageSize when neither), and any other list
	// field by ListCost. Connection plumbing (fields of a *Connection type)
	// is not multiplied again.
	MaxComplexity int
	// MaxDepth bounds how deeply selections nest (fragments included).
	MaxDepth int
	// MaxAliases bounds the aliased fields of the operation.
	MaxAliases int
	// MaxOperations bounds the operation definitions in one document.
	MaxOperations int
	// ParserTokens bounds the lexical tokens of the document.
	ParserTokens int
}

// DefaultLimits are generous for real agents and frontends (a page of 100
// facts with their chains costs a few thousand) and small enough that one
// request cannot monopolise the server.
func DefaultLimits() Limits {
	return Limits{
		MaxComplexity: 10000,
		MaxDepth:      12,
		MaxAliases:    30,
		MaxOperations: 10,
		ParserTokens:  15000,
	}
}

// ListCost is the assumed length of a list field that takes no `first`
// and `last` arguments, for the complexity estimate.
const ListCost = 10

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxComplexity <= 0 {
		l.MaxComplexity = d.MaxComplexity
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxAliases <= 0 {
		l.MaxAliases = d.MaxAliases
	}
	if l.MaxOperations <= 0 {
		l.MaxOperations = d.MaxOperations
	}
	if l.ParserTokens <= 0 {
		l.ParserTokens = d.ParserTokens
	}
	return l
}

// limitsExtension enforces Limits once the document is parsed and
// validated and the variables are known (page sizes may be variables).
type limitsExtension struct{ l Limits }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = limitsExtension{}

func (limitsExtension) ExtensionName() string                   { return "StategraphLimits" }
func (limitsExtension) Validate(graphql.ExecutableSchema) error { return nil }
func (e limitsExtension) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	return e.l.check(oc.Doc, oc.Operation, oc.Variables)
}

// check returns the first limit op breaks, or nil.
func (l Limits) check(doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) *gqlerror.Error {
	if n := len(doc.Operations); n > l.MaxOperations {
		return limitError("the document defines %d operations, more than the limit of %d: send one operation per request", n, l.MaxOperations)
	}
	w := walker{vars: vars, maxDepth: l.MaxDepth}
	cost := w.selections(op.SelectionSet, 1)
	switch {
	case w.tooDeep:
		return limitError("the query nests deeper than the limit of %d levels", l.MaxDepth)
	case w.aliases > l.MaxAliases:
		return limitError("the query uses %d aliases, more than the limit of %d", w.aliases, l.MaxAliases)
	case cost > l.MaxComplexity:
		return limitError("the query has complexity %d, more than the limit of %d: ask for smaller pages (first) or fewer fields", cost, l.MaxComplexity)
	}
	return nil
}

func limitError(format string, args ...any) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf(format, args...), Extensions: map[string]any{"code": "BAD_USER_INPUT"}}
}

// walker measures an operation: depth, aliases and cost. Validation has
// already rejected fragment cycles and unknown fields; the depth cap stops
// the walk anyway, so a malformed document cannot make it loop.
type walker struct {
	vars     map[string]any
	maxDepth int
	aliases  int
	tooDeep  bool
}

// maxCost saturates the estimate well below overflow.
const maxCost = 1 << 40

func (w *walker) selections(set ast.SelectionSet, depth int) int {
	if depth > w.maxDepth {
		w.tooDeep = true
		return 0
	}
	cost := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			cost += w.field(s, depth)
		case *ast.InlineFragment:
			cost += w.selections(s.SelectionSet, depth)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				cost += w.selections(s.Definition.SelectionSet, depth)
			}
		}
		if cost > maxCost {
			cost = maxCost
		}
	}
	return cost
}

func (w *walker) field(f *ast.Field, depth int) int {
	if strings.HasPrefix(f.Name, "__") {
		// Introspection and __typename: bounded by gqlparser's own
		// introspection depth rule, and only served when enabled.
		return 0
	}
	if f.Alias != "" && f.Alias != f.Name {
		w.aliases++
	}
	if len(f.SelectionSet) == 0 {
		return 1
	}
	child := w.selections(f.SelectionSet, depth+1)
	return min(1+multiplier(f, w.vars)*child, maxCost)
}

// multiplier is how many times a field's selection is resolved: its page
// size, ListCost for other lists, 1 for single objects.
func multiplier(f *ast.Field, vars map[string]any) int {
	if f.Definition != nil && f.Definition.Arguments.ForName("first") != nil {
		// A page: first or last items, DefaultPageSize when neither.
		n, ok := intArg(f, "first", vars)
		if !ok {
			n, ok = intArg(f, "last", vars)
		}
		if !ok {
			n = store.DefaultPageSize
		}
		return max(n, 1)
	}
	if f.ObjectDefinition != nil && strings.HasSuffix(f.ObjectDefinition.Name, "Connection") {
		return 1 // edges of a page already costed by its first
	}
	if f.Definition != nil && f.Definition.Type.Elem != nil {
		return ListCost
	}
	return 1
}

// intArg returns the value of an Int argument, from the query, its
// variables or the schema default.
func intArg(f *ast.Field, name string, vars map[string]any) (int, bool) {
	v, ok := f.ArgumentMap(vars)[name]
	if !ok || v == nil {
		return 0, false
	}
	switch n := v.(type) {
	case int64:
		return int(min(n, maxCost)), true
	case int:
		return min(n, maxCost), true
	case float64:
		return int(min(n, maxCost)), true
	case json.Number:
		i, err := n.Int64()
		return int(min(i, maxCost)), err == nil
	}
	return 0, false
}
