package engine

import (
	"math"
	"strings"

	"redscope/engine/sds"
)

// LookupCommand finds the command a call names in profile v: the subcommand for a container
// (CONFIG GET, OBJECT ENCODING …), nil when v's Redis lacks it (or, for a container, lacks the
// subcommand). It needs no engine: the table is the same for every engine of a profile.
func LookupCommand(v Version, args [][]byte) *Command {
	if len(args) == 0 {
		return nil
	}
	c := lookupCommand(args[0])
	if c == nil || !v.Has(c.Since) {
		return nil
	}
	if c.Sub != nil && len(args) >= 2 {
		s := c.Sub[strings.ToLower(string(args[1]))]
		if s == nil || !v.Has(s.Since) {
			return nil
		}
		return s
	}
	return c
}

// LookupCommand is LookupCommand for the engine's profile.
func (e *Engine) LookupCommand(args [][]byte) *Command { return LookupCommand(e.ver, args) }

// hasKeys is Redis's doesCommandHaveKeys: a key range, a KeyNum spec or a KeysFn.
func (c *Command) hasKeys() bool {
	return c.FirstKey > 0 || c.KeyNum.NumIdx > 0 || c.KeysFn != nil
}

// KeyRef is one key of a call: its argument index and the flags of the key spec that found it
// (COMMAND GETKEYSANDFLAGS: "RW access delete" …).
type KeyRef struct {
	Arg   int
	Flags string
}

// keyRefs lists the keys of a call to c whose arity was checked, as Redis's getKeysFromCommand
// does: KeysFn when the command has one, else the range FirstKey..LastKey (every Step), then the
// KeyNum keys. A count that is not a number, or asks for more keys than there are arguments, gives
// no keys at all (the command answers its own error).
func (c *Command) keyRefs(args [][]byte) []KeyRef {
	if c.KeysFn != nil {
		return c.KeysFn(args)
	}
	flags := c.specFlags()
	if c.KeyFlagsFn != nil {
		flags = []string{c.KeyFlagsFn(args)}
	}
	var out []KeyRef
	if c.FirstKey > 0 {
		last := c.LastKey
		if last < 0 {
			last += len(args)
		}
		n := rangeSpecs(c)
		// With several specs (SDIFFSTORE: destination, sources) each must begin inside the call.
		if c.FirstKey+n-1 >= len(args) {
			return nil
		}
		for i := c.FirstKey; i <= last && i < len(args); i += max(c.Step, 1) {
			out = append(out, KeyRef{i, flags[min(i-c.FirstKey, n-1)]})
		}
	}
	if k := c.KeyNum; k.NumIdx > 0 {
		if k.NumIdx >= len(args) {
			return nil
		}
		n, ok := string2ll(args[k.NumIdx])
		if !ok || n < 1 || n > int64(len(args)-k.NumIdx-k.First+k.Step-1)/int64(max(k.Step, 1)) {
			return nil
		}
		fl := flags[min(rangeSpecs(c), len(flags)-1)]
		for i, j := k.NumIdx+k.First, int64(0); j < n; i, j = i+k.Step, j+1 {
			out = append(out, KeyRef{i, fl})
		}
	}
	return out
}

// specFlags are the flags of the range and KeyNum specs, in COMMAND INFO's order (KeyFlags, or
// the default: "RW update" for a write command, "RO access" else).
func (c *Command) specFlags() []string {
	if len(c.KeyFlags) > 0 {
		return c.KeyFlags
	}
	if c.Flags&FlagWrite != 0 {
		return []string{"RW update"}
	}
	return []string{"RO access"}
}

// rangeSpecs is the number of key specs the range FirstKey..LastKey makes (keySpecs): one per
// KeyFlags entry, the last of them taking the rest of the range, less the KeyNum spec's entry.
func rangeSpecs(c *Command) int {
	if c.FirstKey <= 0 {
		return 0
	}
	n := max(len(c.KeyFlags), 1)
	if c.KeyNum.NumIdx > 0 && n > 1 {
		n--
	}
	return n
}

