//! Expenses: every transaction row is also the user's expense, carrying its
//! adjudication. Rows are adjudicated in memory and written once, already
//! decided, in one statement per batch; this module also reads them back.

use chrono::{DateTime, NaiveDate, Utc};
use entities::{connection, transaction};
use sea_orm::sea_query::{Alias, Expr, ExprTrait, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DerivePartialModel, EntityTrait, QueryFilter, QueryOrder,
    QueryTrait, Set, Statement,
};

use crate::domain::{IdKind, Page, new_id, parse_id, time};
use crate::error::CoreError;
use crate::platform::db::fetch_page_of;
use crate::services::connections::{self, Product};
use crate::services::users;
use sail_engine::{Adjudication, Engine, Item, Outcome, Purchase};

pub use entities::enums::ExpenseStatus;

/// A validated purchase about to be adjudicated and stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NewTransaction {
    pub external_transaction_id: String,
    pub date: NaiveDate,
    pub amount_minor: i64,
    pub currency: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcc: Option<String>,
    /// Item lines as JSON (store orders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items_json: Option<String>,
}

/// One stored item line (store orders and receipts).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StoredItem {
    pub description: String,
    #[serde(default = "one")]
    pub quantity: u32,
    pub amount_minor: i64,
    #[serde(default)]
    pub flagged_eligible: Option<bool>,
}

fn one() -> u32 {
    1
}

/// The per-item outcomes kept on an adjudicated row.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StoredItemResult {
    pub description: String,
    pub amount_minor: i64,
    pub status: String,
    pub category: String,
}

/// One piece of the evidence kept on an adjudicated row.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StoredEvidence {
    pub kind: String,
    pub value: String,
    pub indicates: String,
}

/// Outcome counts of an adjudicated set of transactions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub eligible: u32,
    pub ineligible: u32,
    pub needs_review: u32,
}

impl From<Counts> for sail_api::pb::EventCounts {
    fn from(counts: Counts) -> Self {
        sail_api::pb::EventCounts {
            eligible: counts.eligible.into(),
            ineligible: counts.ineligible.into(),
            needs_review: counts.needs_review.into(),
        }
    }
}

impl Counts {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Eligible => self.eligible += 1,
            Outcome::Ineligible => self.ineligible += 1,
            Outcome::NeedsReview => self.needs_review += 1,
        }
    }

    pub fn total(&self) -> u32 {
        self.eligible + self.ineligible + self.needs_review
    }

    /// Adds another batch's counts to these.
    pub fn merge(&mut self, other: Counts) {
        self.eligible += other.eligible;
        self.ineligible += other.ineligible;
        self.needs_review += other.needs_review;
    }
}

/// The engine's decision on a new transaction.
pub fn decide(engine: &Engine, new: &NewTransaction) -> Result<Adjudication, CoreError> {
    let items: Option<Vec<Item>> = match &new.items_json {
        Some(json) => Some(
            serde_json::from_str::<Vec<StoredItem>>(json)
                .map_err(|err| CoreError::Internal(format!("items of {}: {err}", new.external_transaction_id)))?
                .into_iter()
                .map(|i| Item {
                    description: i.description,
                    amount_minor: i.amount_minor,
                    flagged_eligible: i.flagged_eligible,
                })
                .collect(),
        ),
        None => None,
    };
    Ok(engine.adjudicate(&Purchase {
        description: &new.description,
        merchant_name: new.merchant_name.as_deref(),
        mcc: new.mcc.as_deref(),
        amount_minor: new.amount_minor,
        items: items.as_deref(),
    }))
}

