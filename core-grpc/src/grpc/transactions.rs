//! `sail.v1.Transactions`, `sail.v1.Jobs` and `sail.v1.Expenses`.

use entities::{job, receipt};
use sail_api::pb::{
    self, expenses_server::Expenses, jobs_server::Jobs, receipts_server::Receipts, transactions_server::Transactions,
};
use tonic::{Request, Response, Status};

use crate::domain::money::to_major;
use crate::domain::{Page, time};
use crate::grpc::accept;
use crate::layers::idempotency::ReplyOwner;
use crate::platform::jobs::{self, JobKind};
use crate::services::expenses::{
    self, ExpenseFilter, ExpenseView, StoredEvidence, StoredItemResult, parse_date, parse_status,
};
use crate::services::ingest;
use crate::services::receipts;
use crate::state::Core;

pub struct TransactionsService {
    pub core: Core,
}

pub fn job_to_pb(j: job::Model) -> pb::Job {
    let failures: Vec<jobs::RowFailure> = match &j.failures_json {
        Some(json) => serde_json::from_str(json).unwrap_or_else(|err| {
            tracing::error!(job = %j.id, error = %err, "stored row failures do not parse");
            Vec::new()
        }),
        None => Vec::new(),
    };
    pb::Job {
        failed: i64::from(j.failed),
        failures: failures
            .into_iter()
            .map(|f| pb::JobRowFailure {
                index: f.index as i64,
                external_transaction_id: f.external_transaction_id,
                code: f.code,
                message: f.message,
            })
            .collect(),
        id: j.id,
        status: j.status.to_string(),
        accepted: i64::from(j.accepted),
        duplicates_updated: i64::from(j.duplicates_updated),
        processed: i64::from(j.processed),
        created_at: time::rfc3339(&j.created_at),
        completed_at: j.completed_at.as_ref().map(time::rfc3339),
    }
}

/// A stored reason (code and message columns), when there is one.
fn reason_to_pb(code: Option<String>, message: Option<String>) -> Option<pb::ExpenseReason> {
    match (code, message) {
        (Some(code), Some(message)) => Some(pb::ExpenseReason { code, message }),
        _ => None,
    }
}

/// The wire form of a receipt.
pub fn receipt_to_pb(r: receipt::Model) -> Result<pb::Receipt, crate::CoreError> {
    let lines: Vec<receipts::StoredLine> = match &r.line_items_json {
        Some(json) => {
            serde_json::from_str(json).map_err(|err| crate::CoreError::Internal(format!("lines of {}: {err}", r.id)))?
        }
        None => Vec::new(),
    };
    let reason = reason_to_pb(r.reason_code, r.reason_message);
    Ok(pb::Receipt {
        id: r.id,
        created_at: time::rfc3339(&r.created_at),
        expense_id: r.expense_id,
        status: r.status.to_string(),
        content_type: r.content_type,
        size_bytes: r.size_bytes,
        sha256: r.sha256,
        merchant: r.merchant,
        date: r.date,
        total: r.total_minor.map(to_major),
        line_items: lines
            .into_iter()
            .map(|l| pb::ReceiptLineItem {
                description: l.description,
                amount: to_major(l.amount_minor),
                status: l.status,
                category: l.reason.clone(),
                reason: l.reason,
            })
            .collect(),
        eligible_amount: r.eligible_minor.map(to_major),
        reason,
        read_at: r.read_at.as_ref().map(time::rfc3339),
    })
}

/// Expenses with their receipts (one query for the page's receipts).
pub async fn expenses_to_pb(core: &Core, found: Vec<ExpenseView>) -> Result<Vec<pb::Expense>, crate::CoreError> {
    // Receipts only for the expenses that have some: a page without any
    // (most) costs no second statement.
    let ids: Vec<String> = found.iter().filter(|t| t.has_receipts).map(|t| t.expense_id.clone()).collect();
    let mut attached = receipts::receipts_of(&core.db, &ids).await?;
    found
        .into_iter()
        .map(|t| {
            let of_this = attached.remove(&t.expense_id).unwrap_or_default();
            expense_to_pb(t, of_this.into_iter().map(receipt_to_pb).collect::<Result<_, _>>()?)
        })
        .collect()
}

