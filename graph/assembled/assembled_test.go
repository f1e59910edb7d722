package assembled

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/stategraph/stategraph/assemble"
)

// FuzzAppendString: a string is written as gqlgen's graphql.MarshalString
// writes it, whatever its bytes (control characters, quotes, invalid
// UTF-8).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "F-01KE6P6S703XS34WV6796NFDMN", `say "hi"\now`, "tab\there\r\n", "\x00\x1f\x7f", "naïve – ✓", "\xff\xfe bad", "relevant (score 0.67)",
		"- item_12: w7qju7 w5kn6y\n- item_13: \"quoted\" w2qmvn\\w5nj2h\n", "0123456\x7f\x1f89abcdef\x00", "éééé\"\xe2\x80\xa8ééé\tx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		graphql.MarshalString(s).MarshalGQL(&want)
		if got := appendString([]byte("x"), s); string(got[1:]) != want.String() {
			t.Errorf("appendString(%q) = %s, gqlgen writes %s", s, got[1:], want.Bytes())
		}
	})
}

// FuzzAppendFloat: a score is written as gqlgen's Float marshaller writes
// it, and refused where it reports an error.
func FuzzAppendFloat(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.668547588445885, 1.1436101924955384, 1e21, 1e-7, 123456789, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Copysign(0, -1), math.Inf(1), math.NaN()} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		var want bytes.Buffer
		err := graphql.MarshalFloatContext(v).MarshalGQLContext(context.Background(), &want)
		got, ok := appendFloat(nil, v)
		switch {
		case ok != (err == nil):
			t.Errorf("appendFloat(%v) ok = %v, gqlgen's error = %v", v, ok, err)
		case ok && string(got) != want.String():
			t.Errorf("appendFloat(%v) = %s, gqlgen writes %s", v, got, want.Bytes())
		}
	})
}

// TestScoreNotFinite: a score JSON cannot hold is written as null with
// gqlgen's error, on the field's path, as gqlgen's Float marshaller does;
// the other fields and elements are written.
func TestScoreNotFinite(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	ctx = graphql.WithOperationContext(ctx, &graphql.OperationContext{})
	field := &ast.Field{Alias: "included", Name: "included", SelectionSet: ast.SelectionSet{
		&ast.Field{Alias: "id", Name: "id"}, &ast.Field{Alias: "s", Name: "score"},
	}}
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: "AssembledContext", Field: graphql.CollectedField{Field: field, Selections: field.SelectionSet}})
	l := Included{{ID: "a", Score: 1.5}, {ID: "b", Score: math.NaN()}, {ID: "c", Score: math.Inf(-1)}}
	var buf bytes.Buffer
	if err := l.MarshalGQLContext(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if want := `[{"id":"a","s":1.5},{"id":"b","s":null},{"id":"c","s":null}]`; buf.String() != want {
		t.Errorf("wrote %s, want %s", buf.Bytes(), want)
	}
	errs := graphql.GetErrors(ctx)
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want 2", errs)
	}
	for i, want := range []string{"included[1].s", "included[2].s"} {
		if got := errs[i].Path.String(); got != want || errs[i].Message != errNotFinite.Error() {
			t.Errorf("error %d = %q at %s, want %q at %s", i, errs[i].Message, got, errNotFinite, want)
		}
	}
}

// TestNew: nil lists become empty ones (the schema declares them
// non-null), and the lists are bound where the schema reads them.
func TestNew(t *testing.T) {
	c := New(assemble.Output{Text: "x"})
	if c.Sections == nil || c.Included == nil || c.Excluded == nil || c.Notes == nil || c.Text.String() != "x" {
		t.Errorf("New(empty) = %+v", c)
	}
	out := assemble.Output{Sections: []assemble.Section{{Title: "s"}}, Included: []assemble.Included{{ID: "a"}}, Excluded: []assemble.Exclusion{{ID: "b"}}}
	c = New(out)
	if len(c.Sections) != 1 || c.Sections[0].Title != "s" || c.Output.Sections != nil ||
		len(c.Included) != 1 || c.Included[0].ID != "a" || len(c.Excluded) != 1 || c.Excluded[0].ID != "b" || c.Output.Included != nil || c.Output.Excluded != nil {
		t.Errorf("New(out) = %+v", c)
	}
}

