package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"redscope/web"
)

func cmdServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address host:port")
	dir := fs.String("dir", "dist", "directory of the built app (./build.sh dist)")
	if err := parse(fs, args); err != nil {
		return err
	}
	st, err := os.Stat(filepath.Join(*dir, "index.html"))
	if err != nil || st.IsDir() {
		return fmt.Errorf("no %s: build the app first (./build.sh dist)", filepath.Join(*dir, "index.html"))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: web.Handler(*dir), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "redscope: serving %s on http://%s/\n", *dir, ln.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
