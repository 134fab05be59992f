//go:build !nolua

package engine

// Lua 5.1's run-time error texts name the variable at fault (ldebug.c, luaG_typeerror with
// getobjname): "attempt to call field 'cal' (a nil value)" for redis.cal(…), "attempt to
// perform arithmetic on field '?' (a nil value)" for ARGV[1] + 1 without arguments, "attempt to
// index local 't' (a nil value)". gopher-lua raises the same errors with other words and no
// name ("attempt to call a non-function object"). luaVarInfo rebuilds Lua 5.1's text from the
// failing instruction: it finds the instruction at the frame's program counter, the register
// it used, and, scanning the function's code up to there as getobjname/symbexec do, where that
// register's value came from: a local (the function's debug locals), a global (GETGLOBAL), a
// field (GETTABLE with a constant string key; '?' for any other key), a method (SELF) or an
// upvalue; and the value's type from the register itself.
//
// gopher-lua does not export its call frames and registers; the frame of a lua.Debug and the
// LState's register array are reached through their field names with reflect, checked against
// the code they point into. Whatever does not check out leaves gopher-lua's message as it is.

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// gopher-lua's instruction layout (opcode.go).
func opCode(i uint32) int { return int(i >> 26) }
func opA(i uint32) int    { return int(i>>18) & 0xff }
func opB(i uint32) int    { return int(i & 0x1ff) }
func opC(i uint32) int    { return int(i>>9) & 0x1ff }
func opBx(i uint32) int   { return int(i & 0x3ffff) }
func opSbx(i uint32) int  { return opBx(i) - (1<<18-1)>>1 }

const opBitRK = 1 << 8

var (
	debugFrameField = fieldOffset(reflect.TypeOf(lua.Debug{}), "frame")
	stateRegField   = fieldOffset(reflect.TypeOf(lua.LState{}), "reg")
)

func fieldOffset(t reflect.Type, name string) uintptr {
	f, ok := t.FieldByName(name)
	if !ok || f.Type.Kind() != reflect.Pointer {
		return ^uintptr(0)
	}
	return f.Offset
}

// luaFrame mirrors the leading fields of gopher-lua's callFrame (state.go of v1.1.2).
type luaFrame struct {
	Idx        int
	Fn         *lua.LFunction
	Parent     *luaFrame
	Pc         int
	Base       int
	LocalBase  int
	ReturnBase int
	NArgs      int
}

// luaRegistry mirrors the leading field of gopher-lua's registry.
type luaRegistry struct {
	array []lua.LValue
}

// frameOf is the call frame behind a lua.Debug (nil when it cannot be trusted).
func frameOf(d *lua.Debug) *luaFrame {
	if d == nil || debugFrameField == ^uintptr(0) || reflect.TypeOf(lua.Debug{}).Field(0).Name != "frame" {
		return nil
	}
	fr := *(**luaFrame)(unsafe.Add(unsafe.Pointer(d), debugFrameField))
	if fr == nil || fr.Fn == nil || fr.Fn.IsG || fr.Fn.Proto == nil || fr.Pc < 1 || fr.Pc > len(fr.Fn.Proto.Code) {
		return nil
	}
	return fr
}

// goFrameArgs is the number of arguments the Go function at the frame of d received.
func goFrameArgs(d *lua.Debug) (int, bool) {
	if d == nil || debugFrameField == ^uintptr(0) {
		return 0, false
	}
	fr := *(**luaFrame)(unsafe.Add(unsafe.Pointer(d), debugFrameField))
	if fr == nil || fr.Fn == nil || !fr.Fn.IsG || fr.NArgs < 0 || fr.NArgs > 1<<20 {
		return 0, false
	}
	return fr.NArgs, true
}

// luaGoFuncError fixes what gopher-lua's library functions say differently from Lua 5.1's:
// a missing argument is "got no value" (gopher-lua says "got nil"), and a comparison failing
// inside a library function (table.sort) has no position.
func luaGoFuncError(L *lua.LState, d *lua.Debug, msg string) string {
	pos, tail, found := strings.Cut(msg, ": ")
	if !found {
		return msg
	}
	// findGotNil (script_match.go) matches gopher-lua's own argument errors (redscope's
	// functions quote the name and already say "no value").
	if m := findGotNil(tail); m != nil {
		if n, ok := goFrameArgs(d); ok {
			if k, err := strconv.Atoi(tail[m[2]:m[3]]); err == nil && k > n {
				tail = strings.TrimSuffix(tail, "got nil)") + "got no value)"
				msg = pos + ": " + tail
			}
		}
	}
	// luaL_argerror counts a method call's arguments without self.
	if m := findGoArg(tail); m != nil && calledAsMethod(L) {
		n, _ := strconv.Atoi(tail[m[2]:m[3]])
		name, rest := tail[m[4]:m[5]], tail[m[1]:]
		if n == 1 {
			return pos + ": calling '" + name + "' on bad self (" + rest
		}
		tail = "bad argument #" + strconv.Itoa(n-1) + " to " + name + " (" + rest
		msg = pos + ": " + tail
	}
	if strings.HasPrefix(tail, "attempt to compare ") {
		return tail
	}
	return msg
}