// TestTextMakesRoom: writing the text has the response's buffer make room
// for the rest of the selection, the text as gqlgen writes it.
func TestTextMakesRoom(t *testing.T) {
	c := New(assemble.Output{
		Text:     "## Facts\n- budget: \"$120,000\"\n",
		Included: []assemble.Included{{ID: "F-1", Kind: assemble.KindFact, Reason: "relevant (score 0.67)"}, {ID: "F-2", Kind: assemble.KindFact}},
	})
	text := &ast.Field{Alias: "text", Name: "text"}
	included := &ast.Field{Alias: "included", Name: "included", SelectionSet: ast.SelectionSet{&ast.Field{Alias: "id", Name: "id"}}}
	parent := &ast.Field{Alias: "assembleContext", Name: "assembleContext", SelectionSet: ast.SelectionSet{text, included}}
	ctx := graphql.WithOperationContext(context.Background(), &graphql.OperationContext{})
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: "Query", Field: graphql.CollectedField{Field: parent, Selections: parent.SelectionSet}})
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: "AssembledContext", Field: graphql.CollectedField{Field: text}})
	var got, want bytes.Buffer
	if err := c.Text.MarshalGQLContext(ctx, &got); err != nil {
		t.Fatal(err)
	}
	graphql.MarshalString(c.Output.Text).MarshalGQL(&want)
	if got.String() != want.String() {
		t.Errorf("wrote %s, gqlgen writes %s", got.Bytes(), want.Bytes())
	}
	if room := got.Cap() - got.Len(); room < len(`,"included":[{"id":"F-1"},{"id":"F-2"}]`) {
		t.Errorf("room left after the text: %d bytes, want room for the included list", room)
	}
}

// BenchmarkAppendString measures a context's text as appendString writes
// it (gqlgen's form), and as appendStringFinal does: lines of about 60
// bytes, each with its escaped newline.
func BenchmarkAppendString(b *testing.B) {
	var text []byte
	for i := 0; len(text) < 10_000; i++ {
		text = append(text, "- item_"...)
		text = strconv.AppendInt(text, int64(i), 10)
		text = append(text, ": never exceed w7qju7 w5kn6y w6j3lb w2qmvn w5nj2h w39zgh\n"...)
	}
	s := string(text)
	for _, q := range []struct {
		name string
		q    quoter
	}{{"gqlgen", appendString}, {"final", appendStringFinal}} {
		b.Run(q.name, func(b *testing.B) {
			buf := make([]byte, 0, 2*len(s))
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				buf = q.q(buf[:0], s)
			}
		})
	}
}

// TestAppendLong: a long string is written as gqlgen writes it whichever
// byte of a word is escaped, and whatever follows a multi-byte character.
func TestAppendLong(t *testing.T) {
	for _, special := range []string{"\n", "\"", "\\", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff"} {
		for n := minWordScan; n < minWordScan+17; n++ {
			for at := 0; at+len(special) <= n; at++ {
				s := strings.Repeat("a", at) + special + strings.Repeat("b", n-at-len(special))
				var want bytes.Buffer
				graphql.MarshalString(s).MarshalGQL(&want)
				if got := appendString(nil, s); string(got) != want.String() {
					t.Fatalf("appendString(%q) = %s, gqlgen writes %s", s, got, want.Bytes())
				}
			}
		}
	}
}

