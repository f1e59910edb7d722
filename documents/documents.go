// Package documents keeps an organization's documents and answers
// searches over them with permission mirroring: a document is chunked and
// indexed when ingested (terms from package lexical, scores from
// search.BM25), and a chunk is returned only when the caller may see its
// document at its source, checked at every query against the ACL mirrored
// from the source (users and groups) and, when configured, a permission
// webhook asked fresh for each query. Nothing about visibility is cached:
// a re-ingested ACL applies to the next query, and a webhook that fails,
// times out or is down makes the documents it was asked about invisible.
package documents

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// PermWrite is the permission of an administrator token: with it a user
// or agent token may ingest documents, as a service token always may.
const PermWrite = "admin:documents"

// Limits of a document.
const (
	MaxText      = 512 << 10
	MaxTitle     = 512
	MaxSourceURI = 2048
	MaxACL       = 1000 // users and groups together
	// ChunkWords is the most words a chunk holds.
	ChunkWords = 120
	// MaxFirst bounds searchDocuments' first; DefaultFirst is its default.
	MaxFirst     = 100
	DefaultFirst = 10
)

// ACL is who may see a document, as mirrored from its source: any user
// listed, or any member of a group listed. An empty ACL shows the
// document to nobody.
type ACL struct {
	Users  []string `json:"users"`
	Groups []string `json:"groups"`
}

// Allows reports whether the ACL lets id see the document.
func (a ACL) Allows(id authority.Identity) bool {
	if slices.Contains(a.Users, id.UserID) {
		return true
	}
	return slices.ContainsFunc(a.Groups, id.InGroup)
}

// Document is an ingested document. Its record keeps no text (its chunks
// hold it), so that checking the ACL of a matched document stays cheap;
// Text is set on the document Ingest returns.
type Document struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	Text       string    `json:"-"`
	SourceURI  string    `json:"sourceUri,omitempty"`
	ACL        ACL       `json:"acl"`
	Chunks     int       `json:"chunks"`
	IngestedAt time.Time `json:"ingestedAt"`
	IngestedBy string    `json:"ingestedBy,omitempty"`
}

// Chunk is a piece of a document returned by a search, with its
// provenance.
type Chunk struct {
	DocumentID string
	Index      int // 0-based
	Count      int // the document's number of chunks
	Title      string
	SourceURI  string
	Text       string
	Score      float64
}

// ID names the chunk: "documentId#index".
func (c Chunk) ID() string { return fmt.Sprintf("%s#%d", c.DocumentID, c.Index) }

// Input is an ingestDocument request: the whole document, which replaces
// any earlier one with the same id.
type Input struct {
	ID        string
	Title     string
	Text      string
	SourceURI string
	ACL       ACL
}

// Checker is the permission webhook: it answers which of docs the caller
// may see at their source, now. An error means none.
type Checker interface {
	Visible(ctx context.Context, caller authority.Identity, docs []Document) (map[string]bool, error)
}

// Service ingests and searches documents. It is safe for concurrent use.
type Service struct {
	store   *store.Store
	clock   temporal.Clock
	ids     *ids.Generator
	checker Checker
}

// NewService returns a Service; checker may be nil (the stored ACL alone
// decides).
func NewService(st *store.Store, clock temporal.Clock, g *ids.Generator, checker Checker) *Service {
	return &Service{store: st, clock: clock, ids: g, checker: checker}
}

// CanWrite reports whether id may ingest documents: a service token, or a
// token holding PermWrite.
func CanWrite(id authority.Identity) bool {
	return id.Kind == authority.KindService || id.HasPermission(PermWrite)
}

