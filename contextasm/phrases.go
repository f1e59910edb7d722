package contextasm

import (
	"hash/maphash"
	"strings"
	"unicode/utf8"

	"github.com/stategraph/stategraph/internal/memo"
)

// phrases are lowered, trimmed, non-empty phrases to look for in many
// lowered texts (mentionsLower), indexed by their opening word: a phrase
// that opens with a word rune occurs in a text only where that word
// stands whole in the text (the text's rune before the phrase is not a
// word rune, and neither is the text's rune after the word: it is the
// phrase's own next rune, or, for a one-word phrase, the boundary
// mentionsLower requires). So a text is matched against the phrases
// opening with one of its words, and those opening otherwise, instead of
// against all of them. The rule holds for valid UTF-8, where a phrase can
// only start at a rune boundary of the text; a text or phrase that is not
// is matched the plain way.
type phrases struct {
	list   []string
	byWord map[string][]int // opening word -> indexes in list
	always []int            // phrases with no opening word, or not valid UTF-8
}

// newPhrases indexes ps (each lowered, trimmed and not empty).
func newPhrases(ps []string) phrases {
	x := phrases{list: ps}
	for i, p := range ps {
		if w := openingWord(p); w != "" && utf8.ValidString(p) {
			if x.byWord == nil {
				x.byWord = map[string][]int{}
			}
			x.byWord[w] = append(x.byWord[w], i)
			continue
		}
		x.always = append(x.always, i)
	}
	return x
}

// in reports whether one of the phrases occurs in t, lowered, as
// mentionsLower finds it.
func (x phrases) in(t string) bool {
	if len(x.list) == 0 {
		return false
	}
	if !utf8.ValidString(t) {
		for _, p := range x.list {
			if mentionsLower(t, p) {
				return true
			}
		}
		return false
	}
	for _, i := range x.always {
		if mentionsLower(t, x.list[i]) {
			return true
		}
	}
	found := false
	eachWord(t, func(w string) bool {
		for _, i := range x.byWord[w] {
			if mentionsLower(t, x.list[i]) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// openingWord returns the run of word runes (isWordRune) p opens with, or
// "" when its first rune is not one.
func openingWord(p string) string {
	end := 0
	for end < len(p) {
		r, size := rune(p[end]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(p[end:])
		}
		if !isWordRune(r) {
			break
		}
		end += size
	}
	return p[:end]
}

// eachWord calls fn with every maximal run of word runes of t, in order,
// until fn returns false.
func eachWord(t string, fn func(w string) bool) {
	start := -1
	for i := 0; i < len(t); {
		r, size := rune(t[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(t[i:])
		}
		word := isWordRune(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if !fn(t[start:i]) {
				return
			}
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(t[start:])
	}
}

// wordSet is a filter of the words (eachWord) of a lowered text, to
// rule out at once, as phrases does, a phrase holding a word the text
// lacks; ok is false when the text is not valid UTF-8 (nothing can be
// ruled out). It keeps one bit per word, at the word's hash (a Bloom
// filter with one hash function): a word of the text always finds its bit
// set, so lacks never rules out a phrase the text holds; a word it does
// not hold finds its bit clear unless another word's hash shares it, and
// then the caller's exact test (mentionsLower) decides, as it would
// without the filter. Setting a bit costs a hash, where a set of strings
// (an assembly filters the words of every current value, thousands at
// 100,000 facts) cost a map insertion per word.
type wordSet struct {
	bits [wordSetBits / 64]uint64
	ok   bool
}

// wordSetBits is the size of a wordSet's filter: about a thousand words
// leave a word it does not hold one chance in sixteen of passing.
const wordSetBits = 1 << 14

// wordSetOf returns the filter of the words of texts, lowered: the
// filter of their lowered texts joined by NUL bytes (a NUL is no word
// rune, so no word spans two texts, and lowering the joined text lowers
// each), made of each text's remembered hashes.
func wordSetOf(texts []string) (ws wordSet) {
	ws.ok = true
	for _, t := range texts {
		wh := wordHashesMemo.Get(t)
		ws.ok = ws.ok && wh.ok
		for _, h := range wh.hashes {
			ws.bits[h/64] |= 1 << (h % 64)
		}
	}
	return ws
}

// wordHashes are the hashes (wordHash) of the words of a lowered text,
// and whether the lowered text is valid UTF-8.
type wordHashes struct {
	hashes []uint16
	ok     bool
}

// wordHashesMemo remembers the word hashes of texts: an assembly filters
// the words of the same values, turns and sentences again.
var wordHashesMemo = memo.New(func(t string) wordHashes {
	t = strings.ToLower(t)
	wh := wordHashes{ok: utf8.ValidString(t)}
	eachWord(t, func(w string) bool {
		wh.hashes = append(wh.hashes, uint16(wordHash(w)))
		return true
	})
	return wh
}, memo.Limits{Bytes: 2 << 20, Key: 64 << 10})

// newWordSet returns the filter of t's words (a value: it can live on
// the caller's stack).
func newWordSet(t string) (ws wordSet) {
	if !utf8.ValidString(t) {
		return ws
	}
	ws.ok = true
	eachWord(t, func(w string) bool {
		h := wordHash(w)
		ws.bits[h/64] |= 1 << (h % 64)
		return true
	})
	return ws
}

// wordHash returns a word's bit in a wordSet.
func wordHash(w string) uint64 { return maphash.String(wordSeed, w) % wordSetBits }

// wordSeed seeds wordHash for the process: the bits and the remembered
// hashes (wordHashesMemo) never leave it.
var wordSeed = maphash.MakeSeed()

// lacks reports whether p (lowered, trimmed, not empty) cannot occur in
// the text as mentionsLower finds it: p is valid UTF-8 and holds a word
// the text does not hold whole (its bit is clear). Every word of an
// occurrence stands whole in the text: those inside p are bounded by p's
// own runes, the first and the last (when p opens or ends with a word
// rune) by the boundaries mentionsLower requires.
func (ws *wordSet) lacks(p string) bool {
	if !ws.ok || !utf8.ValidString(p) {
		return false
	}
	lacking := false
	eachWord(p, func(w string) bool {
		h := wordHash(w)
		lacking = ws.bits[h/64]&(1<<(h%64)) == 0
		return !lacking
	})
	return lacking
}
