package lesson

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/fields"
)

// Config chooses the engine a Player runs on.
type Config struct {
	Version   engine.Version  // 0 = engine.DefaultVersion
	Allocator alloc.Allocator // size classes
	Seed      uint64          // used when the lesson sets none
	Limits    *Limits         // nil: no limits (native tools); the browser app sets &DefaultLimits
	Lang      string          // the console's language for HELP and the "not simulated" text (help.go); "en" or vi
}

// Exchange is one command the player ran and what came back, or one clock move: the engine's
// record of it (engine.Exchange, which the scenes replay) and the lesson's checks on it.
type Exchange struct {
	engine.Exchange
	Checks []CheckResult `json:"checks,omitempty"`
}

// EngineExchanges is xs without the lessons' checks, as scene.Input.Last takes them.
func EngineExchanges(xs []Exchange) []engine.Exchange {
	out := make([]engine.Exchange, len(xs))
	for i := range xs {
		out[i] = xs[i].Exchange
	}
	return out
}

// CheckResult is one evaluated expectation.
type CheckResult struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	Got   string `json:"got"`
	Key   string `json:"-"` // the key the check measures ("" for expect reply)
	Want  string `json:"-"` // the expected value
}

// Outputs are the measured figures beside the drawing.
type Outputs struct {
	Commands []Exchange       `json:"commands"` // what produced the current position
	Keys     []engine.KeyInfo `json:"keys"`
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
	// Clients are the console's clients (the page's tabs) and what each waits for.
	Clients []ClientState `json:"clients"`
	Active  int           `json:"active"` // the console's client
}

// ClientState is one console client in State.
type ClientState struct {
	N       int    `json:"n"`
	Waiting string `json:"waiting,omitempty"` // the blocking command it waits in ("BRPOP jobs 0")
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
	extras [][]typedLine // extras[i]: console lines typed at position i
	last   []Exchange
	stepN  int        // how many of last came from the lesson's step (the rest were typed)
	gen    uint64     // changes whenever last is rebuilt rather than appended to (Gen)
	guard  *guard     // the limits' running state; nil without Config.Limits
	ring   *ringState // the consistent-hash ring of `ring` lines (ring.go); nil before one
	// cluster: the Redis Cluster of `cluster` lines (cluster.go); nil before one. While there is
	// one, eng is its connected node.
	cluster *clusterState
	hopping bool // execInCluster is running a command (exec must not route it again)
	// clients[1 … Clients] are the console's connections (the page's "client 1 / 2 / 3" tabs):
	// each has its own MULTI queue and watched keys, apart from the lesson's steps without a
	// `client` line (which a student's WATCH sees as another client's writes), and each can
	// block (engine.Client.Blocking) until another client's push serves it.
	clients [Clients + 1]*engine.Client
	active  int                 // the console's client (1 … Clients)
	waiting [Clients + 1]string // the command each client is blocked in ("" when not blocked)
	woke    []wakeUp            // replies delivered by OnWake during the command running now
	multi   bool                // a client other than 1 ran a command since the last fresh engine
	// lessonClients: the lesson has `client` lines (set by Load).
	lessonClients bool
	// watched caches Watched for (gen, len(last)), and for gen the keys each exchange of Recent
	// names (eventKeys), by its index in last: an exchange's events do not change once it is in
	// last, so a typed command walks only its own events.
	watched struct {
		gen  uint64
		n    int
		keys []string
		ok   bool
		of   map[int][]string
	}
}

// Clients is how many console clients a Player has (the page's tabs).
const Clients = 3

// typedLine is one console line and the client it was typed in.
type typedLine struct {
	line   string
	client int
}

// wakeUp is a blocked client's reply handed over by engine.Client.OnWake.
type wakeUp struct {
	client int
	res    engine.Result
}

// NewPlayer makes a sandbox player; Load gives it a lesson.
func NewPlayer(cfg Config) *Player {
	p := &Player{cfg: cfg, active: 1}
	p.Reset()
	return p
}

