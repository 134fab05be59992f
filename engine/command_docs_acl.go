package engine

// Help for ACL (cmd_acl.go), in the form of command_docs.go.
func init() {
	addDocs(map[string]Doc{
		"acl":         {Syntax: "ACL subcommand [argument ...]", En: "Manages the users and their permissions.", Vi: "Quản lý người dùng và quyền của họ."},
		"acl|cat":     {Syntax: "ACL CAT [category]", En: "Lists the ACL categories, or the commands of one.", Vi: "Liệt kê các nhóm quyền ACL, hoặc các lệnh của một nhóm."},
		"acl|dryrun":  {Syntax: "ACL DRYRUN username command [arg ...]", En: "Tells whether a user could run a command, without running it.", Vi: "Cho biết một người dùng có được chạy một lệnh không, mà không chạy nó."},
		"acl|genpass": {Syntax: "ACL GENPASS [bits]", En: "Makes a random password (hex digits from the seeded generator).", Vi: "Tạo mật khẩu ngẫu nhiên (chữ số hex từ bộ sinh có hạt giống)."},
		"acl|load":    {Syntax: "ACL LOAD", En: "Reloads the users from the ACL file (there is none).", Vi: "Nạp lại người dùng từ tệp ACL (không có tệp nào)."},
		"acl|log":     {Syntax: "ACL LOG [count | RESET]", En: "Lists refused commands and logins (not recorded: always empty).", Vi: "Liệt kê các lệnh và đăng nhập bị từ chối (không ghi lại: luôn rỗng)."},
		"acl|save":    {Syntax: "ACL SAVE", En: "Saves the users to the ACL file (there is none).", Vi: "Lưu người dùng vào tệp ACL (không có tệp nào)."},
		"acl|deluser": {Syntax: "ACL DELUSER username [username ...]", En: "Deletes users and closes their connections.", Vi: "Xoá người dùng và đóng các kết nối của họ."},
		"acl|getuser": {Syntax: "ACL GETUSER username", En: "Shows a user's flags, password hashes, commands, keys and channels.", Vi: "Cho xem cờ, mã băm mật khẩu, lệnh, khoá và kênh của một người dùng."},
		"acl|help":    {Syntax: "ACL HELP", En: "Shows ACL's subcommands.", Vi: "Cho xem các lệnh con của ACL."},
		"acl|list":    {Syntax: "ACL LIST", En: "Lists every user's rules, as a configuration file would.", Vi: "Liệt kê luật của mọi người dùng, như trong tệp cấu hình."},
		"acl|setuser": {Syntax: "ACL SETUSER username [rule [rule ...]]", En: "Creates or changes a user: on/off, >password, ~pattern, +@category, -command …", Vi: "Tạo hoặc sửa người dùng: on/off, >mật-khẩu, ~mẫu, +@nhóm, -lệnh …"},
		"acl|users":   {Syntax: "ACL USERS", En: "Lists the user names.", Vi: "Liệt kê tên người dùng."},
		"acl|whoami":  {Syntax: "ACL WHOAMI", En: "Names the user the connection is authenticated as.", Vi: "Cho biết kết nối đang đăng nhập bằng người dùng nào."},
	})
}
