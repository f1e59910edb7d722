package jsoncache

import "testing"

type rec struct {
	Name string
	Tags []string
}

func TestDecode(t *testing.T) {
	c := New[rec](2, 1<<10)
	for _, tc := range []struct {
		raw     string
		want    string
		wantErr bool
	}{
		{`{"Name":"a","Tags":["x"]}`, "a", false},
		{`{"Name":"a","Tags":["x"]}`, "a", false}, // from memory
		{`{"Name":"b"}`, "b", false},
		{`{"Name":"c"}`, "c", false}, // full: emptied, then kept
		{`{"Name":`, "", true},
	} {
		got, err := c.Decode([]byte(tc.raw))
		if (err != nil) != tc.wantErr || got.Name != tc.want {
			t.Errorf("Decode(%s) = %+v, %v; want %q (error %v)", tc.raw, got, err, tc.want, tc.wantErr)
		}
	}
	if len(c.m) != 1 {
		t.Errorf("the cache holds %d values after being emptied once, want 1", len(c.m))
	}
	big := New[rec](10, 8)
	if _, err := big.Decode([]byte(`{"Name":"longer than eight bytes"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := big.Decode([]byte(`{"Name":"z"}`)); err != nil || len(big.m) != 1 {
		t.Errorf("a cache over its bytes was not emptied: %d values", len(big.m))
	}
}

func TestShared(t *testing.T) {
	n := 1
	a := struct {
		P    *int
		Tags []string
	}{&n, []string{"x"}}
	b := a
	if got := Shared(a, b); len(got) != 2 {
		t.Errorf("Shared of a copy = %v, want the pointer and the slice", got)
	}
	m := 1
	b.P, b.Tags = &m, []string{"x"}
	if got := Shared(a, b); len(got) != 0 {
		t.Errorf("Shared of a deep copy = %v, want none", got)
	}
}

func TestCheckCopies(t *testing.T) {
	c := New[rec](4, 1<<10)
	in := rec{Name: "a", Tags: []string{"x"}}
	if err := CheckCopies(in, c.Decode); err == nil {
		t.Error("a decoder handing out the cache's own slice passed")
	}
	copying := func(raw []byte) (rec, error) {
		r, err := c.Decode(raw)
		r.Tags = append([]string(nil), r.Tags...)
		return r, err
	}
	if err := CheckCopies(in, copying); err != nil {
		t.Errorf("a copying decoder failed: %v", err)
	}
	wrong := func(raw []byte) (rec, error) { r, err := copying(raw); r.Name = "b"; return r, err }
	if err := CheckCopies(in, wrong); err == nil {
		t.Error("a decoder returning another value passed")
	}
}
