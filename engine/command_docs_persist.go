package engine

// Help for SAVE, BGSAVE, BGREWRITEAOF and LASTSAVE (persist.go), in the form of command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"save":         {Syntax: "SAVE", En: "Writes the dataset to the RDB file (CONFIG GET dir / dbfilename) and waits until it is written.", Vi: "Ghi toàn bộ dữ liệu ra tệp RDB (CONFIG GET dir / dbfilename) và chờ ghi xong."},
		"bgsave":       {Syntax: "BGSAVE [SCHEDULE]", En: "Writes the dataset to the RDB file in the background.", Vi: "Ghi toàn bộ dữ liệu ra tệp RDB ở chế độ nền."},
		"bgrewriteaof": {Syntax: "BGREWRITEAOF", En: "Rewrites the append-only file from the dataset in the background.", Vi: "Viết lại tệp append-only từ dữ liệu hiện có ở chế độ nền."},
		"lastsave":     {Syntax: "LASTSAVE", En: "Returns the Unix time of the last successful save to disk.", Vi: "Trả về thời điểm Unix của lần lưu xuống đĩa thành công gần nhất."},
	})
}
