package lesson

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"redscope/engine"
	"redscope/engine/bloom"
	"redscope/engine/sds"
)

// Limits bound the work one lesson step or one console line may ask of the engine, so that a
// lesson from a link, a pasted lesson or a typed command can never freeze the page. A request
// past a limit is refused, before it runs, with a message naming the limit; the page keeps
// working. Every limit is far above what the course's lessons need (TestBuiltinLessonsWithinLimits).
//
// A Player applies them when its Config has Limits (the browser app sets DefaultLimits; native
// tools and tests run without). CheckSource and CheckLesson apply the static part to a lesson's
// text before it is loaded. Zero fields mean "no limit". The numbers are documented in FORMAT.md.
type Limits struct {
	// LessonBytes: size of a lesson's text (pasted, dropped, or decompressed from a link).
	LessonBytes int
	// LessonSteps: steps in one lesson.
	LessonSteps int
	// StepCommands: commands and clock moves in one step (`repeat` lines count each command).
	StepCommands int
	// LineBytes: one line as written, before unquoting: a console line, or any line of a
	// lesson's text.
	LineBytes int
	// ArgBytes: the bytes of all arguments of one command after unquoting (and after the
	// lesson's `args` lines extended it).
	ArgBytes int
	// StepElements: arguments after the command names (members, fields, elements…), summed
	// over the commands of one step; a console line has its own budget.
	StepElements int
	// StringBytes: the most bytes one string may store (APPEND and SETRANGE may not write past
	// it) and the most one command may copy out of a string (GET, GETRANGE, GETDEL, LCS …).
	// Longer strings, up to the proto-max-bulk-len (512 MB) of a real server, can still be made
	// (SETBIT k 4294967295 1, SETRANGE or BITFIELD at a far offset): the engine keeps their zero
	// bytes as unallocated pages, so a command naming one runs only when it works on a few bytes
	// or page by page (LongStringCommands); any other is refused.
	StringBytes int64
	// ReplyItems: elements a count argument may ask for (SRANDMEMBER, HRANDFIELD, ZRANDMEMBER
	// with a negative count repeat members and are not bounded by the collection's size).
	ReplyItems int64
	// KeyBytes: the size of the existing keys one command names, a key named twice counting
	// twice (MGET big big …, BITOP AND dest big big …, SUNION …), measured as what the page
	// holds (engine.PeekHeldMemory: MEMORY USAGE, except that a long string counts its
	// allocated 64 KiB pages and engine.HeldPageCost per page of its length).
	KeyBytes int64
	// Memory: the size of the whole dataset, measured as KeyBytes is (engine.DatasetHeldMemory).
	// A command that can grow the dataset is refused while the dataset is above it, and
	// BF.RESERVE may not ask for a filter larger than it; deleting commands always run.
	Memory int64
	// ReplyBytes: reply text kept for display; a longer reply is cut with a note (the command
	// itself ran).
	ReplyBytes int
	// LCSCells: the cells of LCS's table, (length of one string + 1) × (length of the other + 1);
	// Redis (and the engine) fill all of them, so two strings of a few tens of KB would take
	// seconds and gigabytes.
	LCSCells int64
}

// DefaultLimits are the browser app's limits.
var DefaultLimits = Limits{
	LessonBytes:  1 << 20,
	LessonSteps:  500,
	StepCommands: MaxStepActions,
	LineBytes:    256 << 10,
	ArgBytes:     4 << 20,
	StepElements: 500_000,
	StringBytes:  32 << 20,
	ReplyItems:   100_000,
	KeyBytes:     256 << 20,
	Memory:       128 << 20,
	LCSCells:     16 << 20,
	ReplyBytes:   256 << 10,
}

// LimitError is a refusal: which limit, the line of the lesson when there is one, and a message
// for the page.
type LimitError struct {
	File  string // lesson name, "" for a console line
	Line  int    // 0 for a console line
	Limit string // field name in Limits, e.g. "StringBytes"
	Msg   string
}

func (e *LimitError) Error() string {
	s := e.Msg + " (limit " + e.Limit + ")"
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, s)
	}
	return s
}

// RefusedPrefix starts the reply text of a refused command.
const RefusedPrefix = "(refused) "

func limitErr(limit, f string, a ...any) *LimitError {
	return &LimitError{Limit: limit, Msg: fmt.Sprintf(f, a...)}
}

