//go:build js && wasm

// Package ui is redscope's whole DOM layer: a handful of helpers over honnef.co/go/js/dom/v2 for
// the page's static markup (index.html). It is kept to one small package because every dom/v2
// wrapper that becomes reachable stays in the wasm payload (BROWSER-NOTES).
//
// Event handlers given to this package run inside syscall/js callbacks: they must never block.
package ui

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

var doc = dom.GetWindow().Document()

// El is one element of the page.
type El struct{ e dom.Element }

// ByID finds an element; the zero El (all methods no-ops) when it is missing.
func ByID(id string) El { return El{doc.GetElementByID(id)} }

func (el El) ok() bool { return el.e != nil }

// SetText replaces the element's text.
func (el El) SetText(s string) {
	if el.ok() {
		el.e.SetTextContent(s)
	}
}

// SetAttr sets an attribute; an empty value with remove=true removes it.
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

// On listens for an event; fn gets the event's key (for keyboard events) and returns true to
// prevent the default action.
func (el El) On(typ string, fn func(key string) bool) {
	if !el.ok() {
		return
	}
	el.e.AddEventListener(typ, false, func(ev dom.Event) {
		u := ev.Underlying()
		k := u.Get("key")
		key := ""
		if k.Type() == js.TypeString {
			key = k.String()
		}
		if fn(key) {
			ev.PreventDefault()
		}
	})
}

// Options replaces a select's options with (value, label) pairs.
func (el El) Options(values, labels []string) {
	if !el.ok() {
		return
	}
	el.e.SetTextContent("")
	for i, v := range values {
		o := doc.CreateElement("option")
		o.SetAttribute("value", v)
		o.SetTextContent(labels[i])
		el.e.AppendChild(o)
	}
}

// OnDocKey listens for keydown on the document; fn gets the key and the focused element's tag
// name (INPUT, SELECT, BUTTON, …) and returns true to prevent the default action.
func OnDocKey(fn func(key, tag string) bool) {
	doc.AddEventListener("keydown", false, func(ev dom.Event) {
		u := ev.Underlying()
		if u.Get("ctrlKey").Bool() || u.Get("metaKey").Bool() || u.Get("altKey").Bool() {
			return
		}
		tag := ""
		if t := u.Get("target"); t.Truthy() && t.Get("tagName").Type() == js.TypeString {
			tag = t.Get("tagName").String()
		}
		if fn(u.Get("key").String(), tag) {
			ev.PreventDefault()
		}
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
func SetLang(lang string) { doc.DocumentElement().SetAttribute("lang", lang) }
