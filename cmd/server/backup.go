package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/stategraph/stategraph/store"
)

func runBackup(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	var out, org, serverURL, dataDir, token string
	var sf storeFlags
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf.register(fs)
	fs.StringVar(&out, "out", "", "file to write the backup to (required)")
	fs.StringVar(&org, "org", "", "back up only this organization (default: the whole store)")
	fs.StringVar(&serverURL, "server", "", "base URL of a running server, e.g. http://127.0.0.1:8080")
	fs.StringVar(&dataDir, "data-dir", "", "data directory of a stopped server")
	fs.StringVar(&token, "token", "", "service token with admin:backup (own organization) or admin:backup-all, for --server")
	if err := parse(fs, args, env); err != nil {
		return err
	}
	tikv, err := sf.tikv()
	if err != nil {
		return err
	}
	switch {
	case out == "":
		return errors.New("--out is required")
	case tikv && (serverURL != "" || dataDir != ""):
		return errors.New("--store tikv reads the cluster itself (a consistent snapshot, while servers run): drop --server and --data-dir")
	case tikv:
	case (serverURL == "") == (dataDir == ""):
		return errors.New("give either --server URL (a running server) or --data-dir DIR (a stopped one)")
	case serverURL != "" && token == "":
		return errors.New("--server needs --token (or STATEGRAPH_TOKEN): a service token with the admin:backup or admin:backup-all permission")
	}
	// Write next to the target and rename at the end, so a failed backup
	// never leaves a file that looks complete.
	tmp, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".partial-*")
	if err != nil {
		return fmt.Errorf("create backup file: %w", err)
	}
	defer os.Remove(tmp.Name())
	switch {
	case tikv:
		err = backupTiKV(ctx, sf, org, tmp)
	case serverURL != "":
		err = backupRemote(ctx, serverURL, org, token, tmp)
	default:
		err = backupLocal(ctx, dataDir, org, tmp)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("write backup file: %w", err)
	}
	st, err := os.Stat(out)
	if err != nil {
		return err
	}
	what := "the whole store"
	if org != "" {
		what = "organization " + org
	}
	_, err = fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", what, out, st.Size())
	return err
}

func backupLocal(ctx context.Context, dataDir, org string, w io.Writer) error {
	o := store.DefaultOptions(dataDir)
	o.GCInterval = 0
	st, err := store.Open(o)
	if err != nil {
		return fmt.Errorf("%w (is a server running on %s? back it up with --server)", err, dataDir)
	}
	return errors.Join(st.Backup(ctx, w, org), st.Close())
}

// backupTiKV backs up straight from a TiKV cluster.
func backupTiKV(ctx context.Context, sf storeFlags, org string, w io.Writer) error {
	st, err := openEngineStore(sf)
	if err != nil {
		return err
	}
	return errors.Join(st.Backup(ctx, w, org), st.Close())
}

// openEngineStore opens a store on the engine sf chooses (TiKV).
func openEngineStore(sf storeFlags) (*store.Store, error) {
	eng, err := sf.engine(nil)
	if err != nil {
		return nil, err
	}
	o := store.DefaultOptions("")
	o.Engine = eng
	return store.Open(o)
}

func backupRemote(ctx context.Context, base, org, token string, w io.Writer) error {
	u, err := url.Parse(strings.TrimRight(base, "/") + "/admin/backup")
	if err != nil {
		return fmt.Errorf("--server: %w", err)
	}
	if org != "" {
		u.RawQuery = url.Values{"org": {org}}.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("backup request: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var body struct {
			Errors []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if json.Unmarshal(raw, &body) == nil && len(body.Errors) > 0 {
			return fmt.Errorf("server refused the backup (%s): %s", resp.Status, body.Errors[0].Message)
		}
		return fmt.Errorf("server refused the backup: %s", resp.Status)
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("backup transfer broke off: %w", err)
	}
	return nil
}

func runRestore(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	var in, dataDir string
	var sf storeFlags
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf.register(fs)
	fs.StringVar(&dataDir, "data-dir", "", "data directory to restore into; the server must be stopped (required)")
	fs.StringVar(&in, "in", "", "backup file written by 'stategraph backup' (required)")
	if err := parse(fs, args, env); err != nil {
		return err
	}
	tikv, err := sf.tikv()
	if err != nil {
		return err
	}
	switch {
	case tikv && (in == "" || dataDir != ""):
		return errors.New("--store tikv restores into the cluster: give --in, and no --data-dir")
	case !tikv && (in == "" || dataDir == ""):
		return errors.New("--data-dir and --in are required")
	}
	f, err := os.Open(in)
	if err != nil {
		return fmt.Errorf("open backup: %w", err)
	}
	defer f.Close()
	var st *store.Store
	if tikv {
		dataDir = "TiKV at " + sf.pdEndpoints + " (prefix " + sf.prefix + ")"
		if st, err = openEngineStore(sf); err != nil {
			return err
		}
	} else {
		o := store.DefaultOptions(dataDir)
		o.GCInterval = 0
		if st, err = store.Open(o); err != nil {
			return fmt.Errorf("%w (stop the server before restoring into its data directory)", err)
		}
	}
	stats, err := st.Restore(ctx, f)
	if err = errors.Join(err, st.Close()); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "restored %d entries (organizations: %s) into %s\n", stats.Entries, strings.Join(stats.Orgs, ", "), dataDir)
	return err
}
