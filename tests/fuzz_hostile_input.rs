//! Fuzzing by property tests (docs/receipts.md#fuzzing): generated hostile
//! structures thrown at the three places outside input is parsed.
//!
//! - The receipt reader, through the child process the service runs it in:
//!   PDFs of random object graphs (references that cycle, nesting thousands
//!   deep, streams with random filters and content operators), mutated real
//!   receipts (flipped, inserted and truncated bytes), and image headers of
//!   any size. Every one comes back as an outcome within the reading timeout:
//!   never Sail's own failure, never a hang.
//! - The engine's receipt parser and descriptor adjudication, in process, on
//!   receipts' worth of text of any shape: no panic.
//! - The JSON request decoding every REST call goes through, on JSON of any
//!   shape and depth into the largest request messages: an error naming a
//!   field, never a panic or a stack overflow.
//!
//! A failing case is shrunk and saved by proptest in
//! `tests/fuzz_hostile_input.proptest-regressions`, which is committed: it
//! runs first, as a regression test, every time after. `.ci/run` runs these
//! with more cases (`PROPTEST_CASES`) under a time bound.
//!
//! Beside them, the AFL++ targets of `fuzz/` (coverage-guided, run by
//! `scripts/fuzz.sh`): their seeds and every input they ever crashed or hung
//! on (`fuzz/regressions/`) are replayed here through the same functions.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::time::{Duration, Instant};

use core_grpc::platform::receipt_reader::{self, Outcome, ReaderSettings};
use proptest::prelude::*;
use sail_api::pb;
use sail_test_support::{hostile, receipts};

#[path = "../fuzz/src/targets.rs"]
mod afl_targets;

#[test]
fn every_afl_seed_and_kept_crash_runs_clean() {
    let mut replayed = 0;
    for (name, target) in afl_targets::TARGETS {
        for kind in ["seeds", "regressions"] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(kind).join(name);
            // A target no run has crashed has no regressions folder.
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries {
                let path = entry.unwrap().path();
                target(&std::fs::read(&path).unwrap());
                replayed += 1;
            }
        }
    }
    assert!(replayed >= 4, "the seeds are there ({replayed} inputs)");
}

/// How long one reading may take here (the service's default is 30 s).
const READ_TIMEOUT: Duration = Duration::from_secs(3);

fn reader() -> ReaderSettings {
    ReaderSettings { timeout: READ_TIMEOUT, ..sail_test_support::receipt_reader() }
}

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// A PDF object of the generated graph.
#[derive(Debug, Clone)]
enum Obj {
    Int(i64),
    Real(f32),
    Name(String),
    Text(Vec<u8>),
    Ref(u32),
    Array(Vec<Obj>),
    Dict(Vec<(String, Obj)>),
}

impl Obj {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Obj::Int(n) => out.extend_from_slice(n.to_string().as_bytes()),
            Obj::Real(x) => out.extend_from_slice(format!("{x}").as_bytes()),
            Obj::Name(name) => out.extend_from_slice(format!("/{name}").as_bytes()),
            Obj::Text(bytes) => {
                out.push(b'(');
                for b in bytes {
                    if matches!(b, b'(' | b')' | b'\\') {
                        out.push(b'\\');
                    }
                    out.push(*b);
                }
                out.push(b')');
            }
            Obj::Ref(n) => out.extend_from_slice(format!("{n} 0 R").as_bytes()),
            Obj::Array(items) => {
                out.push(b'[');
                for item in items {
                    item.write(out);
                    out.push(b' ');
                }
                out.push(b']');
            }
            Obj::Dict(entries) => {
                out.extend_from_slice(b"<< ");
                for (key, value) in entries {
                    out.extend_from_slice(format!("/{key} ").as_bytes());
                    value.write(out);
                    out.push(b' ');
                }
                out.extend_from_slice(b">>");
            }
        }
    }
}