// Load switches to lesson l (nil = sandbox) at position 0.
func (p *Player) Load(l *Lesson) {
	p.lesson = l
	p.extras = nil
	p.lessonClients = false
	if l != nil {
		for _, s := range l.Steps {
			for _, a := range s.Actions {
				p.lessonClients = p.lessonClients || a.Client != 0
			}
		}
	}
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
// typed since. It grows with every console command: per-command work uses Recent.
//
// Only the newest RecentConsole typed exchanges keep their trace events (Exec drops the events
// of older ones), so a long session's memory does not grow with the events of every command.
func (p *Player) Last() []Exchange { return p.last }

// RecentConsole is how many typed exchanges Recent keeps after the step's own (as many as the
// counters scene lists).
const RecentConsole = 8

// Recent is a bounded window of Last: the step's own exchanges (bounded by the lesson) and the
// newest RecentConsole typed ones. Scenes, the watched keys and the page's panels read it, so
// that the cost of a command does not depend on how many commands came before it.
func (p *Player) Recent() []Exchange {
	from := p.recentFrom()
	if from == p.stepN {
		return p.last
	}
	out := make([]Exchange, 0, p.stepN+RecentConsole)
	out = append(out, p.last[:p.stepN]...)
	return append(out, p.last[from:]...)
}

// recentFrom is where Recent's typed part starts in Last: Recent is last[:stepN] and then
// last[recentFrom():].
func (p *Player) recentFrom() int { return max(p.stepN, len(p.last)-RecentConsole) }

// Gen changes whenever Last is rebuilt (a step, Back, Seek, Reset, Load, SetConfig) rather than
// appended to by Exec: a view that rendered Last at the same Gen needs only the new entries.
func (p *Player) Gen() uint64 { return p.gen }

// Typed lists the console lines typed at positions before the current one: they were replayed
// before the current step's actions ran, so they may have changed what its checks measure.
func (p *Player) Typed() []string {
	var out []string
	for i := 0; i < p.pos && i < len(p.extras); i++ {
		for _, t := range p.extras[i] {
			out = append(out, t.line)
		}
	}
	return out
}

// MultiClient: the lesson has `client` lines, or a client other than 1 has run a command (the
// page then marks every line with its client; a one-client session keeps the plain look).
func (p *Player) MultiClient() bool {
	return p.multi || p.lessonClients
}

// ActiveClient is the console's client, 1 … Clients.
func (p *Player) ActiveClient() int { return p.active }

// SetActiveClient makes client n (1 … Clients) the console's; false when n is out of range. It
// changes no engine state, so Back and Reset keep it.
func (p *Player) SetActiveClient(n int) bool {
	if n < 1 || n > Clients {
		return false
	}
	p.active = n
	return true
}

// Waiting is the command client n (1 … Clients) is blocked in, as typed ("BRPOP jobs 0"), or ""
// when it is not blocked.
func (p *Player) Waiting(n int) string {
	if n < 1 || n > Clients {
		return ""
	}
	return p.waiting[n]
}

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
	p.stepN = 0
	p.gen++
	p.ring = nil
	p.cluster = nil
	p.woke = nil
	p.multi = false
	for n := 1; n <= Clients; n++ {
		c := p.eng.NewConsoleClient()
		c.ID, c.Blocking = int64(n), true
		n := n
		// OnWake runs inside another client's command: only remember the reply here.
		c.OnWake = func(res engine.Result) { p.woke = append(p.woke, wakeUp{n, res}) }
		p.clients[n] = c
		p.waiting[n] = ""
	}
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
	p.stepN = len(p.last)
	p.gen++
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
		stepN := len(xs)
		if i < len(p.extras) {
			for _, t := range p.extras[i] {
				xs = p.execWoke(xs, t.line, nil, true, nil, t.client)
			}
		}
		if final {
			p.last, p.stepN = xs, stepN
			p.dropOldEvents(0)
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
			xs = append(xs, p.advance(a.Advance))
			xs = p.takeWoken(xs, a.Expect)
			continue
		}
		line := a.Cmd
		if a.Run != "" {
			line = a.Run // "args" lines extended it; the transcript shows the short form
		}
		n := len(xs)
		xs = p.execWoke(xs, line, a.Args(), false, a.Expect, a.Client)
		if xs[n].Cmd != a.Cmd {
			xs[n].Cmd, xs[n].Args = a.Cmd, nil // Args would be the long form's
		}
	}
	return xs
}

// advance moves the logical clock and answers the blocked clients whose timeout passed
// (engine.AdvanceClock); their replies are collected in p.woke.
func (p *Player) advance(d time.Duration) Exchange {
	p.eng.AdvanceClock(d)
	return Exchange{Exchange: engine.Exchange{Advance: d.String()}}
}

