package authority

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Middleware verifies the bearer token of every request and puts the
// identity in the request context. A missing or invalid token is answered
// with HTTP 401 and a GraphQL-shaped UNAUTHENTICATED error; next never runs.
func Middleware(v *Verifier, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		scheme, token, ok := strings.Cut(h, " ")
		if h == "" {
			unauthenticated(w, "missing bearer token: send Authorization: Bearer <JWT>")
			return
		}
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			unauthenticated(w, "malformed Authorization header: want Bearer <JWT>")
			return
		}
		id, err := v.Verify(strings.TrimSpace(token))
		if err != nil {
			unauthenticated(w, "invalid or expired token")
			return
		}
		next.ServeHTTP(w, r.WithContext(NewContext(r.Context(), id)))
	})
}

func unauthenticated(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("WWW-Authenticate", `Bearer realm="stategraph"`)
	w.WriteHeader(http.StatusUnauthorized)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []any{map[string]any{
			"message":    msg,
			"extensions": map[string]string{"code": "UNAUTHENTICATED"},
		}},
	})
}
