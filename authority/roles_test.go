package authority

import (
	"strings"
	"testing"
)

func TestResolveRoles(t *testing.T) {
	o := MustDefaultOrder()
	cases := []struct{ role, want string }{
		{"CFO", "executive"},
		{"cfo", "executive"},
		{"VP Sales", "executive"},
		{"Vice President of Engineering", "executive"},
		{"Chief Financial Officer", "executive"},
		{"Managing Director", "executive"},
		{"Director", "manager"},
		{"Director of Sales", "manager"},
		{"Vendor Manager", "manager"},
		{"Head of Support", "manager"},
		{"Intern", "subordinate"},
		{"Junior Engineer", "subordinate"},
		{"Sales Rep", "employee"},
		{"Sr. Engineer", "employee"},
		{"Data Analyst", "employee"},
		{"Board", "policy"},
		{"policy", "policy"},
		{"  Manager ", "manager"},
		{"executive", "executive"},
		{"janitor of the realm", ""},
		{"", ""},
		{"Manager Vendor Extraordinaire", ""},
		// Roles conversation turns name ("[C_LEVEL]", "per the SVP"),
		// ranked by the same table.
		{"c level", "executive"},
		{"SVP", "executive"},
		{"Executive Team", "executive"},
		{"Leadership", "executive"},
		{"Management", "manager"},
		{"Account Executive", "employee"},
		{"Support Agent", "employee"},
		{"General Counsel", "employee"},
		{"Individual", "employee"},
	}
	for _, tc := range cases {
		t.Run(tc.role, func(t *testing.T) {
			got, ok := o.Resolve(tc.role)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Resolve(%q) = %q, %v; want %q", tc.role, got, ok, tc.want)
			}
			if tc.want == "" && o.Rank(tc.role) != 0 {
				t.Errorf("Rank(%q) = %d, want 0 (unverified)", tc.role, o.Rank(tc.role))
			}
		})
	}
}

func TestWithRoles(t *testing.T) {
	rules, err := ParseRoles("Director=executive, Janitor of * = guest,Staff Engineer=manager")
	if err != nil {
		t.Fatal(err)
	}
	o, err := MustDefaultOrder().WithRoles(rules)
	if err != nil {
		t.Fatal(err)
	}
	for role, want := range map[string]string{
		"Director":              "executive", // overrides the default, equally specific
		"Managing Director":     "executive",
		"Janitor of the realm":  "guest",
		"Staff Engineer":        "manager", // more specific than "* Engineer"
		"Platform Engineer":     "employee",
		"Vendor Manager":        "manager",
		"Director of Marketing": "manager", // the default is more specific
	} {
		if got, _ := o.Resolve(role); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", role, got, want)
		}
	}
	if _, err := MustDefaultOrder().WithRoles([]RoleRule{{Pattern: "x", Authority: "overlord", words: []string{"x"}}}); err == nil {
		t.Error("a rule naming an authority outside the order was accepted")
	}
	custom, err := NewOrder([]string{"low", "high"})
	if err != nil {
		t.Fatal(err)
	}
	if got := custom.Rank("CFO"); got != 0 {
		t.Errorf("custom order without executive ranks CFO %d, want 0", got)
	}
}

func TestParseRolesErrors(t *testing.T) {
	for _, s := range []string{"CFO", "=executive", "CFO=", "*=guest", "* * x=guest", "VP*=executive",
		"a b c d e f g h i=guest"} {
		if _, err := ParseRoles(s); err == nil {
			t.Errorf("ParseRoles(%q) accepted", s)
		}
	}
	if rs, err := ParseRoles(" , ,"); err != nil || len(rs) != 0 {
		t.Errorf("ParseRoles of empty entries = %v, %v", rs, err)
	}
}

// naiveMatch is a reference matcher by recursion.
func naiveMatch(pat, words []string) bool {
	if len(pat) == 0 {
		return len(words) == 0
	}
	if pat[0] != "*" {
		return len(words) > 0 && words[0] == pat[0] && naiveMatch(pat[1:], words[1:])
	}
	for n := 1; n <= len(words); n++ {
		if naiveMatch(pat[1:], words[n:]) {
			return true
		}
	}
	return false
}

func FuzzRoles(f *testing.F) {
	f.Add("VP *=executive,* Manager=manager", "VP Sales")
	f.Add("Head of *=manager", "Head of  of Sales")
	f.Add("* of *=guest", "of of of")
	f.Add("a * b * c=peer", "a x b y z c")
	f.Add("=,=,", "")
	f.Add("Ünïcode *=guest", "ÜNÏCODE straße")
	o := MustDefaultOrder()
	f.Fuzz(func(t *testing.T, spec, role string) {
		rules, err := ParseRoles(spec)
		if err != nil {
			return
		}
		for _, r := range rules {
			words := roleWords(role)
			if got, want := r.Match(role), naiveMatch(r.words, words); got != want {
				t.Fatalf("rule %q on %q: Match = %v, reference = %v", r.Pattern, role, got, want)
			}
			// A rule's own pattern, read as a role with its stars
			// replaced by a word, always matches.
			if lit := strings.ReplaceAll(r.Pattern, "*", "x"); !r.Match(lit) {
				t.Fatalf("rule %q does not match %q", r.Pattern, lit)
			}
		}
		if n, ok := o.Resolve(role); ok && !o.Known(n) {
			t.Fatalf("Resolve(%q) = %q, not in the order", role, n)
		}
		if r := o.Rank(role); r < 0 || r >= len(o.Names()) {
			t.Fatalf("Rank(%q) = %d out of range", role, r)
		}
	})
}

func TestRankOf(t *testing.T) {
	o := MustDefaultOrder()
	cases := []struct {
		role   string
		want   int
		wantOK bool
	}{
		{"unverified", 0, true},
		{"CFO", o.Rank("executive"), true},
		{"Head of Sales", o.Rank("manager"), true},
		{"Wizard", -1, false},
		{"", -1, false},
	}
	for _, tc := range cases {
		t.Run(tc.role, func(t *testing.T) {
			if got, ok := o.RankOf(tc.role); got != tc.want || ok != tc.wantOK {
				t.Errorf("RankOf(%q) = %d, %v; want %d, %v", tc.role, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestRoleWords(t *testing.T) {
	words := map[string]bool{}
	for _, w := range MustDefaultOrder().RoleWords() {
		if words[w] {
			t.Errorf("RoleWords repeats %q", w)
		}
		words[w] = true
	}
	for _, w := range []string{"executive", "manager", "board", "ceo", "vp", "unverified"} {
		if !words[w] {
			t.Errorf("RoleWords lacks %q", w)
		}
	}
	for _, w := range []string{"sales", "of", "*", "financial"} {
		if words[w] {
			t.Errorf("RoleWords has %q, a word of a longer pattern only", w)
		}
	}
}
