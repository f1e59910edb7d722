package authority

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TestVerifiedTokensAreRemembered: a token accepted once is accepted from
// memory while a fresh check would accept it, and refused as a fresh check
// would refuse it once it expired (the leeway included), before its nbf or
// iat (a clock set back), or when it was never accepted.
func TestVerifiedTokensAreRemembered(t *testing.T) {
	secret := []byte("test-secret-0123456789")
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	const leeway = 10 * time.Second
	mint := func(mod func(jwt.MapClaims)) string {
		t.Helper()
		c := jwt.MapClaims{"sub": "alice", "org": "acme", "permissions": []string{"read:finance"}, "groups": []string{"g1"},
			"iat": t0.Unix(), "exp": t0.Add(time.Hour).Unix()}
		if mod != nil {
			mod(c)
		}
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(secret)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	plain := mint(nil)
	later := mint(func(c jwt.MapClaims) { c["nbf"] = t0.Add(time.Minute).Unix() })
	tampered := plain[:len(plain)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(plain, "AA")]
	tests := []struct {
		name   string
		token  string
		at     time.Time
		accept bool
	}{
		{"first use", plain, t0, true},
		{"again, from memory", plain, t0.Add(time.Minute), true},
		{"within the leeway after exp", plain, t0.Add(time.Hour + leeway - time.Second), true},
		{"expired", plain, t0.Add(time.Hour + leeway), false},
		{"expired, asked again", plain, t0.Add(time.Hour + leeway), false},
		{"the clock set back before iat", plain, t0.Add(-leeway - time.Second), false},
		{"back within the leeway of iat", plain, t0.Add(-leeway), true},
		{"the clock set back again, while remembered", plain, t0.Add(-leeway - time.Second), false},
		{"before nbf", later, t0, false},
		{"after nbf", later, t0.Add(time.Minute), true},
		{"before nbf, while remembered", later, t0.Add(time.Minute - leeway - time.Second), false},
		{"tampered signature", tampered, t0, false},
	}
	v, err := NewVerifier(VerifierConfig{Secret: secret, Leeway: leeway})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		v.now = func() time.Time { return tc.at }
		id, until, err := v.VerifyUntil(tc.token)
		if !tc.accept {
			if err == nil {
				t.Errorf("%s: accepted", tc.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !id.Verified() || id.UserID != "alice" || !id.HasPermission("read:finance") || !id.InGroup("g1") {
			t.Errorf("%s: identity %+v", tc.name, id)
		}
		if want := t0.Add(time.Hour + leeway); !until.Equal(want) {
			t.Errorf("%s: accepted until %v, want %v", tc.name, until, want)
		}
		id.Permissions[0], id.Groups[0] = "changed", "changed" // the caller's copy only
	}
}

// TestTokenCacheBounded: the verifier remembers at most verifiedTokens
// tokens.
func TestTokenCacheBounded(t *testing.T) {
	secret := []byte("test-secret-0123456789")
	v, err := NewVerifier(VerifierConfig{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	for i := range verifiedTokens + 10 {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "u", "org": "o", "jti": strconv.Itoa(i),
			"exp": time.Now().Add(time.Hour).Unix()}).SignedString(secret)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.Verify(tok); err != nil {
			t.Fatal(err)
		}
	}
	if n := v.tokens.lru.Len(); n != verifiedTokens {
		t.Errorf("%d tokens remembered, want %d", n, verifiedTokens)
	}
}