// calledAsMethod reports whether the Go function that failed was called as obj:name(…): the
// Lua caller's CALL register was set by SELF.
func calledAsMethod(L *lua.LState) bool {
	d, ok := L.GetStack(2)
	if !ok {
		return false
	}
	fr := frameOf(d)
	if fr == nil {
		return false
	}
	p := fr.Fn.Proto
	pc := fr.Pc - 1
	inst := p.Code[pc]
	if o := opCode(inst); o != lua.OP_CALL && o != lua.OP_TAILCALL {
		return false
	}
	at := lastSetter(p, pc, opA(inst))
	return at >= 0 && opCode(p.Code[at]) == lua.OP_SELF
}

// luaRegister is the value of register r of frame fr.
func luaRegister(L *lua.LState, fr *luaFrame, r int) (lua.LValue, bool) {
	if stateRegField == ^uintptr(0) {
		return nil, false
	}
	reg := *(**luaRegistry)(unsafe.Add(unsafe.Pointer(L), stateRegField))
	i := fr.LocalBase + r
	if reg == nil || i < 0 || i >= len(reg.array) {
		return nil, false
	}
	v := reg.array[i]
	if v == nil {
		return lua.LNil, true
	}
	return v, true
}

// luaVarInfo rewrites msg (gopher-lua's text after the position) for the error raised at the
// frame of d; ok=false leaves it alone.
func luaVarInfo(L *lua.LState, d *lua.Debug, msg string) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = "", false
		}
	}()
	fr := frameOf(d)
	if fr == nil {
		return "", false
	}
	p := fr.Fn.Proto
	pc := fr.Pc - 1
	inst := p.Code[pc]
	var op string
	var r int // the register at fault; -1: a constant
	var val lua.LValue
	switch {
	case msg == "attempt to call a non-function object":
		if o := opCode(inst); o != lua.OP_CALL && o != lua.OP_TAILCALL {
			return "", false
		}
		op, r = "call", opA(inst)
	case strings.HasPrefix(msg, "attempt to index a non-table object("):
		switch opCode(inst) {
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_SELF:
			r = opB(inst)
		case lua.OP_SETTABLE, lua.OP_SETTABLEKS:
			r = opA(inst)
		default:
			return "", false
		}
		op = "index"
	case msg == "__len undefined":
		if opCode(inst) != lua.OP_LEN {
			return "", false
		}
		op, r = "get length of", opB(inst)
	case msg == "__unm undefined":
		if opCode(inst) != lua.OP_UNM {
			return "", false
		}
		op, r = "perform arithmetic on", opB(inst)
	case strings.HasPrefix(msg, "cannot perform concat operation"):
		if opCode(inst) != lua.OP_CONCAT {
			return "", false
		}
		// luaV_concat joins from the right; luaG_concaterror blames the left operand of the
		// failing pair unless it is a string or a number.
		b, c := opB(inst), opC(inst)
		acc, ok := luaRegister(L, fr, c)
		if !ok {
			return "", false
		}
		strnum := func(v lua.LValue) bool { return v.Type() == lua.LTString || v.Type() == lua.LTNumber }
		r = -2
		for i := c - 1; i >= b; i-- {
			v, ok := luaRegister(L, fr, i)
			if !ok {
				return "", false
			}
			if !strnum(v) || !strnum(acc) {
				r, val = i, v
				if strnum(v) {
					r, val = i+1, acc
				}
				break
			}
			acc = lua.LString("")
		}
		if r == -2 {
			return "", false
		}
		op = "concatenate"
	case strings.HasPrefix(msg, "cannot perform "):
		switch opCode(inst) {
		case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW:
		default:
			return "", false
		}
		// luaG_aritherror: the second operand, unless the first is not a number.
		b, c := opB(inst), opC(inst)
		bv, bok := rkValue(L, fr, p, b)
		cv, cok := rkValue(L, fr, p, c)
		if !bok || !cok {
			return "", false
		}
		op = "perform arithmetic on"
		r, val = c, cv
		if !luaNumberLike(bv) {
			r, val = b, bv
		}
		if r&opBitRK != 0 {
			r = -1
		}
	default:
		return "", false
	}
	if val == nil {
		v, ok := luaRegister(L, fr, r)
		if !ok {
			return "", false
		}
		val = v
	}
	typ := val.Type().String()
	if r >= 0 {
		if kind, name := objName(p, pc, r); kind != "" {
			return "attempt to " + op + " " + kind + " '" + name + "' (a " + typ + " value)", true
		}
	}
	return "attempt to " + op + " a " + typ + " value", true
}

