package lesson

import (
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/alloc"
)

// Config chooses the engine a Player runs on.
type Config struct {
	Version   engine.Version  // 0 = engine.DefaultVersion
	Allocator alloc.Allocator // size classes
	Seed      uint64          // used when the lesson sets none
	Limits    *Limits         // nil: no limits (native tools); the browser app sets &DefaultLimits
	Lang      string          // the console's language for HELP and the "not simulated" text (help.go); "en" or vi
}

// Exchange is one command the player ran and what came back, or one clock move.
type Exchange struct {
	Cmd     string         `json:"cmd"`
	Reply   string         `json:"reply"` // redis-cli --no-raw output without the final newline
	Error   bool           `json:"error,omitempty"`
	Console bool           `json:"console,omitempty"` // typed in the console, not part of the lesson
	Advance string         `json:"advance,omitempty"` // a clock move ("10s"); Cmd and Reply are empty
	Checks  []CheckResult  `json:"checks,omitempty"`
	Refused string         `json:"refused,omitempty"` // the limit that refused the command (limits.go); it did not run
	Events  []engine.Event `json:"-"`                 // trace events, in order
}

// CheckResult is one evaluated expectation.
type CheckResult struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	Got   string `json:"got"`
}

// SDSInfo is a string's sds allocation as the engine models it.
type SDSInfo struct {
	Type   string `json:"type"` // "sds5" … "sds64"; embstr values report sds8
	Header int    `json:"header"`
	Len    int    `json:"len"`
	Alloc  int    `json:"alloc"`
	Avail  int    `json:"avail"`
	Usable int    `json:"usable"` // jemalloc size class of the allocation (0 for embstr: shared with the robj)
}

// KeyInfo is what the outputs panel shows for one key, measured on the engine.
type KeyInfo struct {
	Key      string   `json:"key"`
	Exists   bool     `json:"exists"`
	Type     string   `json:"type"`     // TYPE ("none" when missing)
	Encoding string   `json:"encoding"` // OBJECT ENCODING
	Len      int64    `json:"len"`      // STRLEN for strings; -1 when not measured
	Memory   int64    `json:"memory"`   // MEMORY USAGE (default SAMPLES 5)
	TTLMs    int64    `json:"ttlMs"`    // PTTL: -1 no expiry, -2 missing
	SDS      *SDSInfo `json:"sds,omitempty"`
	HLL      string   `json:"hll,omitempty"` // "sparse" or "dense" for a HyperLogLog string
}

// Outputs are the measured figures beside the drawing.
type Outputs struct {
	Commands []Exchange `json:"commands"` // what produced the current position
	Keys     []KeyInfo  `json:"keys"`
}

// State is window.redscope.state().
type State struct {
	Lesson    string  `json:"lesson"`
	Step      int     `json:"step"`
	Steps     int     `json:"steps"`
	Version   string  `json:"version"`
	Allocator string  `json:"allocator"`
	Outputs   Outputs `json:"outputs"`
	// Needs is the lesson's `since` when the selected profile is older ("8.8"), else "": the
	// page says so, and the lesson's newer commands answer with Redis's unknown-command error.
	Needs string `json:"needs,omitempty"`
}

// Player runs a lesson step by step on its own engine. Back and Reset are exact: they rebuild a
// fresh engine (same seed, a ManualClock at engine.StartMs) and replay up to the wanted position,
// including the console commands typed at the positions kept.
//
// A Player without a lesson is a sandbox with no steps: only the console runs commands.
type Player struct {
	cfg    Config
	lesson *Lesson
	eng    *engine.Engine
	clock  *engine.ManualClock
	pos    int
	extras [][]string // extras[i]: console lines typed at position i
	last   []Exchange
	guard  *guard     // the limits' running state; nil without Config.Limits
	ring   *ringState // the consistent-hash ring of `ring` lines (ring.go); nil before one
	// console is the console's connection: its own MULTI queue and watched keys, apart from the
	// lesson's steps (which a student's WATCH sees as another client's writes).
	console *engine.Client
}

