//go:build js && wasm

// Package ui is redscope's whole DOM layer: a handful of helpers over honnef.co/go/js/dom/v2 for
// the page's static markup (index.html).
//
// Payload: ebiten links text/template, whose reflective method calls make the linker keep every
// exported method of every type that is ever converted to an interface. dom/v2's entry points
// (GetWindow, Document, GetElementByID, AddEventListener, AppendChild, …) return interfaces
// built by type switches over ~130 element and event types, so touching any of them kept about
// 6 MB of wasm code and as much again of tables (BROWSER-NOTES: "why dom/v2 costs 17 MB"). This
// package therefore uses dom/v2 only through the concrete *dom.BasicElement, built directly
// around a js.Value, and calls its methods statically; it never passes a dom value as an
// interface (no dom.Node/Element/Event arguments or results), and it looks elements up, creates
// them, appends them and listens for events with syscall/js. wasm/browsertest/perf_test.go
// measures the payload: keep it that way when adding helpers.
//
// Event handlers given to this package run inside syscall/js callbacks: they must never block.
package ui

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

var doc = js.Global().Get("document")

// El is one element of the page.
type El struct{ e *dom.BasicElement }

func wrap(v js.Value) El {
	if v.IsNull() || v.IsUndefined() {
		return El{}
	}
	return El{&dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// ByID finds an element; the zero El (all methods no-ops) when it is missing.
func ByID(id string) El { return wrap(doc.Call("getElementById", id)) }

func (el El) ok() bool { return el.e != nil }

// SetText replaces the element's text.
func (el El) SetText(s string) {
	if el.ok() {
		el.e.SetTextContent(s)
	}
}

// SetAttr sets an attribute.
func (el El) SetAttr(name, value string) {
	if el.ok() {
		el.e.SetAttribute(name, value)
	}
}

// DelAttr removes an attribute.
func (el El) DelAttr(name string) {
	if el.ok() {
		el.e.RemoveAttribute(name)
	}
}

// SetBool sets or removes a boolean attribute (disabled, hidden).
func (el El) SetBool(name string, on bool) {
	if on {
		el.SetAttr(name, "")
	} else {
		el.DelAttr(name)
	}
}

// Value is the value of an input or select.
func (el El) Value() string {
	if !el.ok() {
		return ""
	}
	return el.e.Underlying().Get("value").String()
}

// SetValue sets the value of an input or select.
func (el El) SetValue(v string) {
	if el.ok() {
		el.e.Underlying().Set("value", v)
	}
}

// Focus focuses the element.
func (el El) Focus() {
	if el.ok() {
		el.e.Underlying().Call("focus")
	}
}

// listen adds an event listener on target; fn gets the event and returns true to prevent the
// default action.
func listen(target js.Value, typ string, fn func(ev js.Value) bool) {
	target.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && fn(args[0]) {
			args[0].Call("preventDefault")
		}
		return nil
	}))
}

func keyOf(ev js.Value) string {
	if k := ev.Get("key"); k.Type() == js.TypeString {
		return k.String()
	}
	return ""
}

// On listens for an event; fn gets the event's key (for keyboard events) and returns true to
// prevent the default action.
func (el El) On(typ string, fn func(key string) bool) {
	if el.ok() {
		listen(el.e.Underlying(), typ, func(ev js.Value) bool { return fn(keyOf(ev)) })
	}
}

// Options replaces a select's options with (value, label) pairs.
func (el El) Options(values, labels []string) {
	if !el.ok() {
		return
	}
	el.e.SetTextContent("")
	for i, v := range values {
		o := wrap(doc.Call("createElement", "option"))
		o.e.SetAttribute("value", v)
		o.e.SetTextContent(labels[i])
		el.e.Underlying().Call("appendChild", o.e.Underlying())
	}
}

// OptGroup is one labelled group of a select's options (an <optgroup>).
type OptGroup struct {
	Label          string
	Values, Labels []string
}

// GroupedOptions replaces a select's options with the ungrouped (value, label) pairs first, then
// one <optgroup label=…> per group: a native select, which keyboards and screen readers know
// (arrows walk through the options, the group's label is announced with them).
func (el El) GroupedOptions(values, labels []string, groups []OptGroup) {
	if !el.ok() {
		return
	}
	el.Options(values, labels)
	for _, g := range groups {
		og := wrap(doc.Call("createElement", "optgroup"))
		og.e.SetAttribute("label", g.Label) // an attribute value: text, never markup
		for i, v := range g.Values {
			o := wrap(doc.Call("createElement", "option"))
			o.e.SetAttribute("value", v)
			o.e.SetTextContent(g.Labels[i])
			og.e.Underlying().Call("appendChild", o.e.Underlying())
		}
		el.e.Underlying().Call("appendChild", og.e.Underlying())
	}
}

