package authority

import (
	"fmt"
	"strings"
	"unicode"
)

// RoleRule maps free-text roles ("VP Sales", "Vendor Manager") onto a name
// of the authority order.
//
// A pattern is a sequence of words, compared case-insensitively after the
// role is split into words at every character that is not a letter or a
// digit ("Sr. Engineer" is the words "sr", "engineer"). A "*" word matches
// one or more words. A pattern matches the whole role, never a part of it:
// "Manager" matches "manager" and "MANAGER" but not "Vendor Manager",
// which "* Manager" matches.
type RoleRule struct {
	Pattern   string
	Authority string

	words []string
}

// Limits on a role table, so that matching stays cheap.
const (
	maxRoleRules    = 256
	maxPatternWords = 8
)

// DefaultRoles is the default role table, in the "pattern=authority"
// syntax of ParseRoles. Where two patterns match a role, the more specific
// one (more literal words) wins, so "Managing Director" is an executive
// while "Director" is a manager.
var DefaultRoles = []string{
	// The top of the organization.
	"CEO=executive", "CFO=executive", "COO=executive", "CTO=executive", "CIO=executive",
	"CISO=executive", "CMO=executive", "CRO=executive", "CPO=executive", "CHRO=executive",
	"Chief *=executive", "President=executive", "Vice President=executive", "Vice President *=executive",
	"VP=executive", "VP *=executive", "SVP *=executive", "EVP *=executive", "* VP=executive",
	"Founder=executive", "Co Founder=executive", "Owner=executive",
	"Managing Director=executive", "Executive Director=executive", "General Manager=executive",
	"Executive=executive", "Board Member=executive", "SVP=executive", "EVP=executive", "C Level=executive",
	"Executive Team=executive", "Leadership=executive", "Leadership Team=executive",
	// People who manage people or a function.
	"Manager=manager", "* Manager=manager", "Head=manager", "Head of *=manager", "* Head=manager",
	"Director=manager", "* Director=manager", "Director of *=manager",
	"Management=manager", "Supervisor=manager", "* Supervisor=manager", "Team Lead=manager", "* Lead=manager", "Lead=manager",
	// Juniors.
	"Intern=subordinate", "* Intern=subordinate", "Junior=subordinate", "Junior *=subordinate",
	"Jr *=subordinate", "Trainee=subordinate", "* Trainee=subordinate", "Apprentice=subordinate",
	"Assistant=subordinate", "* Assistant=subordinate", "Subordinate=subordinate",
	// Staff.
	"Employee=employee", "Staff=employee", "Sales Rep=employee", "* Rep=employee",
	"Representative=employee", "* Representative=employee", "Analyst=employee", "* Analyst=employee",
	"Engineer=employee", "* Engineer=employee", "Developer=employee", "* Developer=employee",
	"Specialist=employee", "* Specialist=employee", "Associate=employee", "* Associate=employee",
	"Consultant=employee", "* Consultant=employee", "Coordinator=employee", "* Coordinator=employee",
	"Accountant=employee", "Designer=employee", "* Designer=employee",
	"Account Executive=employee", "Individual Contributor=employee", "Individual=employee",
	"Counsel=employee", "* Counsel=employee", "Legal=employee", "* Agent=employee",
	"Colleague=peer", "Peer=peer", "Teammate=peer", "Coworker=peer",
	// Outside the organization.
	"Guest=guest", "Visitor=guest", "Customer=guest", "Vendor=guest", "Contractor=guest", "External=guest",
	// Machines and standing rules.
	"System=system", "Service=system", "Automation=system",
	"Board=policy", "Board of Directors=policy", "Policy=policy", "* Policy=policy", "Regulation=policy",
}

// MustDefaultRoles returns DefaultRoles parsed.
func MustDefaultRoles() []RoleRule {
	rs, err := ParseRoles(strings.Join(DefaultRoles, ","))
	if err != nil {
		panic(err)
	}
	return rs
}

// ParseRoles parses a comma-separated list of "pattern=authority" rules,
// the syntax of --authority-roles. Empty entries are skipped. It does not
// check the authorities against an order; WithRoles does.
func ParseRoles(s string) ([]RoleRule, error) {
	var out []RoleRule
	for entry := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		pat, auth, ok := strings.Cut(entry, "=")
		if !ok {
			return nil, fmt.Errorf("authority: role rule %q: want pattern=authority", entry)
		}
		r, err := NewRoleRule(pat, auth)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		if len(out) > maxRoleRules {
			return nil, fmt.Errorf("authority: more than %d role rules", maxRoleRules)
		}
	}
	return out, nil
}

// NewRoleRule returns the rule mapping roles that match pattern onto the
// authority auth.
func NewRoleRule(pattern, auth string) (RoleRule, error) {
	words := roleWords(pattern)
	auth = strings.ToLower(strings.TrimSpace(auth))
	switch {
	case len(words) == 0:
		return RoleRule{}, fmt.Errorf("authority: role rule %q has no words", pattern)
	case len(words) > maxPatternWords:
		return RoleRule{}, fmt.Errorf("authority: role rule %q has more than %d words", pattern, maxPatternWords)
	case auth == "":
		return RoleRule{}, fmt.Errorf("authority: role rule %q names no authority", pattern)
	}
	for i, w := range words {
		switch {
		case w == "*" && i > 0 && words[i-1] == "*":
			return RoleRule{}, fmt.Errorf("authority: role rule %q has two * in a row", pattern)
		case w != "*" && strings.Contains(w, "*"):
			return RoleRule{}, fmt.Errorf("authority: role rule %q: * must be a word of its own", pattern)
		}
	}
	if len(words) == 1 && words[0] == "*" {
		return RoleRule{}, fmt.Errorf("authority: role rule %q matches every role; unknown roles rank lowest by design", pattern)
	}
	return RoleRule{Pattern: strings.Join(words, " "), Authority: auth, words: words}, nil
}

// literal is the rule's specificity: how many of its words are not "*".
func (r RoleRule) literal() int {
	n := 0
	for _, w := range r.words {
		if w != "*" {
			n++
		}
	}
	return n
}

// Match reports whether role matches the rule's pattern.
func (r RoleRule) Match(role string) bool { return matchWords(r.words, roleWords(role)) }

// roleWords splits s into lowercase words; "*" is kept as a word of its own.
func roleWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(c rune) bool {
		return c != '*' && !unicode.IsLetter(c) && !unicode.IsDigit(c)
	})
}

// matchWords matches words against pat, where "*" stands for one or more
// words. It runs in O(len(pat) * len(words)).
func matchWords(pat, words []string) bool {
	// ok[j] reports whether the pattern so far matches words[:j].
	ok := make([]bool, len(words)+1)
	ok[0] = true
	for _, p := range pat {
		next := make([]bool, len(words)+1)
		for j := 1; j <= len(words); j++ {
			if p == "*" {
				// The star begins at word j-1, or it already began and
				// swallows word j-1 too.
				next[j] = ok[j-1] || next[j-1]
			} else {
				next[j] = ok[j-1] && p == words[j-1]
			}
		}
		ok = next
	}
	return ok[len(words)]
}
