package engine

// Help for the stream commands (cmd_stream.go), in the form of command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"xack":                  {Syntax: "XACK key group id [id ...]", En: "Acknowledges entries of a consumer group: they leave its pending entries list.", Vi: "Xác nhận các entry của một consumer group: chúng rời danh sách đang chờ (PEL)."},
		"xackdel":               {Syntax: "XACKDEL key group [KEEPREF|DELREF|ACKED] IDS numids id [id ...]", En: "Acknowledges entries and deletes them from the stream in one step.", Vi: "Xác nhận các entry rồi xoá chúng khỏi stream trong một bước.", Group: "stream", Since: "8.2.0"},
		"xadd":                  {Syntax: "XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...]", En: "Appends an entry to a stream (an automatic or explicit ID), optionally trimming it.", Vi: "Thêm một entry vào cuối stream (ID tự sinh hoặc cho trước), có thể cắt bớt stream."},
		"xautoclaim":            {Syntax: "XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]", En: "Moves pending entries idle for long enough to another consumer, scanning from start.", Vi: "Chuyển các entry đang chờ quá lâu sang consumer khác, quét từ start."},
		"xclaim":                {Syntax: "XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME ms] [RETRYCOUNT count] [FORCE] [JUSTID] [LASTID id]", En: "Changes the owner of pending entries that have been idle for at least min-idle-time.", Vi: "Đổi chủ các entry đang chờ đã nằm yên ít nhất min-idle-time."},
		"xdel":                  {Syntax: "XDEL key id [id ...]", En: "Marks entries of a stream deleted; their node shrinks only when all its entries are gone.", Vi: "Đánh dấu xoá các entry của stream; node chỉ được giải phóng khi mọi entry của nó đã xoá."},
		"xdelex":                {Syntax: "XDELEX key [KEEPREF|DELREF|ACKED] IDS numids id [id ...]", En: "Deletes entries, choosing what happens to their references in consumer groups.", Vi: "Xoá các entry, chọn cách xử lý tham chiếu của chúng trong các consumer group.", Group: "stream", Since: "8.2.0"},
		"xgroup":                {Syntax: "XGROUP subcommand ...", En: "Creates and manages consumer groups and their consumers.", Vi: "Tạo và quản lý consumer group cùng các consumer của nó."},
		"xgroup|create":         {Syntax: "XGROUP CREATE key group id|$ [MKSTREAM] [ENTRIESREAD entries-read]", En: "Creates a consumer group that delivers entries after the given ID.", Vi: "Tạo một consumer group, giao các entry sau ID cho trước."},
		"xgroup|createconsumer": {Syntax: "XGROUP CREATECONSUMER key group consumer", En: "Creates a consumer in a group.", Vi: "Tạo một consumer trong group."},
		"xgroup|delconsumer":    {Syntax: "XGROUP DELCONSUMER key group consumer", En: "Deletes a consumer and its pending entries from a group; answers how many were pending.", Vi: "Xoá một consumer cùng các entry đang chờ của nó; trả về số entry đang chờ."},
		"xgroup|destroy":        {Syntax: "XGROUP DESTROY key group", En: "Deletes a consumer group with its pending entries list.", Vi: "Xoá một consumer group cùng danh sách đang chờ của nó."},
		"xgroup|help":           {Syntax: "XGROUP HELP", En: "Lists the XGROUP subcommands.", Vi: "Liệt kê các lệnh con của XGROUP."},
		"xgroup|setid":          {Syntax: "XGROUP SETID key group id|$ [ENTRIESREAD entries-read]", En: "Sets the last delivered ID of a consumer group.", Vi: "Đặt ID đã giao cuối cùng của một consumer group."},
		"xinfo":                 {Syntax: "XINFO subcommand ...", En: "Shows a stream's internals, its groups or a group's consumers.", Vi: "Cho xem bên trong một stream, các group hoặc các consumer của group."},
		"xinfo|consumers":       {Syntax: "XINFO CONSUMERS key group", En: "Lists a group's consumers with their pending counts and idle times.", Vi: "Liệt kê các consumer của group với số entry đang chờ và thời gian nằm yên."},
		"xinfo|groups":          {Syntax: "XINFO GROUPS key", En: "Lists a stream's consumer groups.", Vi: "Liệt kê các consumer group của stream."},
		"xinfo|help":            {Syntax: "XINFO HELP", En: "Lists the XINFO subcommands.", Vi: "Liệt kê các lệnh con của XINFO."},
		"xinfo|stream":          {Syntax: "XINFO STREAM key [FULL [COUNT count]]", En: "Shows a stream's length, radix-tree size, first and last entries (FULL: groups and PELs too).", Vi: "Cho xem độ dài stream, kích thước cây radix, entry đầu và cuối (FULL: cả group và PEL)."},
		"xlen":                  {Syntax: "XLEN key", En: "Returns the number of entries in a stream.", Vi: "Trả về số entry trong stream."},
		"xpending":              {Syntax: "XPENDING key group [[IDLE min-idle-time] start end count [consumer]]", En: "Shows a group's pending entries: a summary, or entries with owner, idle time and delivery count.", Vi: "Cho xem các entry đang chờ của group: tóm tắt, hoặc từng entry với chủ, thời gian nằm yên và số lần giao."},
		"xrange":                {Syntax: "XRANGE key start end [COUNT count]", En: "Returns the entries with IDs between start and end, oldest first.", Vi: "Trả về các entry có ID từ start đến end, cũ nhất trước."},
		"xread":                 {Syntax: "XREAD [COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...]", En: "Reads entries newer than the given IDs from one or more streams, optionally waiting for them.", Vi: "Đọc các entry mới hơn ID cho trước từ một hay nhiều stream, có thể chờ đến khi có."},
		"xreadgroup":            {Syntax: "XREADGROUP GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key [key ...] id [id ...]", En: "Reads entries as a consumer of a group (> for new ones, which then wait in the PEL for XACK).", Vi: "Đọc entry với tư cách consumer của group (> là entry mới, sau đó nằm trong PEL chờ XACK)."},
		"xrevrange":             {Syntax: "XREVRANGE key end start [COUNT count]", En: "Returns the entries with IDs between end and start, newest first.", Vi: "Trả về các entry có ID từ end về start, mới nhất trước."},
		"xsetid":                {Syntax: "XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]", En: "Sets a stream's last ID (and its added and deleted counters).", Vi: "Đặt ID cuối của stream (và các bộ đếm đã thêm, đã xoá)."},
		"xtrim":                 {Syntax: "XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]", En: "Trims a stream to a length or to IDs from a minimum; ~ trims whole nodes only.", Vi: "Cắt stream về một độ dài hoặc từ một ID tối thiểu; ~ chỉ cắt cả node."},
	})
}
