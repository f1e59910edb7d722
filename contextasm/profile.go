package contextasm

import (
	"fmt"
	"strings"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/profile"
	"github.com/stategraph/stategraph/store"
)

// ProfileSource gathers the caller's identity profile and reporting line,
// read fresh at every assembly, as identity attributes. Token claims win:
// the profile's display name and department show only when the token
// has none, and a profile never changes the caller's authority.
type ProfileSource struct{}

// Gather implements Source.
func (ProfileSource) Gather(tx *store.Txn, q Query) (Candidates, error) {
	var c Candidates
	pr, ok, err := profile.GetTx(tx, q.Caller.UserID)
	if err != nil || !ok {
		return c, err
	}
	chain, err := profile.ChainTx(tx, pr)
	if err != nil {
		return c, err
	}
	add := func(k, v string) {
		if v != "" {
			c.Identity = append(c.Identity, assemble.Attr{Key: k, Value: v})
		}
	}
	add("name", pr.DisplayName)      // only when the token has none
	add("department", pr.Department) // likewise
	add("title", pr.Title)
	line := make([]string, len(chain))
	for i, m := range chain {
		line[i] = person(m)
	}
	add("reports to", strings.Join(line, " → "))
	add("communication style", pr.CommunicationStyle)
	if d := pr.DISC; d != nil {
		add("DISC", fmt.Sprintf("D %d, I %d, S %d, C %d (0-100)", d.Dominance, d.Influence, d.Steadiness, d.Conscientiousness))
	}
	if o := pr.OCEAN; o != nil {
		add("OCEAN", fmt.Sprintf("O %d, C %d, E %d, A %d, N %d (0-100)", o.Openness, o.Conscientiousness, o.Extraversion, o.Agreeableness, o.Neuroticism))
	}
	return c, nil
}

// person names a manager on the reporting line: "Name (id), title".
func person(p profile.Profile) string {
	s := p.UserID
	if p.DisplayName != "" {
		s = p.DisplayName + " (" + p.UserID + ")"
	}
	if p.Title != "" {
		s += ", " + p.Title
	}
	return s
}
