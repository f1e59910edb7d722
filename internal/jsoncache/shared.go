package jsoncache

import "reflect"

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
