package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

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
	// MaxQueryBytes bounds the document's text, checked before anything
	// else reads it (POST bodies are bounded separately, by the server's
	// MaxBodyBytes, which also covers variables).
	MaxQueryBytes int
	// MaxSelections bounds the selections (fields, fragment spreads and
	// inline fragments) of the whole document, each fragment counted
	// where it is spread, right after parsing and before validation: validation compares selections of a
	// set pairwise (OverlappingFieldsCanBeMerged), so a document of many
	// duplicate fields would otherwise cost quadratic time before any
	// other limit is checked.
	MaxSelections int
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
		MaxQueryBytes: 64 << 10,
		MaxSelections: 1500,
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
	if l.MaxQueryBytes <= 0 {
		l.MaxQueryBytes = d.MaxQueryBytes
	}
	if l.MaxSelections <= 0 {
		l.MaxSelections = d.MaxSelections
	}
	return l
}

// limitsExtension enforces Limits: the size of the document before it is
// parsed and its selections before it is validated (a parameter mutator,
// which gqlgen runs first), the rest once the document is validated and
// the variables are known (page sizes may be variables).
type limitsExtension struct {
	l Limits
	// counted remembers the selections of documents already counted
	// (below or over the limit), so that a client sending the same
	// document again, as clients do, is not parsed twice per request
	// (gqlgen parses it once more, through its own query cache).
	counted *selectionCounts
}

// selectionCounts is a bounded map from a document to its selections,
// counted up to the limit and one more.
type selectionCounts struct {
	mu sync.Mutex
	m  map[string]int
}

// maxCountedDocuments bounds selectionCounts, which holds documents of
// at most maxCountedBytes (4 MB in all); past it, it starts afresh.
const (
	maxCountedDocuments = 1000
	maxCountedBytes     = 4 << 10
)

func (c *selectionCounts) get(doc string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[doc]
	return n, ok
}

func (c *selectionCounts) put(doc string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCountedDocuments {
		c.m = make(map[string]int)
	}
	c.m[doc] = n
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
} = limitsExtension{}

func (limitsExtension) ExtensionName() string                   { return "StategraphLimits" }
func (limitsExtension) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters refuses a document over MaxQueryBytes or
// MaxSelections before gqlgen parses and validates it. Counting needs a
// parse (linear, bounded by ParserTokens); a document that does not parse
// is left to gqlgen, which reports the syntax error.
func (e limitsExtension) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if n := len(p.Query); n > e.l.MaxQueryBytes {
		return limitError("the query is %d bytes, more than the limit of %d", n, e.l.MaxQueryBytes)
	}
	n, ok := 0, false
	cache := e.counted != nil && len(p.Query) <= maxCountedBytes
	if cache {
		n, ok = e.counted.get(p.Query)
	}
	if !ok {
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, e.l.ParserTokens)
		if err != nil {
			return nil
		}
		n = selections(doc, e.l.MaxSelections)
		if cache {
			e.counted.put(p.Query, n)
		}
	}
	if n > e.l.MaxSelections {
		return limitError("the query has more than %d selections (fields and fragments): ask for fewer fields, or split the request", e.l.MaxSelections)
	}
	return nil
}

// selections counts the selections of every operation and fragment of
// doc, fragment spreads expanded (as validation and execution see them),
// stopping once the count passes limit, which also ends a fragment cycle.
func selections(doc *ast.QueryDocument, limit int) int {
	n := 0
	var count func(set ast.SelectionSet)
	count = func(set ast.SelectionSet) {
		for _, sel := range set {
			if n > limit {
				return
			}
			n++
			switch s := sel.(type) {
			case *ast.Field:
				count(s.SelectionSet)
			case *ast.InlineFragment:
				count(s.SelectionSet)
			case *ast.FragmentSpread:
				if f := doc.Fragments.ForName(s.Name); f != nil {
					count(f.SelectionSet)
				}
			}
		}
	}
	for _, op := range doc.Operations {
		count(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		count(f.SelectionSet)
	}
	return n
}

// MutateOperationContext refuses a GET request's mutation, then checks
// the validated operation against the limits.
func (e limitsExtension) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if requestMethod(ctx) == http.MethodGet && oc.Operation.Operation != ast.Query {
		// gqlgen's GET transport refuses it too, but without a code.
		return limitError("a GET request may only run a query: send the %s with POST", oc.Operation.Operation)
	}
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