// OnDocKey listens for keydown on the document; fn gets the key and the focused element's tag
// name (INPUT, SELECT, BUTTON, …) and returns true to prevent the default action.
func OnDocKey(fn func(key, tag string) bool) {
	listen(doc, "keydown", func(ev js.Value) bool {
		if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
			return false
		}
		tag := ""
		if t := ev.Get("target"); t.Truthy() && t.Get("tagName").Type() == js.TypeString {
			tag = t.Get("tagName").String()
		}
		return fn(keyOf(ev), tag)
	})
}

// Query is location.search.
func Query() string { return js.Global().Get("location").Get("search").String() }

// ReducedMotion reports prefers-reduced-motion: reduce.
func ReducedMotion() bool {
	mm := js.Global().Get("matchMedia")
	if mm.Type() != js.TypeFunction {
		return false
	}
	return js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Bool()
}

// SetLang sets <html lang>.
func SetLang(lang string) { wrap(doc.Get("documentElement")).SetAttr("lang", lang) }

// js is the element's underlying value (undefined for the zero El).
func (el El) js() js.Value {
	if !el.ok() {
		return js.Undefined()
	}
	return el.e.Underlying()
}

// Append adds a child element <tag class=class> with text and returns it.
func (el El) Append(tag, class, text string) El {
	if !el.ok() {
		return El{}
	}
	c := doc.Call("createElement", tag)
	if class != "" {
		c.Set("className", class)
	}
	c.Set("textContent", text)
	el.js().Call("appendChild", c)
	return wrap(c)
}

// Children is the number of child elements.
func (el El) Children() int {
	if !el.ok() {
		return 0
	}
	return el.js().Get("childElementCount").Int()
}

// RemoveFirst removes the first child element.
func (el El) RemoveFirst() {
	if el.ok() {
		if c := el.js().Get("firstElementChild"); c.Truthy() {
			c.Call("remove")
		}
	}
}

// ScrollToEnd scrolls the element to its bottom at the next animation frame: reading
// scrollHeight forces a layout, so commands typed in a burst (a script driving exec) lay the page
// out once, not once per command.
func (el El) ScrollToEnd() {
	if !el.ok() {
		return
	}
	e := el.js()
	if e.Get("__redscopeScroll").Truthy() {
		return // already asked for this frame
	}
	e.Set("__redscopeScroll", true)
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		e.Set("__redscopeScroll", false)
		e.Set("scrollTop", e.Get("scrollHeight"))
		f.Release()
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
}

// last holds what SetTextOnce and SetAttrOnce last wrote, by element id and attribute.
var last = map[string]string{}

// SetTextOnce sets the text of the element with id unless it already holds it: writing the same
// text again still replaces the text node and invalidates the page's style and layout.
func SetTextOnce(id, s string) {
	if v, ok := last[id]; ok && v == s {
		return
	}
	last[id] = s
	ByID(id).SetText(s)
}

// SetAttrOnce sets an attribute unless it already has that value ("" with del removes it).
func SetAttrOnce(id, name, value string, del bool) {
	k := id + "\x00" + name
	if del {
		value = "\x00removed"
	}
	if v, ok := last[k]; ok && v == value {
		return
	}
	last[k] = value
	if del {
		ByID(id).DelAttr(name)
	} else {
		ByID(id).SetAttr(name, value)
	}
}

// SetBoolOnce sets or removes a boolean attribute unless it already is so.
func SetBoolOnce(id, name string, on bool) { SetAttrOnce(id, name, "", !on) }

// SetValueOnce sets an input's or select's value unless the page last set it to that (a value
// the user changed is set again).
func SetValueOnce(id, v string) {
	el := ByID(id)
	if el.Value() != v {
		el.SetValue(v)
	}
}

// SetProp sets a DOM property (src, checked, …).
func (el El) SetProp(name string, v any) {
	if el.ok() {
		el.js().Set(name, v)
	}
}

// Query finds the first element matching a CSS selector.
func Query1(sel string) El { return wrap(doc.Call("querySelector", sel)) }

// SetTitle sets document.title.
func SetTitle(s string) { doc.Set("title", s) }

// ReplaceURL replaces the address without a reload (history.replaceState).
func ReplaceURL(u string) {
	if h := js.Global().Get("history"); h.Truthy() {
		h.Call("replaceState", js.Null(), "", u)
	}
}