/// The full row of an adjudicated transaction of `owner`, written by `job_id`.
pub fn adjudicated_row(
    owner: &connection::Model,
    new: NewTransaction,
    decision: Adjudication,
    job_id: &str,
    now: DateTime<Utc>,
) -> Result<transaction::ActiveModel, CoreError> {
    let item_results = decision
        .items
        .as_ref()
        .map(|items| {
            let stored: Vec<StoredItemResult> = items
                .iter()
                .map(|i| StoredItemResult {
                    description: i.description.clone(),
                    amount_minor: i.amount_minor,
                    status: i.outcome.as_str().to_string(),
                    category: i.category.to_string(),
                })
                .collect();
            serde_json::to_string(&stored)
        })
        .transpose()
        .map_err(|err| CoreError::Internal(err.to_string()))?;
    let evidence: Vec<StoredEvidence> = decision
        .evidence
        .iter()
        .map(|e| StoredEvidence {
            kind: e.kind.as_str().to_string(),
            value: e.value.clone(),
            indicates: e.indicates.to_string(),
        })
        .collect();
    let evidence_json = serde_json::to_string(&evidence).map_err(|err| CoreError::Internal(err.to_string()))?;
    Ok(transaction::ActiveModel {
        id: Set(new_id(IdKind::Transaction)),
        partner_id: Set(owner.partner_id.clone()),
        user_id: Set(owner.user_id.clone()),
        connection_id: Set(owner.id.clone()),
        external_transaction_id: Set(new.external_transaction_id),
        job_id: Set(Some(job_id.to_string())),
        date: Set(new.date.format("%Y-%m-%d").to_string()),
        amount_minor: Set(new.amount_minor),
        currency: Set(new.currency),
        description: Set(new.description),
        merchant_name: Set(new.merchant_name),
        mcc: Set(new.mcc),
        items_json: Set(new.items_json),
        expense_id: Set(new_id(IdKind::Expense)),
        status: Set(status_of(decision.outcome)),
        category: Set(Some(decision.category.to_string())),
        reason_code: Set(Some(decision.reason.code.to_string())),
        reason_message: Set(Some(decision.reason.message)),
        rule: Set(Some(decision.rule.to_string())),
        merchant_id: Set(decision.merchant.as_ref().and_then(|m| m.id.clone())),
        merchant_display_name: Set(decision.merchant.map(|m| m.name)),
        eligible_amount_minor: Set(Some(decision.eligible_amount_minor)),
        item_results_json: Set(item_results),
        evidence_json: Set(Some(evidence_json)),
        adjudication_count: Set(1),
        adjudicated_at: Set(Some(now)),
        created_at: Set(now),
        updated_at: Set(now),
    })
}

/// What a write does with a transaction whose id the connection already has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnRepeat {
    /// Replace it and count one more adjudication, unless a later job
    /// already wrote it (job ids are UUIDv7, so they order by creation: the
    /// latest push wins whatever order workers finish in).
    LatestPushWins,
    /// Keep the stored one (a provider re-sync).
    Keep,
}

/// The columns a re-push replaces: the purchase and its adjudication; the
/// row's id, expense id and creation time stay.
const REPUSH_COLUMNS: [transaction::Column; 20] = [
    transaction::Column::JobId,
    transaction::Column::Date,
    transaction::Column::AmountMinor,
    transaction::Column::Currency,
    transaction::Column::Description,
    transaction::Column::MerchantName,
    transaction::Column::Mcc,
    transaction::Column::ItemsJson,
    transaction::Column::Status,
    transaction::Column::Category,
    transaction::Column::ReasonCode,
    transaction::Column::ReasonMessage,
    transaction::Column::Rule,
    transaction::Column::MerchantId,
    transaction::Column::MerchantDisplayName,
    transaction::Column::EligibleAmountMinor,
    transaction::Column::ItemResultsJson,
    transaction::Column::EvidenceJson,
    transaction::Column::AdjudicatedAt,
    transaction::Column::UpdatedAt,
];

/// A batch adjudicated in memory and already rendered as its one SQL
/// statement, ready to be executed.
pub struct Adjudicated {
    statement: Option<Statement>,
    pub counts: Counts,
}

