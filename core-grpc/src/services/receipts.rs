//! Receipts (docs/receipts.md): a file attached to an expense, stored sealed
//! with its sniffed type, size and SHA-256, under the expense's tenancy; read
//! in a durable job (the same claim-and-lease queue as ingestion) into text
//! (plain text as is, PDF text, OCR through Tesseract for images), parsed
//! and decided by the engine's `receipts` module, and, for a `needs_review`
//! or `ineligible` expense, applied to it with an `expense.readjudicated`
//! event. A receipt that cannot be read says why (`unreadable`, with a
//! reason) and raises `receipt.unreadable`.

use std::collections::HashMap;
use std::time::Duration;

use entities::enums::{ExpenseStatus, ReceiptStatus};
use entities::{job, receipt, transaction};
use sail_api::pb;
use sail_engine::Engine;
use sail_engine::receipts::{self, ParsedReceipt, PurchaseFacts, ReceiptDecision};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
};
use sha2::{Digest, Sha256};

use crate::domain::{IdKind, hex, new_id, parse_id, time};
use crate::error::CoreError;
use crate::platform::crypto::columns;
use crate::platform::db::{WriteTxn, begin_write};
use crate::platform::jobs::{self, JobKind, NewJob};
use crate::platform::receipt_reader::{self, Outcome, ReaderSettings, Unreadable};
use crate::platform::vault::Vault;
use crate::services::expenses;
use crate::services::outbox;

/// The largest receipt file.
pub const MAX_RECEIPT_BYTES: usize = 10 * 1024 * 1024;

/// The types Sail reads, recognised from the bytes.
pub const ACCEPTED_TYPES: [&str; 5] = ["application/pdf", "image/png", "image/jpeg", "image/webp", "text/plain"];

/// What a file is, from its bytes: one of [`ACCEPTED_TYPES`], or what it
/// looks like instead.
pub fn sniff(bytes: &[u8]) -> Result<&'static str, String> {
    if let Some(kind) = infer::get(bytes) {
        let mime = kind.mime_type();
        return ACCEPTED_TYPES.iter().copied().find(|t| *t == mime).ok_or_else(|| mime.to_string());
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\u{c}')) => {
            Ok("text/plain")
        }
        _ => Err("binary data of an unknown kind".to_string()),
    }
}

/// Attaches a file to one of the partner's expenses; the receipt is
/// `processing` and its reading job commits with it.
pub async fn create_receipt(
    db: &DatabaseConnection,
    vault: &Vault,
    partner_id: &str,
    user_id: &str,
    expense_id: &str,
    file: Vec<u8>,
    file_name: Option<String>,
) -> Result<receipt::Model, CoreError> {
    let expense = expenses::get_expense(db, partner_id, user_id, expense_id).await?;
    let named = file_name.as_deref().map(|n| format!("'{}'", n.chars().take(80).collect::<String>()));
    let named = named.unwrap_or_else(|| "The file".to_string());
    if file.is_empty() {
        return Err(CoreError::invalid("file", format!("{named} is empty.")));
    }
    if file.len() > MAX_RECEIPT_BYTES {
        return Err(CoreError::TooLarge {
            param: "file".into(),
            message: format!("{named} is larger than {} MiB.", MAX_RECEIPT_BYTES / (1024 * 1024)),
        });
    }
    let content_type = sniff(&file).map_err(|looks_like| {
        CoreError::invalid(
            "file",
            format!("{named} is not a PDF, PNG, JPEG, WebP or plain-text file (its bytes look like {looks_like})."),
        )
    })?;
    let id = new_id(IdKind::Receipt);
    let now = time::now();
    let txn = begin_write(db).await?;
    // The file is the user's: sealed under the user's data key.
    let sealer = vault.sealer_for_writing(&*txn, partner_id, &expense.user_id).await?;
    let created = receipt::ActiveModel {
        id: Set(id.clone()),
        partner_id: Set(partner_id.to_string()),
        user_id: Set(expense.user_id.clone()),
        expense_id: Set(expense.expense_id.clone()),
        status: Set(ReceiptStatus::Processing),
        content_type: Set(content_type.to_string()),
        size_bytes: Set(file.len() as i64),
        sha256: Set(hex(&Sha256::digest(&file))),
        file_name: Set(file_name),
        content: Set(sealer.seal_bytes(columns::RECEIPT_CONTENT, &id, &file)),
        merchant: Set(None),
        date: Set(None),
        total_minor: Set(None),
        line_items_json: Set(None),
        eligible_minor: Set(None),
        reason_code: Set(None),
        reason_message: Set(None),
        created_at: Set(now),
        read_at: Set(None),
    }
    .insert(&*txn)
    .await?;
    jobs::enqueue(
        &txn,
        NewJob {
            partner_id,
            kind: JobKind::ReadReceipt,
            user_id: Some(&expense.user_id),
            connection_id: Some(&expense.connection_id),
            accepted: 0,
            duplicates_updated: 0,
            payload: Some(id),
        },
    )
    .await?;
    txn.commit().await?;
    Ok(created)
}