// execWoke runs one line for client (0: the implicit client) and appends its exchange and then
// the Woken exchanges of the clients it served, with the `expect woken` checks among checks.
func (p *Player) execWoke(xs []Exchange, line string, pre [][]byte, console bool, checks []Check, client int) []Exchange {
	var own, woken []Check
	for _, c := range checks {
		if c.Kind == CheckWoken {
			woken = append(woken, c)
		} else {
			own = append(own, c)
		}
	}
	x := p.exec(line, pre, console, own, client)
	xs = append(xs, x)
	return p.takeWoken(xs, woken)
}

// takeWoken appends one Woken exchange per reply OnWake delivered, in the order the engine
// served them; checks (`expect woken`) measure the first.
func (p *Player) takeWoken(xs []Exchange, checks []Check) []Exchange {
	woke := p.woke
	p.woke = nil
	for i, w := range woke {
		x := Exchange{Exchange: engine.Exchange{Cmd: p.waiting[w.client], Client: w.client, Woken: true, Reply: strings.TrimSuffix(w.res.Reply.FormatCLI(), "\n"), Error: w.res.Reply.IsError(), Events: w.res.Events}}
		p.waiting[w.client] = ""
		var cs []Check
		if i == 0 {
			cs = checks
			checks = nil
		}
		xs = append(xs, p.evalChecks(x, cs))
	}
	for _, c := range checks { // nobody was woken
		xs[len(xs)-1].Checks = append(xs[len(xs)-1].Checks, CheckResult{Check: c.String(), Got: "(nobody woken)", Want: c.Want})
	}
	return xs
}

// Exec runs a console line at the current position and remembers it for replays.
func (p *Player) Exec(line string) Exchange {
	line = strings.TrimSpace(line)
	for len(p.extras) <= p.pos {
		p.extras = append(p.extras, nil)
	}
	p.extras[p.pos] = append(p.extras[p.pos], typedLine{line, p.active})
	if p.guard != nil {
		p.guard.elems = 0 // each console line has its own element budget
	}
	n := len(p.last)
	p.last = p.execWoke(p.last, line, nil, true, nil, p.active)
	x := p.last[n]
	if x.Refused != "" {
		// A refused line changed nothing: forget it (a replay would refuse it again).
		p.extras[p.pos] = p.extras[p.pos][:len(p.extras[p.pos])-1]
	}
	p.dropOldEvents(len(p.last) - 1 - RecentConsole)
	return x
}

// dropOldEvents forgets the trace events and split lines (Args) of the typed exchanges from index
// from on that fell out of Recent's window (Exec passes the one that just fell out; a replay
// passes 0).
func (p *Player) dropOldEvents(from int) {
	for i := max(p.stepN, from); i < len(p.last)-RecentConsole; i++ {
		p.last[i].Events, p.last[i].Args = nil, nil
	}
}

// exec runs one line for client (1 … Clients; 0: the engine's implicit client); pre, when not
// nil, is the line already split (Action.Args).
func (p *Player) exec(line string, pre [][]byte, console bool, checks []Check, client int) Exchange {
	if IsRingLine(line) {
		return p.execRing(line, console, checks)
	}
	if strings.EqualFold(fields.First(line), "cluster") && IsClusterLine(line) {
		return p.execClusterLine(line, console, checks) // cluster.go
	}
	if console && IsHelpLine(line) {
		return p.execHelp(line) // help.go
	}
	if console {
		if d, ok := AdvanceLine(line); ok {
			x := p.advance(d)
			x.Console = true
			return x
		}
	}
	if p.cluster != nil && !p.hopping {
		return p.execInCluster(line, pre, console, checks)
	}
	if client > 1 {
		p.multi = true
	}
	if client > 0 {
		p.eng.SetClient(p.clients[client])
		defer p.eng.SetClient(nil)
	}
	x := Exchange{Exchange: engine.Exchange{Cmd: line, Console: console, Client: client}}
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
		x.Events = res.Events
		if pre == nil {
			x.Args = args // the split of x.Cmd, for the scene
		}
		if res.Blocked {
			x.Blocked = true
			p.waiting[client] = line
			break
		}
		x.Reply = strings.TrimSuffix(res.Reply.FormatCLI(), "\n")
		x.Error = res.Reply.IsError()
	}
	return p.evalChecks(x, checks)
}

