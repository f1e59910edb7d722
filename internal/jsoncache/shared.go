package jsoncache

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Shared returns the paths of the non-nil slices, pointers and maps that
// x and y (values of one type) hold in common: what two callers of a
// Cache would share had its user not copied them. Tests of the copies use
// it; the walk covers every field by reflection, so a field added later is
// checked too.
func Shared(x, y any) []string {
	var out []string
	shared(&out, reflect.TypeOf(x).Name(), reflect.ValueOf(x), reflect.ValueOf(y))
	return out
}

func shared(out *[]string, path string, x, y reflect.Value) {
	switch x.Kind() {
	case reflect.Pointer:
		if !x.IsNil() {
			if x.Pointer() == y.Pointer() {
				*out = append(*out, path)
			}
			shared(out, path, x.Elem(), y.Elem())
		}
	case reflect.Slice:
		if x.Len() > 0 && x.Pointer() == y.Pointer() {
			*out = append(*out, path)
		}
		for i := 0; i < x.Len(); i++ {
			shared(out, path+"[]", x.Index(i), y.Index(i))
		}
	case reflect.Map:
		if !x.IsNil() && x.Pointer() == y.Pointer() {
			*out = append(*out, path)
		}
	case reflect.Struct:
		for i := 0; i < x.NumField(); i++ {
			shared(out, path+"."+x.Type().Field(i).Name, x.Field(i), y.Field(i))
		}
	}
}

// CheckCopies checks a decoder built on a Cache: in, marshalled, decodes
// twice through decode to what encoding/json decodes, and the two results
// share no slice, pointer or map. It returns what is wrong, or nil.
func CheckCopies[T any](in T, decode func([]byte) (T, error)) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	var want T
	if err := json.Unmarshal(raw, &want); err != nil {
		return err
	}
	a, err := decode(raw)
	if err != nil {
		return err
	}
	b, err := decode(raw)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(b, want) {
		return fmt.Errorf("cached decoding = %+v, want %+v", b, want)
	}
	if paths := Shared(a, b); len(paths) > 0 {
		return fmt.Errorf("two callers share %v", paths)
	}
	return nil
}
