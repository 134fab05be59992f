// Command dist holds ./build.sh dist's steps that are written in Go:
//
//	go run ./web/dist modfile          prints the -modfile for building main.wasm with the
//	                                   patched ebiten (web/ebitenpatch.go), or nothing (with the
//	                                   reason on stderr) when the patch does not apply
//	go run ./web/dist fingerprint DIR  content-hashed names and sw.js (web.Fingerprint)
package main

import (
	"fmt"
	"os"

	"redscope/web"
)

func main() {
	switch {
	case len(os.Args) == 2 && os.Args[1] == "modfile":
		wd, _ := os.Getwd()
		m, err := web.EbitenModFile(wd)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ebiten patch not applied:", err)
			return
		}
		fmt.Println(m)
	case len(os.Args) == 3 && os.Args[1] == "fingerprint":
		renamed, err := web.Fingerprint(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "fingerprint:", err)
			os.Exit(1)
		}
		for _, f := range web.Fingerprinted {
			fmt.Printf("%s → %s\n", f.Name, renamed[f.Name])
		}
		fmt.Println("sw.js written")
	default:
		fmt.Fprintln(os.Stderr, "usage: dist modfile | dist fingerprint DIR")
		os.Exit(2)
	}
}
