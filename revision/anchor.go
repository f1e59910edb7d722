package revision

import (
	"slices"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
)

// applyAnchors reads each real sentence of a user's turn against the valid
// facts no extraction of the turn has settled (extract.Anchor): a sentence
// that names a fact's topic and links it to one new value of the stored
// value's kind ("Board review is February 19 now") supersedes it. It is
// the last reading, for phrasings no rule knows; skip names the sentences
// that became state assertions.
func (s *Service) applyAnchors(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, ar extract.Result, skip map[int]bool, k known, found map[string]detect.Detection, res *Result) error {
	if spk.assistant {
		return nil
	}
	settled := map[string]bool{}
	for _, x := range res.Extracted {
		if x.Previous != nil {
			settled[x.Previous.ID] = true
		}
	}
	ids := make([]string, 0, len(k.facts))
	for id, f := range k.facts {
		if !settled[id] && f.Source.Turn != t.ID { // what this turn wrote, it settled
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	written := map[string]bool{}
	for _, sent := range ar.Sentences {
		if sent.Reason != "" || skip[sent.Index] {
			continue
		}
		for _, id := range ids {
			f, ok := k.facts[id]
			if !ok || settled[id] {
				continue
			}
			st, ok := extract.Anchor(sent.Text, f.Key, f.ValueText(), t.At)
			if !ok {
				continue
			}
			st.Index = sent.Index
			x := Extraction{Statement: st}
			if err := s.extractOne(tx, caller, t, spk, st, k, written, found, &x, res); err != nil {
				return err
			}
			settled[id] = true
			res.Extracted = append(res.Extracted, x)
		}
	}
	return nil
}

// implicitAnchored keeps a detection's supersession of a fact only when
// the turn's real text names the fact (its key's words, or its value), and
// an IMPLICIT detection's supersession of a fact
// (a value said for the fact's key with no word of change) only when a
// real sentence of the turn links the fact's topic to a new value of its
// kind (extract.Anchor): detection reads a key and any value near it, so
// "Design review prep starts February 1" is not a new review date, and
// "Design review is still February 2" restates the fact. Its other
// references (earlier turns) are kept.
func implicitAnchored(dets []detect.Detection, ar extract.Result, real string, skip map[int]bool, k known, keys map[string]string, at time.Time) []detect.Detection {
	out := dets[:0]
	for _, d := range dets {
		var refs []detect.Ref
		for _, r := range d.Superseded {
			f, ok := k.facts[r.ID]
			switch {
			case r.Kind != detect.RecordFact || !ok:
			case d.Kind == detect.KindImplicit && !anchored(ar, skip, f.Key, f.ValueText(), at):
				continue
			case !extract.Names(real, f.Key) && !containsFold(real, f.ValueText()) && namesOther(real, f.ID, keys):
				// A change word next to another fact's topic: "We
				// dropped Harbour Grey; the paint colour is Oat Milk
				// now" does not move the workshop. ("Make that
				// $150,000" names nothing, and keeps what detection
				// found.)
				continue
			}
			refs = append(refs, r)
		}
		if len(refs) > 0 {
			d.Superseded = refs
			out = append(out, d)
		}
	}
	return out
}

// anchored reports whether a real sentence of ar anchors a new value to
// the fact (key, stored).
func anchored(ar extract.Result, skip map[int]bool, key, stored string, at time.Time) bool {
	for _, s := range ar.Sentences {
		if s.Reason != "" || skip[s.Index] {
			continue
		}
		if _, ok := extract.Anchor(s.Text, key, stored, at); ok {
			return true
		}
	}
	return false
}

// namesOther reports whether text names a fact of keys (id → key) other
// than id.
func namesOther(text, id string, keys map[string]string) bool {
	for gid, key := range keys {
		if gid != id && extract.Names(text, key) {
			return true
		}
	}
	return false
}

// factKeys maps the known facts' ids to their keys, before the turn's
// extraction settles any.
func factKeys(k known) map[string]string {
	m := make(map[string]string, len(k.facts))
	for id, f := range k.facts {
		m[id] = f.Key
	}
	return m
}
