package contextasm_test

import (
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

const writeFact = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`

const assembleQ = `query($in: ContextInput!) { assembleContext(input: $in) {
  text tokens budget withheld notes truncated
  sections { layer title text tokens }
  included { id kind layer reason score }
  excluded { id kind reason } } }`

type ctxOut struct {
	AssembleContext struct {
		Text      string
		Tokens    int
		Budget    int
		Withheld  int
		Notes     []string
		Truncated bool
		Sections  []struct {
			Layer  int
			Title  string
			Text   string
			Tokens int
		}
		Included []struct {
			ID     string
			Kind   string
			Layer  int
			Reason string
			Score  float64
		}
		Excluded []struct{ ID, Kind, Reason string }
	}
}

func TestSmoke(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	var w struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeFact, map[string]any{"in": map[string]any{"key": "q3_budget", "value": "Q3 budget approved"}}, &w)
	env.MustDo(t, tok, writeFact, map[string]any{"in": map[string]any{"key": "q3_budget", "value": "Q3 budget cancelled", "supersedes": "q3_budget"}}, &w)
	var out ctxOut
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "what about the Q3 budget?", "budget": 500}}, &out)
	t.Logf("%+v", out)
}
