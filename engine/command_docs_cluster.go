package engine

// Help for the cluster connection commands and MIGRATE (cluster.go), in the form of
// command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"asking":    {Syntax: "ASKING", En: "Lets the next command reach a slot this node is importing (after an ASK redirect).", Vi: "Cho lệnh kế tiếp vào được slot mà node này đang nhập về (sau chuyển hướng ASK)."},
		"migrate":   {Syntax: `MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password | AUTH2 username password] [KEYS key [key ...]]`, En: "Moves keys to another server (another cluster node) atomically: written there, deleted here.", Vi: "Chuyển khoá sang server khác (node khác của cluster) một cách nguyên tử: ghi bên kia, xoá bên này."},
		"readonly":  {Syntax: "READONLY", En: "Lets this connection read from a replica node of the cluster.", Vi: "Cho kết nối này đọc từ node replica của cluster."},
		"readwrite": {Syntax: "READWRITE", En: "Ends READONLY: reads are redirected to the masters again.", Vi: "Tắt READONLY: lệnh đọc lại được chuyển về master."},
	})
}
