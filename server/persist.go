package server

import (
	"os"
	"path/filepath"
	"strconv"
)

// DiskStorage is the engine.Storage of a RESP server: SAVE, BGSAVE and DEBUG RELOAD write the
// RDB file to dir/name on disk as rdbSave does (a temp-<pid>.rdb in dir first, then renamed over
// the file, so a reader never sees half a file), and DEBUG RELOAD reads it back. A relative dir
// is taken from the process's working directory.
type DiskStorage struct{}

// WriteFile writes data to dir/name through a temporary file.
func (DiskStorage) WriteFile(dir, name string, data []byte) error {
	tmp := filepath.Join(dir, "temp-"+strconv.Itoa(os.Getpid())+".rdb")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// ReadFile reads dir/name.
func (DiskStorage) ReadFile(dir, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(dir, name))
}
