package dict

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// The cursor walks the table's indexes in reverse-binary order: for 4 buckets 0 2 1 3, for 8
// buckets 0 4 2 6 1 5 3 7, then 0 (done). redis-server 7.0.15 returned cursors 512 640 896 64
// 576 832 192 32 288 800 160 672 for SSCAN … COUNT 1 on a 1024-bucket set: all steps of the
// same sequence (empty buckets skipped within a call).
func TestScanCursorSequence(t *testing.T) {
	for _, size := range []uint64{4, 8, 1024} {
		d := NewSet[string](env70(1))
		d.Expand(size)
		d.Add("x", struct{}{})
		var cursors []uint64
		c := uint64(0)
		for {
			c = d.Scan(c, func(*Entry[string, struct{}]) {})
			cursors = append(cursors, c)
			if c == 0 {
				break
			}
		}
		if uint64(len(cursors)) != size {
			t.Fatalf("size %d: %d calls", size, len(cursors))
		}
		shift := 64 - bits.Len64(size-1)
		for i, got := range cursors[:len(cursors)-1] {
			want := bits.Reverse64(uint64(i+1)) >> shift
			if got != want {
				t.Fatalf("size %d: step %d cursor %d, want %d", size, i, got, want)
			}
		}
		if size == 4 && !slices.Equal(cursors, []uint64{2, 1, 3, 0}) {
			t.Fatalf("size 4 cursors %v", cursors)
		}
		if size == 8 && !slices.Equal(cursors, []uint64{4, 2, 6, 1, 5, 3, 7, 0}) {
			t.Fatalf("size 8 cursors %v", cursors)
		}
	}
	real := []uint64{512, 640, 896, 64, 576, 832, 192, 32, 288, 800, 160, 672}
	pos := map[uint64]int{}
	for i := uint64(0); i < 1024; i++ {
		pos[bits.Reverse64(i)>>54] = int(i)
	}
	for i := 1; i < len(real); i++ {
		if pos[real[i]] <= pos[real[i-1]] {
			t.Fatalf("server cursor %d does not follow %d in reverse-binary order", real[i], real[i-1])
		}
	}
	if NewSet[string](env70(1)).Scan(0, nil) != 0 {
		t.Fatal("empty dict scan cursor")
	}
}

// The SCAN guarantee: every element present from the start to the end of a full scan is
// returned at least once, even when the table grows, shrinks and rehashes between calls.
func TestScanNeverMissesDuringResize(t *testing.T) {
	for _, e := range []*Env{env70(31), env74(31)} {
		for round := 0; round < 30; round++ {
			r := rand.New(rand.NewPCG(uint64(round), 5))
			d := NewSet[string](e)
			stable := map[string]bool{}
			for i := 0; i < 50+r.IntN(200); i++ {
				k := fmt.Sprintf("s%d", i)
				d.Add(k, struct{}{})
				stable[k] = true
			}
			volatile := 0
			got := map[string]bool{}
			c := uint64(0)
			for calls := 0; ; calls++ {
				c = d.Scan(c, func(en *Entry[string, struct{}]) { got[en.Key] = true })
				if c == 0 || calls > 100000 {
					break
				}
				// Grow or shrink the dict with other keys between calls.
				switch r.IntN(3) {
				case 0:
					for j := 0; j < r.IntN(300); j++ {
						d.Add(fmt.Sprintf("v%d", volatile), struct{}{})
						volatile++
					}
				case 1:
					for j := 0; j < volatile; j++ {
						d.Delete(fmt.Sprintf("v%d", j))
					}
					d.ResizeIfNeeded()
				default:
					d.Find("nothing")
				}
			}
			for k := range stable {
				if !got[k] {
					t.Fatalf("rules %d round %d: %s missed", e.Rules.Version, round, k)
				}
			}
		}
	}
}

// During a rehash Scan visits the cursor's bucket in the smaller table and all its expansions
// in the larger one.
func TestScanBucketsDuringRehash(t *testing.T) {
	d := NewSet[string](env70(2))
	addN(d, "m", 1, 9) // rehashing 8 → 16
	if !d.IsRehashing() || d.TableSize(0) != 8 || d.TableSize(1) != 16 {
		t.Fatalf("%+v", sizesOf(d))
	}
	var visits [][2]uint64
	next := d.ScanBuckets(3, func(tb int, idx uint64) { visits = append(visits, [2]uint64{uint64(tb), idx}) })
	want := [][2]uint64{{0, 3}, {1, 3}, {1, 11}}
	if !slices.Equal(visits, want) || next != 7 {
		t.Fatalf("visits %v next %d, want %v next 7", visits, next, want)
	}
}
