package detect

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// pre is a regular expression with a cheap test in front: the words one of
// which every match contains (lower case), read from the expression
// itself, so a text that holds none of them is not run through the
// expression at all. Most sentences hold no cue of most families, and a
// case-insensitive expression with word boundaries runs on the
// backtracker, rune by rune; strings.Contains does not. The answers are
// the expression's own: the test only ever skips texts the expression
// cannot match (an ASCII text without any of the words), and texts with
// other characters, whose case folding has exceptions, always run it.
type pre struct {
	*regexp.Regexp
	words []string // nil: no test, always run the expression
}

// mustPre compiles expr with its test.
func mustPre(expr string) *pre {
	re := regexp.MustCompile(expr)
	return &pre{Regexp: re, words: requiredWords(expr)}
}

// may reports whether the expression can match s: false only when s is
// ASCII and holds none of the words.
func (p *pre) may(s string) bool {
	if p.words == nil || !isASCII(s) {
		return true
	}
	for _, w := range p.words {
		if containsLowered(s, w) {
			return true
		}
	}
	return false
}

// containsLowered is strings.Contains(strings.ToLower(s), w) for an ASCII
// s, without lowering s into a new string: may runs for every expression
// on every sentence.
func containsLowered(s, w string) bool {
	n := len(w)
	if n == 0 {
		return true
	}
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for j < n && lowerByte(s[i+j]) == w[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// MatchString is regexp.Regexp's, tested first.
func (p *pre) MatchString(s string) bool { return p.may(s) && p.Regexp.MatchString(s) }

// FindString is regexp.Regexp's, tested first.
func (p *pre) FindString(s string) string {
	if !p.may(s) {
		return ""
	}
	return p.Regexp.FindString(s)
}

// FindStringSubmatch is regexp.Regexp's, tested first.
func (p *pre) FindStringSubmatch(s string) []string {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindStringSubmatch(s)
}

// FindStringSubmatchIndex is regexp.Regexp's, tested first.
func (p *pre) FindStringSubmatchIndex(s string) []int {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindStringSubmatchIndex(s)
}

// FindAllStringIndex is regexp.Regexp's, tested first.
func (p *pre) FindAllStringIndex(s string, n int) [][]int {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp's, tested first.
func (p *pre) FindAllStringSubmatch(s string, n int) [][]string {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp's, tested first.
func (p *pre) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllStringFunc is regexp.Regexp's, tested first.
func (p *pre) ReplaceAllStringFunc(s string, f func(string) string) string {
	if !p.may(s) {
		return s
	}
	return p.Regexp.ReplaceAllStringFunc(s, f)
}

// ReplaceAllString is regexp.Regexp's, tested first.
func (p *pre) ReplaceAllString(s, repl string) string {
	if !p.may(s) {
		return s
	}
	return p.Regexp.ReplaceAllString(s, repl)
}

// requiredWords returns lower-case strings one of which every match of
// expr contains, or nil when the expression does not say (an expression
// that can match without any literal, or whose literals are not ASCII).
func requiredWords(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re)
}

func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		w := strings.ToLower(string(re.Rune))
		if w == "" || !isASCII(w) {
			return nil
		}
		return []string{w}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Every part must match: the most selective part that says
		// (its shortest word longest) decides.
		var best []string
		for _, sub := range re.Sub {
			ws := required(sub)
			if ws != nil && (best == nil || shortest(ws) > shortest(best) || shortest(ws) == shortest(best) && len(ws) < len(best)) {
				best = ws
			}
		}
		return best
	case syntax.OpAlternate:
		// One branch matches: each must say.
		var all []string
		for _, sub := range re.Sub {
			ws := required(sub)
			if ws == nil {
				return nil
			}
			all = append(all, ws...)
		}
		return all
	}
	return nil
}

func shortest(ws []string) int {
	n := len(ws[0])
	for _, w := range ws[1:] {
		n = min(n, len(w))
	}
	return n
}

// prefiltered names the expressions with a test, for the tests.
func prefiltered() map[string]*pre {
	m := map[string]*pre{
		"reOldBefore": reOldBefore, "reForNow": reForNow, "reAddition": reAddition, "reFromTo": reFromTo,
		"reQuestion": reQuestion, "reRecap": reRecap, "reKeep": reKeep, "reTail": reTail, "reHistory": reHistory,
		"reHypothetical": reHypothetical, "reAboutHypo": reAboutHypo, "reDraft": reDraft, "reTask": reTask,
		"reCited": reCited, "reRoleSays": reRoleSays, "rePolicyWord": rePolicyWord, "reParen": reParen,
	}
	for i, c := range changeCues {
		m[fmt.Sprintf("changeCues[%d]", i)] = c.re
	}
	for i, p := range replacementPatterns {
		m[fmt.Sprintf("replacementPatterns[%d]", i)] = p
	}
	return m
}
