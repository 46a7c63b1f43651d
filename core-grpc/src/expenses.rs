//! Expenses: every transaction row is also the user's expense, carrying its
//! adjudication. This module writes pending rows, applies the engine's
//! decisions to a job's rows in one statement, and reads expenses back.

use chrono::{DateTime, NaiveDate, Utc};
use entities::{connection, transaction};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use crate::connections::{self, Product};
use crate::domain::{IdKind, Page, new_id, parse_id, time};
use crate::engine::{Adjudication, Engine, Item, Outcome, Purchase};
use crate::error::CoreError;
use crate::users;

/// Expense states (decisions §7).
pub mod status {
    pub const PENDING: &str = "pending";
    pub const ELIGIBLE: &str = "eligible";
    pub const INELIGIBLE: &str = "ineligible";
    pub const NEEDS_REVIEW: &str = "needs_review";
    pub const ALL: [&str; 4] = [PENDING, ELIGIBLE, INELIGIBLE, NEEDS_REVIEW];
}

/// A validated purchase about to be stored.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTransaction {
    pub external_transaction_id: String,
    pub date: NaiveDate,
    pub amount_minor: i64,
    pub currency: String,
    pub description: String,
    pub merchant_name: Option<String>,
    pub mcc: Option<String>,
    /// Item lines as JSON (store orders).
    pub items_json: Option<String>,
}

/// A fresh `pending` row for `owner`, queued on `job_id`.
pub fn pending_row(
    owner: &connection::Model,
    new: NewTransaction,
    job_id: &str,
    now: DateTime<Utc>,
) -> transaction::ActiveModel {
    transaction::ActiveModel {
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
        status: Set(status::PENDING.to_string()),
        category: Set(None),
        reason_code: Set(None),
        reason_message: Set(None),
        rule: Set(None),
        merchant_id: Set(None),
        merchant_display_name: Set(None),
        eligible_amount_minor: Set(None),
        item_results_json: Set(None),
        adjudication_count: Set(0),
        adjudicated_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
}

/// The columns a re-push replaces: the purchase itself, and the adjudication
/// it resets to pending.
pub const REPUSH_COLUMNS: [transaction::Column; 19] = [
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
    transaction::Column::AdjudicatedAt,
    transaction::Column::UpdatedAt,
];

/// The columns adjudication writes.
const ADJUDICATION_COLUMNS: [transaction::Column; 12] = [
    transaction::Column::Status,
    transaction::Column::Category,
    transaction::Column::ReasonCode,
    transaction::Column::ReasonMessage,
    transaction::Column::Rule,
    transaction::Column::MerchantId,
    transaction::Column::MerchantDisplayName,
    transaction::Column::EligibleAmountMinor,
    transaction::Column::ItemResultsJson,
    transaction::Column::AdjudicationCount,
    transaction::Column::AdjudicatedAt,
    transaction::Column::UpdatedAt,
];

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

/// Outcome counts of an adjudicated set of rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub eligible: u32,
    pub ineligible: u32,
    pub needs_review: u32,
}

fn decide(engine: &Engine, row: &transaction::Model) -> Result<Adjudication, CoreError> {
    let items: Option<Vec<Item>> = match &row.items_json {
        Some(json) => Some(
            serde_json::from_str::<Vec<StoredItem>>(json)
                .map_err(|err| CoreError::Internal(format!("items of {}: {err}", row.id)))?
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
        description: &row.description,
        merchant_name: row.merchant_name.as_deref(),
        mcc: row.mcc.as_deref(),
        amount_minor: row.amount_minor,
        items: items.as_deref(),
    }))
}