func (in Input) validate() error {
	switch {
	case !facts.ValidID(in.ID):
		return fault.BadInputf("id", "id %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", in.ID)
	case strings.TrimSpace(in.Title) == "":
		return fault.BadInputf("title", "title must not be empty")
	case len(in.Title) > MaxTitle || !utf8.ValidString(in.Title) || strings.ContainsAny(in.Title, "\r\n"):
		return fault.BadInputf("title", "title must be one line of valid UTF-8, at most %d bytes", MaxTitle)
	case strings.TrimSpace(in.Text) == "":
		return fault.BadInputf("text", "text must not be empty")
	case len(in.Text) > MaxText || !utf8.ValidString(in.Text):
		return fault.BadInputf("text", "text must be valid UTF-8, at most %d bytes", MaxText)
	case len(in.SourceURI) > MaxSourceURI:
		return fault.BadInputf("sourceUri", "sourceUri must be at most %d bytes", MaxSourceURI)
	case len(in.ACL.Users)+len(in.ACL.Groups) > MaxACL:
		return fault.BadInputf("acl", "acl may list at most %d users and groups together", MaxACL)
	}
	if in.SourceURI != "" {
		u, err := url.Parse(in.SourceURI)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return fault.BadInputf("sourceUri", "sourceUri %q is not an absolute URI (like https://wiki.example.com/page)", in.SourceURI)
		}
	}
	for _, u := range in.ACL.Users {
		if !facts.ValidID(u) {
			return fault.BadInputf("acl.users", "acl.users: %q is not a valid user id", u)
		}
	}
	for _, g := range in.ACL.Groups {
		if strings.TrimSpace(g) == "" || len(g) > 256 || !utf8.ValidString(g) {
			return fault.BadInputf("acl.groups", "acl.groups: a group must be a non-empty UTF-8 name of at most 256 bytes")
		}
	}
	return nil
}

func docKey(id string) []byte { return store.Suffix(nil).Raw(id) }

func chunkKey(id string, i int) []byte {
	return store.Suffix(nil).Str(id).Raw(string([]byte{byte(i >> 8), byte(i)}))
}

// Ingest stores in (replacing the document of the same id, its chunks and
// their postings), chunked and indexed, with an audit entry, in one
// transaction. Only a service or administrator may (FORBIDDEN).
func (s *Service) Ingest(ctx context.Context, in Input) (Document, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Document{}, err
	}
	if !CanWrite(caller) {
		return Document{}, fault.New(fault.Forbidden, "only a service token or a token with the %s permission may ingest documents", PermWrite)
	}
	if err := in.validate(); err != nil {
		return Document{}, err
	}
	chunks := Split(in.Text)
	if len(chunks) > 1<<16-1 {
		return Document{}, fault.BadInputf("text", "text makes too many chunks; split the document")
	}
	now := s.clock.Now().UTC()
	doc := Document{
		ID: in.ID, Title: in.Title, Text: in.Text, SourceURI: in.SourceURI,
		ACL:    ACL{Users: nonNil(in.ACL.Users), Groups: nonNil(in.ACL.Groups)},
		Chunks: len(chunks), IngestedAt: now, IngestedBy: audit.Actor(caller),
	}
	sp := p.Shared()
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		var old Document
		err := tx.Get(sp, store.TableDocument, docKey(in.ID), &old)
		replaced := err == nil
		switch {
		case replaced:
			if err := unindex(tx, sp, old); err != nil {
				return err
			}
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		if err := tx.Put(sp, store.TableDocument, docKey(in.ID), doc, 0); err != nil {
			return err
		}
		for i, c := range chunks {
			if err := tx.Put(sp, store.TableDocumentChunk, chunkKey(in.ID, i), c, 0); err != nil {
				return err
			}
			for _, k := range postingKeys(in.ID, i, c) {
				if err := tx.Put(sp, store.TableDocumentPosting, k, nil, 0); err != nil {
					return err
				}
			}
		}
		detail := fmt.Sprintf("%d chunks; acl %d users, %d groups", len(chunks), len(doc.ACL.Users), len(doc.ACL.Groups))
		if replaced {
			detail = "replaced; " + detail
		}
		return audit.Record(tx, sp, audit.Entry{
			ID: audit.NewID(s.ids), At: now, Actor: audit.Actor(caller), Action: "DOCUMENT_INGESTED",
			Record: in.ID, Kind: "document", Detail: detail,
		})
	})
	if err != nil {
		return Document{}, fmt.Errorf("documents: ingest: %w", err)
	}
	return doc, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

// unindex deletes the chunks of old and their postings.
func unindex(tx *store.Txn, sp tenancy.Space, old Document) error {
	for i := range old.Chunks {
		var text string
		if err := tx.Get(sp, store.TableDocumentChunk, chunkKey(old.ID, i), &text); err != nil {
			return err
		}
		for _, k := range postingKeys(old.ID, i, text) {
			if err := tx.Delete(sp, store.TableDocumentPosting, k); err != nil {
				return err
			}
		}
		if err := tx.Delete(sp, store.TableDocumentChunk, chunkKey(old.ID, i)); err != nil {
			return err
		}
	}
	return nil
}
