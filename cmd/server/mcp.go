package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stategraph/stategraph/mcpserver"
	"github.com/stategraph/stategraph/server"
)

// runMCP serves the MCP tools over stdio, as the bearer of one token,
// against a running server (--url) or an embedded store. stdout is the
// protocol: everything else goes to stderr.
func runMCP(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	var (
		token, url, dataDir string
		inMemory            bool
		j                   jwtFlags
		logLevel, logFormat string
		timeout             time.Duration
	)
	fset := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.StringVar(&token, "token", "", "bearer token (JWT) every tool call runs as (required)")
	fset.StringVar(&url, "url", "", "base URL of a running stategraph (e.g. http://127.0.0.1:8080); tools call its /graphql. Without it, an embedded store is served")
	fset.StringVar(&dataDir, "data-dir", "./data", "directory of the embedded Badger store (without --url); must not be in use by a running server")
	fset.BoolVar(&inMemory, "in-memory", false, "embedded store in memory (nothing survives the process)")
	fset.StringVar(&logLevel, "log-level", "warn", "log level on stderr: debug, info, warn or error")
	fset.StringVar(&logFormat, "log-format", "text", "log format: text or json")
	fset.DurationVar(&timeout, "request-timeout", 30*time.Second, "deadline of every tool call")
	j.register(fset)
	if err := parse(fset, args, env); err != nil {
		return err
	}
	logger, err := newLogger(stderr, logLevel, logFormat)
	if err != nil {
		return err
	}
	if token == "" {
		return errors.New("no --token (or STATEGRAPH_TOKEN): every tool call runs as the bearer of a token; mint one with 'stategraph token'")
	}
	if url != "" && inMemory {
		return errors.New("give --url (a running server) or --in-memory (an embedded store), not both")
	}
	gql := &mcpserver.GraphQL{}
	if url != "" {
		gql.URL = strings.TrimSuffix(strings.TrimSuffix(url, "/"), "/graphql") + "/graphql"
		gql.Client = &http.Client{Timeout: timeout}
		// The running server verifies the token: JWT settings (perhaps
		// in the environment for serve) and --data-dir are not used.
	} else {
		opts := server.DefaultOptions(dataDir)
		opts.Store.InMemory = inMemory
		opts.RequestTimeout = timeout
		opts.Logger = logger
		if opts.Verifier, err = j.verifierConfig(); err != nil {
			return err
		}
		if verifierMissing(opts.Verifier) != nil {
			// A dev server's data directory holds its secret, as for token.
			secret, err := readDevSecret(dataDir)
			if errors.Is(err, fs.ErrNotExist) || err == nil && len(secret) == 0 {
				return errors.New("no --jwt-secret or --jwt-public-key (or STATEGRAPH_JWT_SECRET / STATEGRAPH_JWT_PUBLIC_KEY) to verify the token with, and no dev secret in --data-dir")
			}
			if err != nil {
				return fmt.Errorf("read dev secret: %w", err)
			}
			if err := checkSecret("the dev secret in "+devSecretPath(dataDir), secret); err != nil {
				return err
			}
			opts.Verifier.Secret = secret
		}
		srv, err := server.New(opts)
		if err != nil {
			return err
		}
		defer srv.Close()
		gql.Handler = srv.Handler()
	}
	// Fail now, not at the first tool call, on a bad token or an
	// unreachable server.
	who, err := gql.Do(ctx, token, `query Me { me { userId organization } }`, nil)
	if err != nil {
		return fmt.Errorf("token check: %w", err)
	}
	var me struct {
		Me struct{ UserID, Organization string }
	}
	_ = json.Unmarshal(who, &me)
	logger.Info("serving MCP over stdio", "user", me.Me.UserID, "organization", me.Me.Organization, "url", url, "in_memory", inMemory)
	s := mcpserver.New(mcpserver.Options{GraphQL: gql, Token: mcpserver.FixedToken(token), Logger: logger})
	err = s.Run(ctx, &mcp.IOTransport{Reader: os.Stdin, Writer: nopCloser{stdout}})
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, io.EOF)) {
		err = nil
	}
	return err
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
