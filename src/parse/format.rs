pub fn format_file(_f: &super::ast::File, _src: &str) -> String { String::new() }
