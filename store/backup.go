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
	"time"

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
//
// Every engine writes the same format (another engine than Badger writes
// each key once, at version 1, with its expiry), so a backup of one engine
// restores into the other.
func (s *Store) Backup(ctx context.Context, w io.Writer, org string) error {
	var prefix []byte
	if org != "" {
		if len(org) > maxSeg {
			return ErrKeyTooLong
		}
		prefix = OrgPrefix(org)
	}
	if s.bdg == nil {
		return s.backupScan(ctx, w, prefix)
	}
	st := s.bdg.db.NewStream()
	st.LogPrefix = "stategraph.Backup"
	st.Prefix = prefix
	if _, err := st.Backup(ctxWriter{ctx, w}, 0); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return nil
}

// Expiring is a Value that knows when its record expires (Unix seconds,
// 0 for never); an engine's values implement it for backups.
type Expiring interface {
	ExpiresAt() uint64
}

// backupChunk bounds one KVList written by backupScan.
const backupChunk = 4 << 20

// backupScan writes the backup of an engine without a stream of its own:
// every live record with prefix, from one snapshot, in key order.
func (s *Store) backupScan(ctx context.Context, w io.Writer, prefix []byte) error {
	cw := ctxWriter{ctx, w}
	var list pb.KVList
	size := 0
	flush := func() error {
		if len(list.Kv) == 0 {
			return nil
		}
		b, err := proto.Marshal(&list)
		if err != nil {
			return err
		}
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		if _, err := cw.Write(n[:]); err != nil {
			return err
		}
		if _, err := cw.Write(b); err != nil {
			return err
		}
		list.Kv, size = list.Kv[:0], 0
		return nil
	}
	err := s.view(ctx, func(txn EngineTxn) error {
		it := txn.NewIterator(IterOptions{Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix); it.Valid(); it.Next() {
			kv := &pb.KV{Key: slices.Clone(it.Key()), Version: 1}
			v := it.Value()
			if e, ok := v.(Expiring); ok {
				kv.ExpiresAt = e.ExpiresAt()
			}
			if err := v.Value(func(b []byte) error { kv.Value = slices.Clone(b); return nil }); err != nil {
				return err
			}
			list.Kv = append(list.Kv, kv)
			if size += len(kv.Key) + len(kv.Value); size >= backupChunk {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := it.Err(); err != nil {
			return err
		}
		return flush()
	})
	if err != nil {
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
			if bytes.Equal(kv.Key, systemKey("format")) && string(kv.Value) != formatVersion && !upgradable[string(kv.Value)] {
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
	if s.bdg == nil {
		if err := s.load(ctx, r); err != nil {
			return RestoreStats{}, fmt.Errorf("store: restore: %w", err)
		}
		return stats, nil
	}
	if err := s.bdg.db.Load(r, 256); err != nil {
		return RestoreStats{}, fmt.Errorf("store: restore: %w", err)
	}
	if err := s.bdg.durable(); err != nil {
		return RestoreStats{}, err
	}
	return stats, nil
}

// ExpiringSetter is an EngineTxn that writes a record with an absolute
// expiry (Unix seconds), for a restore to keep the backed-up one.
type ExpiringSetter interface {
	SetExpiresAt(key, value []byte, expiresAt uint64) error
}

// badgerBitDelete marks a tombstone in a backup's pb.KV.Meta (Badger's
// bitDelete).
const badgerBitDelete = 1

// loadBatch is how many records load commits in one transaction.
const loadBatch = 512

// load writes a backup's records into an engine without a loader of its
// own, loadBatch records a transaction; records already expired are
// skipped.
func (s *Store) load(ctx context.Context, r io.Reader) error {
	var batch []*pb.KV
	commit := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := s.run(ctx, func(txn EngineTxn) error {
			now := time.Now()
			for _, kv := range batch {
				if Expired(kv.ExpiresAt, now) {
					continue
				}
				var err error
				if es, ok := txn.(ExpiringSetter); ok {
					err = es.SetExpiresAt(kv.Key, kv.Value, kv.ExpiresAt)
				} else {
					var ttl time.Duration
					if kv.ExpiresAt != 0 {
						ttl = time.Until(time.Unix(int64(kv.ExpiresAt), 0))
					}
					err = txn.Set(kv.Key, kv.Value, ttl)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		batch = batch[:0]
		return err
	}
	var last []byte
	err := readBackup(r, func(kv *pb.KV) error {
		// Badger's stream writes the versions of a key together, newest
		// first, a deleted key as a tombstone: only the newest counts.
		if last != nil && bytes.Equal(kv.Key, last) {
			return nil
		}
		last = kv.Key
		if bytes.Equal(kv.Key, systemKey("format")) || len(kv.Meta) > 0 && kv.Meta[0]&badgerBitDelete != 0 {
			return nil // the target has its own format, checked equal
		}
		batch = append(batch, kv)
		if len(batch) >= loadBatch {
			return commit()
		}
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	return commit()
}

// hasPrefix reports whether any key starts with prefix.
func (s *Store) hasPrefix(prefix []byte) (bool, error) {
	var found bool
	err := s.view(context.Background(), func(txn EngineTxn) error {
		it := txn.NewIterator(IterOptions{Prefix: prefix, KeysOnly: true})
		defer it.Close()
		it.Seek(prefix)
		found = it.Valid()
		return it.Err()
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
