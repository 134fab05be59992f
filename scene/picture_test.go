package scene

import (
	"fmt"
	"strings"
	"testing"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
)

// TestEveryStepPicture: after every step of every built-in lesson, in both languages, on a
// laptop's stage and a phone's, the scene draws a picture and not a line of text: at least one
// filled shape, the drawing spanning at least 40 % of the stage's width and 18 % of its height
// (the thresholds the browser's screenshot test applies to the pixels of the last step). A step
// whose key is gone (a queue emptied by its worker) still has to show what happened.
func TestEveryStepPicture(t *testing.T) {
	for _, src := range assets.Lessons() {
		l := encBuiltin(t, src.Name)
		p := lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion})
		p.Load(l)
		for step := 1; p.Step(); step++ {
			for _, lang := range []string{"vi", "en"} {
				s := New(l.Scene)
				s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
				for _, st := range []Rect{Stage(1280, 800), Stage(360, 740)} {
					if msg := pictureSpan(s.Frame(st, 1), st); msg != "" {
						t.Errorf("%s step %d %s %.0fx%.0f: %s", src.Name, step, lang, st.W, st.H, msg)
					}
				}
			}
		}
	}
}

// pictureSpan says what is missing from prims as a picture on stage st ("" when nothing).
func pictureSpan(prims []Prim, st Rect) string {
	shapes := 0
	x0, y0, x1, y1 := st.X+st.W, st.Y+st.H, st.X, st.Y
	for _, q := range prims {
		var qx0, qy0, qx1, qy1 float64
		switch q.Kind {
		case KRect, KFrame:
			shapes++
			qx0, qy0, qx1, qy1 = q.X, q.Y, q.X+q.W, q.Y+q.H
		case KLine:
			qx0, qy0, qx1, qy1 = min(q.X, q.X+q.W), min(q.Y, q.Y+q.H), max(q.X, q.X+q.W), max(q.Y, q.Y+q.H)
		case KText:
			w := textWidth(q.Text, q.Size, q.Mono)
			switch q.Align {
			case Center:
				qx0 = q.X - w/2
			case Right:
				qx0 = q.X - w
			default:
				qx0 = q.X
			}
			qx1, qy0, qy1 = qx0+w, q.Y, q.Y+q.Size*1.2
		default:
			shapes++
			qx0, qy0, qx1, qy1 = q.X, q.Y, q.X+q.W, q.Y+q.H
		}
		x0, y0, x1, y1 = min(x0, qx0), min(y0, qy0), max(x1, qx1), max(y1, qy1)
	}
	w, h := (min(x1, st.X+st.W)-max(x0, st.X))/st.W, (min(y1, st.Y+st.H)-max(y0, st.Y))/st.H
	if shapes == 0 || w < 0.4 || h < 0.18 {
		return fmt.Sprintf("%d shapes, drawing spans %.0f%% × %.0f%% of the stage", shapes, 100*w, 100*h)
	}
	return ""
}

// TestAutoCluster: in free play, `cluster create 3` typed in the console draws the cluster scene,
// and so does every command typed on it (a MOVED hop included).
func TestAutoCluster(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70, Lang: "en"})
	a := NewAuto("", nil)
	for _, line := range []string{"cluster create 3", "SET foo bar", "cluster follow on", "SET foo bar"} {
		p.Exec(line)
		a.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lesson.EngineExchanges(p.Recent()), Lang: "en"})
		if name, _ := a.Focus(); name != "cluster" {
			t.Fatalf("after %q: scene %q", line, name)
		}
	}
	got := a.Describe()
	if !strings.Contains(got, "127.0.0.1:7002 (connected)") || !strings.Contains(got, "MOVED: slot 12182 is served by 127.0.0.1:7002") {
		t.Errorf("describe: %s", got)
	}
}