// NewPlayer makes a sandbox player; Load gives it a lesson.
func NewPlayer(cfg Config) *Player {
	p := &Player{cfg: cfg}
	p.Reset()
	return p
}

// Load switches to lesson l (nil = sandbox) at position 0.
func (p *Player) Load(l *Lesson) {
	p.lesson = l
	p.extras = nil
	p.Reset()
}

// Lesson is the loaded lesson (nil in the sandbox).
func (p *Player) Lesson() *Lesson { return p.lesson }

// Config is the engine configuration.
func (p *Player) Config() Config { return p.cfg }

// SetConfig changes version/allocator/seed and replays to the current position.
func (p *Player) SetConfig(c Config) {
	p.cfg = c
	p.replay(p.pos)
}

// Engine is the engine at the current position. Callers must not run commands on it directly
// (use Exec), or Back would not reproduce them.
func (p *Player) Engine() *engine.Engine { return p.eng }

// Pos is the number of steps applied (0 … Len).
func (p *Player) Pos() int { return p.pos }

// Len is the number of steps.
func (p *Player) Len() int {
	if p.lesson == nil {
		return 0
	}
	return len(p.lesson.Steps)
}

// Last lists what produced the current position: the actions of step Pos and the console commands
// typed since.
func (p *Player) Last() []Exchange { return p.last }

// Needs is the lesson's oldest profile (`since`) when the engine's profile is older than it,
// else 0.
func (p *Player) Needs() engine.Version {
	if p.lesson == nil || p.lesson.Since == 0 || p.eng.Version().Has(p.lesson.Since) {
		return 0
	}
	return p.lesson.Since
}

// Caption is the text for the current position: the intro at 0, else the caption of step Pos.
func (p *Player) Caption(lang string) string {
	if p.lesson == nil {
		return ""
	}
	if p.pos == 0 {
		return p.lesson.Intro.In(lang)
	}
	return p.lesson.Steps[p.pos-1].Caption.In(lang)
}

func (p *Player) seed() uint64 {
	if p.lesson != nil && p.lesson.Seed != 0 {
		return p.lesson.Seed
	}
	return p.cfg.Seed
}

func (p *Player) fresh() {
	p.clock = &engine.ManualClock{Ms: engine.StartMs}
	p.eng = engine.New(engine.Options{Version: p.cfg.Version, Allocator: p.cfg.Allocator,
		Seed: p.seed(), Clock: p.clock, Trace: true})
	p.guard = nil
	if p.cfg.Limits != nil {
		p.guard = newGuard(p.cfg.Limits, p.eng)
	}
	p.pos = 0
	p.last = nil
	p.ring = nil
	p.console = p.eng.NewConsoleClient()
}

// Reset goes back to position 0 with a fresh engine; console commands are forgotten.
func (p *Player) Reset() {
	p.extras = nil
	p.fresh()
}

// Step applies the next step; false at the end.
func (p *Player) Step() bool {
	if p.pos >= p.Len() {
		return false
	}
	p.last = p.runStep(p.pos, nil)
	p.pos++
	return true
}

// Back returns to the previous position exactly; false at 0.
func (p *Player) Back() bool {
	if p.pos == 0 {
		return false
	}
	p.replay(p.pos - 1)
	return true
}

// Seek moves to position n (clamped): forward by stepping, backward by replaying.
func (p *Player) Seek(n int) {
	n = max(0, min(n, p.Len()))
	if n < p.pos {
		p.replay(n)
		return
	}
	for p.pos < n {
		p.Step()
	}
}

// replay rebuilds the engine and runs steps 1..n with the console lines typed at positions ≤ n;
// console lines typed at later positions are dropped. Only the last position is traced.
func (p *Player) replay(n int) {
	n = max(0, min(n, p.Len()))
	if len(p.extras) > n+1 {
		p.extras = p.extras[:n+1]
	}
	p.fresh()
	for i := 0; i <= n; i++ {
		final := i == n
		p.eng.SetTracing(final)
		var xs []Exchange
		if i > 0 {
			xs = p.runStep(i-1, nil)
			p.pos = i
		}
		if i < len(p.extras) {
			for _, line := range p.extras[i] {
				xs = append(xs, p.exec(line, nil, true, nil))
			}
		}
		if final {
			p.last = xs
		}
	}
	p.eng.SetTracing(true)
}