/// Adjudicates every row still queued on `job_id` and writes the results in
/// one statement. Rows a later push moved to another job are left to it. On
/// PostgreSQL the rows are locked first, so a concurrent re-push waits and
/// then queues them afresh; SQLite's immediate transaction already excludes it.
pub async fn adjudicate_job_rows(
    db: &impl ConnectionTrait,
    engine: &Engine,
    job_id: &str,
) -> Result<Counts, CoreError> {
    let rows =
        transaction::Entity::find().filter(transaction::Column::JobId.eq(job_id)).lock_exclusive().all(db).await?;
    let mut counts = Counts::default();
    if rows.is_empty() {
        return Ok(counts);
    }
    let now = time::now();
    let mut updated = Vec::with_capacity(rows.len());
    for row in rows {
        let decision = decide(engine, &row)?;
        match decision.outcome {
            Outcome::Eligible => counts.eligible += 1,
            Outcome::Ineligible => counts.ineligible += 1,
            Outcome::NeedsReview => counts.needs_review += 1,
        }
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
        let count = row.adjudication_count + 1;
        let mut active: transaction::ActiveModel = row.into();
        active.status = Set(decision.outcome.as_str().to_string());
        active.category = Set(Some(decision.category.to_string()));
        active.reason_code = Set(Some(decision.reason.code.to_string()));
        active.reason_message = Set(Some(decision.reason.message));
        active.rule = Set(Some(decision.rule.to_string()));
        active.merchant_id = Set(decision.merchant.as_ref().and_then(|m| m.id.clone()));
        active.merchant_display_name = Set(decision.merchant.map(|m| m.name));
        active.eligible_amount_minor = Set(Some(decision.eligible_amount_minor));
        active.item_results_json = Set(item_results);
        active.adjudication_count = Set(count);
        active.adjudicated_at = Set(Some(now));
        active.updated_at = Set(now);
        // Every column set: the row goes back whole through one upsert.
        updated.push(set_all(active));
    }
    transaction::Entity::insert_many(updated)
        .on_conflict(OnConflict::column(transaction::Column::Id).update_columns(ADJUDICATION_COLUMNS).to_owned())
        .exec_without_returning(db)
        .await?;
    Ok(counts)
}

/// Marks every field of a model-derived ActiveModel as set, so it can be
/// written as a full row.
fn set_all(mut active: transaction::ActiveModel) -> transaction::ActiveModel {
    use sea_orm::{ActiveModelTrait, ActiveValue, EntityTrait, Iterable};
    for column in <transaction::Entity as EntityTrait>::Column::iter() {
        if let ActiveValue::Unchanged(value) = active.get(column) {
            active.set(column, value);
        }
    }
    active
}

/// Filters of an expense listing.
#[derive(Debug, Clone, Default)]
pub struct ExpenseFilter {
    pub status: Option<&'static str>,
    pub connection_id: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

/// Parses a status filter.
pub fn parse_status(raw: &str) -> Result<&'static str, CoreError> {
    status::ALL.into_iter().find(|s| *s == raw).ok_or_else(|| {
        CoreError::invalid("status", format!("status must be one of {}; got '{raw}'.", status::ALL.join(", ")))
    })
}

/// Parses a `YYYY-MM-DD` date naming `param` on failure.
pub fn parse_date(param: &str, raw: &str) -> Result<NaiveDate, CoreError> {
    let well_formed = raw.len() == 10
        && raw.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    well_formed.then(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()).flatten().ok_or_else(|| {
        CoreError::invalid(param, format!("{param} must be a real date in YYYY-MM-DD form; got '{raw}'."))
    })
}

/// A page of a user's expenses, newest purchase first, and the total.
pub async fn list_expenses(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    filter: ExpenseFilter,
    page: Page,
) -> Result<(Vec<transaction::Model>, u64), CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    if let (Some(from), Some(to)) = (filter.from, filter.to) {
        if from > to {
            return Err(CoreError::invalid("from", "from must not be after to."));
        }
    }
    let mut query = transaction::Entity::find()
        .filter(transaction::Column::UserId.eq(&user.id))
        .filter(transaction::Column::PartnerId.eq(partner_id));
    if let Some(connection_id) = &filter.connection_id {
        let owner = connections::get_connection(db, partner_id, &user.id, connection_id).await?;
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
    let total = query.clone().count(db).await?;
    let found = query
        .order_by_desc(transaction::Column::Date)
        .order_by_desc(transaction::Column::Id)
        .limit(page.limit)
        .offset(page.offset)
        .all(db)
        .await?;
    Ok((found, total))
}

/// One expense of the user, or `not_found`.
pub async fn get_expense(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    expense_id: &str,
) -> Result<transaction::Model, CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    let not_found = || CoreError::not_found("expense", "expense_id", expense_id);
    let id = parse_id(IdKind::Expense, expense_id).ok_or_else(not_found)?;
    transaction::Entity::find()
        .filter(transaction::Column::ExpenseId.eq(id))
        .filter(transaction::Column::UserId.eq(user.id))
        .filter(transaction::Column::PartnerId.eq(partner_id))
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
        assert_eq!(parse_status("needs_review").unwrap(), "needs_review");
        assert!(parse_status("approved").is_err());
    }
}