// htmlEscaped returns b as encoding/json writes it within a
// json.RawMessage: '<', '>', '&', U+2028 and U+2029 escaped in its
// strings (what the POST transport does to a response's data).
func htmlEscaped(b []byte) string {
	var out bytes.Buffer
	json.HTMLEscape(&out, b)
	return out.String()
}

// FuzzAppendStringFinal: a string written in final form is the string
// gqlgen writes, escaped again as encoding/json escapes a
// json.RawMessage, whatever its bytes.
func FuzzAppendStringFinal(f *testing.F) {
	for _, s := range []string{"", "F-01KE6P6S703XS34WV6796NFDMN", `<b> & </b>`, "a\u2028b\u2029c\u2027d", "\xe2\x80", "\xe2", "\xe2\x80\xa8", "x\xe2\x80\xa9\xe2\x80\xa8<",
		"tab\there\r\n\"q\"\\", "\x00\x1f\x7f", "\xff\xfe bad", "- item_12: w7qju7 <w5kn6y> & \"quoted\" w2qmvn\\w5nj2h\u2028\n", "0123456<89abcdef&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := htmlEscaped(appendString(nil, s))
		if got := appendStringFinal([]byte("x"), s); string(got[1:]) != want {
			t.Errorf("appendStringFinal(%q) = %s, want %s", s, got[1:], want)
		}
	})
}

// TestAppendStringFinalWords: a string in final form is right whichever
// byte of an eight-byte word is escaped, and next to what.
func TestAppendStringFinalWords(t *testing.T) {
	for _, special := range []string{"<", ">", "&", "\u2028", "\u2029", "\u2027", "\xe2\x80", "\xe2", "\n", "\"", "\\", "\x00", "é", "\xff"} {
		for n := range 24 {
			for at := 0; at+len(special) <= n; at++ {
				s := strings.Repeat("a", at) + special + strings.Repeat("<", min(1, n-at-len(special))) + strings.Repeat("b", max(n-at-len(special)-1, 0))
				if got, want := appendStringFinal(nil, s), htmlEscaped(appendString(nil, s)); string(got) != want {
					t.Fatalf("appendStringFinal(%q) = %s, want %s", s, got, want)
				}
			}
		}
	}
}

