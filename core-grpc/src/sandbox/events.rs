//! Test events (`POST /sandbox/events`, docs/webhooks.md#test-events): an
//! event of any type, recorded and delivered to the partner's endpoints
//! exactly as a real one (signed, retried, in the events list), so a
//! receiver's handler for every type can be tested without staging what
//! would cause it. Its data has the type's schema; it names the user asked
//! for, and otherwise ids made for the test that name nothing.

use entities::event;
use sail_api::pb;

use crate::domain::{IdKind, new_id};
use crate::error::CoreError;
use crate::platform::db::{DatabaseConnection, begin_write};
use crate::services::events::EventType;
use crate::services::outbox::{self, NewEvent};
use crate::services::users;

/// Records and queues for delivery one test event of `kind` for a partner.
/// A `user_id` must be one of the partner's users.
pub async fn fire(
    db: &DatabaseConnection,
    partner_id: &str,
    kind: EventType,
    user_id: Option<&str>,
) -> Result<event::Model, CoreError> {
    let user_id = match user_id {
        Some(user_id) => users::get_user(db, partner_id, user_id).await?.id,
        None => new_id(IdKind::User),
    };
    let new = sample(partner_id, kind, &user_id)?;
    let txn = begin_write(db).await?;
    let recorded = outbox::record_all(&txn, vec![new]).await?;
    txn.commit().await?;
    recorded.into_iter().next().ok_or_else(|| CoreError::Internal("the test event was not recorded".to_string()))
}

/// A plausible event of `kind` about `user_id`, built from the type's data
/// message like every real one.
fn sample(partner_id: &str, kind: EventType, user_id: &str) -> Result<NewEvent, CoreError> {
    let user_id = user_id.to_string();
    let connection_id = new_id(IdKind::Connection);
    let job_id = new_id(IdKind::Job);
    let session_id = new_id(IdKind::HostedSession);
    let counts = Some(pb::EventCounts { eligible: 1, ineligible: 0, needs_review: 0 });
    match kind {
        EventType::TransactionsIngested => NewEvent::of(
            partner_id,
            &pb::TransactionsIngestedData {
                user_id,
                connection_id,
                job_id,
                accepted: 1,
                duplicates_updated: 0,
                counts,
                failed: None,
            },
        ),
        EventType::ConnectionSynced => NewEvent::of(
            partner_id,
            &pb::ConnectionSyncedData {
                user_id,
                connection_id,
                r#type: "card".to_string(),
                job_id,
                accepted: 1,
                duplicates_updated: 0,
                counts,
                accounts: 0,
            },
        ),
        EventType::ConnectionError => NewEvent::of(
            partner_id,
            &pb::ConnectionErrorData {
                connection_id,
                user_id,
                r#type: "card".to_string(),
                error: Some(pb::EventConnectionError {
                    code: "login_required".to_string(),
                    message: "The provider needs the user to sign in again. Open a reconnect hosted session to fix it."
                        .to_string(),
                    recoverable: true,
                }),
            },
        ),
        EventType::ConnectionRecovered => NewEvent::of(
            partner_id,
            &pb::ConnectionRecoveredData {
                connection_id,
                user_id,
                r#type: "card".to_string(),
                hosted_session_id: session_id,
            },
        ),
        EventType::ExpenseReadjudicated => NewEvent::of(
            partner_id,
            &pb::ExpenseReadjudicatedData {
                expense_id: new_id(IdKind::Expense),
                user_id,
                receipt_id: new_id(IdKind::Receipt),
                before: Some(pb::ExpenseBefore { status: "needs_review".to_string() }),
                after: Some(pb::ExpenseAfter {
                    status: "eligible".to_string(),
                    eligible_amount: Some(12.5),
                    reason: Some(pb::EventOptionalReason {
                        code: Some("receipt_lines_eligible".to_string()),
                        message: Some("Every line of the receipt is eligible.".to_string()),
                    }),
                }),
            },
        ),
        EventType::ReceiptUnreadable => NewEvent::of(
            partner_id,
            &pb::ReceiptUnreadableData {
                receipt_id: new_id(IdKind::Receipt),
                expense_id: new_id(IdKind::Expense),
                user_id,
                reason: Some(pb::EventReason {
                    code: "no_text".to_string(),
                    message: "No text could be read from the file.".to_string(),
                }),
            },
        ),
        EventType::JobFailed => NewEvent::of(
            partner_id,
            &pb::JobFailedData {
                job_id,
                kind: "ingest_transactions".to_string(),
                user_id: Some(user_id),
                connection_id: Some(connection_id),
                attempts: 5,
                error: Some(pb::EventReason {
                    code: "attempts_exhausted".to_string(),
                    message: "The job failed 5 times; Sail stopped trying. Push the rows again to retry.".to_string(),
                }),
            },
        ),
        EventType::HostedSessionCompleted => NewEvent::of(
            partner_id,
            &pb::HostedSessionCompletedData {
                hosted_session_id: session_id,
                user_id,
                flow: "connect_account".to_string(),
                connection_id: Some(connection_id),
                expense_id: None,
                receipt_id: None,
            },
        ),
        EventType::HostedSessionLoginFailed => NewEvent::of(
            partner_id,
            &pb::HostedSessionLoginFailedData {
                hosted_session_id: session_id,
                user_id,
                flow: "connect_account".to_string(),
                reason: "invalid_credentials".to_string(),
            },
        ),
        EventType::UserDeactivated => NewEvent::of(partner_id, &pb::UserDeactivatedData { user_id }),
        EventType::UserReactivated => NewEvent::of(partner_id, &pb::UserReactivatedData { user_id, syncs_queued: 0 }),
        EventType::UserDeleted => {
            NewEvent::of(partner_id, &pb::UserDeletedData { user_id, connection_ids: vec![connection_id] })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_type_has_a_sample_of_its_own_type() {
        for kind in EventType::ALL {
            let event = sample("ptn_x", *kind, "usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b").unwrap();
            assert_eq!(event.kind, *kind);
            assert_eq!(event.data["user_id"], "usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b", "{kind}");
        }
    }
}
