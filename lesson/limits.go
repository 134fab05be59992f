package lesson

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"redscope/engine"
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
	// bytes as unallocated pages, so a command naming one runs when the engine's command table
	// says it works on a few bytes or page by page (engine.Command.Paged; GETRANGE and SUBSTR for
	// a range of up to StringBytes, engine.CommandCost); any other is refused.
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
	// A command that may grow the dataset (the command table's denyoom flag, as Redis refuses
	// under maxmemory) is refused while the dataset is above it, and BF.RESERVE may not ask for
	// a filter larger than it; the others (DEL, RENAME, LMPOP, EXPIRE …) always run.
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
	LessonSteps:  5000,
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
			if v != 0 && engine.LookupCommand(v, args[:1]) == nil && !expectsUnknown(a) {
				return &ParseError{File: l.Name, Line: a.Line, Msg: fmt.Sprintf("unknown command %q in Redis %s", truncate(string(args[0]), 64), v)}
			}
			if _, err := lim.checkArgs(args, &elems, nil); err != nil {
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
// current size of the keys they name. elems is the step's running element count. held is what
// sizes(e, args) gives when it measured the keys (e not nil and a KeyBytes limit), else -1.
func (lim *Limits) checkArgs(args [][]byte, elems *int, e *engine.Engine) (held int64, err *LimitError) {
	if lim == nil || len(args) == 0 {
		return -1, nil
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
			return -1, limitErr("ArgBytes", "%s with %d bytes of arguments; the app accepts up to %d bytes in one command", up, n, lim.ArgBytes)
		}
	}
	if lim.StepElements > 0 {
		*elems += len(args) - 1
		if *elems > lim.StepElements {
			return -1, limitErr("StepElements", "%d arguments in one step; the app accepts up to %d (split the work over several steps)", *elems, lim.StepElements)
		}
	}
	if e != nil {
		if err := lim.checkCost(up, args, e.CommandCost(args)); err != nil {
			return -1, err
		}
	} else if lim.ReplyItems > 0 || lim.Memory > 0 {
		// Before the lesson runs (CheckLesson) only what the arguments alone say: a count, a
		// filter's size.
		if err := lim.checkCost(up, args, engine.ArgsCost(args)); err != nil {
			return -1, err
		}
	}
	held = -1
	if e != nil && lim.KeyBytes > 0 {
		// One look at each argument for both sums: this one, each key as often as it is
		// named, and sizes's, each key once.
		var sum, distinct int64
		var seen map[string]bool
		for _, a := range args[1:] {
			if m, ok := e.PeekHeldMemory(a, 5); ok {
				sum += m
				if sum > lim.KeyBytes {
					return -1, limitErr("KeyBytes", "%s names keys of %d bytes or more in all; the app lets one command work on up to %d bytes of keys", up, sum, lim.KeyBytes)
				}
				if seen == nil {
					seen = map[string]bool{}
				}
				if !seen[string(a)] {
					seen[string(a)] = true
					distinct += m
				}
			}
		}
		held = distinct
	}
	return held, nil
}

// checkCost holds the engine's estimate of a call's work (engine.CommandCost: the command table
// knows which commands copy a string, how GETRANGE clamps, what LCS fills …) to the budgets.
func (lim *Limits) checkCost(up string, args [][]byte, c engine.Cost) *LimitError {
	key := ""
	if len(args) > 1 {
		key = truncate(string(args[1]), 40)
	}
	switch {
	case lim.StringBytes > 0 && c.CopyBytes > lim.StringBytes:
		return limitErr("StringBytes", "%s would copy %d bytes of a string; the app copies up to %d bytes of a string in one command (a long string's zero bytes are not stored: GETBIT, SETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD, STRLEN, GETRANGE of a short range, MEMORY USAGE and DEL work on it)",
			up, c.CopyBytes, lim.StringBytes)
	case lim.StringBytes > 0 && c.StoreBytes > lim.StringBytes:
		return limitErr("StringBytes", "%s would make %q store %d bytes; the app keeps up to %d bytes in one string (zero bytes that were never written are not stored: SETBIT k 4294967295 1 is fine)",
			up, key, c.StoreBytes, lim.StringBytes)
	case lim.LCSCells > 0 && c.Cells > lim.LCSCells:
		return limitErr("LCSCells", "%s fills a table of %d cells; the app allows up to %d", up, c.Cells, lim.LCSCells)
	case lim.ReplyItems > 0 && c.ReplyItems > lim.ReplyItems:
		return limitErr("ReplyItems", "%s asks for %d elements; the app answers up to %d elements", up, c.ReplyItems, lim.ReplyItems)
	case lim.Memory > 0 && c.AllocBytes > lim.Memory:
		return limitErr("Memory", "%s would allocate %d bytes; the app's whole dataset may use up to %d bytes", up, c.AllocBytes, lim.Memory)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// guard is a Player's running state for its limits: the step's element budget and an estimate
// of the dataset's size (held memory, see Limits.Memory), kept up to date from the keys each
// command names.
type guard struct {
	lim   *Limits
	elems int
	mem   int64
}

func newGuard(lim *Limits, e *engine.Engine) *guard {
	g := &guard{lim: lim}
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
	_, err := g.check(e, args)
	return err
}

// check is before that also returns the held memory of the keys args names when it measured it
// (sizes(e, args), by checkArgs), else -1: exec's measure before the command runs.
func (g *guard) check(e *engine.Engine, args [][]byte) (held int64, err *LimitError) {
	held, err = g.lim.checkArgs(args, &g.elems, e)
	if err != nil {
		return -1, err
	}
	// The command table's denyoom flag says which commands may grow the dataset (Redis refuses
	// the same ones above maxmemory); the others (DEL, RENAME, SMOVE, LMPOP, EXPIRE …) run.
	c := e.LookupCommand(args)
	if g.lim.Memory > 0 && g.mem > g.lim.Memory && c != nil && c.MayGrow() {
		// The running estimate only errs high (keys that expired or were freed by commands it
		// does not follow): measure the whole dataset before refusing.
		if g.mem = e.DatasetHeldMemory(); g.mem <= g.lim.Memory {
			return held, nil
		}
		return -1, limitErr("Memory", "the dataset uses about %d bytes, more than the %d the app allows; %s could grow it (free memory with DEL or FLUSHALL, or go ◀ back)",
			g.mem, g.lim.Memory, strings.ToUpper(c.FullName()))
	}
	return held, nil
}

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

// exec runs args on e under the guard's memory estimate; held is check's measure of the keys
// args names (-1: not measured), taken on the engine as it is now.
func (g *guard) exec(e *engine.Engine, args [][]byte, held int64) engine.Result {
	c := e.LookupCommand(args)
	if c == nil || c.Flags&(engine.FlagReadonly|engine.FlagFast) != 0 && !c.Writes() {
		return e.Exec(args) // changes no key (or answers an error)
	}
	if _, err := e.CommandKeys(args); err != nil || !c.Writes() || c.Keyless || c.Flags&engine.FlagNoMandatoryKeys != 0 {
		// The table cannot name the keys it changes (FLUSHALL, SWAPDB, EXEC's queued commands,
		// a script's keys): measure the whole dataset again afterwards.
		res := e.Exec(args)
		g.mem = e.DatasetHeldMemory()
		return res
	}
	before := held
	if before < 0 {
		before = sizes(e, args)
	}
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
	held, lerr := p.guard.check(p.eng, args)
	if lerr != nil {
		return refuse(lerr)
	}
	res := p.guard.exec(p.eng, args, held)
	if pre == nil {
		x.Args = args // the split of x.Cmd, for the scene
	}
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
