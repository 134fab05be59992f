package engine

// Help for the scripting commands (cmd_script.go, function.go), in the form of command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"eval":             {Syntax: "EVAL script numkeys [key [key ...]] [arg [arg ...]]", En: "Runs a Lua script atomically; KEYS and ARGV hold the keys and arguments.", Vi: "Chạy một script Lua một cách nguyên tử; KEYS và ARGV chứa các key và tham số."},
		"eval_ro":          {Syntax: "EVAL_RO script numkeys [key [key ...]] [arg [arg ...]]", En: "Runs a read-only Lua script: a write command inside it fails.", Vi: "Chạy một script Lua chỉ đọc: lệnh ghi bên trong sẽ bị từ chối."},
		"evalsha":          {Syntax: "EVALSHA sha1 numkeys [key [key ...]] [arg [arg ...]]", En: "Runs a cached script by the SHA1 of its body (NOSCRIPT when it is not cached).", Vi: "Chạy script đã lưu trong cache theo SHA1 của nó (NOSCRIPT nếu chưa có)."},
		"evalsha_ro":       {Syntax: "EVALSHA_RO sha1 numkeys [key [key ...]] [arg [arg ...]]", En: "Runs a cached script read-only, by its SHA1.", Vi: "Chạy script trong cache theo SHA1, ở chế độ chỉ đọc."},
		"fcall":            {Syntax: "FCALL function numkeys [key [key ...]] [arg [arg ...]]", En: "Calls a function of a loaded library with keys and arguments.", Vi: "Gọi một function của thư viện đã nạp, với các key và tham số."},
		"fcall_ro":         {Syntax: "FCALL_RO function numkeys [key [key ...]] [arg [arg ...]]", En: "Calls a function flagged no-writes, read-only.", Vi: "Gọi một function có cờ no-writes, ở chế độ chỉ đọc."},
		"function":         {Syntax: "FUNCTION subcommand ...", En: "Loads, lists and deletes libraries of Lua functions.", Vi: "Nạp, liệt kê và xoá các thư viện function Lua."},
		"function|delete":  {Syntax: "FUNCTION DELETE library-name", En: "Deletes a library and its functions.", Vi: "Xoá một thư viện cùng các function của nó."},
		"function|dump":    {Syntax: "FUNCTION DUMP", En: "Serializes every library (not simulated: answers an error).", Vi: "Tuần tự hoá mọi thư viện (chưa mô phỏng: trả về lỗi)."},
		"function|flush":   {Syntax: "FUNCTION FLUSH [ASYNC|SYNC]", En: "Deletes every library.", Vi: "Xoá mọi thư viện."},
		"function|help":    {Syntax: "FUNCTION HELP", En: "Lists the FUNCTION subcommands.", Vi: "Liệt kê các lệnh con của FUNCTION."},
		"function|kill":    {Syntax: "FUNCTION KILL", En: "Stops the running function if it has not written yet (from another connection).", Vi: "Dừng function đang chạy nếu nó chưa ghi gì (gửi từ một kết nối khác)."},
		"function|list":    {Syntax: "FUNCTION LIST [LIBRARYNAME library-name-pattern] [WITHCODE]", En: "Lists the libraries with their functions, flags and, with WITHCODE, their code.", Vi: "Liệt kê các thư viện cùng function, cờ và (với WITHCODE) mã nguồn."},
		"function|load":    {Syntax: "FUNCTION LOAD [REPLACE] function-code", En: "Loads a library whose first line is #!lua name=<library>; it registers its functions.", Vi: "Nạp một thư viện có dòng đầu #!lua name=<thư viện>; thư viện tự đăng ký các function."},
		"function|restore": {Syntax: "FUNCTION RESTORE serialized-value [FLUSH|APPEND|REPLACE]", En: "Restores libraries from a FUNCTION DUMP payload (not simulated: answers an error).", Vi: "Khôi phục thư viện từ dữ liệu của FUNCTION DUMP (chưa mô phỏng: trả về lỗi)."},
		"function|stats":   {Syntax: "FUNCTION STATS", En: "Shows the running function and the number of libraries and functions.", Vi: "Cho xem function đang chạy và số thư viện, số function."},
		"script":           {Syntax: "SCRIPT subcommand ...", En: "Manages the cache of Lua scripts.", Vi: "Quản lý cache các script Lua."},
		"script|debug":     {Syntax: "SCRIPT DEBUG YES|SYNC|NO", En: "Sets the Lua debugger mode (only NO is simulated).", Vi: "Đặt chế độ trình gỡ lỗi Lua (chỉ mô phỏng NO)."},
		"script|exists":    {Syntax: "SCRIPT EXISTS sha1 [sha1 ...]", En: "Tells, for each SHA1, whether the script is cached.", Vi: "Cho biết với từng SHA1 script đã có trong cache chưa."},
		"script|flush":     {Syntax: "SCRIPT FLUSH [ASYNC|SYNC]", En: "Empties the script cache and starts a new Lua interpreter.", Vi: "Xoá sạch cache script và khởi tạo lại trình thông dịch Lua."},
		"script|help":      {Syntax: "SCRIPT HELP", En: "Lists the SCRIPT subcommands.", Vi: "Liệt kê các lệnh con của SCRIPT."},
		"script|kill":      {Syntax: "SCRIPT KILL", En: "Stops the running script if it has not written yet (from another connection).", Vi: "Dừng script đang chạy nếu nó chưa ghi gì (gửi từ một kết nối khác)."},
		"script|load":      {Syntax: "SCRIPT LOAD script", En: "Compiles a script into the cache and answers its SHA1.", Vi: "Biên dịch script vào cache và trả về SHA1 của nó."},
	})
}
