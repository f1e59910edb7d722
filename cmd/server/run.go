package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// command is one subcommand.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"serve", "serve the GraphQL API (the default)", runServe},
		{"token", "print a signed token for an identity", runToken},
		{"statebench", "replay StateBench timelines through the API and score the contexts", runStatebench},
		{"backup", "write a backup of a running (--server) or stopped (--data-dir) server", runBackup},
		{"restore", "load a backup into the data directory of a stopped server", runRestore},
		{"mcp", "serve the MCP tools over stdio, as one token's bearer (--url or an embedded store)", runMCP},
		{"version", "print the version and the commit it was built from", runVersion},
		{"help", "list the commands, or show one command's flags (help COMMAND)", runHelp},
	}
}

// run dispatches to a subcommand; with none, or a flag first, it serves.
func run(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	name := "serve"
	if len(args) > 0 && isHelpFlag(args[0]) {
		usage(stdout)
		return nil
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	for _, c := range commands() {
		if c.name == name {
			err := c.run(ctx, args, env, stdout, stderr)
			if errors.Is(err, flag.ErrHelp) {
				return nil // -h printed the usage
			}
			return err
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown command %q", name)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: stategraph [command] [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'stategraph help COMMAND' or 'stategraph COMMAND -h' for a command's flags.\nEvery flag can also be set with a STATEGRAPH_* environment variable\n(--data-dir: STATEGRAPH_DATA_DIR); the flag wins.")
}

// envName is the environment variable of a flag.
func envName(flagName string) string {
	return "STATEGRAPH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse parses args into fs, then fills every flag not given on the
// command line from its STATEGRAPH_* variable.
func parse(fs *flag.FlagSet, args []string, env func(string) string) error {
	fs.Usage = func() {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n == 0 {
			fmt.Fprintf(fs.Output(), "usage: stategraph %s\n\n%s\n", fs.Name(), summary(fs.Name()))
			return
		}
		fmt.Fprintf(fs.Output(), "usage: stategraph %s [flags]\n\n%s\n\nflags (each also read from STATEGRAPH_<FLAG>, the flag winning):\n", fs.Name(), summary(fs.Name()))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	for _, n := range names {
		if given[n] {
			continue
		}
		v := env(envName(n))
		if v == "" {
			continue
		}
		if _, repeatable := fs.Lookup(n).Value.(*listFlag); repeatable {
			for _, part := range strings.Split(v, ",") {
				if err := fs.Set(n, strings.TrimSpace(part)); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", envName(n), err))
				}
			}
			continue
		}
		if err := fs.Set(n, v); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", envName(n), v, err))
		}
	}
	return errors.Join(errs...)
}

// listFlag is a repeatable string flag; from the environment it takes a
// comma-separated list.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// devSecretFile is where a dev server keeps its generated secret.
const devSecretFile = "dev-jwt-secret"

func devSecretPath(dataDir string) string { return filepath.Join(dataDir, devSecretFile) }

// readDevSecret returns the dev secret kept in dataDir, if any.
func readDevSecret(dataDir string) ([]byte, error) {
	b, err := os.ReadFile(devSecretPath(dataDir))
	if err != nil {
		return nil, err
	}
	return []byte(strings.TrimSpace(string(b))), nil
}