// CheckSource applies the size limits to a lesson's text before it is parsed: its length and the
// length of each line (a line longer than a command may be is reported with its number).
func (lim *Limits) CheckSource(name string, src []byte) error {
	if lim == nil {
		return nil
	}
	if lim.LessonBytes > 0 && len(src) > lim.LessonBytes {
		return &LimitError{File: name, Limit: "LessonBytes",
			Msg: fmt.Sprintf("the lesson is %d bytes; the app accepts lessons up to %d bytes", len(src), lim.LessonBytes)}
	}
	n := 0
	var elems, cmdBytes int64 // the step's elements; the current command's bytes
	at := func(limit, f string, a ...any) error {
		return &LimitError{File: name, Line: n, Limit: limit, Msg: fmt.Sprintf(f, a...)}
	}
	for len(src) > 0 {
		n++
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if lim.LineBytes > 0 && len(line) > lim.LineBytes+64 { // room for "> " and indentation
			return at("LineBytes", "a line of %d bytes; the app accepts command lines up to %d bytes", len(line), lim.LineBytes)
		}
		// Before parsing, estimate what `repeat` and `args` lines expand to, so that a short
		// text asking for millions of elements is refused without being expanded.
		word, rest, _ := strings.Cut(strings.TrimSpace(string(line)), " ")
		var add, bytesAdd int64
		switch word {
		case "step":
			elems, cmdBytes = 0, 0
		case ">":
			cmdBytes = int64(len(rest))
			add = int64(max(len(strings.Fields(rest))-1, 0))
		case "args", "repeat":
			count, tmpl, ok := rangeCount(rest)
			if !ok {
				continue // Parse reports it
			}
			f := int64(len(strings.Fields(tmpl)))
			if word == "repeat" {
				f = max(f-1, 0)
				cmdBytes = 0
			} else {
				bytesAdd = count * int64(len(tmpl)+8)
			}
			add = count * f
		case "arg": // one argument, TEXT repeated N times
			text, count, err := ParseRepeatedArg(strings.TrimSpace(rest))
			if err != nil {
				continue // Parse reports it
			}
			add, bytesAdd = 1, int64(len(text))*int64(count)
		}
		if elems += add; lim.StepElements > 0 && elems > int64(lim.StepElements) {
			return at("StepElements", "the step asks for %d arguments or more; the app accepts up to %d in one step (split the work over several steps)", elems, lim.StepElements)
		}
		if cmdBytes += bytesAdd; lim.ArgBytes > 0 && cmdBytes > int64(lim.ArgBytes) {
			return at("ArgBytes", "the command grows to %d bytes or more; the app accepts up to %d bytes of arguments in one command", cmdBytes, lim.ArgBytes)
		}
	}
	return nil
}

// rangeCount reads "A..B > TEMPLATE" (repeat and args lines): B-A+1 and the template.
func rangeCount(s string) (int64, string, bool) {
	rng, tmpl, ok := strings.Cut(s, ">")
	lo, hi, ok2 := strings.Cut(strings.TrimSpace(rng), "..")
	a, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
	b, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
	if !ok || !ok2 || err1 != nil || err2 != nil || a < 0 || b < a {
		return 0, "", false
	}
	return b - a + 1, strings.TrimSpace(tmpl), true
}

