//! `hex` 0.4.3 (ETNA: `alpaylan/hex-etna`): decoding rejects whitespace;
//! the invalid-character error escapes control bytes when displayed.

use ::hex::{FromHexError, decode};
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "hex",
        properties: vec![
            EtnaProperty { name: "FromHexRejectsWhitespace", run: from_hex_rejects_whitespace },
            EtnaProperty { name: "InvalidCharErrorDisplayEscaped", run: invalid_char_error_display_escaped },
        ],
        bugs: vec![
            Bug { patch: "from_hex_accepts_whitespace_71c83f2_1", properties: &["FromHexRejectsWhitespace"] },
            Bug { patch: "invalid_char_display_raw_764ee61_1", properties: &["InvalidCharErrorDisplayEscaped"] },
        ],
    }
}

/// A valid hex body built from `data` with one whitespace byte written at
/// the start of a pair must fail to decode at exactly that byte.
fn property_from_hex_rejects_whitespace(data: Vec<u8>, ws_at: u32, ws_kind: u8) -> PropertyResult {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut body: Vec<u8> = data.iter().map(|b| DIGITS[usize::from(b & 0x0f)]).collect();
    if body.len() % 2 == 1 {
        body.push(b'0');
    }
    body.truncate(256);
    if body.is_empty() {
        return PropertyResult::Discard;
    }
    let at = (ws_at % (body.len() / 2) as u32) as usize * 2;
    let ws = [b' ', b'\t', b'\n', b'\r'][usize::from(ws_kind % 4)];
    body[at] = ws;
    match decode(&body) {
        Err(FromHexError::InvalidHexCharacter { c, index }) if c == char::from(ws) && index == at => {
            PropertyResult::Pass
        }
        other => PropertyResult::Fail(format!("whitespace {ws:?} at {at}: decode gave {other:?}")),
    }
}

/// The error for a control byte must not show the raw byte.
fn property_invalid_char_error_display_escaped(byte: u8) -> PropertyResult {
    if byte.is_ascii_hexdigit() || !(byte < 0x20 || byte == 0x7f) {
        return PropertyResult::Discard;
    }
    match decode([byte, b'0']) {
        Err(e @ FromHexError::InvalidHexCharacter { index: 0, .. }) => {
            let shown = e.to_string();
            if shown.contains(char::from(byte)) {
                PropertyResult::Fail(format!("raw byte {byte:#04x} in {shown:?}"))
            } else {
                PropertyResult::Pass
            }
        }
        other => PropertyResult::Fail(format!("byte {byte:#04x}: decode gave {other:?}")),
    }
}

fn from_hex_rejects_whitespace(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(data, at, kind): (Vec<u8>, u32, u8)| property_from_hex_rejects_whitespace(data, at, kind);
    match tool {
        Tool::Speccheck => {
            harness::speccheck(spec, (gens::vec(gens::any::<u8>(), 0..64), gens::any::<u32>(), gens::any::<u8>()), f)
        }
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (hg::bytes(tc, 0, 63), hg::any::<u32>(tc), hg::any::<u8>(tc)), f)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (pt::prop::collection::vec(pt::any::<u8>(), 0..64), pt::any::<u32>(), pt::any::<u8>()),
            f,
        ),
    }
}

fn invalid_char_error_display_escaped(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<u8>(), property_invalid_char_error_display_escaped),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<u8>, property_invalid_char_error_display_escaped),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, pt::any::<u8>(), property_invalid_char_error_display_escaped)
        }
    }
}
