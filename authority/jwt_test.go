package authority_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/stategraph/stategraph/authority"
)

var secret = []byte("test-secret-0123456789")

func sign(t testing.TB, m jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return s
}

func claims(mod func(jwt.MapClaims)) jwt.MapClaims {
	c := jwt.MapClaims{
		"sub": "alice", "org": "acme", "name": "Alice", "authority": "manager",
		"department": "Finance", "permissions": []string{"read:finance"}, "kind": "agent",
		"agent_level": "senior", "capability": "billing",
		"exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix(),
	}
	if mod != nil {
		mod(c)
	}
	return c
}

func TestVerifyHS256(t *testing.T) {
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: secret, Issuer: "idp", Audience: "stategraph"})
	if err != nil {
		t.Fatal(err)
	}
	good := func(c jwt.MapClaims) { c["iss"] = "idp"; c["aud"] = "stategraph" }
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	tests := []struct {
		name    string
		token   string
		wantErr string
	}{
		{"valid", sign(t, jwt.SigningMethodHS256, secret, claims(good)), ""},
		{"wrong secret", sign(t, jwt.SigningMethodHS256, []byte("other"), claims(good)), "signature"},
		{"HS512 not allowed", sign(t, jwt.SigningMethodHS512, secret, claims(good)), "signing method"},
		{"RS256 not allowed", sign(t, jwt.SigningMethodRS256, rsaKey, claims(good)), "signing method"},
		{"alg none", sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(good)), "signing method"},
		{"expired", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["exp"] = time.Now().Add(-time.Hour).Unix() })), "expired"},
		{"no exp", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); delete(c, "exp") })), "exp"},
		{"issued in the future", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["iat"] = time.Now().Add(time.Hour).Unix() })), "before issued"},
		{"wrong issuer", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["iss"] = "evil" })), "iss"},
		{"no issuer", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); delete(c, "iss") })), "iss"},
		{"wrong audience", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["aud"] = "other" })), "aud"},
		{"no org", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); delete(c, "org") })), "org"},
		{"no sub", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); delete(c, "sub") })), "sub"},
		{"bad kind", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["kind"] = "robot" })), "kind"},
		{"bad agent level", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["agent_level"] = "god" })), "agent_level"},
		{"org not a string", sign(t, jwt.SigningMethodHS256, secret, claims(func(c jwt.MapClaims) { good(c); c["org"] = 42 })), "invalid"},
		{"garbage", "not.a.token", "invalid"},
		{"empty", "", "invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := v.Verify(tc.token)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				if !id.Verified() || id.Org != "acme" || id.UserID != "alice" || id.Kind != authority.KindAgent ||
					id.AgentLevel != authority.AgentSenior || id.Capability != "billing" || !id.HasPermission("read:finance") {
					t.Errorf("identity = %+v", id)
				}
				return
			}
			if err == nil {
				t.Fatalf("Verify accepted a token that should fail with %q: %+v", tc.wantErr, id)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not mention %q", err, tc.wantErr)
			}
			if id.Verified() {
				t.Error("a rejected token produced a verified identity")
			}
		})
	}
}

func pemOf(t testing.TB, pub any) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

func TestVerifyPublicKeys(t *testing.T) {
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	edPub, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	tests := []struct {
		name   string
		pub    any
		method jwt.SigningMethod
		priv   any
	}{
		{"RS256", &rsaKey.PublicKey, jwt.SigningMethodRS256, rsaKey},
		{"ES256", &ecKey.PublicKey, jwt.SigningMethodES256, ecKey},
		{"EdDSA", edPub, jwt.SigningMethodEdDSA, edPriv},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pub, err := authority.ParsePublicKeyPEM(pemOf(t, tc.pub))
			if err != nil {
				t.Fatalf("ParsePublicKeyPEM: %v", err)
			}
			v, err := authority.NewVerifier(authority.VerifierConfig{PublicKey: pub})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Verify(sign(t, tc.method, tc.priv, claims(nil))); err != nil {
				t.Errorf("Verify good token: %v", err)
			}
			// An HS256 token "signed" with the public key bytes (the
			// classic algorithm-confusion attack) must fail.
			if _, err := v.Verify(sign(t, jwt.SigningMethodHS256, pemOf(t, tc.pub), claims(nil))); err == nil {
				t.Error("HS256 token accepted by a public-key verifier")
			}
		})
	}
}

func TestNewVerifierConfig(t *testing.T) {
	if _, err := authority.NewVerifier(authority.VerifierConfig{}); err != authority.ErrNoKey {
		t.Errorf("no key: err = %v, want ErrNoKey", err)
	}
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	if _, err := authority.NewVerifier(authority.VerifierConfig{Secret: secret, PublicKey: &rsaKey.PublicKey}); err == nil {
		t.Error("both a secret and a key: want an error")
	}
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if _, err := authority.NewVerifier(authority.VerifierConfig{PublicKey: &p384.PublicKey}); err == nil {
		t.Error("P-384 key: want an error (ES256 only)")
	}
	if _, err := authority.ParsePublicKeyPEM([]byte("not pem")); err == nil {
		t.Error("ParsePublicKeyPEM(garbage): want an error")
	}
}

func TestMintRoundTrip(t *testing.T) {
	v, _ := authority.NewVerifier(authority.VerifierConfig{Secret: secret, Audience: "sg"})
	want := authority.Identity{UserID: "u1", Org: "o1", UserName: "U", Authority: "peer", Permissions: []string{"a", "b"}, Kind: authority.KindService}
	tok, err := authority.Mint(secret, want, time.Minute, "", "sg", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != want.UserID || got.Org != want.Org || got.Kind != want.Kind || len(got.Permissions) != 2 {
		t.Errorf("round trip: got %+v, want %+v", got, want)
	}
	if _, err := authority.Mint(secret, authority.Identity{UserID: "u"}, time.Minute, "", "", time.Now()); err == nil {
		t.Error("Mint without org: want an error")
	}
}

// FuzzVerify: no input panics the verifier or yields a verified identity
// unless it is a correctly signed token.
func FuzzVerify(f *testing.F) {
	v, _ := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	f.Add(sign(f, jwt.SigningMethodHS256, secret, claims(nil)))
	f.Add("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
	f.Add("a.b.c")
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		id, err := v.Verify(tok)
		if err != nil && id.Verified() {
			t.Fatal("error with a verified identity")
		}
		if err == nil && (id.Org == "" || id.UserID == "") {
			t.Fatalf("verified identity without org or sub: %+v", id)
		}
	})
}

func TestOrder(t *testing.T) {
	o := authority.MustDefaultOrder()
	if !(o.Rank("policy") > o.Rank("executive") && o.Rank("executive") > o.Rank("manager") && o.Rank("Manager") == o.Rank("manager")) {
		t.Error("default order ranks wrong")
	}
	if o.Rank("nonsense") != o.Rank("unverified") {
		t.Error("unknown authority should rank as unverified")
	}
	for _, bad := range [][]string{nil, {"a", "a"}, {"a", " "}} {
		if _, err := authority.NewOrder(bad); err == nil {
			t.Errorf("NewOrder(%q): want an error", bad)
		}
	}
}
