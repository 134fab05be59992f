package engine

// Help for SLOWLOG (cmd_slowlog.go, slowlog.go), in the form of command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"slowlog":       {Syntax: "SLOWLOG", En: "Reads and clears the log of commands that ran longer than slowlog-log-slower-than microseconds.", Vi: "Đọc và xoá nhật ký các lệnh chạy lâu hơn slowlog-log-slower-than micro giây."},
		"slowlog|get":   {Syntax: "SLOWLOG GET [count]", En: "Returns the newest entries of the slow log (10 by default, -1: all): id, time, duration, arguments, client address and name.", Vi: "Trả về các mục mới nhất của slow log (mặc định 10, -1: tất cả): id, thời điểm, thời lượng, đối số, địa chỉ và tên client."},
		"slowlog|len":   {Syntax: "SLOWLOG LEN", En: "Returns the number of entries in the slow log.", Vi: "Trả về số mục trong slow log."},
		"slowlog|reset": {Syntax: "SLOWLOG RESET", En: "Clears the slow log.", Vi: "Xoá slow log."},
		"slowlog|help":  {Syntax: "SLOWLOG HELP", En: "Lists SLOWLOG's subcommands.", Vi: "Liệt kê các lệnh con của SLOWLOG."},
	})
}
