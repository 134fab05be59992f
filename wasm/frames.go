//go:build js && wasm

package main

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// The page draws only when something changed (issue 11). ebiten runs in FPSModeVsyncOffMinimum:
// it calls Update and Draw only for a frame asked for with ebiten.ScheduleFrame, for input on the
// canvas and for a window resize; the screen is not cleared between frames
// (SetScreenClearedEveryFrame(false)), so a frame asked for by an input event when nothing
// changed keeps the last drawing instead of painting the scene again. In headless Chromium a
// frame of the HLL map costs hundreds of ms (SwiftShader), and drawing one between every two
// postMessage requests made an embedding page's week of PFADDs take minutes.
//
// What asks for a frame:
//   - every change of the player (app.changed: exec, step, back, reset, seek, a lesson, a
//     version): redraw; while an embedding page's requests stream in, the frame waits for a
//     pause (askFrame);
//   - every DOM action posted to the game loop (app.post), so that Update runs it;
//   - the scene's animation: Draw asks for the next frame while animT() < 1;
//   - autoplay: a timer at the next step's time (wakeAt);
//   - an address put off by syncURL's budget: a timer when budget is back;
//   - a change of the stage's size (Layout), and the test hook __frames(ms).
//
// Nothing is drawn on an idle page: stats().frames stays still.

func setFrameMode() {
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
	ebiten.SetScreenClearedEveryFrame(false)
}

// scheduleFrame asks ebiten for a frame (Update and Draw) without marking the canvas out of date.
func scheduleFrame() { ebiten.ScheduleFrame() }

// redraw marks the canvas out of date and asks for a frame.
func (a *app) redraw() {
	a.dirty = true
	a.askFrame()
}

// While an embedding page's requests keep coming (postMessage tasks, each a change), a frame
// between two of them would cost the page a software-rendered frame per request: the frame waits
// until no request came for streamQuietMs, and is drawn at the latest streamFrameMs after the
// previous one, so the canvas still moves during a long stream.
const streamQuietMs, streamFrameMs = 40, 400

// askFrame asks ebiten for a frame now, or arms a timer for when the stream of requests allows.
func (a *app) askFrame() {
	t := now()
	if t-a.msgAt >= streamQuietMs || t-a.frameAt >= streamFrameMs {
		ebiten.ScheduleFrame()
		return
	}
	wait := min(a.msgAt+streamQuietMs, a.frameAt+streamFrameMs) - t
	a.wakeAt(time.Now().Add(time.Duration(wait * float64(time.Millisecond))))
}

// wakeAt asks for a frame at t (autoplay's next step, the address's budget, a frame put off by a
// stream of requests). One timer is armed at a time, the earliest; a later one is dropped, since
// the frame at the earlier time arms again what is still due.
func (a *app) wakeAt(t time.Time) {
	if !a.wakeTime.IsZero() && !t.Before(a.wakeTime) {
		return
	}
	a.wakeTime = t
	d := max(time.Until(t), time.Millisecond)
	time.AfterFunc(d, func() {
		if !a.wakeTime.After(t) {
			a.wakeTime = time.Time{}
		}
		a.askFrame()
	})
}

// needsDraw says whether Draw must paint the scene: something changed, the animation runs, the
// stage's size changed, or the test hook asks for frames. Otherwise the screen keeps the last
// drawing (it is not cleared).
func (g *game) needsDraw(w, h int) bool {
	a := g.a
	return a.dirty || g.animating || w != g.drawnW || h != g.drawnH || now() < g.drawUntil
}

// afterDraw asks for the next frame when one is due: the animation is still running, or the test
// hook's time has not run out.
func (g *game) afterDraw() {
	g.a.frameAt = now()
	if g.animating || now() < g.drawUntil {
		g.a.askFrame()
	}
}