/// Keys readers act on, so generated dictionaries reach their code.
const KEYS: &[&str] = &[
    "Type",
    "Pages",
    "Kids",
    "Count",
    "Parent",
    "Contents",
    "Resources",
    "XObject",
    "Font",
    "Subtype",
    "Filter",
    "DecodeParms",
    "Length",
    "BaseFont",
    "Encoding",
    "ToUnicode",
    "Widths",
    "FirstChar",
    "Differences",
    "BBox",
    "Matrix",
    "MediaBox",
    "Root",
    "Prev",
    "Size",
    "W",
    "Index",
    "First",
    "N",
];
const NAMES: &[&str] = &[
    "Page",
    "Pages",
    "Catalog",
    "Font",
    "Type1",
    "Type0",
    "TrueType",
    "XObject",
    "Form",
    "Image",
    "FlateDecode",
    "LZWDecode",
    "ASCIIHexDecode",
    "ASCII85Decode",
    "RunLengthDecode",
    "DCTDecode",
    "Identity-H",
    "F1",
    "Fm0",
];

fn object(objects: u32) -> impl Strategy<Value = Obj> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Obj::Int),
        (-1e6f32..1e6).prop_map(Obj::Real),
        prop::sample::select(NAMES).prop_map(|n| Obj::Name(n.to_string())),
        prop::collection::vec(any::<u8>(), 0..24).prop_map(Obj::Text),
        (0..objects + 2).prop_map(Obj::Ref),
    ];
    leaf.prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Obj::Array),
            prop::collection::vec((prop::sample::select(KEYS).prop_map(str::to_string), inner), 0..6)
                .prop_map(Obj::Dict),
        ]
    })
}

/// A content stream of random operators and operands.
fn content() -> impl Strategy<Value = Vec<u8>> {
    let op = prop::sample::select(
        &[
            "BT", "ET", "Tf", "Tj", "TJ", "Td", "TD", "Tm", "T*", "'", "\"", "Do", "q", "Q", "cm", "re", "f", "BI",
            "ID", "EI", "gs", "Tc", "Tw", "Tz", "TL", "Ts", "d0", "d1", "sh", "BDC", "EMC",
        ][..],
    );
    let operand = prop_oneof![
        any::<i16>().prop_map(|n| n.to_string()),
        Just("/F1".to_string()),
        Just("/Fm0".to_string()),
        "[a-zA-Z0-9 ]{0,12}".prop_map(|t| format!("({t})")),
        Just("[(A) -120 (B)]".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
    ];
    prop::collection::vec((prop::collection::vec(operand, 0..3), op), 0..40).prop_map(|ops| {
        ops.into_iter().map(|(args, op)| format!("{} {op}\n", args.join(" "))).collect::<String>().into_bytes()
    })
}

/// A whole PDF: catalog and page tree first, then generated objects and
/// streams that refer to each other (and to themselves) at random.
fn pdf() -> impl Strategy<Value = Vec<u8>> {
    let objects = 6u32;
    (
        prop::collection::vec(object(objects + 3), objects as usize),
        prop::collection::vec(content(), 1..3),
        prop::sample::select(&["", "/Filter /FlateDecode", "/Filter /LZWDecode", "/Filter [/ASCIIHexDecode /FlateDecode]"][..]),
        0usize..4,
    )
        .prop_map(move |(generated, streams, filter, page_resources)| {
            let mut bodies = vec![
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Fm0 {} 0 R >> /Font << /F1 {} 0 R >> >> >>",
                    5 + page_resources, 6 + page_resources
                )
                .into_bytes(),
            ];
            for (at, data) in streams.iter().enumerate() {
                let entries = if at == 0 { filter.to_string() } else { format!("/Type /XObject /Subtype /Form /Resources << /XObject << /Fm0 {} 0 R >> >> {filter}", 4 + at) };
                bodies.push(hostile::stream(&entries, data));
            }
            for obj in &generated {
                let mut body = Vec::new();
                obj.write(&mut body);
                bodies.push(body);
            }
            hostile::pdf_of(&bodies)
        })
}

/// A real receipt PDF with bytes flipped, inserted, removed or cut off.
fn mutated_receipt() -> impl Strategy<Value = Vec<u8>> {
    let edit = (any::<prop::sample::Index>(), any::<u8>(), 0u8..4);
    (0usize..receipts::cases().len(), prop::collection::vec(edit, 1..12)).prop_map(|(case, edits)| {
        let mut bytes = receipts::pdf(&receipts::cases()[case].receipt);
        for (at, byte, kind) in edits {
            if bytes.is_empty() {
                break;
            }
            let at = at.index(bytes.len());
            match kind {
                0 => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                2 => {
                    bytes.remove(at);
                }
                _ => bytes.truncate(at.max(1)),
            }
        }
        bytes
    })
}