// TestVerbatimSpans: under response buffers, the text and the lists are
// written into gqlgen's buffer in final form, each a span Verbatim
// returns for that buffer's content (and for no other bytes), in order;
// without them, as gqlgen writes them, with no span.
func TestVerbatimSpans(t *testing.T) {
	c := New(assemble.Output{
		Text:     "## Facts\n- budget: \"<$120,000> & more\u2028\"\n",
		Sections: []assemble.Section{{Layer: 2, Title: "Facts & <figures>", Text: "- budget: <x>\n", Tokens: 4}},
		Included: []assemble.Included{{ID: "F-1", Kind: assemble.KindFact, Reason: "relevant (score <0.67> & more)", Score: 0.5}},
		Excluded: []assemble.Exclusion{{ID: "F-0", Kind: assemble.KindFact, Reason: assemble.ReasonSuperseded}},
	})
	text := &ast.Field{Alias: "text", Name: "text"}
	sections := &ast.Field{Alias: "sections", Name: "sections", SelectionSet: ast.SelectionSet{&ast.Field{Alias: "text", Name: "text"}, &ast.Field{Alias: "title", Name: "title"}}}
	included := &ast.Field{Alias: "included", Name: "included", SelectionSet: ast.SelectionSet{&ast.Field{Alias: "id", Name: "id"}, &ast.Field{Alias: "reason", Name: "reason"}, &ast.Field{Alias: "score", Name: "score"}}}
	excluded := &ast.Field{Alias: "excluded", Name: "excluded", SelectionSet: ast.SelectionSet{&ast.Field{Alias: "id", Name: "id"}, &ast.Field{Alias: "reason", Name: "reason"}}}
	parent := &ast.Field{Alias: "assembleContext", Name: "assembleContext", SelectionSet: ast.SelectionSet{text, sections, included, excluded}}
	base := graphql.WithOperationContext(context.Background(), &graphql.OperationContext{})
	base = graphql.WithFieldContext(base, &graphql.FieldContext{Object: "Query", Field: graphql.CollectedField{Field: parent, Selections: parent.SelectionSet}})
	field := func(ctx context.Context, f *ast.Field) context.Context {
		return graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: "AssembledContext", Field: graphql.CollectedField{Field: f, Selections: f.SelectionSet}})
	}
	write := func(ctx context.Context, buf *bytes.Buffer) {
		t.Helper()
		buf.WriteString(`{"text":`)
		if err := c.Text.MarshalGQLContext(field(ctx, text), buf); err != nil {
			t.Fatal(err)
		}
		for _, l := range []struct {
			f *ast.Field
			m graphql.ContextMarshaler
		}{{sections, c.Sections}, {included, c.Included}, {excluded, c.Excluded}} {
			buf.WriteString(`,"` + l.f.Alias + `":`)
			if err := l.m.MarshalGQLContext(field(ctx, l.f), buf); err != nil {
				t.Fatal(err)
			}
		}
		buf.WriteString(`}`)
	}
	var plain bytes.Buffer
	write(base, &plain)
	ctx, rb := WithResponseBuffers(base)
	var final bytes.Buffer
	write(ctx, &final)
	if want := htmlEscaped(plain.Bytes()); final.String() != want {
		t.Fatalf("under response buffers wrote %s, want %s", final.Bytes(), want)
	}
	data := final.Bytes()
	spans := rb.Verbatim(nil, data)
	var values []string
	for _, s := range spans {
		values = append(values, string(data[s.Start:s.End]))
	}
	var want []string // as encoding/json writes them (its maps in key order, as selected)
	for _, v := range []any{c.Output.Text, []any{map[string]any{"title": "Facts & <figures>", "text": "- budget: <x>\n"}},
		[]any{map[string]any{"id": "F-1", "reason": "relevant (score <0.67> & more)", "score": 0.5}},
		[]any{map[string]any{"id": "F-0", "reason": "SUPERSEDED"}}} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		want = append(want, strings.TrimSuffix(b.String(), "\n"))
	}
	if !slices.Equal(values, want) {
		t.Errorf("verbatim spans hold\n%q\nwant\n%q", values, want)
	}
	if got := rb.Verbatim(nil, slices.Clone(data)); len(got) != 0 {
		t.Errorf("spans %v for a copy of the data, want none", got)
	}
	if got := rb.Verbatim(nil, data[:len(data)-1]); len(got) != 0 {
		t.Errorf("spans %v for a part of the data, want none", got)
	}
	if got := (*ResponseBuffers)(nil).Verbatim(nil, data); len(got) != 0 {
		t.Errorf("nil buffers: spans %v", got)
	}
	rb.Release()
	if got := rb.Verbatim(nil, data); len(got) != 0 {
		t.Errorf("spans %v after Release, want none", got)
	}
	_, other := WithResponseBuffers(base)
	if got := other.Verbatim(nil, plain.Bytes()); len(got) != 0 {
		t.Errorf("spans %v without response buffers, want none", got)
	}
}

// TestEscapesFinal: the lowest byte escapesFinal marks in a word is the
// first byte appendStringFinal looks at, for every byte value at every
// place, after any bytes it does not look at.
func TestEscapesFinal(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			for _, filler := range []byte{'a', 0x80, 0xFF, ' ', '=', '?', 0xE3, 0x62} {
				var word [8]byte
				for i := range word {
					word[i] = filler
				}
				word[at] = byte(c)
				m := escapesFinal(le64(string(word[:]), 0))
				want := -1
				for i, b := range word {
					if escapedFinal[b] {
						want = i
						break
					}
				}
				got := -1
				if m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("word % x: first byte marked %d, want %d", word, got, want)
				}
			}
		}
	}
}