/// Adjudicates `batch` for `owner` and renders the statement that writes it:
/// pure CPU, no database. Callers do this before taking a write transaction,
/// so SQLite's one write lock is held for the write alone.
pub fn adjudicate_batch(
    backend: DatabaseBackend,
    engine: &Engine,
    owner: &connection::Model,
    job_id: &str,
    batch: Vec<NewTransaction>,
    on_repeat: OnRepeat,
) -> Result<Adjudicated, CoreError> {
    let mut counts = Counts::default();
    if batch.is_empty() {
        return Ok(Adjudicated { statement: None, counts });
    }
    let now = time::now();
    let mut rows = Vec::with_capacity(batch.len());
    for new in batch {
        let decision = decide(engine, &new)?;
        counts.add(decision.outcome);
        rows.push(adjudicated_row(owner, new, decision, job_id, now)?);
    }
    let key = [transaction::Column::ConnectionId, transaction::Column::ExternalTransactionId];
    let on_conflict = match on_repeat {
        OnRepeat::Keep => OnConflict::columns(key).do_nothing().to_owned(),
        OnRepeat::LatestPushWins => OnConflict::columns(key)
            .update_columns(REPUSH_COLUMNS)
            .value(
                transaction::Column::AdjudicationCount,
                Expr::col((transaction::Entity, transaction::Column::AdjudicationCount)).add(1),
            )
            .action_and_where(
                Expr::col((transaction::Entity, transaction::Column::JobId))
                    .lt(Expr::col((Alias::new("excluded"), transaction::Column::JobId))),
            )
            .to_owned(),
    };
    let statement = transaction::Entity::insert_many(rows).on_conflict(on_conflict).build(backend);
    Ok(Adjudicated { statement: Some(statement), counts })
}

/// Writes an adjudicated batch: one statement, each row once, decided.
pub async fn write_adjudicated(db: &impl ConnectionTrait, batch: Adjudicated) -> Result<Counts, CoreError> {
    if let Some(statement) = batch.statement {
        db.execute_raw(statement).await?;
    }
    Ok(batch.counts)
}