/// Nesting `depth` deep of arrays or dictionaries, in an object or in content.
fn deep() -> impl Strategy<Value = Vec<u8>> {
    (1usize..60_000, 0u8..3).prop_map(|(depth, kind)| match kind {
        0 => hostile::nested_arrays(depth),
        1 => hostile::nested_dictionaries(depth),
        _ => hostile::nested_content_arrays(depth),
    })
}

/// A PNG, JPEG or WebP header of any size (the reader must judge it by its
/// header alone when it is too large, and never hang on a broken one).
fn image() -> impl Strategy<Value = (Vec<u8>, &'static str)> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(w, h)| (hostile::pixel_flood_png(w, h), "image/png")),
        (any::<u16>(), any::<u16>(), prop::collection::vec(any::<u8>(), 0..64)).prop_map(|(w, h, tail)| {
            // SOI, then a baseline SOF0 frame header, then noise.
            let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08];
            jpeg.extend_from_slice(&h.to_be_bytes());
            jpeg.extend_from_slice(&w.to_be_bytes());
            jpeg.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
            jpeg.extend(tail);
            (jpeg, "image/jpeg")
        }),
        prop::collection::vec(any::<u8>(), 0..256).prop_map(|mut noise| {
            let mut webp = b"RIFF\0\0\0\0WEBPVP8X".to_vec();
            webp.append(&mut noise);
            (webp, "image/webp")
        }),
    ]
}

/// Reads `bytes` as the service does; the outcome, after checking it came
/// back in time and was not Sail's own failure.
fn read(runtime: &tokio::runtime::Runtime, content_type: &str, bytes: Vec<u8>) -> Outcome {
    // The first call builds the reader program: not part of the reading.
    let settings = reader();
    let started = Instant::now();
    let outcome = runtime.block_on(receipt_reader::read(&settings, content_type, bytes));
    let outcome = outcome.expect("a file never makes the reading Sail's own failure");
    assert!(started.elapsed() < READ_TIMEOUT + Duration::from_secs(2), "took {:?}", started.elapsed());
    outcome
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn the_reader_answers_every_generated_pdf_in_time() {
    let runtime = runtime();
    proptest!(ProptestConfig { cases: cases(48), ..ProptestConfig::default() }, |(bytes in pdf())| {
        let _ = read(&runtime, "application/pdf", bytes);
    });
}

#[test]
fn the_reader_answers_every_mutated_receipt_in_time() {
    let runtime = runtime();
    proptest!(ProptestConfig { cases: cases(48), ..ProptestConfig::default() }, |(bytes in mutated_receipt())| {
        let _ = read(&runtime, "application/pdf", bytes);
    });
}

#[test]
fn the_reader_answers_any_nesting_depth_in_time() {
    let runtime = runtime();
    proptest!(ProptestConfig { cases: cases(16), ..ProptestConfig::default() }, |(bytes in deep())| {
        let _ = read(&runtime, "application/pdf", bytes);
    });
}

#[test]
fn image_headers_are_judged_before_anything_decodes() {
    let runtime = runtime();
    proptest!(ProptestConfig { cases: cases(48), ..ProptestConfig::default() }, |((bytes, content_type) in image())| {
        match read(&runtime, content_type, bytes) {
            // Any text an image gives is OCR's reading of it.
            Outcome::Text(_) | Outcome::Readings(_) => {}
            Outcome::Unreadable(why) => prop_assert!(
                ["file_too_complex", "ocr_failed", "ocr_unavailable", "timeout"].contains(&why.code.as_str()),
                "{:?}", why
            ),
        }
    });
}

fn engine() -> &'static sail_engine::Engine {
    static ENGINE: std::sync::OnceLock<sail_engine::Engine> = std::sync::OnceLock::new();
    ENGINE.get_or_init(|| sail_engine::Engine::seeded().unwrap())
}

