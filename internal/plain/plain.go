// Package plain turns a Go value into the maps, slices and scalars that syscall/js's ValueOf
// takes, with the names and omissions encoding/json would give it (`json:"name,omitempty"`,
// `json:"-"`, embedded structs flattened). The page's state() hands its result to js.ValueOf:
// linking encoding/json for that one call cost main.wasm about 150 KB of code.
//
// It covers what the page's state holds: structs, pointers, slices, string-keyed maps, strings,
// booleans and numbers. A []byte becomes a list of numbers, not base64; interfaces, channels and
// functions are not expected and become nil.
package plain

import (
	"reflect"
	"strings"
)

// Of returns v as nil, bool, int64, uint64, float64, string, []any or map[string]any.
func Of(v any) any { return of(reflect.ValueOf(v)) }

func of(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return of(v.Elem())
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = of(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String {
			return nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[it.Key().String()] = of(it.Value())
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		fields(v, out)
		return out
	}
	return nil
}

// fields adds a struct's fields to out as encoding/json names them.
func fields(v reflect.Value, out map[string]any) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			fields(v.Field(i), out)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if opts == "omitempty" && empty(fv) {
			continue
		}
		out[name] = of(fv)
	}
}

// empty is encoding/json's omitempty test.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return false
}