/// One receipt of one of the partner's expenses, or `not_found`.
pub async fn get_receipt(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    expense_id: &str,
    receipt_id: &str,
) -> Result<receipt::Model, CoreError> {
    let expense = expenses::get_expense(db, partner_id, user_id, expense_id).await?;
    let not_found = || CoreError::not_found("receipt", "receipt_id", receipt_id);
    let id = parse_id(IdKind::Receipt, receipt_id).ok_or_else(not_found)?;
    receipt::Entity::find_by_id(id)
        .filter(receipt::Column::ExpenseId.eq(expense.expense_id))
        .filter(receipt::Column::PartnerId.eq(partner_id))
        .one(db)
        .await?
        .ok_or_else(not_found)
}

/// The receipts of some expenses, oldest first, by expense id.
pub async fn receipts_of(
    db: &impl ConnectionTrait,
    expense_ids: &[String],
) -> Result<HashMap<String, Vec<receipt::Model>>, CoreError> {
    let mut by_expense: HashMap<String, Vec<receipt::Model>> = HashMap::new();
    if expense_ids.is_empty() {
        return Ok(by_expense);
    }
    let found = receipt::Entity::find()
        .filter(receipt::Column::ExpenseId.is_in(expense_ids.iter().cloned()))
        .order_by_asc(receipt::Column::Id)
        .all(db)
        .await?;
    for r in found {
        by_expense.entry(r.expense_id.clone()).or_default().push(r);
    }
    Ok(by_expense)
}

