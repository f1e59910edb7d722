package documents

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Split cuts text into chunks of at most ChunkWords words: paragraphs
// (separated by a blank line) are packed together while they fit, and a
// longer paragraph is cut between words. White space inside a chunk is
// kept as written, except that a paragraph cut between words loses the
// spaces at the cut.
func Split(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	var cur []string
	n := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n\n"))
			cur, n = nil, 0
		}
	}
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		words := strings.Fields(para)
		if len(words) > ChunkWords {
			flush()
			for i := 0; i < len(words); i += ChunkWords {
				out = append(out, strings.Join(words[i:min(i+ChunkWords, len(words))], " "))
			}
			continue
		}
		if n+len(words) > ChunkWords {
			flush()
		}
		cur = append(cur, para)
		n += len(words)
	}
	flush()
	return out
}

// allTerm is the reserved term whose postings list every chunk.
const allTerm = ""

// postingKeys returns the posting keys of chunk i of document id:
//
//	term seg | document id seg | chunk (2 bytes) | tf (2 bytes) | length (2 bytes)
//
// one per distinct term, plus one under allTerm.
func postingKeys(id string, i int, text string) [][]byte {
	terms := lexical.Terms(text)
	tf := map[string]int{}
	for _, t := range terms {
		tf[t]++
	}
	length := min(len(terms), 1<<16-1)
	keys := make([][]byte, 0, len(tf)+1)
	add := func(term string, f int) {
		b := store.Suffix(nil).Str(term).Str(id)
		b = binary.BigEndian.AppendUint16(b, uint16(i))
		b = binary.BigEndian.AppendUint16(b, uint16(min(f, 1<<16-1)))
		b = binary.BigEndian.AppendUint16(b, uint16(length))
		keys = append(keys, b)
	}
	add(allTerm, 0)
	for t, f := range tf {
		add(t, f)
	}
	slices.SortFunc(keys, func(a, b []byte) int { return strings.Compare(string(a), string(b)) })
	return keys
}

// posting is one decoded posting (without its term).
type posting struct {
	doc           string
	chunk, tf, ln int
}

// parsePosting decodes a posting key's suffix after the term seg.
func parsePosting(rest []byte) (posting, error) {
	r := store.NewReader(rest)
	doc := r.Str()
	tail := r.Rest()
	if r.Err() != nil || len(tail) != 6 || doc == "" {
		return posting{}, store.ErrBadKey
	}
	b := []byte(tail)
	return posting{doc: doc, chunk: int(binary.BigEndian.Uint16(b)), tf: int(binary.BigEndian.Uint16(b[2:])), ln: int(binary.BigEndian.Uint16(b[4:]))}, nil
}

// scanTerm calls fn for every posting of term in space sp.
func scanTerm(tx *store.Txn, sp tenancy.Space, term string, fn func(posting)) error {
	prefix := store.Suffix(nil).Str(term)
	return tx.Scan(sp, store.TableDocumentPosting, prefix, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
		p, err := parsePosting(suffix[len(prefix):])
		if err != nil {
			return false, err
		}
		fn(p)
		return true, nil
	})
}

type chunkRef struct {
	doc   string
	chunk int
}

// Search returns the chunks best matching query, at most first (DefaultFirst
// when not positive), among the documents the caller may see now: the
// stored ACL, then the permission webhook, asked fresh. A query without
// index terms matches nothing.
func (s *Service) Search(ctx context.Context, query string, first int) ([]Chunk, error) {
	switch {
	case strings.TrimSpace(query) == "":
		return nil, fault.BadInputf("query", "query must not be empty: give the words to look for")
	case len(query) > 8<<10:
		return nil, fault.BadInputf("query", "query must be at most %d bytes", 8<<10)
	case first < 0 || first > MaxFirst:
		return nil, fault.BadInputf("first", "first must be between 1 and %d", MaxFirst)
	case first == 0:
		first = DefaultFirst
	}
	cs, _, err := s.find(ctx, query, first)
	return cs, err
}

