package engine

import lua "github.com/yuin/gopher-lua"

type functionLib struct{}
type function struct{}

func (e *Engine) luaRegisterFunction(L *lua.LState) int { return 0 }
