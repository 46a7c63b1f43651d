//! Receipts read per second, for each kind of file (docs/receipts.md): the
//! whole reading of one stored receipt (text extraction: as is, PDF text, or
//! Tesseract OCR; then parsing and the decision against its purchase) over
//! the 25 generated fixture receipts, one at a time. The baseline, measured
//! in the same run, is the engine adjudicating the same purchases from their
//! descriptors alone (the path without a receipt): each figure is also given
//! as how many descriptor adjudications one receipt costs.
//! Run: `cargo bench --bench receipt_reading` (`BENCH_ROUNDS`, default 3).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::time::Instant;

use chrono::NaiveDate;
use sail_engine::receipts::{PurchaseFacts, decide_readings, parse};
use sail_engine::{Engine, Purchase};
use sail_test_support::receipts::{FileKind, cases, render};

fn rounds() -> usize {
    std::env::var("BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let engine = Engine::seeded().unwrap();
    let fixtures = cases();

    // Baseline: the descriptors alone, many times over for a stable figure.
    let started = Instant::now();
    let mut n = 0u64;
    while started.elapsed().as_millis() < 500 {
        for case in &fixtures {
            let purchase = Purchase {
                description: case.descriptor,
                merchant_name: None,
                mcc: None,
                amount_minor: case.amount_minor,
                items: None,
            };
            std::hint::black_box(engine.adjudicate(&purchase));
            n += 1;
        }
    }
    let baseline = n as f64 / started.elapsed().as_secs_f64();
    println!("baseline: descriptor adjudication {baseline:.0}/s");
    println!("| kind | how | receipts | receipts/s | descriptor adjudications per receipt |");
    println!("|---|---|---|---|---|");
    // Each PDF and image is read in a child process under limits, as the
    // service reads it (docs/receipts.md#reading-in-isolation); the same
    // files read in this process, as the core did before, show what the
    // isolation costs, in the same run.
    let reader = sail_test_support::receipt_reader_release();
    for kind in FileKind::ALL {
        let files: Vec<(Vec<u8>, &'static str, &sail_test_support::receipts::ReceiptCase)> = fixtures
            .iter()
            .filter_map(|case| {
                let content_type = kind.content_type();
                render(kind, &case.receipt).map(|bytes| (bytes, content_type, case))
            })
            .collect();
        if files.is_empty() {
            println!("| {} | | 0 | (cannot render here) | |", kind.name());
            continue;
        }
        let ways: &[bool] = if kind == FileKind::Text { &[false] } else { &[false, true] };
        for &isolated in ways {
            let rounds = if matches!(kind, FileKind::Png | FileKind::Photo) { 1 } else { rounds() * 20 };
            let started = Instant::now();
            let mut read = 0u64;
            let mut unreadable = 0u64;
            for _ in 0..rounds {
                for (bytes, content_type, case) in &files {
                    let text = if isolated {
                        let extracted = runtime.block_on(core_grpc::services::receipts::extract_text(
                            &reader,
                            content_type,
                            bytes.clone(),
                        ));
                        extracted.expect("the receipt reader runs").ok()
                    } else {
                        sail_receipt_reader::read(content_type, bytes).into_readings().ok()
                    };
                    match text {
                        Some(readings) => {
                            let facts = PurchaseFacts {
                                amount_minor: case.amount_minor,
                                date: NaiveDate::parse_from_str(case.date, "%Y-%m-%d").unwrap(),
                                merchant_id: None,
                                mcc: None,
                            };
                            let parsed = readings.iter().map(|text| parse(text)).collect();
                            std::hint::black_box(decide_readings(&engine, parsed, facts));
                        }
                        None => unreadable += 1,
                    }
                    read += 1;
                }
            }
            let rate = read as f64 / started.elapsed().as_secs_f64();
            let note = if unreadable > 0 { format!(" ({unreadable} unreadable)") } else { String::new() };
            let how = if isolated { "child process, limits" } else { "in process" };
            println!("| {} | {how} | {read}{note} | {rate:.1} | {:.0} |", kind.name(), baseline / rate);
        }
    }
}