pub fn expense_to_pb(t: ExpenseView, receipts: Vec<pb::Receipt>) -> Result<pb::Expense, crate::CoreError> {
    let items: Vec<StoredItemResult> = match &t.item_results_json {
        Some(json) => {
            serde_json::from_str(json).map_err(|err| crate::CoreError::Internal(format!("items of {}: {err}", t.id)))?
        }
        None => Vec::new(),
    };
    let evidence: Vec<StoredEvidence> = match &t.evidence_json {
        Some(json) => serde_json::from_str(json)
            .map_err(|err| crate::CoreError::Internal(format!("evidence of {}: {err}", t.id)))?,
        None => Vec::new(),
    };
    let reason = reason_to_pb(t.reason_code, t.reason_message);
    Ok(pb::Expense {
        id: t.expense_id,
        user_id: t.user_id,
        connection_id: t.connection_id,
        external_transaction_id: t.external_transaction_id,
        date: t.date,
        amount: to_major(t.amount_minor),
        currency: t.currency,
        description: t.description,
        merchant: t.merchant_display_name.map(|name| pb::ExpenseMerchant { id: t.merchant_id, name }),
        status: t.status.to_string(),
        category: t.category,
        reason,
        receipts,
        adjudicated_at: t.adjudicated_at.as_ref().map(time::rfc3339),
        created_at: time::rfc3339(&t.created_at),
        updated_at: time::rfc3339(&t.updated_at),
        rule: t.rule,
        eligible_amount: t.eligible_amount_minor.map(to_major),
        items: items
            .into_iter()
            .map(|i| pb::ExpenseItem {
                description: i.description,
                amount: to_major(i.amount_minor),
                status: i.status,
                category: i.category,
            })
            .collect(),
        evidence: evidence
            .into_iter()
            .map(|e| pb::ExpenseEvidence { kind: e.kind, value: e.value, indicates: e.indicates })
            .collect(),
    })
}

#[tonic::async_trait]
impl Transactions for TransactionsService {
    async fn push_transactions(
        &self,
        request: Request<pb::PushTransactionsRequest>,
    ) -> Result<Response<pb::PushTransactionsResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let batch = ingest::parse_batch(req.transactions, time::now().date_naive())?;
        let queued = ingest::ingest(&self.core.db, &caller.partner_id, &req.user_id, &req.connection_id, batch).await?;
        Ok(Response::new(pb::PushTransactionsResponse {
            status: queued.status.to_string(),
            job_id: queued.id,
            accepted: i64::from(queued.accepted),
            duplicates_updated: i64::from(queued.duplicates_updated),
        }))
    }
}

#[tonic::async_trait]
impl Jobs for TransactionsService {
    async fn get_job(&self, request: Request<pb::GetJobRequest>) -> Result<Response<pb::Job>, Status> {
        let caller = accept(&request)?;
        let found =
            jobs::get_job(&self.core.db, &caller.partner_id, &request.get_ref().job_id, JobKind::IngestTransactions)
                .await?;
        Ok(Response::new(job_to_pb(found)))
    }
}

#[tonic::async_trait]
impl Expenses for TransactionsService {
    async fn list_expenses(
        &self,
        request: Request<pb::ListExpensesRequest>,
    ) -> Result<Response<pb::ListExpensesResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let filter = ExpenseFilter {
            status: req.status.as_deref().map(parse_status).transpose()?,
            connection_id: req.connection_id,
            from: req.from.as_deref().map(|d| parse_date("from", d)).transpose()?,
            to: req.to.as_deref().map(|d| parse_date("to", d)).transpose()?,
        };
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) =
            expenses::list_expenses(&self.core.db, &caller.partner_id, &req.user_id, filter, page).await?;
        Ok(Response::new(pb::ListExpensesResponse {
            data: expenses_to_pb(&self.core, found).await?,
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn get_expense(&self, request: Request<pb::GetExpenseRequest>) -> Result<Response<pb::Expense>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let found = expenses::get_expense(&self.core.db, &caller.partner_id, &req.user_id, &req.expense_id).await?;
        let mut rendered = expenses_to_pb(&self.core, vec![found]).await?;
        rendered.pop().map(Response::new).ok_or_else(|| crate::CoreError::Internal("an expense vanished".into()).into())
    }
}

#[tonic::async_trait]
impl Receipts for TransactionsService {
    async fn create_receipt(
        &self,
        request: Request<pb::CreateReceiptRequest>,
    ) -> Result<Response<pb::Receipt>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let created = receipts::create_receipt(
            &self.core.db,
            &self.core.vault,
            &caller.partner_id,
            &req.user_id,
            &req.expense_id,
            req.file,
            req.file_name,
        )
        .await?;
        // A kept copy for Idempotency-Key replays holds the file's name.
        let owner = ReplyOwner(created.user_id.clone());
        let mut response = Response::new(receipt_to_pb(created)?);
        response.extensions_mut().insert(owner);
        Ok(response)
    }

    async fn get_receipt(&self, request: Request<pb::GetReceiptRequest>) -> Result<Response<pb::Receipt>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let found =
            receipts::get_receipt(&self.core.db, &caller.partner_id, &req.user_id, &req.expense_id, &req.receipt_id)
                .await?;
        Ok(Response::new(receipt_to_pb(found)?))
    }
}