func (p *Player) evalChecks(x Exchange, checks []Check) Exchange {
	x.Reply = LocalReply(x.Reply, p.cfg.Lang) // help.go: "not simulated" in the page's language
	for _, c := range checks {
		got := p.measure(c, x.Reply)
		x.Checks = append(x.Checks, CheckResult{Check: c.String(), OK: got == c.Want, Got: got, Key: c.Key, Want: c.Want})
	}
	return x
}

func (p *Player) measure(c Check, reply string) string {
	if c.Kind == CheckReply || c.Kind == CheckWoken {
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
func (p *Player) Key(key string) engine.KeyInfo { return p.eng.Inspect(key) }

// Watched lists the keys the outputs measure: the lesson's keys, then the keys the last
// exchanges touched (at most 6 in all).
//
// The answer is cached until the exchanges change (a PFADD of 1 000 elements has 1 000 events,
// and the page asks several times per command), and so are the keys each exchange of Recent
// names: a typed command walks only its own events, not the whole window's.
func (p *Player) Watched() []string {
	if p.watched.ok && p.watched.gen == p.gen && p.watched.n == len(p.last) {
		return p.watched.keys
	}
	old := p.watched.of
	if p.watched.gen != p.gen {
		old = nil
	}
	of := make(map[int][]string, p.stepN+RecentConsole)
	var out []string
	add := func(k string) {
		if len(out) < maxWatched && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if p.lesson != nil {
		for _, k := range p.lesson.Keys {
			add(k)
		}
	}
	visit := func(i int) {
		if len(out) == maxWatched {
			return // full: nothing more is added
		}
		ks, ok := old[i]
		if !ok {
			// Its first maxWatched distinct keys hold all the new ones Watched can take: if s
			// of them are in out already, out has s keys or more and needs maxWatched−s more
			// at most, and the other maxWatched−s are new.
			ks = eventKeys(p.last[i].Events, maxWatched)
		}
		of[i] = ks
		for _, k := range ks {
			add(k)
		}
	}
	for i := 0; i < p.stepN; i++ {
		visit(i)
	}
	for i := p.recentFrom(); i < len(p.last); i++ {
		visit(i)
	}
	p.watched.gen, p.watched.n, p.watched.keys, p.watched.ok, p.watched.of = p.gen, len(p.last), out, true, of
	return out
}

// maxWatched is how many keys Watched lists at most.
const maxWatched = 6

// eventKeys lists the distinct keys evs name (engine.EventKey) in the order they first appear,
// at most max of them.
func eventKeys(evs []engine.Event, max int) []string {
	var out []string
	for _, ev := range evs {
		k, ok := engine.EventKey(ev)
		if !ok || len(out) > 0 && out[len(out)-1] == k || slices.Contains(out, k) {
			continue // a PFADD's 1 000 events about one key: one comparison each
		}
		if len(out) == max {
			break
		}
		out = append(out, k)
	}
	return out
}

// State is the page API's state(): position, profile and the measured outputs.
func (p *Player) State() State {
	s := State{Step: p.pos, Steps: p.Len(), Version: p.eng.Version().String(),
		Allocator: p.eng.Allocator().String(), Outputs: Outputs{Commands: p.last, Keys: []engine.KeyInfo{}}}
	if p.lesson != nil {
		s.Lesson = p.lesson.Name
	}
	if s.Outputs.Commands == nil {
		s.Outputs.Commands = []Exchange{}
	}
	if v := p.Needs(); v != 0 {
		s.Needs = v.String()
	}
	s.Active = p.active
	for n := 1; n <= Clients; n++ {
		s.Clients = append(s.Clients, ClientState{N: n, Waiting: p.waiting[n]})
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

// Culprits lists the console lines typed before the current step (Typed) that name the key a
// failed check measures, by the command table's key positions (COMMAND GETKEYS on a scratch
// engine of the same profile); all typed lines when the check measures no key (expect reply).
func (p *Player) Culprits(c CheckResult) []string {
	typed := p.Typed()
	if c.Key == "" || len(typed) == 0 {
		return typed
	}
	e := engine.New(engine.Options{Version: p.eng.Version()})
	var out []string
	for _, line := range typed {
		args, err := engine.SplitArgs(line)
		if err != nil || len(args) == 0 {
			continue
		}
		r := e.Exec(append([][]byte{[]byte("COMMAND"), []byte("GETKEYS")}, args...)).Reply
		for _, k := range r.Array {
			if k.Str == c.Key {
				out = append(out, line)
				break
			}
		}
	}
	return out
}
