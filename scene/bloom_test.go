package scene

import (
	"math"
	"strings"
	"testing"

	"redscope/engine"
)

func TestFalsePositiveRate(t *testing.T) {
	// k = 7, m/n = 9.585 (1 % sizing): the textbook rate is just under 1 %.
	if p := falsePositiveRate(7, 1000, 9585); math.Abs(p-0.01) > 0.0005 {
		t.Fatalf("%v", p)
	}
	if falsePositiveRate(8, 0, 1152) != 0 || falsePositiveRate(3, 5, 0) != 0 {
		t.Fatal("edge cases")
	}
	two := []bloomFilterView{{Hashes: 8, Items: 100, Bits: 1152}, {Hashes: 9, Items: 50, Bits: 2496}}
	a, b := falsePositiveRate(8, 100, 1152), falsePositiveRate(9, 50, 2496)
	if got := chainFalsePositiveRate(two); math.Abs(got-(1-(1-a)*(1-b))) > 1e-12 {
		t.Fatal(got)
	}
}

func TestBloomGrid(t *testing.T) {
	grids, cell := bloomGrid(Rect{10, 20, 640, 1000}, []uint64{1152, 2496}, 14, 12)
	if cell != 10 || len(grids) != 2 || grids[0].Y != 34 || grids[0].H != 180 || grids[1].Y != 34+180+14 || grids[1].H != 390 {
		t.Fatalf("%v %+v", cell, grids)
	}
	// Bit 70 is row 1, column 6.
	if c := bitCellIn(grids[0], cell, 70); c != (Rect{70, 44, 10, 10}) {
		t.Fatalf("%+v", c)
	}
	if g, _ := bloomGrid(Rect{0, 0, 100, 100}, nil, 10, 10); g != nil {
		t.Fatal("no filter, no grid")
	}
}

// TestBloomScene plays the built-in lesson: the scene's bits are the engine's, the k positions
// of the last item are lit or outlined, and the measured rate counts the step's replies.
func TestBloomScene(t *testing.T) {
	seen := map[int]bool{}
	playLesson(t, "bloom", engine.V88, func(pos int, in Input) {
		if in.Lang != "en" {
			return
		}
		s := New("bloom").(*bloomScene)
		s.Update(in)
		if pos == 0 {
			if s.Key != "bf" || len(s.Filters) != 0 {
				t.Fatalf("start: %+v", s)
			}
			return
		}
		ones := 0
		for _, x := range in.Last {
			if strings.HasPrefix(x.Cmd, "BF.EXISTS") && x.Reply == "(integer) 1" {
				ones++
			}
		}
		if s.Yes != ones {
			t.Fatalf("step %d: %d answered 1, scene says %d", pos, ones, s.Yes)
		}
		o := in.Engine.Peek([]byte("bf"))
		ch := o.Val.(*engine.BloomValue).Chain
		if len(s.Filters) != len(ch.Filters) {
			t.Fatalf("step %d: filters %d", pos, len(s.Filters))
		}
		for i, fv := range s.Filters {
			f := ch.Filters[i]
			if fv.Bits != f.Bits || fv.Hashes != f.Hashes || fv.Items != f.Items {
				t.Fatalf("step %d filter %d: %+v", pos, i, fv)
			}
			// Every bit's cell has the engine's bit (lit = just set by the last item).
			for b := uint64(0); b < f.Bits; b++ {
				px := int(b%bloomGridCols)*bloomCellPx + int(b/bloomGridCols)*bloomCellPx*fv.Img.W
				got := Color{fv.Img.RGBA[4*px], fv.Img.RGBA[4*px+1], fv.Img.RGBA[4*px+2], 0xff}
				if (got != zeroC) != f.Test(b) {
					t.Fatalf("step %d filter %d bit %d: pixel %v, engine %v", pos, i, b, got, f.Test(b))
				}
			}
		}
		switch pos {
		case 1:
			seen[1] = s.Filters[0].Set == 0 && s.Filters[0].Bits == 1152 && s.Filters[0].Hashes == 8
		case 2:
			lit := 0
			f := s.Filters[0]
			for b := uint64(0); b < f.Bits; b++ {
				px := int(b%bloomGridCols)*bloomCellPx + int(b/bloomGridCols)*bloomCellPx*f.Img.W
				if (Color{f.Img.RGBA[4*px], f.Img.RGBA[4*px+1], f.Img.RGBA[4*px+2], 0xff}) == accent {
					lit++
				}
			}
			seen[2] = lit == 8 && s.Last.Result == "added"
		case 6:
			seen[6] = s.Last.Result == "exists" && s.Last.Op == "exists" && countFalse(s.Last.WasSet) == 0
		case 7:
			seen[7] = s.Probes == 2000 && s.Yes > 0
		case 10:
			seen[10] = len(s.Grew) == 1 && s.Grew[0].Reason == "expansion" && len(s.Filters) == 2
		}
		prims := s.Frame(Stage(1280, 800), 0)
		var text string
		for _, p := range prims {
			text += p.Text + "\n"
		}
		if s.Probes >= bloomProbesMin && !strings.Contains(text, pct(float64(s.Yes)/float64(s.Probes))) {
			t.Fatalf("step %d: measured rate missing\n%s", pos, text)
		}
	})
	for _, p := range []int{1, 2, 6, 7, 10} {
		if !seen[p] {
			t.Errorf("step %d did not show what the lesson says", p)
		}
	}
}

func TestBloomSceneEmpty(t *testing.T) {
	s := &bloomScene{lang: "vi"}
	s.Update(Input{Engine: engine.New(engine.Options{}), Keys: nil, Last: nil, Lang: "vi"})
	pr := s.Frame(Rect{0, 0, 360, 300}, 1)
	if len(pr) == 0 || !strings.Contains(allText(pr), "BF.RESERVE") {
		t.Fatalf("%+v", pr)
	}
}
