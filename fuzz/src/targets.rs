// The fuzz targets: each takes any bytes and must return without a panic
// (docs/receipts.md#fuzzing). Included by `fuzz/src/lib.rs` for AFL++ and by
// the workspace's `tests/fuzz_hostile_input.rs`, which replays the seeds
// and every kept regression through the same functions.

/// The engine over the seeded directory, made once.
pub fn engine() -> &'static sail_engine::Engine {
    static ENGINE: std::sync::OnceLock<sail_engine::Engine> = std::sync::OnceLock::new();
    ENGINE.get_or_init(|| sail_engine::Engine::seeded().expect("the seeded reference data loads"))
}

/// A receipt's text (as a reader hands it over) parsed and decided.
pub fn receipt_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parsed = sail_engine::receipts::parse(&text);
    let facts = sail_engine::receipts::PurchaseFacts {
        amount_minor: 1_348,
        date: chrono::NaiveDate::from_ymd_opt(2026, 11, 2).expect("a date"),
        merchant_id: None,
        mcc: None,
    };
    let _ = sail_engine::receipts::decide(engine(), &parsed, facts);
}

/// A pushed row's descriptor, merchant name and MCC, adjudicated.
pub fn descriptor(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\t');
    let description = parts.next().unwrap_or("");
    let merchant_name = parts.next();
    let mcc = parts.next();
    let _ = engine().adjudicate(&sail_engine::Purchase {
        description,
        merchant_name,
        mcc,
        amount_minor: 2_310,
        items: None,
    });
}

/// A REST body, parsed as the gateway parses it and decoded into the
/// largest request messages.
pub fn request_json(data: &[u8]) {
    let Ok(serde_json::Value::Object(input)) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = sail_api::rest::decode::<sail_api::pb::PushTransactionsRequest>(input.clone());
    let _ = sail_api::rest::decode::<sail_api::pb::CreateUserRequest>(input.clone());
    let _ = sail_api::rest::decode::<sail_api::pb::CreateHostedSessionRequest>(input);
}

/// An image's header, judged for its size before anything decodes.
pub fn image_header(data: &[u8]) {
    if let Ok((width, height)) = sail_receipt_reader::image_size(data) {
        assert!(u64::from(width) * u64::from(height) <= sail_receipt_reader::MAX_IMAGE_PIXELS);
    }
}

/// A target's name and its function.
pub type Target = (&'static str, fn(&[u8]));

/// Every target by name, for the replay test and scripts/fuzz.sh.
pub const TARGETS: [Target; 4] = [
    ("receipt_text", receipt_text),
    ("descriptor", descriptor),
    ("request_json", request_json),
    ("image_header", image_header),
];
