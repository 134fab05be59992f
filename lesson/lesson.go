// Package lesson is redscope's lesson model: a small text format (FORMAT.md) describing steps of
// Redis commands with bilingual captions, a parser for it, and a Player that runs a lesson on an
// engine one step at a time, with exact Back and Reset by replaying from a fresh engine (same seed,
// same logical clock).
//
// The package is pure Go (no graphics, no syscall/js): the browser app drives a Player, and tests
// run the same Player natively to compute what the page must show.
package lesson

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"redscope/engine"
)

// Text is a string in the app's two languages.
type Text struct {
	VI string `json:"vi"`
	EN string `json:"en"`
}

// In returns the text in lang ("vi" or "en"), falling back to the other language when empty.
func (t Text) In(lang string) string {
	if lang == "en" {
		if t.EN != "" {
			return t.EN
		}
		return t.VI
	}
	if t.VI != "" {
		return t.VI
	}
	return t.EN
}

func (t *Text) add(lang, s string) {
	p := &t.VI
	if lang == "en" {
		p = &t.EN
	}
	switch {
	case *p == "":
		*p = s
	case s == "":
		*p += "\n"
	case strings.HasSuffix(*p, "\n"):
		*p += s
	default:
		*p += " " + s
	}
}

// Lesson is one parsed lesson.
type Lesson struct {
	Name  string   // identifier, e.g. "sds-growth"
	Title Text     // shown above the captions
	Intro Text     // caption shown before the first step
	Scene string   // "sds", "bits", "hll" or "" (outputs only)
	Keys  []string // keys the scene draws and the outputs measure
	Seed  uint64
	Since engine.Version // oldest profile the lesson runs on (0 = all)
	// Course is what the lesson follows, one `course ARTICLE SECTION` line each (course.go);
	// the first places it in the app's lesson list. Empty: it follows no section.
	Course []CourseRef
	Steps  []Step
	// needsLua: a step runs a command of Lua scripting (NeedsLua; set by Parse, once: the app
	// asks at every change of place, and a lesson may have thousands of steps).
	needsLua bool
}

// Step is what one press of Next does.
type Step struct {
	Caption Text
	Actions []Action
	Line    int // line of the "step" keyword
}

// Action is one command line, or a move of the logical clock when Cmd is empty.
type Action struct {
	Cmd     string        // redis-cli syntax
	Advance time.Duration // clock move, when Cmd == ""
	Expect  []Check
	Line    int
	Client  int    // the console client (1 … Clients) a `client N` line chose; 0: the lesson's own
	Run     string // the full command line when "args" lines extended it (Cmd is then the short form shown)
	// split is Run split into arguments once, at parse time (a 100 000-element line took a third
	// of a step's time to split again on every replay); the Player runs a copy of it.
	split [][]byte
}

// Check kinds.
const (
	CheckReply    = "reply"    // the command's reply as redis-cli --no-raw prints it
	CheckEncoding = "encoding" // OBJECT ENCODING key after the command
	CheckLen      = "len"      // STRLEN key (string keys) after the command
	CheckType     = "type"     // TYPE key after the command ("none" when missing)
	CheckWoken    = "woken"    // the reply of the first blocked client the command (or clock move) ended
)

// Check is an optional expectation attached to the command before it.
type Check struct {
	Kind string
	Key  string // for encoding, len and type
	Want string // reply lines joined with "\n"
	Line int
}

// String prints the check as written in a lesson.
func (c Check) String() string {
	if c.Key != "" {
		return "expect " + c.Kind + " " + c.Key + ": " + c.Want
	}
	return "expect " + c.Kind + ": " + c.Want
}

// ParseError points at a bad line.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ParseHeader reads only what a lesson list needs, the name, the title and the course lines
// (checked against Course as Parse checks them), from the lines before the first step: a cheap
// scan (the app lists every built-in lesson at start-up and parses one with Parse only when it
// is opened). It does not validate the rest.
func ParseHeader(name string, src []byte) (*Lesson, error) {
	l := &Lesson{Name: strings.TrimSuffix(name, ".lesson")}
	if i := strings.LastIndexByte(l.Name, '/'); i >= 0 {
		l.Name = l.Name[i+1:]
	}
	n := 0
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		n++
		t := strings.TrimSpace(string(line))
		if t == "step" || strings.HasPrefix(t, "step ") {
			break
		}
		if key, val, ok := strings.Cut(t, ":"); ok && (key == "title vi" || key == "title en") {
			l.Title.add(key[6:], strings.TrimSpace(val))
		} else if word, r, _ := strings.Cut(t, " "); word == "lesson" {
			l.Name = strings.TrimSpace(r)
		} else if word == "course" {
			if err := l.addCourse(r); err != nil {
				return nil, &ParseError{File: name, Line: n, Msg: err.Error()}
			}
		}
	}
	if l.Title.VI == "" && l.Title.EN == "" {
		return nil, &ParseError{File: name, Line: 1, Msg: "missing title (title vi: … / title en: …)"}
	}
	return l, nil
}