func (p *Player) runStep(i int, xs []Exchange) []Exchange {
	if p.guard != nil {
		p.guard.elems = 0 // each step has its own element budget
	}
	for _, a := range p.lesson.Steps[i].Actions {
		if a.Cmd == "" {
			p.clock.Advance(a.Advance)
			xs = append(xs, Exchange{Advance: a.Advance.String()})
			continue
		}
		line := a.Cmd
		if a.Run != "" {
			line = a.Run // "args" lines extended it; the transcript shows the short form
		}
		x := p.exec(line, a.Args(), false, a.Expect)
		x.Cmd = a.Cmd
		xs = append(xs, x)
	}
	return xs
}

// Exec runs a console line at the current position and remembers it for replays.
func (p *Player) Exec(line string) Exchange {
	line = strings.TrimSpace(line)
	for len(p.extras) <= p.pos {
		p.extras = append(p.extras, nil)
	}
	p.extras[p.pos] = append(p.extras[p.pos], line)
	if p.guard != nil {
		p.guard.elems = 0 // each console line has its own element budget
	}
	x := p.exec(line, nil, true, nil)
	if x.Refused != "" {
		// A refused line changed nothing: forget it (a replay would refuse it again).
		p.extras[p.pos] = p.extras[p.pos][:len(p.extras[p.pos])-1]
	}
	p.last = append(p.last, x)
	return x
}

// exec runs one line; pre, when not nil, is the line already split (Action.Args).
func (p *Player) exec(line string, pre [][]byte, console bool, checks []Check) Exchange {
	if IsRingLine(line) {
		return p.execRing(line, console, checks)
	}
	if console && IsHelpLine(line) {
		return p.execHelp(line) // help.go
	}
	if console {
		p.eng.SetClient(p.console)
		defer p.eng.SetClient(nil)
	}
	x := Exchange{Cmd: line, Console: console}
	if p.guard != nil && p.execLimited(&x, line, pre, console) {
		return p.evalChecks(x, checks)
	}
	args, err := pre, error(nil)
	if args == nil {
		args, err = engine.SplitArgs(line)
	}
	switch {
	case err != nil:
		x.Reply, x.Error = err.Error(), true
	case len(args) == 0:
	default:
		res := p.eng.Exec(args)
		x.Reply = strings.TrimSuffix(res.Reply.FormatCLI(), "\n")
		x.Error = res.Reply.IsError()
		x.Events = res.Events
	}
	return p.evalChecks(x, checks)
}

func (p *Player) evalChecks(x Exchange, checks []Check) Exchange {
	x.Reply = LocalReply(x.Reply, p.cfg.Lang) // help.go: "not simulated" in the page's language
	for _, c := range checks {
		got := p.measure(c, x.Reply)
		x.Checks = append(x.Checks, CheckResult{Check: c.String(), OK: got == c.Want, Got: got})
	}
	return x
}

func (p *Player) measure(c Check, reply string) string {
	if c.Kind == CheckReply {
		return reply
	}
	k := p.Key(c.Key)
	switch c.Kind {
	case CheckEncoding:
		if !k.Exists {
			return "(nil)"
		}
		return k.Encoding
	case CheckLen:
		return strconv.FormatInt(max(k.Len, 0), 10)
	case CheckType:
		return k.Type
	}
	return ""
}

// Failed lists the checks of the current position that did not hold.
func (p *Player) Failed() []CheckResult {
	var out []CheckResult
	for _, x := range p.last {
		for _, c := range x.Checks {
			if !c.OK {
				out = append(out, c)
			}
		}
	}
	return out
}

// Key measures one key on the engine without side effects.
func (p *Player) Key(key string) KeyInfo { return Measure(p.eng, key) }

