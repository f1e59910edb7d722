package revision

import (
	"slices"
	"testing"

	"github.com/stategraph/stategraph/search"
)

func TestInformative(t *testing.T) {
	tests := []struct {
		name  string
		terms []string
		docs  int
		df    map[string]int
		want  []string
	}{
		{"rarest first, absent terms dropped", []string{"deadline", "project", "123", "slip"}, 10000,
			map[string]int{"deadline": 900, "project": 10000, "123": 5}, []string{"123", "deadline"}},
		{"a word a quarter of the space holds singles nothing out", []string{"owner", "dana"}, 1000,
			map[string]int{"owner": 400, "dana": 3}, []string{"dana"}},
		{"when every word is common, the rarest stays", []string{"project", "owner"}, 1000,
			map[string]int{"project": 1000, "owner": 600}, []string{"owner"}},
		{"a small common count is below PerTermFacts and kept", []string{"a1", "b2"}, 100,
			map[string]int{"a1": 40, "b2": 2}, []string{"b2", "a1"}},
		{"nothing matches", []string{"zebra"}, 500, map[string]int{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := informative(tc.terms, search.Stats{Docs: tc.docs, DF: tc.df})
			if !slices.Equal(got, tc.want) {
				t.Errorf("informative = %v, want %v", got, tc.want)
			}
		})
	}
}