// Parse reads a lesson. name is used for error messages and as the default lesson name.
func Parse(name string, src []byte) (*Lesson, error) {
	l := &Lesson{Name: strings.TrimSuffix(name, ".lesson")}
	if i := strings.LastIndexByte(l.Name, '/'); i >= 0 {
		l.Name = l.Name[i+1:]
	}
	bad := func(line int, f string, a ...any) error {
		return &ParseError{File: name, Line: line, Msg: fmt.Sprintf(f, a...)}
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var step *Step
	var lastCmd *Action
	client := 0        // the client of the commands that follow (a `client N` line)
	lastWasReply := "" // the kind of the check on the line before (reply or woken lines continue)
	n := 0
	for sc.Scan() {
		n++
		raw := strings.TrimRight(sc.Text(), " \t\r")
		line := strings.TrimLeft(raw, " \t")
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		replyCont := ""
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "> ") || line == ">":
			if step == nil {
				return nil, bad(n, "command before the first step")
			}
			cmd := strings.TrimSpace(strings.TrimPrefix(line, ">"))
			if cmd == "" {
				return nil, bad(n, "empty command")
			}
			if _, err := engine.SplitArgs(cmd); err != nil {
				return nil, bad(n, "cannot split command: %v", err)
			}
			step.Actions = append(step.Actions, Action{Cmd: cmd, Line: n, Client: client})
			lastCmd = &step.Actions[len(step.Actions)-1]
		case line == "step" || strings.HasPrefix(line, "step "):
			client = 0 // each step starts on the lesson's own client
			l.Steps = append(l.Steps, Step{Line: n})
			step = &l.Steps[len(l.Steps)-1]
			lastCmd = nil
		default:
			key, val, ok := strings.Cut(line, ":")
			word, rest, _ := strings.Cut(line, " ")
			switch {
			case ok && (key == "vi" || key == "en"):
				if step == nil {
					l.Intro.add(key, strings.TrimSpace(val))
				} else {
					step.Caption.add(key, strings.TrimSpace(val))
				}
			case ok && (key == "title vi" || key == "title en"):
				l.Title.add(key[6:], strings.TrimSpace(val))
			case word == "expect":
				if lastCmd == nil {
					return nil, bad(n, "expect without a command before it in the step")
				}
				head, want, found := strings.Cut(line, ": ")
				if !found {
					if !strings.HasSuffix(line, ":") {
						return nil, bad(n, "expect needs ': value'")
					}
					head, want = line[:len(line)-1], ""
				}
				f := strings.Fields(head)
				c := Check{Want: want, Line: n}
				switch {
				case len(f) == 2 && (f[1] == CheckReply || f[1] == CheckWoken):
					c.Kind = f[1]
				case len(f) == 3 && (f[1] == CheckEncoding || f[1] == CheckLen || f[1] == CheckType):
					c.Kind, c.Key = f[1], f[2]
				default:
					return nil, bad(n, "unknown check %q (want: expect reply: …, expect encoding KEY: …, expect len KEY: …, expect type KEY: …)", head)
				}
				if lastCmd.Cmd == "" && c.Kind != CheckWoken {
					return nil, bad(n, "only expect woken: may follow an advance line")
				}
				if c.Kind != CheckEncoding && c.Kind != CheckLen && c.Kind != CheckType && lastWasReply == c.Kind {
					// Consecutive "expect reply:" lines form one multi-line reply.
					last := &lastCmd.Expect[len(lastCmd.Expect)-1]
					last.Want += "\n" + c.Want
				} else {
					lastCmd.Expect = append(lastCmd.Expect, c)
				}
				replyCont = c.Kind
			case word == "args":
				if lastCmd == nil || lastCmd.Cmd == "" {
					return nil, bad(n, "args without a command before it in the step")
				}
				if err := lastCmd.moreArgs(strings.TrimSpace(rest)); err != nil {
					return nil, bad(n, "%v", err)
				}
			case word == "arg":
				if lastCmd == nil || lastCmd.Cmd == "" {
					return nil, bad(n, "arg without a command before it in the step")
				}
				if err := lastCmd.repeatedArg(strings.TrimSpace(rest)); err != nil {
					return nil, bad(n, "%v", err)
				}
			case word == "advance":
				if step == nil {
					return nil, bad(n, "advance before the first step")
				}
				d, err := time.ParseDuration(strings.TrimSpace(rest))
				if err != nil || d < 0 {
					return nil, bad(n, "advance needs a positive duration such as 1500ms or 10s")
				}
				step.Actions = append(step.Actions, Action{Advance: d, Line: n})
				lastCmd = &step.Actions[len(step.Actions)-1] // for `expect woken:`
			case word == "client":
				if step == nil {
					return nil, bad(n, "client before the first step")
				}
				c, err := strconv.Atoi(strings.TrimSpace(rest))
				if err != nil || c < 0 || c > Clients {
					return nil, bad(n, "client needs a number 1 … %d (0: the lesson's own client)", Clients)
				}
				client = c
				lastCmd = nil
			case word == "ring" && step != nil: // ring.go: the consistent-hash ring
				if _, err := parseRing(line); err != nil {
					return nil, bad(n, "%v", err)
				}
				step.Actions = append(step.Actions, Action{Cmd: line, Line: n})
				lastCmd = &step.Actions[len(step.Actions)-1]
			case IsClusterLine(line) && step != nil: // cluster.go: a Redis Cluster
				if _, err := parseCluster(line); err != nil {
					return nil, bad(n, "%v", err)
				}
				step.Actions = append(step.Actions, Action{Cmd: line, Line: n})
				lastCmd = &step.Actions[len(step.Actions)-1]
			case word == "repeat" && step != nil: // repeat.go: one command, many times
				cmds, err := expandRepeat(rest)
				if err != nil {
					return nil, bad(n, "%v", err)
				}
				for _, c := range cmds {
					step.Actions = append(step.Actions, Action{Cmd: c, Line: n})
				}
				lastCmd = nil
			case step != nil:
				return nil, bad(n, "unknown line in a step: %q", line)
			case word == "lesson":
				l.Name = strings.TrimSpace(rest)
			case word == "course":
				if err := l.addCourse(rest); err != nil {
					return nil, bad(n, "%v", err)
				}
			case word == "scene":
				l.Scene = strings.TrimSpace(rest)
				switch l.Scene {
				case "sds", "bits", "hll", "none", "ring", "bloom", "counters", "encoding", "zset", "list", "stream", "cluster", "ringslots", "draws", "fieldttl", "race", "memory":
				default:
					return nil, bad(n, "unknown scene %q (want sds, bits, hll, ring, bloom, counters, encoding, zset, list, stream, cluster, ringslots, draws, fieldttl, race, memory or none)", l.Scene)
				}
			case word == "keys":
				l.Keys = strings.Fields(rest)
			case word == "seed":
				s, err := strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
				if err != nil {
					return nil, bad(n, "seed needs an unsigned integer")
				}
				l.Seed = s
			case word == "since":
				v, err := engine.ParseVersion(strings.TrimSpace(rest))
				if err != nil {
					return nil, bad(n, "%v", err)
				}
				l.Since = v
			default:
				return nil, bad(n, "unknown header line %q", line)
			}
		}
		lastWasReply = replyCont
	}
	if err := sc.Err(); err != nil {
		return nil, bad(n, "%v", err)
	}
	if l.Scene == "none" {
		l.Scene = ""
	}
	if l.Title.VI == "" && l.Title.EN == "" {
		return nil, bad(1, "missing title (title vi: … / title en: …)")
	}
	if len(l.Steps) == 0 {
		return nil, bad(n, "a lesson needs at least one step")
	}
	for i, s := range l.Steps {
		if len(s.Actions) == 0 {
			return nil, bad(s.Line, "step %d has no command", i+1)
		}
		if len(s.Actions) > MaxStepActions {
			return nil, bad(s.Line, "step %d has more than %d commands", i+1, MaxStepActions)
		}
	}
	l.needsLua = l.runsScripts()
	return l, nil
}