// Measure reads one key's figures from e without side effects (Peek: no lazy expiry, no events).
func Measure(e *engine.Engine, key string) KeyInfo {
	k := KeyInfo{Key: key, Type: "none", Len: -1, Memory: -1, TTLMs: -2}
	o := e.Peek([]byte(key))
	if o == nil {
		return k
	}
	k.Exists = true
	k.Type = o.Type.String()
	k.Encoding = o.Enc.String()
	if m, ok := e.PeekMemoryUsage([]byte(key), 5); ok {
		k.Memory = m
	}
	k.TTLMs = -1
	if w := e.Expire(key); w >= 0 {
		k.TTLMs = max(w-e.NowMs(), 0)
	}
	if o.Type == engine.TypeString {
		k.Len = int64(o.StringLen())
		switch o.Enc {
		case engine.EncRaw:
			h := o.SDS
			k.SDS = &SDSInfo{Type: h.Type.String(), Header: h.Type.HeaderSize(), Len: h.Len, Alloc: h.Alloc, Avail: h.Avail(), Usable: h.Usable}
		case engine.EncEmbstr:
			h := o.SDS
			k.SDS = &SDSInfo{Type: h.Type.String(), Header: h.Type.HeaderSize(), Len: h.Len, Alloc: h.Alloc, Avail: h.Avail()}
		}
		if o.Enc == engine.EncRaw && o.Buf.Len() >= 16 {
			var hdr [5]byte
			o.Buf.ReadAt(hdr[:], 0)
			if string(hdr[:4]) == "HYLL" {
				switch hdr[4] {
				case 0:
					k.HLL = "dense"
				case 1:
					k.HLL = "sparse"
				}
			}
		}
	}
	return k
}

// Watched lists the keys the outputs measure: the lesson's keys, then the keys the last
// exchanges touched (at most 6 in all).
func (p *Player) Watched() []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] && len(out) < 6 {
			seen[k] = true
			out = append(out, k)
		}
	}
	if p.lesson != nil {
		for _, k := range p.lesson.Keys {
			add(k)
		}
	}
	for _, x := range p.last {
		for _, ev := range x.Events {
			if k, ok := EventKey(ev); ok {
				add(k)
			}
		}
	}
	return out
}

// EventKey is the key an event is about.
func EventKey(ev engine.Event) (string, bool) {
	switch e := ev.(type) {
	case engine.KeyEvent:
		return e.Key, true
	case engine.SDSEvent:
		return e.Key, true
	case engine.EncodingEvent:
		return e.Key, true
	case engine.BitEvent:
		return e.Key, true
	case engine.BitfieldEvent:
		return e.Key, true
	case engine.HLLEvent:
		return e.Key, true
	case engine.HLLSparseEvent:
		return e.Key, true
	case engine.HLLPromoteEvent:
		return e.Key, true
	case engine.TTLEvent:
		return e.Key, true
	case engine.BloomEvent:
		return e.Key, true
	case engine.BloomFilterAddedEvent:
		return e.Key, true
	}
	return "", false
}

// State is the page API's state(): position, profile and the measured outputs.
func (p *Player) State() State {
	s := State{Step: p.pos, Steps: p.Len(), Version: p.eng.Version().String(),
		Allocator: p.eng.Allocator().String(), Outputs: Outputs{Commands: p.last, Keys: []KeyInfo{}}}
	if p.lesson != nil {
		s.Lesson = p.lesson.Name
	}
	if s.Outputs.Commands == nil {
		s.Outputs.Commands = []Exchange{}
	}
	if v := p.Needs(); v != 0 {
		s.Needs = v.String()
	}
	for _, k := range p.Watched() {
		s.Outputs.Keys = append(s.Outputs.Keys, p.Key(k))
	}
	return s
}

// Run plays lesson l natively and returns the State after each position 0 … len(Steps): what the
// page must show at every step.
func Run(l *Lesson, cfg Config) []State {
	p := NewPlayer(cfg)
	p.Load(l)
	out := []State{p.State()}
	for p.Step() {
		out = append(out, p.State())
	}
	return out
}