// keysOf is keyRefs as the arguments themselves.
func (c *Command) keysOf(args [][]byte) [][]byte {
	refs := c.keyRefs(args)
	if len(refs) == 0 {
		return nil
	}
	out := make([][]byte, len(refs))
	for i, r := range refs {
		out[i] = args[r.Arg]
	}
	return out
}

// CommandKeys lists the keys a call names, from the command table's key specs — what COMMAND
// GETKEYS answers, with its errors (ErrKeys*): an unknown command, one without key arguments, a
// wrong number of arguments, or arguments that name no key when the command needs one (a
// count out of range). EVAL with numkeys 0 names none, without error.
func (e *Engine) CommandKeys(args [][]byte) ([]string, error) {
	refs, err := e.CommandKeyRefs(args)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = string(args[r.Arg])
	}
	return out, nil
}

// CommandKeyRefs is CommandKeys with each key's argument index and flags (COMMAND
// GETKEYSANDFLAGS).
func (e *Engine) CommandKeyRefs(args [][]byte) ([]KeyRef, error) {
	if len(args) == 0 {
		return nil, ErrKeysUnknownCommand
	}
	c := e.LookupCommand(args)
	if c == nil {
		return nil, ErrKeysUnknownCommand
	}
	if !c.hasKeys() {
		return nil, ErrKeysNoKeys
	}
	if !arityOK(c.ArityIn(e.ver), len(args)) {
		return nil, ErrKeysArity
	}
	refs := c.keyRefs(args)
	if len(refs) == 0 && c.Flags&FlagNoMandatoryKeys == 0 {
		return nil, ErrKeysInvalid
	}
	return refs, nil
}

// setKeyFlags: SET's key is read too when GET is given (setGetKeys).
func setKeyFlags(args [][]byte) string {
	for _, a := range args[3:] {
		if eqFold(a, "get") {
			return "RW access update"
		}
	}
	return "OW update"
}

// bitfieldKeyFlags: BITFIELD only reads when it is made of GETs (and OVERFLOWs) only; a SET, an
// INCRBY or anything malformed counts as a write (bitfieldGetKeys).
func bitfieldKeyFlags(args [][]byte) string {
	for i := 2; i < len(args); i++ {
		more := len(args) - i - 1
		switch {
		case eqFold(args[i], "get") && more >= 2:
			i += 2
		case eqFold(args[i], "overflow") && more >= 1:
			i++
		default:
			return "RW access update"
		}
	}
	return "RO access"
}

// sortKeys is SORT's key search (Redis's sortGetKeys): the sorted key, and the last STORE's
// destination (LIMIT's two numbers and GET's and BY's patterns are skipped, so a pattern "store"
// is no keyword).
func sortKeys(args [][]byte) []KeyRef {
	out, store := []KeyRef{{1, "RO access"}}, 0
	for i := 2; i < len(args); i++ {
		switch {
		case eqFold(args[i], "limit"):
			i += 2
		case eqFold(args[i], "get"), eqFold(args[i], "by"):
			i++
		case eqFold(args[i], "store") && i+1 < len(args):
			store = i + 1
			i++
		}
	}
	if store > 0 {
		out = append(out, KeyRef{store, "OW update"})
	}
	return out
}

// migrateKeys is MIGRATE's (migrateGetKeys): the key argument, or the arguments after KEYS
// (none when the key argument is not empty then); AUTH's one and AUTH2's two arguments are
// skipped in the search.
func migrateKeys(args [][]byte) []KeyRef {
	for i := 6; i < len(args); i++ {
		switch {
		case eqFold(args[i], "keys"):
			if len(args[3]) > 0 {
				return nil
			}
			var out []KeyRef
			for j := i + 1; j < len(args); j++ {
				out = append(out, KeyRef{j, "RW access delete"})
			}
			return out
		case eqFold(args[i], "auth"):
			i++
		case eqFold(args[i], "auth2"):
			i += 2
		}
	}
	return []KeyRef{{3, "RW access delete"}}
}