// addCourse applies a `course ARTICLE SECTION` header line (course.go).
func (l *Lesson) addCourse(rest string) error {
	r, err := parseCourse(rest)
	if err != nil {
		return err
	}
	for _, c := range l.Course {
		if c == r {
			return fmt.Errorf("course %s given twice", r)
		}
	}
	l.Course = append(l.Course, r)
	return nil
}

// MaxArgGroups is the most argument groups one "args" line may add.
const MaxArgGroups = 100000

// Args returns a fresh copy of the action's arguments when args/arg lines extended it (nil
// otherwise: split Cmd). The engine may keep and change what it is given, so every run gets its
// own copy, made in one allocation.
func (a *Action) Args() [][]byte {
	if a.split == nil {
		return nil
	}
	n := 0
	for _, x := range a.split {
		n += len(x)
	}
	buf := make([]byte, 0, n)
	out := make([][]byte, len(a.split))
	for i, x := range a.split {
		buf = append(buf, x...)
		out[i] = buf[len(buf)-len(x) : len(buf) : len(buf)]
	}
	return out
}

// moreArgs applies an "args A..B > TEMPLATE" line: TEMPLATE, with every %d replaced by A, A+1,
// …, B, is appended to the command above, once per number; Cmd keeps a short form for the
// transcript ("HSET h f4 v4 … f512 v512").
func (a *Action) moreArgs(spec string) error {
	rng, tmpl, ok := strings.Cut(spec, ">")
	tmpl = strings.TrimSpace(tmpl)
	lo, hi, ok2 := strings.Cut(strings.TrimSpace(rng), "..")
	from, err1 := strconv.Atoi(strings.TrimSpace(lo))
	to, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || !ok2 || tmpl == "" || err1 != nil || err2 != nil || from < 0 || to < from || to-from >= MaxArgGroups {
		return fmt.Errorf("args needs 'FIRST..LAST > TEMPLATE' with FIRST ≤ LAST and at most %d groups, e.g. args 4..512 > f%%d v%%d", MaxArgGroups)
	}
	one := func(i int) string { return strings.ReplaceAll(tmpl, "%d", strconv.Itoa(i)) }
	if a.Run == "" {
		a.Run = a.Cmd
	}
	var b strings.Builder
	b.WriteString(a.Run)
	for i := from; i <= to; i++ {
		b.WriteByte(' ')
		b.WriteString(one(i))
	}
	split, err := engine.SplitArgs(b.String())
	if err != nil {
		return fmt.Errorf("cannot split the command with its args: %v", err)
	}
	a.Run, a.split = b.String(), split
	switch {
	case to == from:
		a.Cmd += " " + one(from)
	case to == from+1:
		a.Cmd += " " + one(from) + " " + one(to)
	default:
		a.Cmd += " " + one(from) + " … " + one(to)
	}
	return nil
}

