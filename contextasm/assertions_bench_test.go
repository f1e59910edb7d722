package contextasm_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/tokens"
)

// BenchmarkAssertionSource measures what the assertion source adds to an
// assembly: the same request over an organization holding 1,000 state
// assertions (ten contexts, a quarter of them ended), assembled with the
// environment source alone and with the assertion source too.
func BenchmarkAssertionSource(b *testing.B) {
	env := apitest.New(b)
	id := apitest.Identity("org-a", "alice")
	tok := apitest.Token(b, id)
	for i := range 1000 {
		subject := fmt.Sprintf("Entity#%d", i%750) // a later one of a slot revokes the earlier
		env.MustDo(b, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"subject": subject, "predicate": "location", "object": fmt.Sprintf("Room#%d", i), "context": fmt.Sprintf("s%d", i%10),
			"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_CHANGED"},
			"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
		}}, &struct{}{})
	}
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: apitest.Secret})
	if err != nil {
		b.Fatal(err)
	}
	caller, err := v.Verify(tok)
	if err != nil {
		b.Fatal(err)
	}
	c, err := tokens.New()
	if err != nil {
		b.Fatal(err)
	}
	cache := tokens.NewCache(c, 4096)
	ctx := authority.NewContext(context.Background(), caller)
	in := contextasm.Input{Query: "where is Entity#42, which room", Budget: 2000, SessionID: "s2"}
	for _, tc := range []struct {
		name    string
		sources []contextasm.Source
	}{
		{"environment", []contextasm.Source{contextasm.EnvironmentSource{}}},
		{"environment+assertions", []contextasm.Source{contextasm.EnvironmentSource{}, contextasm.AssertionSource{}}},
	} {
		svc := contextasm.New(contextasm.Options{Store: env.Server.Store(), Clock: env.Clock, Counter: cache, Fetcher: environment.NewFetcher(nil, 0), Sources: tc.sources})
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Assemble(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
