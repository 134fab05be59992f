package lab

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/lesson"
)

// `redscope lab lesson FILE [--check]` plays a lesson file (lesson/FORMAT.md, parsed by package
// lesson) headless, step by step as the app's Next button does, and prints the transcript: each
// step's caption, commands and replies, the checks, and the figures the outputs panel shows for
// the watched keys. With --check a check that does not hold makes it fail.

func runLesson(args []string, w io.Writer) error {
	var ef engineFlags
	fs := newEngineFlagSet("lesson", &ef)
	check := fs.Bool("check", false, "fail when an expectation of the lesson does not hold")
	lang := fs.String("lang", "en", "caption language: en or vi")
	// The file may come before or after the flags.
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if file == "" {
		// Pull the first non-flag argument out (flags stop at the first non-flag).
		for i := 0; i < len(args); i++ {
			a := args[i]
			if !strings.HasPrefix(a, "-") {
				file = a
				args = append(append([]string{}, args[:i]...), args[i+1:]...)
				break
			}
			if !strings.Contains(a, "=") && i+1 < len(args) && takesValue(strings.TrimLeft(a, "-")) {
				i++
			}
		}
	}
	opts, err := parseEngineOptions(fs, &ef, args)
	if err != nil {
		return err
	}
	if file == "" {
		return fmt.Errorf("lab lesson: which lesson file? (lab lesson FILE [--check])")
	}
	if *lang != "en" && *lang != "vi" {
		return fmt.Errorf("lab lesson: --lang %q: want en or vi", *lang)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("lab lesson: %v", err)
	}
	l, err := lesson.Parse(file, src)
	if err != nil {
		return fmt.Errorf("lab lesson: %v", err)
	}
	return Lesson(l, lesson.Config{Version: opts.Version, Allocator: opts.Allocator, Seed: opts.Seed}, *lang, *check, w)
}

func takesValue(name string) bool {
	switch name {
	case "seed", "redis-version", "allocator", "lang":
		return true
	}
	return false
}

// Lesson plays l and prints its transcript; with check, an unmet expectation is an error.
func Lesson(l *lesson.Lesson, cfg lesson.Config, lang string, check bool, w io.Writer) error {
	v := cfg.Version
	if v == 0 {
		v = engine.DefaultVersion
	}
	if l.Since != 0 && !v.Has(l.Since) {
		return fmt.Errorf("lab lesson: %s needs Redis %s or later (--redis-version %s)", l.Name, l.Since, v)
	}
	p := lesson.NewPlayer(cfg)
	p.Load(l)
	e := p.Engine()
	seed := cfg.Seed
	if l.Seed != 0 {
		seed = l.Seed
	}
	head := fmt.Sprintf("lesson %s", l.Name)
	if t := l.Title.In(lang); t != "" {
		head += ": " + t
	}
	scene := l.Scene
	if scene == "" {
		scene = "none"
	}
	fmt.Fprintf(w, "%s\nscene %s, keys %s; %s; %d steps\n", head, scene, orNone(l.Keys), profile(e, seed), p.Len())
	if c := p.Caption(lang); c != "" {
		fmt.Fprintf(w, "\n%s\n", c)
	}
	var total, failed int
	for p.Step() {
		fmt.Fprintf(w, "\nstep %d/%d", p.Pos(), p.Len())
		if c := p.Caption(lang); c != "" {
			fmt.Fprintf(w, ": %s", c)
		}
		fmt.Fprintln(w)
		for _, x := range p.Last() {
			if x.Advance != "" {
				fmt.Fprintf(w, "(clock +%s)\n", x.Advance)
				continue
			}
			fmt.Fprintf(w, "> %s\n%s\n", x.Cmd, x.Reply)
			for _, c := range x.Checks {
				total++
				if c.OK {
					fmt.Fprintf(w, "  ok   %s\n", c.Check)
				} else {
					failed++
					fmt.Fprintf(w, "  FAIL %s (got %s)\n", c.Check, strings.ReplaceAll(c.Got, "\n", "\\n"))
				}
			}
		}
		for _, k := range p.State().Outputs.Keys {
			fmt.Fprintf(w, "  key %s\n", keyLine(k))
		}
	}
	fmt.Fprintf(w, "\nchecks: %d, held %d, failed %d\n", total, total-failed, failed)
	if check && failed > 0 {
		return fmt.Errorf("lab lesson: %s: %d of %d checks failed", l.Name, failed, total)
	}
	return nil
}

func orNone(keys []string) string {
	if len(keys) == 0 {
		return "(none)"
	}
	return strings.Join(keys, " ")
}

// keyLine prints what the outputs panel shows for one key.
func keyLine(k engine.KeyInfo) string {
	if !k.Exists {
		return k.Key + ": none"
	}
	parts := []string{k.Key + ": " + k.Type, k.Encoding}
	if k.HLL != "" {
		parts = append(parts, "hll "+k.HLL)
	}
	if k.Len >= 0 {
		parts = append(parts, "len "+strconv.FormatInt(k.Len, 10))
	}
	if s := k.SDS; s != nil {
		sds := fmt.Sprintf("%s alloc %d avail %d", s.Type, s.Alloc, s.Avail)
		if s.Usable > 0 {
			sds += fmt.Sprintf(" usable %d", s.Usable)
		}
		parts = append(parts, sds)
	}
	if k.Memory >= 0 {
		parts = append(parts, "MEMORY USAGE "+strconv.FormatInt(k.Memory, 10))
	}
	if k.TTLMs >= 0 {
		parts = append(parts, "PTTL "+strconv.FormatInt(k.TTLMs, 10))
	}
	return strings.Join(parts, ", ")
}