// MaxArgBytes is the longest argument one "arg TEXT*N" line may build (the browser's
// Limits.ArgBytes refuses far less, before the lesson is parsed).
const MaxArgBytes = 32 << 20

// ParseRepeatedArg reads the TEXT*N of an "arg" line: TEXT is one argument in redis-cli syntax
// (a plain word, or quoted with "…" / '…' and \xHH), N after the last '*' a count ≥ 1. It
// returns TEXT's bytes and N; the argument is TEXT repeated N times.
func ParseRepeatedArg(spec string) ([]byte, int, error) {
	usage := fmt.Errorf("arg needs TEXT*N: one argument made of TEXT repeated N times, e.g. arg x*100000 or arg \"ab \"*3")
	i := strings.LastIndexByte(spec, '*')
	if i <= 0 {
		return nil, 0, usage
	}
	count, err := strconv.Atoi(strings.TrimSpace(spec[i+1:]))
	if err != nil || count < 1 {
		return nil, 0, usage
	}
	args, err := engine.SplitArgs(strings.TrimSpace(spec[:i]))
	if err != nil || len(args) != 1 || len(args[0]) == 0 {
		return nil, 0, usage
	}
	if int64(len(args[0]))*int64(count) > MaxArgBytes {
		return nil, 0, fmt.Errorf("arg: TEXT*N makes %d bytes; at most %d", int64(len(args[0]))*int64(count), MaxArgBytes)
	}
	return args[0], count, nil
}

// repeatedArg applies an "arg TEXT*N" line: one argument, TEXT repeated N times, is appended to
// the command above (written in Run with QuoteArg, so the transcript for redis-cli carries it
// whole); Cmd shows the short form TEXT×N ("SET s:set x×100000").
func (a *Action) repeatedArg(spec string) error {
	text, count, err := ParseRepeatedArg(spec)
	if err != nil {
		return err
	}
	if a.Run == "" {
		a.Run = a.Cmd
	}
	if a.split == nil { // the command as written, before this line extends it
		if a.split, err = engine.SplitArgs(a.Run); err != nil {
			return fmt.Errorf("cannot split the command: %v", err)
		}
	}
	arg := bytes.Repeat(text, count)
	a.split = append(a.split, arg)
	a.Run += " " + QuoteArg(arg)
	a.Cmd += " " + QuoteArg(text) + "×" + strconv.Itoa(count)
	return nil
}

// AdvanceLine reads a console line `advance 5s` (a move of the logical clock, as in a lesson):
// the duration and true, or false for any other line.
func AdvanceLine(line string) (time.Duration, bool) {
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	if !strings.EqualFold(word, "advance") {
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(rest))
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}
