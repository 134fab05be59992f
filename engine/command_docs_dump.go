package engine

// Help for DUMP and RESTORE (cmd_dump.go), in the form of command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"dump":    {Syntax: "DUMP key", En: "Returns a key's value in Redis's RDB serialization, with the RDB version and a CRC64 checksum.", Vi: "Trả về giá trị của khoá ở dạng tuần tự hoá RDB của Redis, kèm phiên bản RDB và checksum CRC64."},
		"restore": {Syntax: "RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]", En: "Creates a key from a DUMP payload (checked against its version and checksum).", Vi: "Tạo khoá từ dữ liệu DUMP (kiểm tra phiên bản và checksum)."},
	})
}