func rkValue(L *lua.LState, fr *luaFrame, p *lua.FunctionProto, x int) (lua.LValue, bool) {
	if x&opBitRK != 0 {
		k := x &^ opBitRK
		if k >= len(p.Constants) {
			return nil, false
		}
		return p.Constants[k], true
	}
	return luaRegister(L, fr, x)
}

func luaNumberLike(v lua.LValue) bool {
	switch x := v.(type) {
	case lua.LNumber:
		return true
	case lua.LString:
		_, ok := luaStringToNumber(string(x))
		return ok
	}
	return false
}

// objName is getobjname: what register r holds at pc.
func objName(p *lua.FunctionProto, pc, r int) (kind, name string) {
	for depth := 0; depth < 8; depth++ {
		if n, ok := localName(p, r+1, pc); ok {
			return "local", n
		}
		at := lastSetter(p, pc, r)
		if at < 0 {
			return "", ""
		}
		i := p.Code[at]
		switch opCode(i) {
		case lua.OP_GETGLOBAL:
			if s, ok := constString(p, opBx(i)); ok {
				return "global", s
			}
			return "", ""
		case lua.OP_MOVE:
			if b := opB(i); b < opA(i) {
				pc, r = at, b
				continue
			}
			return "", ""
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
			return "field", rkName(p, opC(i))
		case lua.OP_GETUPVAL:
			if b := opB(i); b < len(p.DbgUpvalues) {
				return "upvalue", p.DbgUpvalues[b]
			}
			return "", ""
		case lua.OP_SELF:
			return "method", rkName(p, opC(i))
		}
		return "", ""
	}
	return "", ""
}

// localName is luaF_getlocalname: the n-th local active at pc (startpc <= pc < endpc).
func localName(p *lua.FunctionProto, n, pc int) (string, bool) {
	for _, l := range p.DbgLocals {
		if l.StartPc > pc {
			break
		}
		if pc < l.EndPc {
			if n--; n == 0 {
				return l.Name, true
			}
		}
	}
	return "", false
}

func constString(p *lua.FunctionProto, k int) (string, bool) {
	if k < 0 || k >= len(p.Constants) {
		return "", false
	}
	s, ok := p.Constants[k].(lua.LString)
	return string(s), ok
}

// rkName is kname: a constant string key's text, "?" for anything else.
func rkName(p *lua.FunctionProto, x int) string {
	if x&opBitRK != 0 {
		if s, ok := constString(p, x&^opBitRK); ok {
			return s
		}
	}
	return "?"
}

// lastSetter is symbexec: the last instruction before pc that set register r, following
// forward jumps that stay before pc; -1 when none.
func lastSetter(p *lua.FunctionProto, pc, r int) int {
	last := -1
	for i := 0; i < pc; i++ {
		inst := p.Code[i]
		a := opA(inst)
		sets := false
		switch opCode(inst) {
		case lua.OP_MOVE, lua.OP_MOVEN, lua.OP_LOADK, lua.OP_LOADBOOL, lua.OP_GETUPVAL, lua.OP_GETGLOBAL,
			lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_NEWTABLE, lua.OP_ADD, lua.OP_SUB, lua.OP_MUL,
			lua.OP_DIV, lua.OP_MOD, lua.OP_POW, lua.OP_UNM, lua.OP_NOT, lua.OP_LEN, lua.OP_CONCAT,
			lua.OP_CLOSURE, lua.OP_TESTSET:
			sets = a == r
		case lua.OP_SELF:
			sets = a == r || a+1 == r
		case lua.OP_LOADNIL:
			sets = a <= r && r <= opB(inst)
		case lua.OP_CALL, lua.OP_TAILCALL:
			c := opC(inst)
			sets = r >= a && (c == 0 || r <= a+c-2)
		case lua.OP_VARARG:
			b := opB(inst)
			sets = r >= a && (b == 0 || r <= a+b-2)
		case lua.OP_TFORLOOP:
			sets = r >= a+3 && r <= a+2+opC(inst)
		case lua.OP_FORLOOP, lua.OP_FORPREP:
			sets = r >= a && r <= a+3
		case lua.OP_JMP:
			if t := i + 1 + opSbx(inst); t > i && t <= pc {
				i = t - 1
			}
		}
		if sets {
			last = i
		}
	}
	return last
}
