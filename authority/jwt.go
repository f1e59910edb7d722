package authority

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"
)

// ErrNoKey is returned by NewVerifier when neither a secret nor a public key
// is configured.
var ErrNoKey = errors.New("authority: no JWT secret or public key configured")

// maxClaimLen bounds identity strings taken from a token.
const maxClaimLen = 256

// Claims is the token payload: the registered claims plus the identity.
type Claims struct {
	Org         string   `json:"org"`
	Name        string   `json:"name,omitempty"`
	Authority   string   `json:"authority,omitempty"`
	Department  string   `json:"department,omitempty"`
	Permissions []string `json:"permissions,omitempty"`
	Kind        string   `json:"kind,omitempty"`
	AgentLevel  string   `json:"agent_level,omitempty"`
	Capability  string   `json:"capability,omitempty"`
	Groups      []string `json:"groups,omitempty"`
	jwt.RegisteredClaims
}

// VerifierConfig says which key verifies tokens and which registered claims
// are required. Exactly one of Secret and PublicKey is set.
type VerifierConfig struct {
	Secret    []byte           // HS256
	PublicKey crypto.PublicKey // RS256, ES256 or EdDSA, by key type
	Issuer    string           // required "iss" when set
	Audience  string           // required in "aud" when set
	Leeway    time.Duration    // clock skew allowed on exp/nbf/iat
}

// Verifier checks tokens. It is safe for concurrent use.
type Verifier struct {
	parser *jwt.Parser
	key    any
	leeway time.Duration
	now    func() time.Time // the parser's clock too (a test sets it)
	// tokens remembers the tokens verified recently, so that a client
	// sending the same token with every request pays for its signature
	// once (an RS256 check costs more than a small write).
	tokens *tokenCache
}

// NewVerifier returns a Verifier whose algorithm is pinned to the key type.
func NewVerifier(cfg VerifierConfig) (*Verifier, error) {
	var alg string
	var key any
	switch {
	case len(cfg.Secret) > 0 && cfg.PublicKey != nil:
		return nil, errors.New("authority: configure either a JWT secret or a public key, not both")
	case len(cfg.Secret) > 0:
		alg, key = "HS256", cfg.Secret
	case cfg.PublicKey != nil:
		var err error
		if alg, err = algorithmFor(cfg.PublicKey); err != nil {
			return nil, err
		}
		key = cfg.PublicKey
	default:
		return nil, ErrNoKey
	}
	v := &Verifier{key: key, leeway: cfg.Leeway, now: time.Now, tokens: newTokenCache(verifiedTokens)}
	opts := []jwt.ParserOption{
		jwt.WithTimeFunc(func() time.Time { return v.now() }),
		jwt.WithValidMethods([]string{alg}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(cfg.Leeway),
	}
	if cfg.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(cfg.Issuer))
	}
	if cfg.Audience != "" {
		opts = append(opts, jwt.WithAudience(cfg.Audience))
	}
	v.parser = jwt.NewParser(opts...)
	return v, nil
}

func algorithmFor(k crypto.PublicKey) (string, error) {
	switch k := k.(type) {
	case *rsa.PublicKey:
		return "RS256", nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return "", errors.New("authority: ECDSA keys must use curve P-256 (ES256)")
		}
		return "ES256", nil
	case ed25519.PublicKey:
		return "EdDSA", nil
	default:
		return "", fmt.Errorf("authority: unsupported public key type %T", k)
	}
}

// ParsePublicKeyPEM parses a PEM-encoded PKIX public key or certificate
// (RSA, ECDSA P-256 or Ed25519).
func ParsePublicKeyPEM(data []byte) (crypto.PublicKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("authority: no PEM block in public key file")
	}
	switch block.Type {
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("authority: parse certificate: %w", err)
		}
		return cert.PublicKey, nil
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("authority: parse RSA public key: %w", err)
		}
		return k, nil
	default:
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("authority: parse public key: %w", err)
		}
		return k, nil
	}
}

// Verify parses and validates a compact JWS and returns the verified
// identity. Any parse or validation error rejects the token.
func (v *Verifier) Verify(token string) (Identity, error) {
	id, _, err := v.VerifyUntil(token)
	return id, err
}

// VerifyUntil is Verify that also returns when the token stops being
// accepted (its "exp" claim, which every accepted token has, plus the
// configured leeway), for a connection that must end when its token does.
func (v *Verifier) VerifyUntil(token string) (Identity, time.Time, error) {
	if id, until, ok := v.tokens.get(token, v.now()); ok {
		return id, until, nil
	}
	var c Claims
	if _, err := v.parser.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return v.key, nil }); err != nil {
		return Identity{}, time.Time{}, fmt.Errorf("authority: invalid token: %w", err)
	}
	id, err := c.identity()
	if err != nil {
		return Identity{}, time.Time{}, err
	}
	if c.ExpiresAt == nil {
		return Identity{}, time.Time{}, errors.New("authority: token has no exp claim")
	}
	id.verified = true
	until := c.ExpiresAt.Time.Add(v.leeway)
	var from time.Time
	for _, t := range []*jwt.NumericDate{c.NotBefore, c.IssuedAt} {
		if t != nil && t.Time.After(from) {
			from = t.Time
		}
	}
	if !from.IsZero() {
		from = from.Add(-v.leeway)
	}
	v.tokens.add(token, id, from, until)
	return id, until, nil
}

func (c *Claims) identity() (Identity, error) {
	kind := Kind(c.Kind)
	if kind == "" {
		kind = KindUser
	}
	id := Identity{
		UserID:      c.Subject,
		UserName:    c.Name,
		Org:         c.Org,
		Authority:   c.Authority,
		Department:  c.Department,
		Permissions: c.Permissions,
		Kind:        kind,
		AgentLevel:  AgentLevel(c.AgentLevel),
		Capability:  c.Capability,
		Groups:      c.Groups,
	}
	switch {
	case id.UserID == "":
		return Identity{}, errors.New("authority: token has no sub claim")
	case id.Org == "":
		return Identity{}, errors.New("authority: token has no org claim")
	case !kind.Valid():
		return Identity{}, fmt.Errorf("authority: unknown kind %q (want user, agent or service)", c.Kind)
	case !id.AgentLevel.Valid():
		return Identity{}, fmt.Errorf("authority: unknown agent_level %q (want junior, senior or master)", c.AgentLevel)
	}
	for _, s := range append([]string{id.UserID, id.UserName, id.Org, id.Authority, id.Department, id.Capability}, slices.Concat(id.Permissions, id.Groups)...) {
		if len(s) > maxClaimLen || !utf8.ValidString(s) {
			return Identity{}, fmt.Errorf("authority: claim longer than %d bytes or not UTF-8", maxClaimLen)
		}
	}
	return id, nil
}

// Mint signs an HS256 token for id, valid for ttl from now. Issuer and
// audience are set when non-empty.
func Mint(secret []byte, id Identity, ttl time.Duration, issuer, audience string, now time.Time) (string, error) {
	if len(secret) == 0 {
		return "", ErrNoKey
	}
	c := Claims{
		Org:         id.Org,
		Name:        id.UserName,
		Authority:   id.Authority,
		Department:  id.Department,
		Permissions: id.Permissions,
		Kind:        string(id.Kind),
		AgentLevel:  string(id.AgentLevel),
		Capability:  id.Capability,
		Groups:      id.Groups,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   id.UserID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
			Issuer:    issuer,
		},
	}
	if audience != "" {
		c.Audience = jwt.ClaimStrings{audience}
	}
	if _, err := c.identity(); err != nil {
		return "", err
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(secret)
}
