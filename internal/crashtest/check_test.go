package crashtest

import (
	"strings"
	"testing"
)

func ref(id string) *struct{ ID string } { return &struct{ ID string }{id} }

// TestCheckChain shows the checker catches each kind of damage a crash
// could leave, so that a passing crashtest means something.
func TestCheckChain(t *testing.T) {
	a := fact{ID: "a", Key: "k", SupersededBy: ref("b")}
	b := fact{ID: "b", Key: "k", Supersedes: ref("a"), SupersededBy: ref("c")}
	c := fact{ID: "c", Key: "k", Supersedes: ref("b"), IsValid: true}
	tests := []struct {
		name string
		fs   []fact
		want string // "" means no violation
	}{
		{"linear", []fact{a, b, c}, ""},
		{"single", []fact{{ID: "a", Key: "k", IsValid: true}}, ""},
		{"new fact without the old one's retirement", []fact{{ID: "a", Key: "k", IsValid: true}, {ID: "b", Key: "k", Supersedes: ref("a"), IsValid: true}}, "half-written"},
		{"retirement without the new fact", []fact{{ID: "a", Key: "k", SupersededBy: ref("b")}}, "half-written"},
		{"branch", []fact{a, b, c, {ID: "d", Key: "k", Supersedes: ref("b"), IsValid: true}}, "branch"},
		{"two roots", []fact{a, b, c, {ID: "x", Key: "k", IsValid: true}}, "2 roots and 2 valid heads"},
		{"invalid head", []fact{a, b, {ID: "c", Key: "k", Supersedes: ref("b")}}, "head c is not valid"},
		{"superseded but valid", []fact{{ID: "a", Key: "k", SupersededBy: ref("b"), IsValid: true}, {ID: "b", Key: "k", Supersedes: ref("a"), IsValid: true}}, "still valid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			byID := map[string]fact{}
			for _, f := range tc.fs {
				byID[f.ID] = f
			}
			got := strings.Join(checkChain("k", tc.fs, byID), "; ")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("violations %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSameJSON(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"n":1,"w":2}`, `{"w":2,"n":1}`, true},
		{`{"n": 1}`, `{"n":1}`, true},
		{`{"n":1}`, `{"n":2}`, false},
		{`{"n":1}`, `{"n":1,"x":0}`, false},
		{`garbage`, `{"n":1}`, false},
	}
	for _, tc := range tests {
		if got := sameJSON([]byte(tc.a), tc.b); got != tc.want {
			t.Errorf("sameJSON(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