/// Receipt-like text: item lines, totals, dates and amounts, in any order
/// and any number, with noise between.
fn receipt_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "[A-Z0-9 &/#.-]{0,30} {1,8}[0-9]{1,6}\\.[0-9]{2}( [A-Z])?",
        "(SUB)?TOTAL( DUE)? +\\$?[0-9]{1,9}\\.[0-9]{2}",
        "[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}",
        "(VISA|MC|AMEX) \\*{4} [0-9]{4} +[0-9]+\\.[0-9]{2}",
        "(?s).{0,80}",
        "[0-9.$-]{0,200}",
    ];
    prop::collection::vec(line, 0..300).prop_map(|lines| lines.join("\n"))
}

#[test]
fn the_receipt_parser_and_the_engine_take_any_text() {
    let engine = engine();
    proptest!(ProptestConfig { cases: cases(128), ..ProptestConfig::default() }, |(text in receipt_text(), amount in 1i64..10_000_000)| {
        let parsed = sail_engine::receipts::parse(&text);
        let facts = sail_engine::receipts::PurchaseFacts {
            amount_minor: amount,
            date: chrono::NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
            merchant_id: None,
            mcc: None,
        };
        let _ = sail_engine::receipts::decide(engine, &parsed, facts);
        for line in text.lines().take(50) {
            let _ = engine.adjudicate(&sail_engine::Purchase {
                description: line, merchant_name: Some(line), mcc: Some(line), amount_minor: amount, items: None,
            });
        }
    });
}

/// JSON of any shape: scalars, and arrays and objects nested at random.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<f64>().prop_map(|x| serde_json::json!(x)),
        "(?s).{0,40}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(8, 128, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            prop::collection::vec(("[a-z_]{1,24}", inner), 0..8)
                .prop_map(|entries| serde_json::Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// Field names the largest requests have, so generated objects reach them.
const FIELDS: &[&str] = &[
    "transactions",
    "external_transaction_id",
    "date",
    "amount",
    "description",
    "mcc",
    "merchant_name",
    "items",
    "currency",
    "external_user_id",
    "email",
    "address",
    "street",
    "city",
    "state",
    "zip",
    "country",
    "user_id",
    "connection_id",
    "quantity",
    "unit_price",
    "name",
    "first_name",
    "phone",
];

fn request_object() -> impl Strategy<Value = serde_json::Map<String, serde_json::Value>> {
    prop::collection::vec((prop::sample::select(FIELDS).prop_map(str::to_string), json_value()), 0..8)
        .prop_map(|entries| entries.into_iter().collect())
}

fn decodes_or_names_a_field<T: serde::de::DeserializeOwned + sail_api::rest::JsonShape>(
    input: serde_json::Map<String, serde_json::Value>,
) {
    match sail_api::rest::decode::<T>(input) {
        Ok(_) => {}
        Err(sail_api::rest::CallError::Input { message, .. }) => assert!(!message.is_empty()),
        Err(other) => panic!("decoding failed as Sail's own error: {other:?}"),
    }
}

#[test]
fn request_decoding_takes_json_of_any_shape() {
    proptest!(ProptestConfig { cases: cases(512), ..ProptestConfig::default() }, |(input in request_object())| {
        decodes_or_names_a_field::<pb::PushTransactionsRequest>(input.clone());
        decodes_or_names_a_field::<pb::CreateUserRequest>(input.clone());
        decodes_or_names_a_field::<pb::CreateHostedSessionRequest>(input);
    });
}

#[test]
fn request_bodies_nested_without_end_are_refused_not_a_stack_overflow() {
    // The gateway parses a body with serde_json, whose recursion limit
    // refuses nesting past 128 levels before it can exhaust a stack.
    proptest!(ProptestConfig { cases: cases(16), ..ProptestConfig::default() }, |(depth in 1usize..200_000, field in prop::sample::select(FIELDS))| {
        let body = format!("{{\"{field}\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
        match serde_json::from_str::<serde_json::Value>(&body) {
            Ok(serde_json::Value::Object(input)) => {
                prop_assert!(depth <= 128);
                decodes_or_names_a_field::<pb::PushTransactionsRequest>(input);
            }
            Ok(other) => prop_assert!(false, "not an object: {}", other),
            Err(err) => prop_assert!(depth > 120, "refused at depth {}: {}", depth, err),
        }
    });
}