// CheckLesson applies the static limits to a parsed lesson (steps, commands per step, line and
// argument sizes, elements per step, the string sizes and counts written in the commands) and
// reports commands that profile v does not know, unless the command expects that error. The
// error names the lesson line.
func (lim *Limits) CheckLesson(l *Lesson, v engine.Version) error {
	if l == nil {
		return nil
	}
	at := func(line int, err *LimitError) error {
		err.File, err.Line = l.Name, line
		return err
	}
	if lim != nil && lim.LessonSteps > 0 && len(l.Steps) > lim.LessonSteps {
		return at(l.Steps[lim.LessonSteps].Line, limitErr("LessonSteps", "the lesson has %d steps; the app plays lessons of up to %d steps", len(l.Steps), lim.LessonSteps))
	}
	var known *engine.Engine
	if v != 0 {
		known = engine.New(engine.Options{Version: v})
	}
	for i, s := range l.Steps {
		if lim != nil && lim.StepCommands > 0 && len(s.Actions) > lim.StepCommands {
			return at(s.Actions[lim.StepCommands].Line, limitErr("StepCommands", "step %d has %d commands; the app runs up to %d in one step", i+1, len(s.Actions), lim.StepCommands))
		}
		elems := 0
		for _, a := range s.Actions {
			if a.Cmd == "" || IsRingLine(a.Cmd) {
				continue
			}
			line := a.Cmd
			if a.Run != "" {
				line = a.Run
			} else if err := lim.checkLine(line); err != nil {
				return at(a.Line, err)
			}
			args, err := engine.SplitArgs(line)
			if err != nil || len(args) == 0 {
				continue // Parse already refused these
			}
			if known != nil && !known.HasCommand(string(args[0])) && !expectsUnknown(a) {
				return &ParseError{File: l.Name, Line: a.Line, Msg: fmt.Sprintf("unknown command %q in Redis %s", truncate(string(args[0]), 64), v)}
			}
			if err := lim.checkArgs(args, &elems, nil); err != nil {
				return at(a.Line, err)
			}
		}
	}
	return nil
}

// expectsUnknown: a lesson may show the unknown-command error on purpose.
func expectsUnknown(a Action) bool {
	for _, c := range a.Expect {
		if c.Kind == CheckReply && strings.HasPrefix(c.Want, "(error) ERR unknown command") {
			return true
		}
	}
	return false
}

func (lim *Limits) checkLine(line string) *LimitError {
	if lim != nil && lim.LineBytes > 0 && len(line) > lim.LineBytes {
		return limitErr("LineBytes", "a command line of %d bytes; the app accepts lines up to %d bytes", len(line), lim.LineBytes)
	}
	return nil
}

