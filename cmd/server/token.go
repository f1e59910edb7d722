package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/stategraph/stategraph/authority"
)

func runToken(_ context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	var (
		id          authority.Identity
		perms       listFlag
		groups      listFlag
		kind, level string
		ttl         time.Duration
		dataDir     string
		j           jwtFlags
	)
	fset := flag.NewFlagSet("token", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.StringVar(&id.Org, "org", "", "organization id (required)")
	fset.StringVar(&id.UserID, "sub", "", "user id (required)")
	fset.StringVar(&id.UserName, "name", "", "display name")
	fset.StringVar(&id.Authority, "authority", "", "authority, e.g. manager or executive")
	fset.StringVar(&id.Department, "department", "", "department")
	fset.Var(&perms, "permission", "a permission (repeatable)")
	fset.Var(&groups, "group", "a group the user belongs to, for document permissions (repeatable)")
	fset.StringVar(&kind, "kind", "user", "user, agent or service")
	fset.StringVar(&level, "agent-level", "", "junior, senior or master (agents)")
	fset.StringVar(&id.Capability, "capability", "", "the agent's capability")
	fset.DurationVar(&ttl, "ttl", 24*time.Hour, "how long the token is valid")
	fset.StringVar(&dataDir, "data-dir", "./data", "data directory of a dev server, whose secret is used when no --jwt-secret is given")
	j.register(fset)
	if err := parse(fset, args, env); err != nil {
		return err
	}
	id.Permissions = perms
	id.Groups = groups
	id.Kind, id.AgentLevel = authority.Kind(kind), authority.AgentLevel(level)
	switch {
	case id.Org == "" || id.UserID == "":
		return errors.New("--org and --sub are required")
	case ttl <= 0:
		return errors.New("--ttl must be positive")
	case j.publicKey != "" && j.secret == "":
		return errors.New("token signs with the HS256 secret; a public key cannot sign (give --jwt-secret)")
	}
	secret := []byte(j.secret)
	if len(secret) == 0 {
		var err error
		secret, err = readDevSecret(dataDir)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no --jwt-secret (or STATEGRAPH_JWT_SECRET) and no dev secret in %s: start 'stategraph serve --dev' once or give a secret", dataDir)
		}
		if err != nil {
			return fmt.Errorf("read dev secret: %w", err)
		}
		if err := checkSecret("the dev secret in "+devSecretPath(dataDir), secret); err != nil {
			return err
		}
	} else if err := checkSecret(secretSource, secret); err != nil {
		return err
	}
	tok, err := authority.Mint(secret, id, ttl, j.issuer, j.audience, time.Now())
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, tok)
	return err
}
