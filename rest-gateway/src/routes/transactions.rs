//! Pushed transactions, ingestion jobs and expenses.

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{
    self, expenses_client::ExpensesClient, jobs_client::JobsClient, transactions_client::TransactionsClient,
};
use serde::Deserialize;
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::{JsonBody, QueryParams};

pub fn router() -> Router<Channel> {
    Router::new()
        .route("/users/{user_id}/connections/{connection_id}/transactions", post(push_transactions))
        .route("/jobs/{job_id}", get(get_job))
        .route("/users/{user_id}/expenses", get(list_expenses))
        .route("/users/{user_id}/expenses/{expense_id}", get(get_expense))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PushedTransactionBody {
    external_transaction_id: String,
    date: String,
    amount: f64,
    description: String,
    merchant_name: Option<String>,
    mcc: Option<String>,
    currency: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PushBody {
    transactions: Vec<PushedTransactionBody>,
}

async fn push_transactions(
    State(core): State<Channel>,
    ctx: CallContext,
    Path((user_id, connection_id)): Path<(String, String)>,
    JsonBody(body): JsonBody<PushBody>,
) -> Result<(StatusCode, Json<pb::PushTransactionsResponse>), ApiError> {
    let transactions = body
        .transactions
        .into_iter()
        .map(|t| pb::PushedTransaction {
            external_transaction_id: t.external_transaction_id,
            date: t.date,
            amount: t.amount,
            description: t.description,
            merchant_name: t.merchant_name,
            mcc: t.mcc,
            currency: t.currency,
        })
        .collect();
    let request = pb::PushTransactionsRequest { user_id, connection_id, transactions };
    let reply = TransactionsClient::new(core).push_transactions(ctx.request(request)).await?;
    Ok((StatusCode::ACCEPTED, Json(reply.into_inner())))
}

async fn get_job(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(job_id): Path<String>,
    query: QueryParams,
) -> Result<Json<pb::Job>, ApiError> {
    query.finish()?;
    let reply = JobsClient::new(core).get_job(ctx.request(pb::GetJobRequest { job_id })).await?;
    Ok(Json(reply.into_inner()))
}

async fn list_expenses(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(user_id): Path<String>,
    mut query: QueryParams,
) -> Result<Json<pb::ListExpensesResponse>, ApiError> {
    let request = pb::ListExpensesRequest {
        user_id,
        status: query.string("status"),
        connection_id: query.string("connection_id"),
        from: query.string("from"),
        to: query.string("to"),
        limit: query.integer("limit")?,
        offset: query.integer("offset")?,
    };
    query.finish()?;
    let reply = ExpensesClient::new(core).list_expenses(ctx.request(request)).await?;
    Ok(Json(reply.into_inner()))
}

async fn get_expense(
    State(core): State<Channel>,
    ctx: CallContext,
    Path((user_id, expense_id)): Path<(String, String)>,
    query: QueryParams,
) -> Result<Json<pb::Expense>, ApiError> {
    query.finish()?;
    let reply =
        ExpensesClient::new(core).get_expense(ctx.request(pb::GetExpenseRequest { user_id, expense_id })).await?;
    Ok(Json(reply.into_inner()))
}
