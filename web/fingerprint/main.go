// Command fingerprint gives a built dist content-hashed file names and its service worker
// (web.Fingerprint): ./build.sh dist runs `go run ./web/fingerprint dist` before compressing.
package main

import (
	"fmt"
	"os"

	"redscope/web"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fingerprint DIST")
		os.Exit(2)
	}
	renamed, err := web.Fingerprint(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fingerprint:", err)
		os.Exit(1)
	}
	for _, f := range web.Fingerprinted {
		fmt.Printf("%s → %s\n", f.Name, renamed[f.Name])
	}
	fmt.Println("sw.js written")
}
