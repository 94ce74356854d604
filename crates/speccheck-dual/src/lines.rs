//! Line-framed messages, for the codec of a protocol whose messages are
//! `\n`-terminated lines (the server side of such a protocol, in process,
//! is [`crate::exec::inproc::Lines`]).

use crate::protocol::Decoded;

/// The first `\n`-terminated line of `bytes` (UTF-8, without the newline).
pub fn first_line(bytes: &[u8]) -> Decoded<&str> {
    match bytes.iter().position(|&b| b == b'\n') {
        None if bytes.len() > 4096 => Decoded::Malformed("a line longer than 4096 bytes".into()),
        None => Decoded::Incomplete,
        Some(end) => match std::str::from_utf8(&bytes[..end]) {
            Ok(s) => Decoded::Message(s, end + 1),
            Err(_) => Decoded::Malformed("not UTF-8".into()),
        },
    }
}

/// Decodes one `\n`-terminated line with `parse` (which says why a line is
/// not a message).
pub fn line_message<T>(bytes: &[u8], parse: impl FnOnce(&str) -> Result<T, String>) -> Decoded<T> {
    match first_line(bytes) {
        Decoded::Message(line, n) => match parse(line) {
            Ok(m) => Decoded::Message(m, n),
            Err(why) => Decoded::Malformed(why),
        },
        Decoded::Incomplete => Decoded::Incomplete,
        Decoded::Malformed(m) => Decoded::Malformed(m),
    }
}
