//! Replay hints: how often each value of a saved replay's program is used.
//!
//! A replay string is the choices of the program generator, and a choice
//! may name any earlier value: replaying one keeps every value the program
//! makes, which for a long lineage over large instances is more memory
//! than the machine has (while the run that found it needed only the live
//! ones). So a replay saved to a file gets a file of hints beside it
//! (`NAME.uses` beside `NAME.replay`): the uses of each value, numbered in
//! the order the program makes them, with which the replay drops each
//! value after its last use. The hints name the replay they belong to (a
//! fingerprint of it) and are ignored for any other; a replay that does
//! not run as the recorded one and names a value after its last hinted
//! use stops there, as not replayable.

use std::path::{Path, PathBuf};

/// Why a replay that named a value past its hinted last use stops.
pub(crate) const LOST: &str = "the replay named a value after its last use in the run that saved it (its hints)";

/// Most values hints may describe.
const MOST_VALUES: usize = 1 << 28;

/// The first line of a hints file, before the fingerprint.
const HEADER: &str = "speccheck-interface replay hints v1";

/// The hints file of the replay saved in `replay_file`.
pub(crate) fn file_for(replay_file: &Path) -> PathBuf {
    replay_file.with_extension("uses")
}

/// Writes the hints `uses` of `replay` beside `replay_file`; `None` when
/// the file cannot be written (the replay then keeps every value).
pub(crate) fn write(replay_file: &Path, replay: &str, uses: &[u32]) -> Option<PathBuf> {
    let path = file_for(replay_file);
    std::fs::write(&path, to_text(replay, uses)).ok()?;
    Some(path)
}

/// The hints saved beside `replay_file` for `replay`, if any.
pub(crate) fn read(replay_file: &Path, replay: &str) -> Option<Vec<u32>> {
    from_text(&std::fs::read_to_string(file_for(replay_file)).ok()?, replay)
}

/// FNV-1a over the replay string: stable across builds and platforms.
fn fingerprint(replay: &str) -> u64 {
    replay.trim().bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The header line, then the uses run-length encoded: `value` or
/// `value*count`, separated by commas (a lineage is mostly `1`s).
fn to_text(replay: &str, uses: &[u32]) -> String {
    let mut out = format!("{HEADER} {:016x}\n", fingerprint(replay));
    let mut rest = uses;
    let mut first = true;
    while let Some(&v) = rest.first() {
        let run = rest.iter().take_while(|&&u| u == v).count();
        if !first {
            out.push(',');
        }
        first = false;
        if run == 1 {
            out.push_str(&v.to_string());
        } else {
            out.push_str(&format!("{v}*{run}"));
        }
        rest = &rest[run..];
    }
    out.push('\n');
    out
}

fn from_text(text: &str, replay: &str) -> Option<Vec<u32>> {
    let mut lines = text.lines();
    let header = lines.next()?.strip_prefix(HEADER)?.trim();
    if u64::from_str_radix(header, 16).ok()? != fingerprint(replay) {
        return None;
    }
    let mut uses = Vec::new();
    for item in lines.next().unwrap_or("").split(',').filter(|i| !i.trim().is_empty()) {
        let (v, n): (u32, usize) = match item.trim().split_once('*') {
            Some((v, n)) => (v.parse().ok()?, n.parse().ok()?),
            None => (item.trim().parse().ok()?, 1usize),
        };
        // A corrupt count is no reason to allocate gigabytes.
        if uses.len().saturating_add(n) > MOST_VALUES {
            return None;
        }
        uses.extend(std::iter::repeat_n(v, n));
    }
    Some(uses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_read_back_for_their_replay_only() {
        let uses = [0, 1, 1, 1, 2, 0, 0, 1];
        let text = to_text("AQID", &uses);
        assert_eq!(text.lines().nth(1), Some("0,1*3,2,0*2,1"));
        assert_eq!(from_text(&text, "AQID").as_deref(), Some(&uses[..]));
        assert_eq!(from_text(&text, " AQID\n").as_deref(), Some(&uses[..]), "the replay as read, trimmed");
        assert_eq!(from_text(&text, "AQIE"), None, "another replay's hints");
        assert_eq!(from_text("not hints\n1,2", "AQID"), None);
        assert_eq!(from_text(&to_text("AQID", &[]), "AQID").as_deref(), Some(&[][..]));
        let huge = format!("{HEADER} {:016x}\n1*99999999999", fingerprint("AQID"));
        assert_eq!(from_text(&huge, "AQID"), None);
    }
}