// checkArgs is the part of the limits that needs only the arguments, plus (when e is not nil) the
// current size of the keys they name. elems is the step's running element count.
func (lim *Limits) checkArgs(args [][]byte, elems *int, e *engine.Engine) *LimitError {
	if lim == nil || len(args) == 0 {
		return nil
	}
	name := strings.ToLower(string(args[0]))
	if len(name) > 32 {
		name = name[:32]
	}
	up := strings.ToUpper(name)
	if lim.ArgBytes > 0 {
		n := 0
		for _, a := range args {
			n += len(a)
		}
		if n > lim.ArgBytes {
			return limitErr("ArgBytes", "%s with %d bytes of arguments; the app accepts up to %d bytes in one command", up, n, lim.ArgBytes)
		}
	}
	if lim.StepElements > 0 {
		*elems += len(args) - 1
		if *elems > lim.StepElements {
			return limitErr("StepElements", "%d arguments in one step; the app accepts up to %d (split the work over several steps)", *elems, lim.StepElements)
		}
	}
	if err := lim.checkLongStrings(name, up, args, e); err != nil {
		return err
	}
	switch name {
	case "lcs":
		if e != nil && lim.LCSCells > 0 && len(args) >= 3 {
			a, b := int64(stringLen(e, args[1])), int64(stringLen(e, args[2]))
			if (a+1)*(b+1) > lim.LCSCells {
				return limitErr("LCSCells", "LCS of strings of %d and %d bytes fills a table of %d cells; the app allows up to %d", a, b, (a+1)*(b+1), lim.LCSCells)
			}
		}
	case "append", "setrange":
		// The bytes written come on top of what the string already stores.
		if e != nil && lim.StringBytes > 0 && len(args) == 3+btoi(name == "setrange") {
			val := args[len(args)-1]
			if n := storedBytes(e, args[1]) + int64(len(val)); len(val) > 0 && n > lim.StringBytes {
				return limitErr("StringBytes", "%s would make %q store %d bytes; the app keeps up to %d bytes in one string (zero bytes that were never written are not stored: SETBIT k 4294967295 1 is fine)",
					up, truncate(string(args[1]), 40), n, lim.StringBytes)
			}
		}
	case "srandmember", "hrandfield", "zrandmember":
		if len(args) >= 3 && lim.ReplyItems > 0 {
			if c, err := strconv.ParseInt(string(args[2]), 10, 64); err == nil && (c > lim.ReplyItems || c < -lim.ReplyItems) {
				return limitErr("ReplyItems", "%s with a count of %d; the app answers up to %d elements", up, c, lim.ReplyItems)
			}
		}
	case "bf.reserve":
		if len(args) >= 4 && lim.Memory > 0 {
			rate, err1 := strconv.ParseFloat(string(args[2]), 64)
			capacity, err2 := strconv.ParseUint(string(args[3]), 10, 64)
			if err1 == nil && err2 == nil && capacity > 0 {
				if f, err := bloom.SizeFilter(capacity, rate); err == nil && int64(f.Bits/8) > lim.Memory {
					return limitErr("Memory", "BF.RESERVE of a filter of %d bytes; the app's whole dataset may use up to %d bytes", f.Bits/8, lim.Memory)
				}
			}
		}
	}
	if e != nil && lim.KeyBytes > 0 {
		var sum int64
		for _, a := range args[1:] {
			if m, ok := e.PeekHeldMemory(a, 5); ok {
				sum += m
				if sum > lim.KeyBytes {
					return limitErr("KeyBytes", "%s names keys of %d bytes or more in all; the app lets one command work on up to %d bytes of keys", up, sum, lim.KeyBytes)
				}
			}
		}
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// storedBytes is what the string at key really stores: its length, or for a long string kept in
// pages, its allocated pages (0 for a missing key or another type).
func storedBytes(e *engine.Engine, key []byte) int64 {
	o := e.Peek(key)
	if o == nil || o.Type != engine.TypeString {
		return 0
	}
	if o.Enc == engine.EncRaw && o.Buf.Cap() == 0 && o.Buf.Len() > sds.DenseLimit {
		return int64(o.Buf.PagesInUse()) * sds.PageSize
	}
	return int64(o.StringLen())
}

// LongStringCommands are the commands that may name a string longer than Limits.StringBytes:
// they read or write a few bytes of it, or go through it page by page, so an unallocated page
// costs them next to nothing (BITCOUNT of the sparse 512 MiB string of `SETBIT k 4294967295 1`
// takes about 0.1 ms natively and 1 ms in the browser, BITOP NOT or AND of it 1–15 ms; the
// result of BITOP NOT is shared 0xFF pages). GETRANGE and SUBSTR are allowed for ranges up to
// StringBytes.
var LongStringCommands = map[string]bool{
	"setbit": true, "getbit": true, "bitcount": true, "bitpos": true, "bitop": true,
	"bitfield": true, "bitfield_ro": true, "strlen": true, "setrange": true, "append": true,
	"getrange": true, "substr": true, "memory": true, "object": true, "type": true,
	"exists": true, "touch": true, "del": true, "unlink": true, "ttl": true, "pttl": true,
	"expire": true, "pexpire": true, "expireat": true, "pexpireat": true, "persist": true,
	"expiretime": true, "pexpiretime": true, "rename": true, "renamenx": true, "copy": true,
	"move": true,
}

var (
	keySpecsOnce sync.Once
	keySpecs     map[string]*engine.Command
)

// keyArgs lists the arguments of args that are keys, by the command table's key positions (all
// arguments for a command without them, such as a container or a numkeys command).
func keyArgs(name string, args [][]byte) [][]byte {
	keySpecsOnce.Do(func() {
		keySpecs = map[string]*engine.Command{}
		for _, c := range engine.New(engine.Options{Version: engine.DefaultVersion}).Commands() {
			keySpecs[c.Name] = c
		}
	})
	c := keySpecs[name]
	if c == nil || c.FirstKey <= 0 || c.Step <= 0 {
		return args[1:]
	}
	last := c.LastKey
	if last < 0 {
		last += len(args)
	}
	var out [][]byte
	for i := c.FirstKey; i <= last && i < len(args); i += c.Step {
		out = append(out, args[i])
	}
	return out
}

// checkLongStrings refuses a command that names a string longer than StringBytes unless it is
// one of LongStringCommands (GETRANGE and SUBSTR: for a range of up to StringBytes).
func (lim *Limits) checkLongStrings(name, up string, args [][]byte, e *engine.Engine) *LimitError {
	if e == nil || lim.StringBytes <= 0 || len(args) < 2 {
		return nil
	}
	for _, k := range keyArgs(name, args) {
		o := e.Peek(k)
		if o == nil || o.Type != engine.TypeString {
			continue
		}
		n := int64(o.StringLen())
		if n <= lim.StringBytes {
			continue
		}
		if (name == "getrange" || name == "substr") && len(args) == 4 {
			start, err1 := strconv.ParseInt(string(args[2]), 10, 64)
			end, err2 := strconv.ParseInt(string(args[3]), 10, 64)
			if err1 != nil || err2 != nil {
				continue // the engine answers with its error
			}
			if start < 0 {
				start = max(start+n, 0)
			}
			if end < 0 {
				end += n
			}
			if min(end, n-1)-start < lim.StringBytes {
				continue
			}
			return limitErr("StringBytes", "%s of %d bytes of %q; the app copies up to %d bytes of a string in one command",
				up, min(end, n-1)-start+1, truncate(string(k), 40), lim.StringBytes)
		}
		if LongStringCommands[name] {
			continue
		}
		return limitErr("StringBytes", "%s on %q, a string of %d bytes: the app copies up to %d bytes of a string in one command (its zero bytes are not stored; GETBIT, SETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD, STRLEN, GETRANGE of a short range, MEMORY USAGE and DEL work on it)",
			up, truncate(string(k), 40), n, lim.StringBytes)
	}
	return nil
}

// stringLen is the length of the string at key (0 when missing or not a string).
func stringLen(e *engine.Engine, key []byte) int {
	if o := e.Peek(key); o != nil && o.Type == engine.TypeString {
		return o.StringLen()
	}
	return 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// shrinking commands never grow the dataset: they run even when it is above Limits.Memory, so
// that the user can make room.
var shrinking = map[string]bool{
	"del": true, "unlink": true, "flushall": true, "flushdb": true, "getdel": true,
	"lpop": true, "rpop": true, "spop": true, "zpopmin": true, "zpopmax": true,
	"srem": true, "hdel": true, "zrem": true, "lrem": true, "ltrim": true, "hgetdel": true,
	"delex": true, "expire": true, "pexpire": true, "expireat": true, "pexpireat": true,
	"persist": true, "select": true,
}

// guard is a Player's running state for its limits: the step's element budget and an estimate
// of the dataset's size (held memory, see Limits.Memory), kept up to date from the keys each
// command names.
type guard struct {
	lim    *Limits
	elems  int
	mem    int64
	writes map[string]bool // command names that can grow the dataset, for the engine's profile
}

func newGuard(lim *Limits, e *engine.Engine) *guard {
	g := &guard{lim: lim, writes: map[string]bool{}}
	for _, c := range e.Commands() {
		if c.Flags&engine.FlagWrite != 0 && !shrinking[c.Name] {
			g.writes[c.Name] = true
		}
	}
	// The commands a script runs (redis.call / redis.pcall) meet the same limits as typed ones;
	// a refusal fails the call inside the script.
	e.SetScriptCallGuard(func(args [][]byte) error {
		if err := g.before(e, args); err != nil {
			return err
		}
		return nil
	})
	return g
}

// before checks one command; it returns the refusal or nil.
func (g *guard) before(e *engine.Engine, args [][]byte) *LimitError {
	if err := g.lim.checkArgs(args, &g.elems, e); err != nil {
		return err
	}
	name := strings.ToLower(string(args[0]))
	if g.lim.Memory > 0 && g.mem > g.lim.Memory && g.writes[name] {
		// The running estimate only errs high (keys that expired or were freed by commands it
		// does not follow): measure the whole dataset before refusing.
		if g.mem = e.DatasetHeldMemory(); g.mem <= g.lim.Memory {
			return nil
		}
		return limitErr("Memory", "the dataset uses about %d bytes, more than the %d the app allows; %s could grow it (free memory with DEL or FLUSHALL, or go ◀ back)",
			g.mem, g.lim.Memory, strings.ToUpper(name))
	}
	return nil
}

// scriptCommands change keys their arguments need not name.
var scriptCommands = map[string]bool{"eval": true, "evalsha": true, "fcall": true}

// sizes is the held memory of the distinct keys args names (after the command name).
func sizes(e *engine.Engine, args [][]byte) int64 {
	var sum int64
	seen := map[string]bool{}
	for _, a := range args[1:] {
		if m, ok := e.PeekHeldMemory(a, 5); ok && !seen[string(a)] {
			seen[string(a)] = true
			sum += m
		}
	}
	return sum
}

// exec runs args on e under the guard's memory estimate.
func (g *guard) exec(e *engine.Engine, args [][]byte) engine.Result {
	name := strings.ToLower(string(args[0]))
	// These change keys they do not name (EXEC: the transaction's queued commands): measure the
	// whole dataset again afterwards.
	if name == "flushall" || name == "flushdb" || name == "swapdb" || name == "move" || name == "exec" || scriptCommands[name] {
		res := e.Exec(args)
		g.mem = e.DatasetHeldMemory()
		return res
	}
	if !g.writes[name] && !shrinking[name] {
		return e.Exec(args)
	}
	before := sizes(e, args)
	res := e.Exec(args)
	g.mem += sizes(e, args) - before
	if g.mem < 0 {
		g.mem = e.DatasetHeldMemory()
	}
	return res
}

// boundReply cuts a reply to about max bytes of text (bulk strings shortened, arrays cut) and
// reports what was left out.
func boundReply(r engine.Reply, limit int) (engine.Reply, bool) {
	budget := limit
	var cut bool
	var walk func(r engine.Reply) engine.Reply
	walk = func(r engine.Reply) engine.Reply {
		switch r.Kind {
		case engine.KindArray:
			out := r
			out.Array = nil
			for i, it := range r.Array {
				if budget <= 0 {
					cut = i < len(r.Array)
					break
				}
				out.Array = append(out.Array, walk(it))
			}
			return out
		default:
			// Count the bytes as redis-cli shows them: \xHH takes 4.
			shown := 0
			for i := 0; i < len(r.Str); i++ {
				if c := r.Str[i]; c < ' ' || c >= 0x7f {
					shown += 4
				} else {
					shown++
				}
				if shown > budget {
					cut = true
					r.Str = r.Str[:i]
					break
				}
			}
			budget -= shown + 8
			return r
		}
	}
	out := walk(r)
	return out, cut
}

// execLimited runs line under the Player's limits and reports true, or reports false when the
// line does not split (the unguarded path reports the error as redis-cli does). console lines
// are also held to LineBytes (a lesson's lines were, by CheckSource).
func (p *Player) execLimited(x *Exchange, line string, pre [][]byte, console bool) bool {
	refuse := func(err *LimitError) bool {
		x.Reply, x.Error, x.Refused = RefusedPrefix+err.Msg+" (limit "+err.Limit+")", true, err.Limit
		if len(x.Cmd) > 200 {
			x.Cmd = fmt.Sprintf("%s… (%d B)", x.Cmd[:200], len(line))
		}
		return true
	}
	if console {
		if err := p.guard.lim.checkLine(line); err != nil {
			return refuse(err)
		}
	}
	args, err := pre, error(nil)
	if args == nil {
		args, err = engine.SplitArgs(line)
	}
	if err != nil || len(args) == 0 {
		return false
	}
	if err := p.guard.before(p.eng, args); err != nil {
		return refuse(err)
	}
	res := p.guard.exec(p.eng, args)
	if res.Blocked { // the reply comes later (Player.takeWoken)
		x.Blocked, x.Events = true, res.Events
		p.waiting[x.Client] = line
		return true
	}
	r, cut := res.Reply, false
	if n := p.guard.lim.ReplyBytes; n > 0 {
		r, cut = boundReply(r, n)
	}
	x.Reply = strings.TrimSuffix(r.FormatCLI(), "\n")
	if cut {
		x.Reply += fmt.Sprintf("\n… (reply cut at about %d bytes: limit ReplyBytes)", p.guard.lim.ReplyBytes)
	}
	x.Error = r.IsError()
	x.Events = res.Events
	return true
}

// ParseLimited parses a lesson that comes from outside the app (a link, a paste, a dropped
// file): CheckSource first (so a huge text is never scanned), then Parse, then CheckLesson for
// profile v (0: no command-name check). Every error names the line.
func ParseLimited(name string, src []byte, v engine.Version, lim *Limits) (*Lesson, error) {
	if err := lim.CheckSource(name, src); err != nil {
		return nil, err
	}
	l, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	if err := lim.CheckLesson(l, v); err != nil {
		var le *LimitError
		var pe *ParseError
		switch {
		case errors.As(err, &le):
			le.File = name
		case errors.As(err, &pe):
			pe.File = name
		}
		return nil, err
	}
	return l, nil
}