// ForContext is Search for context assembly: the chunks best matching
// query, at most limit, with a note when the permission webhook did not
// answer (its documents are left out). It never fails for a webhook's
// sake.
func (s *Service) ForContext(ctx context.Context, query string, limit int) ([]Chunk, []string, error) {
	if strings.TrimSpace(query) == "" || limit <= 0 {
		return nil, nil, nil
	}
	return s.find(ctx, query, limit)
}

// find ranks the chunks of the visible documents for query.
func (s *Service) find(ctx context.Context, query string, first int) ([]Chunk, []string, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, nil, err
	}
	terms := lexical.Terms(query)
	slices.Sort(terms)
	terms = slices.Compact(terms)
	if len(terms) == 0 {
		return nil, nil, nil
	}
	sp := p.Shared()
	var (
		ranked []Chunk
		docs   = map[string]Document{}
	)
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		// Statistics of every chunk: how many, their mean length.
		n, total := 0, 0
		if err := scanTerm(tx, sp, allTerm, func(p posting) { n, total = n+1, total+p.ln }); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		avg := float64(total) / float64(n)
		bm := search.DefaultBM25()
		scores := map[chunkRef]float64{}
		for _, t := range terms { // sorted: the sum does not depend on map order
			var ps []posting
			if err := scanTerm(tx, sp, t, func(p posting) { ps = append(ps, p) }); err != nil {
				return err
			}
			for _, p := range ps {
				scores[chunkRef{p.doc, p.chunk}] += bm.Term(len(ps), n, avg, p.ln, p.tf)
			}
		}
		// Best first; visible by the stored ACL, read now, until enough
		// are kept (more when the webhook may still hide some).
		refs := make([]chunkRef, 0, len(scores))
		for ref := range scores {
			refs = append(refs, ref)
		}
		slices.SortFunc(refs, func(x, y chunkRef) int {
			return cmp.Or(cmp.Compare(scores[y], scores[x]), strings.Compare(x.doc, y.doc), cmp.Compare(x.chunk, y.chunk))
		})
		want := first
		if s.checker != nil {
			want = first * 4
		}
		for _, ref := range refs {
			if len(ranked) >= want {
				break
			}
			d, seen := docs[ref.doc]
			if !seen {
				if err := tx.Get(sp, store.TableDocument, docKey(ref.doc), &d); err != nil {
					return fmt.Errorf("documents: read %s: %w", ref.doc, err)
				}
				docs[ref.doc] = d
			}
			if d.ACL.Allows(caller) {
				ranked = append(ranked, Chunk{DocumentID: ref.doc, Index: ref.chunk, Count: d.Chunks, Title: d.Title, SourceURI: d.SourceURI, Score: scores[ref]})
			}
		}
		return nil
	})
	if err != nil || len(ranked) == 0 {
		return nil, nil, err
	}
	// The webhook, asked fresh, about every document still in the running.
	var notes []string
	if s.checker != nil {
		var ask []Document
		for _, c := range ranked {
			if !slices.ContainsFunc(ask, func(d Document) bool { return d.ID == c.DocumentID }) {
				ask = append(ask, docs[c.DocumentID])
			}
		}
		ok, err := s.checker.Visible(ctx, caller, ask)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			ok = nil
			notes = append(notes, "documents: the permission service did not answer; documents were left out")
		}
		ranked = slices.DeleteFunc(ranked, func(c Chunk) bool { return !ok[c.DocumentID] })
	}
	ranked = ranked[:min(len(ranked), first)]
	if len(ranked) == 0 {
		return nil, notes, nil
	}
	// A chunk gone since (its document re-ingested shorter) is left out.
	out := ranked[:0]
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		for _, c := range ranked {
			err := tx.Get(sp, store.TableDocumentChunk, chunkKey(c.DocumentID, c.Index), &c.Text)
			switch {
			case errors.Is(err, store.ErrNotFound):
				continue
			case err != nil:
				return fmt.Errorf("documents: read chunk: %w", err)
			}
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, notes, nil
}