// xreadKeys is XREAD's and XREADGROUP's key spec: the keyword STREAMS, then the first half of
// the arguments after it (of an odd number, the half rounded down; the command answers its own
// error).
func xreadKeys(args [][]byte) []KeyRef {
	for i := 1; i < len(args); i++ {
		if eqFold(args[i], "streams") {
			rest := len(args) - i - 1
			var out []KeyRef
			for j := 0; j < rest/2; j++ {
				out = append(out, KeyRef{i + 1 + j, "RO access"})
			}
			return out
		}
	}
	return nil
}

// Cost is what one call asks of the engine beyond its arguments, for the callers that bound the
// work of a command before running it (the browser app's limits, lesson/limits.go). A zero field
// means nothing out of the ordinary. Engine.CommandCost computes it with the command's own rules.
type Cost struct {
	// CopyBytes: the most bytes the call copies out of one string into its reply or a new value
	// (GET: the string; GETRANGE: the clamped range; LCS: the longer of its two strings).
	CopyBytes int64
	// StoreBytes: the bytes the string the call writes will hold afterwards (APPEND, SETRANGE),
	// counting a long sparse string by its allocated pages.
	StoreBytes int64
	// Cells: the cells of a table the call fills (LCS: (len(a)+1)×(len(b)+1)).
	Cells int64
	// ReplyItems: the elements a count argument asks for (SRANDMEMBER k -N repeats members and
	// is not bounded by the set's size).
	ReplyItems int64
	// AllocBytes: memory the call allocates at once whatever the data (BF.RESERVE's filter).
	AllocBytes int64
}

// CommandCost is what a call asks of the engine beyond its arguments (Cost), from the command
// table: the command's own Cost when it has one, and for a command that is not Paged, the
// length of the longest string key it names (it reads or copies the string whole: GET, GETDEL,
// DUMP, LCS …; for a command without key specs, such as DEBUG, any argument naming a string). A call the profile does not know, or with the wrong number of arguments,
// costs nothing (it answers an error).
func (e *Engine) CommandCost(args [][]byte) Cost {
	c := e.LookupCommand(args)
	if c == nil || !arityOK(c.ArityIn(e.ver), len(args)) {
		return Cost{}
	}
	var cost Cost
	if c.Cost != nil {
		cost = c.Cost(e, args)
	}
	if !c.Paged {
		keys := c.keysOf(args)
		if !c.hasKeys() {
			keys = args[1:] // the table names no key (DEBUG OBJECT k …): any argument may be one
		}
		for _, k := range keys {
			if o := e.Peek(k); o != nil && o.Type == TypeString {
				cost.CopyBytes = max(cost.CopyBytes, int64(o.StringLen()))
			}
		}
	}
	return cost
}

// ArgsCost is the part of CommandCost the arguments alone tell, without data (a count, a
// filter's size), for checking a lesson's text before it runs; the table of the newest profile.
func ArgsCost(args [][]byte) Cost {
	c := LookupCommand(V88, args)
	if c == nil || c.Cost == nil || !arityOK(c.Arity, len(args)) {
		return Cost{}
	}
	return c.Cost(nil, args)
}

// storedBytes is what the string at key really stores: its length, or for a long string kept
// in pages, its allocated pages (0 for a missing key or another type).
func (e *Engine) storedBytes(key []byte) int64 {
	o := e.Peek(key)
	if o == nil || o.Type != TypeString {
		return 0
	}
	if o.Enc == EncRaw && o.Buf.Cap() == 0 && o.Buf.Len() > sds.DenseLimit {
		return int64(o.Buf.PagesInUse()) * sds.PageSize
	}
	return int64(o.StringLen())
}

// countCost is the Cost of SRANDMEMBER, HRANDFIELD and ZRANDMEMBER key count: a negative count
// repeats elements, so the reply holds |count| of them whatever the collection's size.
func countCost(e *Engine, args [][]byte) Cost {
	if len(args) < 3 {
		return Cost{}
	}
	n, ok := string2ll(args[2])
	if !ok {
		return Cost{}
	}
	if n < 0 {
		if n == math.MinInt64 {
			return Cost{ReplyItems: math.MaxInt64}
		}
		n = -n
	}
	return Cost{ReplyItems: n}
}
