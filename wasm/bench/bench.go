// Package bench holds the workloads the browser app can time on its own engine through the page
// API (window.redscope.bench, see wasm/perf.go), so that the figures in BENCHMARKS.md come from
// the page's wasm engine and the same code is checked natively by this package's tests.
package bench

import (
	"math"
	"strconv"

	"redscope/engine"
)

// Week is the course's seven-day HyperLogLog workload (seeds/000 §3.7, `redscope lab hll`):
// Days daily keys d1…dDays; day d holds the viewers u<i> for i in step·(d−1) … step·(d−1)+PerDay−1
// with step = PerDay·(1−Overlap), added with PFADD in batches of Batch elements; then PFCOUNT of
// all the days at once, PFMERGE week, PFCOUNT week. With the defaults that is 7 × 200 000 =
// 1 400 000 PFADD elements, 800 000 of them distinct.
type Week struct {
	Days    int
	PerDay  int
	Overlap float64
	Batch   int
}

// CourseWeek is the article's workload.
var CourseWeek = Week{Days: 7, PerDay: 200000, Overlap: 0.5, Batch: 1000}

// WeekResult is what one run measured.
type WeekResult struct {
	Elements int64 // PFADD elements sent
	Distinct int64 // distinct viewers
	Commands int   // commands executed
	OnTheFly int64 // PFCOUNT d1 … dN
	Merged   int64 // PFCOUNT week after PFMERGE
	Err      string
}

// Valid reports whether the workload's parameters are in range (the page API takes them from
// JavaScript).
func (w Week) Valid() bool {
	return w.Days >= 1 && w.Days <= 1000 && w.PerDay >= 1 && w.PerDay <= 10_000_000 &&
		w.Overlap >= 0 && w.Overlap <= 1 && w.Batch >= 1 && w.Batch <= 1_000_000 &&
		int64(w.Days)*int64(w.PerDay) <= 100_000_000
}

// Run plays the workload on e (which should be empty and not tracing: a traced PFADD keeps one
// event per element).
func (w Week) Run(e *engine.Engine) WeekResult {
	var r WeekResult
	if !w.Valid() {
		r.Err = "bench: workload out of range"
		return r
	}
	step := int64(math.Round(float64(w.PerDay) * (1 - w.Overlap)))
	r.Distinct = int64(w.Days-1)*step + int64(w.PerDay)
	days := make([][]byte, w.Days)
	args := make([][]byte, 0, w.Batch+2)
	buf := make([]byte, 0, w.Batch*12)
	offs := make([]int, 0, w.Batch)
	cmd := []byte("PFADD")
	exec := func(a [][]byte) engine.Reply {
		r.Commands++
		res := e.Exec(a)
		if res.Reply.IsError() && r.Err == "" {
			r.Err = res.Reply.Str
		}
		return res.Reply
	}
	flush := func(key []byte) {
		if len(offs) == 0 {
			return
		}
		args = append(args[:0], cmd, key)
		for i, o := range offs {
			end := len(buf)
			if i+1 < len(offs) {
				end = offs[i+1]
			}
			args = append(args, buf[o:end:end])
		}
		exec(args)
		buf, offs = buf[:0], offs[:0]
	}
	for d := range days {
		days[d] = []byte("d" + strconv.Itoa(d+1))
		lo := int64(d) * step
		for i := lo; i < lo+int64(w.PerDay); i++ {
			offs = append(offs, len(buf))
			buf = append(buf, 'u')
			buf = strconv.AppendInt(buf, i, 10)
			r.Elements++
			if len(offs) >= w.Batch {
				flush(days[d])
			}
		}
		flush(days[d])
	}
	r.OnTheFly = intReply(exec(append([][]byte{[]byte("PFCOUNT")}, days...)))
	exec(append([][]byte{[]byte("PFMERGE"), []byte("week")}, days...))
	r.Merged = intReply(exec([][]byte{[]byte("PFCOUNT"), []byte("week")}))
	return r
}

func intReply(rep engine.Reply) int64 {
	if rep.Kind != engine.KindInt {
		return -1
	}
	return rep.Int
}
