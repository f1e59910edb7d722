package authority

import (
	"slices"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// verifiedTokens is how many verified tokens a Verifier remembers; the
// least recently used is forgotten first.
const verifiedTokens = 1024

// verified is what a Verifier remembers of a token it accepted: the
// identity and the instants between which the token is accepted. Only
// exp, nbf and iat make a valid token invalid at another time, so a
// remembered token is accepted exactly when a fresh check would accept
// it: from max(nbf, iat) less the leeway, until exp plus the leeway.
type verified struct {
	id          Identity
	from, until time.Time
}

// tokenCache remembers verified tokens by their full compact form (a
// token differing in any byte, its signature included, is another key).
// Refused tokens are never remembered. It is safe for concurrent use.
type tokenCache struct {
	lru *lru.Cache[string, verified]
}

func newTokenCache(size int) *tokenCache {
	c, err := lru.New[string, verified](size)
	if err != nil {
		panic(err) // only for a size <= 0
	}
	return &tokenCache{lru: c}
}

// get returns the identity of token if it was verified and is accepted at
// now; a remembered token no longer accepted is forgotten.
func (c *tokenCache) get(token string, now time.Time) (Identity, time.Time, bool) {
	v, ok := c.lru.Get(token)
	if !ok {
		return Identity{}, time.Time{}, false
	}
	if now.Before(v.from) || !now.Before(v.until) {
		c.lru.Remove(token)
		return Identity{}, time.Time{}, false
	}
	id := v.id // callers own their copy of the slices
	id.Permissions, id.Groups = slices.Clone(id.Permissions), slices.Clone(id.Groups)
	return id, v.until, true
}

// add remembers that token was verified as id, accepted from from until
// until.
func (c *tokenCache) add(token string, id Identity, from, until time.Time) {
	id.Permissions, id.Groups = slices.Clone(id.Permissions), slices.Clone(id.Groups)
	c.lru.Add(token, verified{id: id, from: from, until: until})
}
