package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"google.golang.org/protobuf/proto"
)

// Backups use Badger's backup format: a sequence of records, each a
// little-endian uint64 length followed by a protobuf pb.KVList. Every key
// keeps its value, version, expiry and metadata, so a restored record is
// byte-for-byte the record that was backed up, TTL included.

// ErrRestoreOverlap is returned by Restore when the target store already
// holds records of an organization the backup contains: restoring would mix
// two histories of one organization.
var ErrRestoreOverlap = errors.New("store: the target already holds records of an organization in the backup")

// ErrBadBackup is returned by Restore when the input is not a backup this
// build can read.
var ErrBadBackup = errors.New("store: not a stategraph backup")

// maxBackupChunk bounds one KVList of a backup, so a corrupt length cannot
// make Restore allocate without limit. Badger writes chunks of a few MiB.
const maxBackupChunk = 1 << 30

// Backup writes the store to w in Badger's backup format, from a consistent
// snapshot, while the store keeps serving. With org == "" it writes every
// record (all organizations and the store's metadata); otherwise only the
// records of organization org, which are one contiguous key range.
func (s *Store) Backup(ctx context.Context, w io.Writer, org string) error {
	st := s.db.NewStream()
	st.LogPrefix = "stategraph.Backup"
	if org != "" {
		if len(org) > maxSeg {
			return ErrKeyTooLong
		}
		st.Prefix = OrgPrefix(org)
	}
	if _, err := st.Backup(ctxWriter{ctx, w}, 0); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return nil
}

// HasOrg reports whether organization org holds any record, for an
// operator's backup of it (an unknown organization is not backed up as an
// empty stream).
func (s *Store) HasOrg(org string) (bool, error) {
	if org == "" || len(org) > maxSeg {
		return false, nil
	}
	return s.hasPrefix(OrgPrefix(org))
}

// OrgPrefix returns the prefix every key of organization org starts with.
func OrgPrefix(org string) []byte { return Suffix(nil).Str(org) }

// ctxWriter stops a backup stream when its context ends.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// RestoreStats describes a restored backup.
type RestoreStats struct {
	// Entries is the number of key versions loaded: every key at least
	// once, a rewritten key once per version Badger still kept.
	Entries int
	// Orgs are the organizations the backup held, sorted.
	Orgs []string
	// System reports that the backup held store metadata (a full backup).
	System bool
}

// Restore loads a backup written by Backup into s. It reads r twice: first
// to check the backup (its format, and that s holds no record of any
// organization in it, else ErrRestoreOverlap), then to load it. Restore
// must not run while the store serves requests: open the target data
// directory, restore, close, then start the server on it.
func (s *Store) Restore(ctx context.Context, r io.ReadSeeker) (RestoreStats, error) {
	var stats RestoreStats
	orgs := map[string]bool{}
	err := readBackup(r, func(kv *pb.KV) error {
		stats.Entries++
		if bytes.HasPrefix(kv.Key, systemKey("")) {
			stats.System = true
			if bytes.Equal(kv.Key, systemKey("format")) && string(kv.Value) != formatVersion {
				return fmt.Errorf("%w: data format %q, this build reads %q", ErrBadBackup, kv.Value, formatVersion)
			}
			return nil
		}
		pk, err := parseKey(kv.Key)
		if err != nil {
			return fmt.Errorf("%w: malformed key", ErrBadBackup)
		}
		orgs[pk.Org] = true
		return ctx.Err()
	})
	if err != nil {
		return RestoreStats{}, err
	}
	for org := range orgs {
		stats.Orgs = append(stats.Orgs, org)
	}
	slices.Sort(stats.Orgs)
	for _, org := range stats.Orgs {
		has, err := s.hasPrefix(OrgPrefix(org))
		if err != nil {
			return RestoreStats{}, err
		}
		if has {
			return RestoreStats{}, fmt.Errorf("%w: organization %q", ErrRestoreOverlap, org)
		}
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return RestoreStats{}, fmt.Errorf("store: restore: rewind: %w", err)
	}
	if err := s.db.Load(r, 256); err != nil {
		return RestoreStats{}, fmt.Errorf("store: restore: %w", err)
	}
	if err := s.durable(); err != nil {
		return RestoreStats{}, err
	}
	return stats, nil
}

// hasPrefix reports whether any key starts with prefix.
func (s *Store) hasPrefix(prefix []byte) (bool, error) {
	var found bool
	err := s.db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Prefix, opts.PrefetchValues = prefix, false
		it := txn.NewIterator(opts)
		defer it.Close()
		it.Rewind()
		found = it.Valid()
		return nil
	})
	return found, err
}

// readBackup calls fn for every key-value of a backup stream.
func readBackup(r io.Reader, fn func(*pb.KV) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		var n uint64
		err := binary.Read(br, binary.LittleEndian, &n)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: truncated", ErrBadBackup)
		}
		if n > maxBackupChunk {
			return fmt.Errorf("%w: chunk of %d bytes", ErrBadBackup, n)
		}
		if uint64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		if _, err := io.ReadFull(br, buf[:n]); err != nil {
			return fmt.Errorf("%w: truncated", ErrBadBackup)
		}
		var list pb.KVList
		if err := proto.Unmarshal(buf[:n], &list); err != nil {
			return fmt.Errorf("%w: %v", ErrBadBackup, err)
		}
		for _, kv := range list.Kv {
			if err := fn(kv); err != nil {
				return err
			}
		}
	}
}