/// Waits, at most `limit`, for a receipt to leave `processing`.
pub async fn wait_until_read(db: &DatabaseConnection, receipt_id: &str, limit: Duration) -> Result<(), CoreError> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let found = receipt::Entity::find_by_id(receipt_id).one(db).await?;
        if found.is_none_or(|r| r.status != ReceiptStatus::Processing) || tokio::time::Instant::now() >= deadline {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One classified receipt line, as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredLine {
    pub description: String,
    pub amount_minor: i64,
    pub status: String,
    pub reason: String,
}

/// The text of a receipt file of `content_type`, or why it has none: one
/// reading, or for a phone photo up to three (the reader's first choice first).
/// Plain text is taken as it is (it was checked to be UTF-8 at upload);
/// PDFs and images are read in a child process under limits
/// (`receipt_reader`). An `Err` is Sail's own failure, retried as the job's.
pub async fn extract_text(
    settings: &ReaderSettings,
    content_type: &str,
    bytes: Vec<u8>,
) -> Result<Result<Vec<String>, Unreadable>, CoreError> {
    let outcome: Outcome = match content_type {
        "text/plain" => sail_receipt_reader::read(content_type, &bytes),
        _ => receipt_reader::read(settings, content_type, bytes).await?,
    };
    Ok(outcome.into_readings().and_then(|readings| {
        let texts: Vec<String> =
            readings.into_iter().filter(|text| text.chars().filter(|c| c.is_alphanumeric()).count() >= 8).collect();
        if texts.is_empty() {
            return Err(Unreadable {
                code: "no_text".to_string(),
                message: "No text could be read from the receipt.".to_string(),
            });
        }
        Ok(texts)
    }))
}

fn outcome_status(outcome: sail_engine::Outcome) -> ExpenseStatus {
    match outcome {
        sail_engine::Outcome::Eligible => ExpenseStatus::Eligible,
        sail_engine::Outcome::Ineligible => ExpenseStatus::Ineligible,
        sail_engine::Outcome::NeedsReview => ExpenseStatus::NeedsReview,
    }
}

/// A `needs_review` expense whose receipt decided nothing stays in review,
/// saying why; any other expense is left as it is.
fn still_in_review(
    expense: &transaction::Model,
    code: &str,
    message: String,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<transaction::ActiveModel> {
    if expense.status != ExpenseStatus::NeedsReview {
        return None;
    }
    let mut update: transaction::ActiveModel = expense.clone().into();
    update.reason_code = Set(Some(code.to_string()));
    update.reason_message = Set(Some(message));
    update.updated_at = Set(now);
    Some(update)
}

/// Reads a claimed receipt job: extracts, parses, decides, and commits the
/// receipt, the expense and the events with the job's completion.
pub async fn run_read_job(
    db: &DatabaseConnection,
    engine: &Engine,
    vault: &Vault,
    reader: &ReaderSettings,
    claimed: &job::Model,
) -> Result<(), CoreError> {
    let receipt_id = claimed.payload.clone().unwrap_or_default();
    let Some(found) = receipt::Entity::find_by_id(receipt_id.as_str()).one(db).await? else {
        let txn = begin_write(db).await?;
        jobs::complete(&*txn, claimed, 0).await?;
        txn.commit().await?;
        return Ok(());
    };
    let sealer = vault.sealer(db, &found.user_id).await?;
    let bytes = sealer.open_bytes(columns::RECEIPT_CONTENT, &found.id, &found.content)?;
    let started = std::time::Instant::now();
    let text = extract_text(reader, &found.content_type, bytes).await?;
    // The kind is one of the five sniffed content types; anything else
    // (none is stored) would be `other`.
    let kind = match found.content_type.as_str() {
        "application/pdf" => "pdf",
        "image/png" | "image/jpeg" | "image/webp" => "image",
        "text/plain" => "text",
        _ => "other",
    };
    metrics::histogram!("sail_receipt_read_seconds", "kind" => kind).record(started.elapsed().as_secs_f64());

    // Text with neither a total nor an item line is no receipt Sail can
    // read (a photo of something else, or too unclear for OCR).
    let text = text.and_then(|readings| {
        let receipts: Vec<ParsedReceipt> = readings
            .iter()
            .map(|text| receipts::parse(text))
            .filter(|parsed| parsed.total_minor.is_some() || !parsed.lines.is_empty())
            .collect();
        if receipts.is_empty() {
            Err(Unreadable {
                code: "no_receipt_lines".to_string(),
                message: "Neither a total nor an item line could be read: this may not be a receipt, or the image is too unclear.".to_string(),
            })
        } else {
            Ok(receipts)
        }
    });
    let txn = begin_write(db).await?;
    record_reading(&txn, engine, &found, text).await?;
    jobs::complete(&*txn, claimed, 1).await?;
    txn.commit().await?;
    Ok(())
}

/// Gives up on a receipt whose reading job used up its attempts without
/// finishing (docs/receipts.md#reading-in-isolation): the receipt becomes
/// `unreadable` with `read_failed` and the job `failed`, in the caller's
/// transaction. Nothing is read.
pub async fn give_up_reading(txn: &WriteTxn, engine: &Engine, claimed: &job::Model) -> Result<(), CoreError> {
    let receipt_id = claimed.payload.clone().unwrap_or_default();
    let found = receipt::Entity::find_by_id(receipt_id.as_str()).one(&**txn).await?;
    if let Some(found) = found.filter(|r| r.status == ReceiptStatus::Processing) {
        let why = Unreadable {
            code: "read_failed".to_string(),
            message: format!(
                "Reading the file failed {} times without finishing; Sail stopped trying.",
                jobs::MAX_ATTEMPTS
            ),
        };
        record_reading(txn, engine, &found, Err(why)).await?;
    }
    Ok(())
}

/// Records what reading `found` came to on the receipt, and on its expense
/// when the receipt decides it, with the events, in `txn`.
async fn record_reading(
    txn: &WriteTxn,
    engine: &Engine,
    found: &receipt::Model,
    text: Result<Vec<ParsedReceipt>, Unreadable>,
) -> Result<(), CoreError> {
    let expense = transaction::Entity::find()
        .filter(transaction::Column::ExpenseId.eq(found.expense_id.as_str()))
        .one(&**txn)
        .await?
        .ok_or_else(|| CoreError::Internal(format!("the expense of receipt {} vanished", found.id)))?;
    let now = time::now();
    let mut stored: receipt::ActiveModel = found.clone().into();
    stored.read_at = Set(Some(now));
    let redecide = matches!(expense.status, ExpenseStatus::NeedsReview | ExpenseStatus::Ineligible);
    let mut expense_update: Option<transaction::ActiveModel> = None;
    let before = expense.status;
    match text {
        Err(why) => {
            stored.status = Set(ReceiptStatus::Unreadable);
            stored.reason_code = Set(Some(why.code.clone()));
            stored.reason_message = Set(Some(why.message.clone()));
            let data = pb::ReceiptUnreadableData {
                receipt_id: found.id.clone(),
                expense_id: found.expense_id.clone(),
                user_id: found.user_id.clone(),
                reason: Some(pb::EventReason { code: why.code.clone(), message: why.message.clone() }),
            };
            outbox::record(txn, &found.partner_id, &data).await?;
            let message = format!("The attached receipt could not be read: {}", why.message);
            expense_update = still_in_review(&expense, "receipt_unreadable", message, now);
        }
        Ok(readings) => {
            let facts = PurchaseFacts {
                amount_minor: expense.amount_minor,
                date: chrono::NaiveDate::parse_from_str(&expense.date, "%Y-%m-%d")
                    .map_err(|err| CoreError::Internal(format!("expense date: {err}")))?,
                merchant_id: expense.merchant_id.as_deref(),
                mcc: expense.mcc.as_deref(),
            };
            let (parsed, decision) = receipts::decide_readings(engine, readings, facts)
                .ok_or_else(|| CoreError::Internal(format!("receipt {} kept no reading", found.id)))?;
            let (lines, eligible_minor) = match &decision {
                ReceiptDecision::Matched { lines, eligible_minor, .. }
                | ReceiptDecision::Mismatch { lines, eligible_minor, .. } => (lines, *eligible_minor),
            };
            let stored_lines: Vec<StoredLine> = lines
                .iter()
                .map(|l| StoredLine {
                    description: l.description.clone(),
                    amount_minor: l.amount_minor,
                    status: l.outcome.as_str().to_string(),
                    reason: l.category.as_str().to_string(),
                })
                .collect();
            let lines_json =
                serde_json::to_string(&stored_lines).map_err(|err| CoreError::Internal(err.to_string()))?;
            stored.status = Set(ReceiptStatus::Read);
            stored.merchant = Set(parsed.merchant.clone().map(|m| m.chars().take(255).collect()));
            stored.date = Set(parsed.date.map(|d| d.format("%Y-%m-%d").to_string()));
            stored.total_minor = Set(parsed.total_minor);
            stored.line_items_json = Set(Some(lines_json));
            stored.eligible_minor = Set(Some(eligible_minor));
            match decision {
                ReceiptDecision::Mismatch { reason_code, reason, .. } => {
                    stored.reason_code = Set(Some(reason_code.to_string()));
                    stored.reason_message = Set(Some(reason.clone()));
                    expense_update = still_in_review(&expense, reason_code, reason, now);
                }
                ReceiptDecision::Matched { outcome, eligible_minor, lines, reason_code, reason } => {
                    if redecide {
                        let items: Vec<expenses::StoredItemResult> = lines
                            .iter()
                            .map(|l| expenses::StoredItemResult {
                                description: l.description.clone(),
                                amount_minor: l.amount_minor,
                                status: l.outcome.as_str().to_string(),
                                category: l.category.as_str().to_string(),
                            })
                            .collect();
                        let mut update: transaction::ActiveModel = expense.clone().into();
                        update.status = Set(outcome_status(outcome));
                        update.reason_code = Set(Some(reason_code.to_string()));
                        update.reason_message = Set(Some(reason));
                        update.rule = Set(Some("itemized_receipt".to_string()));
                        update.eligible_amount_minor =
                            Set((outcome == sail_engine::Outcome::Eligible).then_some(eligible_minor).or(Some(0)));
                        update.item_results_json = Set(Some(
                            serde_json::to_string(&items).map_err(|err| CoreError::Internal(err.to_string()))?,
                        ));
                        update.adjudication_count = Set(expense.adjudication_count + 1);
                        update.adjudicated_at = Set(Some(now));
                        update.updated_at = Set(now);
                        expense_update = Some(update);
                    }
                }
            }
        }
    }
    stored.update(&**txn).await?;
    if let Some(update) = expense_update {
        let updated = update.update(&**txn).await?;
        let data = pb::ExpenseReadjudicatedData {
            expense_id: updated.expense_id.clone(),
            user_id: updated.user_id.clone(),
            receipt_id: found.id.clone(),
            before: Some(pb::ExpenseBefore { status: before.as_str().to_string() }),
            after: Some(pb::ExpenseAfter {
                status: updated.status.as_str().to_string(),
                eligible_amount: updated.eligible_amount_minor.map(crate::domain::money::to_major),
                reason: Some(pb::EventOptionalReason {
                    code: updated.reason_code.clone(),
                    message: updated.reason_message.clone(),
                }),
            }),
        };
        outbox::record(txn, &updated.partner_id, &data).await?;
    }
    Ok(())
}
