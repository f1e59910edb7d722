package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// commit is the VCS revision the binary was built from, set by
// 'make build' and 'make run' with -ldflags "-X main.commit=…" (the
// Makefile builds with -buildvcs=false). When empty, version reads the
// revision Go stamped into the build, if any.
var commit string

// buildVersion returns the module version and the commit of the running
// binary, "unknown" for what the build did not record.
func buildVersion() (version, rev string) {
	version, rev = "unknown", commit
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version, orUnknown(rev)
	}
	if v := bi.Main.Version; v != "" {
		version = v
	}
	if rev == "" {
		var modified bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" && modified {
			rev += "-dirty"
		}
	}
	return version, orUnknown(rev)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func runVersion(_ context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := parse(fs, args, env); err != nil {
		return err
	}
	version, rev := buildVersion()
	_, err := fmt.Fprintf(stdout, "stategraph %s\ncommit %s\n%s %s/%s\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}

// runHelp lists the commands, or shows the flags of the one named.
func runHelp(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	switch {
	case len(args) == 0:
		usage(stdout)
		return nil
	case len(args) > 1:
		return fmt.Errorf("help takes one command, got %d arguments", len(args))
	case args[0] == "help":
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			// -h makes the command print its usage, here to stdout, and
			// return flag.ErrHelp before it does anything.
			return c.run(ctx, []string{"-h"}, env, stdout, stdout)
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown command %q", args[0])
}

func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

// summary is the one-line description of the command name.
func summary(name string) string {
	for _, c := range commands() {
		if c.name == name {
			return c.summary
		}
	}
	return ""
}
