//! `lz4_flex` 0.11.6 (ETNA: `alpaylan/lz4_flex-etna`): an auto-finishing
//! frame encoder behaves on drop like an ignored `try_finish`; tiny
//! dictionaries and too-short size-prepended blocks don't panic.

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use ::lz4_flex::block::{
    compress_prepend_size_with_dict, decompress_size_prepended, decompress_size_prepended_with_dict,
};
use ::lz4_flex::frame::{FrameDecoder, FrameEncoder};
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "lz4_flex",
        properties: vec![
            EtnaProperty { name: "DropMatchesManualFinish", run: drop_matches_manual_finish },
            EtnaProperty { name: "SmallDictNoPanic", run: small_dict_no_panic },
            EtnaProperty { name: "DecompressShortInputNoPanic", run: decompress_short_input_no_panic },
        ],
        bugs: vec![
            Bug { patch: "dont_panic_on_drop_44e14b1_1", properties: &["DropMatchesManualFinish"] },
            Bug { patch: "small_dict_no_panic_2d83a3d_1", properties: &["SmallDictNoPanic"] },
            Bug { patch: "decompress_short_input_no_panic_e0e7e5c_1", properties: &["DecompressShortInputNoPanic"] },
        ],
    }
}

const MAX_INPUT_LEN: usize = 256;
const MAX_DICT_LEN: usize = 16;
const MAX_SHORT_INPUT_LEN: usize = 8;

/// A sink whose every write and flush fails.
struct BrokenSink;

impl Write for BrokenSink {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from(io::ErrorKind::BrokenPipe))
    }
    fn flush(&mut self) -> io::Result<()> {
        Err(io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

/// A sink whose bytes stay readable after the encoder owning it is gone.
#[derive(Clone, Default)]
struct SharedSink(Rc<RefCell<Vec<u8>>>);

impl Write for SharedSink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Dropping an `auto_finish` encoder writes the same bytes as calling
/// `try_finish` and ignoring its result, and those bytes decode back to
/// `data`; with a failing writer, the drop still doesn't panic.
fn property_drop_matches_manual_finish(data: Vec<u8>) -> PropertyResult {
    let auto_sink = SharedSink::default();
    let auto_out = Rc::clone(&auto_sink.0);
    let auto = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
        let mut enc = FrameEncoder::new(auto_sink).auto_finish();
        enc.write_all(&data).map_err(|e| format!("auto_finish write_all failed: {e:?}"))?;
        drop(enc);
        Ok(())
    }));
    match auto {
        Err(_) => {
            return PropertyResult::Fail(format!(
                "auto_finish drop panicked on a working writer ({} bytes)",
                data.len()
            ));
        }
        Ok(Err(m)) => return PropertyResult::Fail(m),
        Ok(Ok(())) => {}
    }
    let auto_bytes = auto_out.borrow().clone();

    let manual_sink = SharedSink::default();
    let manual_out = Rc::clone(&manual_sink.0);
    let manual = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
        let mut enc = FrameEncoder::new(manual_sink);
        enc.write_all(&data).map_err(|e| format!("write_all failed: {e:?}"))?;
        let _ = enc.try_finish();
        drop(enc);
        Ok(())
    }));
    match manual {
        Err(_) => return PropertyResult::Fail("try_finish then drop panicked on a working writer".to_string()),
        Ok(Err(m)) => return PropertyResult::Fail(m),
        Ok(Ok(())) => {}
    }
    let manual_bytes = manual_out.borrow().clone();

    if auto_bytes != manual_bytes {
        return PropertyResult::Fail(format!(
            "auto_finish drop wrote {} bytes, try_finish wrote {}",
            auto_bytes.len(),
            manual_bytes.len()
        ));
    }

    let decoded = catch_unwind(AssertUnwindSafe(|| {
        let mut out = Vec::new();
        FrameDecoder::new(&auto_bytes[..]).read_to_end(&mut out).map(|_| out)
    }));
    match decoded {
        Err(_) => return PropertyResult::Fail("decoding the auto_finish frame panicked".to_string()),
        Ok(Err(e)) => return PropertyResult::Fail(format!("decoding the auto_finish frame failed: {e:?}")),
        Ok(Ok(out)) if out != data => {
            return PropertyResult::Fail(format!("decoded {} bytes, encoded {}", out.len(), data.len()));
        }
        Ok(Ok(_)) => {}
    }

    let broken = catch_unwind(AssertUnwindSafe(|| {
        let mut enc = FrameEncoder::new(BrokenSink).auto_finish();
        let _ = enc.write_all(&data);
        drop(enc);
    }));
    if broken.is_err() {
        return PropertyResult::Fail(format!("auto_finish drop panicked on a failing writer ({} bytes)", data.len()));
    }
    PropertyResult::Pass
}

