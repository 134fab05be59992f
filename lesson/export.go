package lesson

import (
	"strings"

	"redscope/engine"
)

// QuoteArg writes one argument so that redis-cli (and engine.SplitArgs, its sdssplitargs) reads
// back exactly the same bytes: as is when it is a plain word, else in double quotes with \\ \"
// \n \r \t \a \b and \xHH for every other byte outside printable ASCII.
func QuoteArg(a []byte) string {
	plain := len(a) > 0
	for _, c := range a {
		if c <= ' ' || c >= 0x7f || c == '"' || c == '\'' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return string(a)
	}
	// redis-cli's own quoting (sdscatrepr) is exactly what sdssplitargs reads back.
	return string(engine.AppendRepr(make([]byte, 0, len(a)+2), string(a)))
}

// QuoteArgs joins QuoteArg of every argument with spaces: one redis-cli input line.
func QuoteArgs(args [][]byte) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = QuoteArg(a)
	}
	return strings.Join(parts, " ")
}

// transcriptLine normalises one command line for a redis-cli input file; ok=false for what is
// not a Redis command (ring lines, lines that do not split, empty lines).
func transcriptLine(line string) (string, bool) {
	if IsRingLine(line) || IsHelpLine(line) {
		return "", false
	}
	args, err := engine.SplitArgs(line)
	if err != nil || len(args) == 0 {
		return "", false
	}
	return QuoteArgs(args), true
}

// Transcript is the whole lesson as a redis-cli input file: every command of every step, one a
// line (`redis-cli -p PORT < FILE` replays it on a real server). Clock moves (`advance`) and
// ring lines have no redis-cli form and are left out; checks are not commands.
func (l *Lesson) Transcript() string {
	return transcript(l, nil)
}

// Transcript is the Player's session as a redis-cli input file: the lesson's commands (all its
// steps), with the console lines typed at each position placed after that position's step, as a
// replay runs them. A sandbox gives its console lines.
func (p *Player) Transcript() string {
	return transcript(p.lesson, p.extras)
}

func transcript(l *Lesson, extras [][]typedLine) string {
	var b strings.Builder
	add := func(line string) {
		if q, ok := transcriptLine(line); ok {
			b.WriteString(q)
			b.WriteByte('\n')
		}
	}
	n := 0
	if l != nil {
		n = len(l.Steps)
	}
	for i := 0; i <= n; i++ {
		if i > 0 {
			for _, a := range l.Steps[i-1].Actions {
				switch {
				case a.Run != "":
					add(a.Run)
				case a.Cmd != "":
					add(a.Cmd)
				}
			}
		}
		if i < len(extras) {
			for _, t := range extras[i] {
				add(t.line)
			}
		}
	}
	return b.String()
}
