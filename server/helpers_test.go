package server_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

func mintExpired() (string, error) {
	return authority.Mint(apitest.Secret, apitest.Identity("acme", "alice"), time.Minute, "", "", time.Now().Add(-time.Hour))
}

func mintOther(t *testing.T) string {
	tok, err := authority.Mint([]byte("some-other-secret-xxxxxxxxxxxx"), apitest.Identity("acme", "alice"), time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func httptestServer(t *testing.T, srv *server.Server) *httptest.Server {
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs
}