/// Filters of an expense listing.
#[derive(Debug, Clone, Default)]
pub struct ExpenseFilter {
    pub status: Option<ExpenseStatus>,
    pub connection_id: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

/// Parses a status filter.
pub fn parse_status(raw: &str) -> Result<ExpenseStatus, CoreError> {
    ExpenseStatus::parse(raw).ok_or_else(|| {
        let all: Vec<&str> = ExpenseStatus::ALL.iter().map(|s| s.as_str()).collect();
        CoreError::invalid("status", format!("status must be one of {}; got '{raw}'.", all.join(", ")))
    })
}

/// The stored status of an engine outcome.
pub fn status_of(outcome: Outcome) -> ExpenseStatus {
    match outcome {
        Outcome::Eligible => ExpenseStatus::Eligible,
        Outcome::Ineligible => ExpenseStatus::Ineligible,
        Outcome::NeedsReview => ExpenseStatus::NeedsReview,
    }
}

/// Parses a `YYYY-MM-DD` date naming `param` on failure.
pub fn parse_date(param: &str, raw: &str) -> Result<NaiveDate, CoreError> {
    let well_formed = raw.len() == 10
        && raw.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    well_formed.then(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()).flatten().ok_or_else(|| {
        CoreError::invalid(param, format!("{param} must be a real date in YYYY-MM-DD form; got '{raw}'."))
    })
}

/// An expense as the API answers it: the stored row without what only
/// ingestion reads (the pushed items, the raw merchant name and code, the
/// job), and whether any receipt is attached, so that a page of expenses
/// with none (most of them) asks for no receipts at all.
#[derive(Debug, Clone, PartialEq, DerivePartialModel)]
#[sea_orm(entity = "transaction::Entity", from_query_result)]
pub struct ExpenseView {
    pub id: String,
    pub user_id: String,
    pub connection_id: String,
    pub external_transaction_id: String,
    pub date: String,
    pub amount_minor: i64,
    pub currency: String,
    pub description: String,
    pub expense_id: String,
    pub status: ExpenseStatus,
    pub category: Option<String>,
    pub reason_code: Option<String>,
    pub reason_message: Option<String>,
    pub rule: Option<String>,
    pub merchant_id: Option<String>,
    pub merchant_display_name: Option<String>,
    pub eligible_amount_minor: Option<i64>,
    pub item_results_json: Option<String>,
    pub evidence_json: Option<String>,
    pub adjudicated_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// An index probe per row read (`receipts_expense`); in a page,
    /// evaluated only for the rows the page returns.
    #[sea_orm(from_expr = "sea_orm::sea_query::Expr::cust(HAS_RECEIPTS)")]
    pub has_receipts: bool,
}

/// Whether a transaction row's expense has a receipt, as SQL both
/// databases read (PostgreSQL answers a boolean, SQLite 0 or 1).
const HAS_RECEIPTS: &str = "EXISTS (SELECT 1 FROM receipts WHERE receipts.expense_id = transactions.expense_id)";

/// A page of a user's expenses, newest purchase first, and the total.
///
/// The listing partners call most is one statement: the page itself
/// (filtered by partner and user) shows that the user exists, so the user
/// is read only when the page is empty, to tell an unknown user (`404`)
/// from one without expenses. A user's expenses go when the user is
/// erased, so a non-empty page never belongs to an unknown user.
pub async fn list_expenses(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    filter: ExpenseFilter,
    page: Page,
) -> Result<(Vec<ExpenseView>, u64), CoreError> {
    let user_id = users::well_formed_user_id(user_id)?;
    let reversed = matches!((filter.from, filter.to), (Some(from), Some(to)) if from > to);
    // An unknown user is `not_found` before any other refusal.
    let mut known = false;
    if reversed || filter.connection_id.is_some() {
        users::get_user(db, partner_id, user_id).await?;
        known = true;
    }
    if reversed {
        return Err(CoreError::invalid("from", "from must not be after to."));
    }
    let mut query = transaction::Entity::find()
        .filter(transaction::Column::UserId.eq(user_id))
        .filter(transaction::Column::PartnerId.eq(partner_id));
    if let Some(connection_id) = &filter.connection_id {
        let owner = connections::get_connection(db, partner_id, user_id, connection_id).await?;
        connections::require_product(&owner, Product::Expenses, "connection_id")?;
        query = query.filter(transaction::Column::ConnectionId.eq(owner.id));
    }
    if let Some(status) = filter.status {
        query = query.filter(transaction::Column::Status.eq(status));
    }
    if let Some(from) = filter.from {
        query = query.filter(transaction::Column::Date.gte(from.format("%Y-%m-%d").to_string()));
    }
    if let Some(to) = filter.to {
        query = query.filter(transaction::Column::Date.lte(to.format("%Y-%m-%d").to_string()));
    }
    let ordered = query.order_by_desc(transaction::Column::Date).order_by_desc(transaction::Column::Id);
    let (found, total) = fetch_page_of::<_, ExpenseView>(db, ordered, page).await?;
    if found.is_empty() && !known {
        users::get_user(db, partner_id, user_id).await?;
    }
    Ok((found, total))
}

/// One expense of the user, or `not_found`.
pub async fn get_expense(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    expense_id: &str,
) -> Result<ExpenseView, CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    let not_found = || CoreError::not_found("expense", "expense_id", expense_id);
    let id = parse_id(IdKind::Expense, expense_id).ok_or_else(not_found)?;
    transaction::Entity::find()
        .filter(transaction::Column::ExpenseId.eq(id))
        .filter(transaction::Column::UserId.eq(user.id))
        .filter(transaction::Column::PartnerId.eq(partner_id))
        .into_partial_model::<ExpenseView>()
        .one(db)
        .await?
        .ok_or_else(not_found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_be_real_and_well_formed() {
        assert_eq!(parse_date("date", "2024-02-29").unwrap(), NaiveDate::from_ymd_opt(2024, 2, 29).unwrap());
        for bad in ["2023-02-29", "2024-13-01", "2024-1-05", "20240105", "yesterday", "2024-01-05T00:00:00Z", ""] {
            assert!(parse_date("date", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn statuses_parse() {
        assert_eq!(parse_status("needs_review").unwrap(), ExpenseStatus::NeedsReview);
        assert!(parse_status("approved").is_err());
    }
}