/// Compressing with any dictionary, however short, and decompressing with
/// it gives `input` back, without panicking.
fn property_small_dict_no_panic(input: Vec<u8>, dict: Vec<u8>) -> PropertyResult {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let packed = compress_prepend_size_with_dict(&input, &dict);
        decompress_size_prepended_with_dict(&packed, &dict)
    }));
    match r {
        Err(_) => PropertyResult::Fail(format!("panicked: input {} bytes, dict {} bytes", input.len(), dict.len())),
        Ok(Err(e)) => PropertyResult::Fail(format!(
            "decompress failed: {e:?} (input {} bytes, dict {} bytes)",
            input.len(),
            dict.len()
        )),
        Ok(Ok(out)) if out == input => PropertyResult::Pass,
        Ok(Ok(out)) => PropertyResult::Fail(format!("decoded {} bytes, encoded {}", out.len(), input.len())),
    }
}

/// Fewer than 4 bytes cannot hold the size prefix: decompressing them is an
/// error, not a panic.
fn property_decompress_short_input_no_panic(input: Vec<u8>) -> PropertyResult {
    if input.len() >= 4 {
        return PropertyResult::Discard;
    }
    match catch_unwind(AssertUnwindSafe(|| decompress_size_prepended(&input))) {
        Err(_) => PropertyResult::Fail(format!("panicked on {} bytes", input.len())),
        Ok(Ok(_)) => PropertyResult::Fail(format!("accepted {} bytes", input.len())),
        Ok(Err(_)) => PropertyResult::Pass,
    }
}

fn drop_matches_manual_finish(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            gens::vec(gens::any::<u8>(), 0..=MAX_INPUT_LEN),
            property_drop_matches_manual_finish,
        ),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| hg::bytes(tc, 0, MAX_INPUT_LEN), property_drop_matches_manual_finish)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            pt::prop::collection::vec(pt::any::<u8>(), 0..=MAX_INPUT_LEN),
            property_drop_matches_manual_finish,
        ),
    }
}

fn small_dict_no_panic(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(input, dict): (Vec<u8>, Vec<u8>)| property_small_dict_no_panic(input, dict);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::vec(gens::any::<u8>(), 0..=MAX_INPUT_LEN), gens::vec(gens::any::<u8>(), 0..=MAX_DICT_LEN)),
            f,
        ),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (hg::bytes(tc, 0, MAX_INPUT_LEN), hg::bytes(tc, 0, MAX_DICT_LEN)), f)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (
                pt::prop::collection::vec(pt::any::<u8>(), 0..=MAX_INPUT_LEN),
                pt::prop::collection::vec(pt::any::<u8>(), 0..=MAX_DICT_LEN),
            ),
            f,
        ),
    }
}

fn decompress_short_input_no_panic(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            gens::vec(gens::any::<u8>(), 0..=MAX_SHORT_INPUT_LEN),
            property_decompress_short_input_no_panic,
        ),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| hg::bytes(tc, 0, MAX_SHORT_INPUT_LEN),
            property_decompress_short_input_no_panic,
        ),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            pt::prop::collection::vec(pt::any::<u8>(), 0..=MAX_SHORT_INPUT_LEN),
            property_decompress_short_input_no_panic,
        ),
    }
}
