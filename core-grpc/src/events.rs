//! The partner's event log. Events are written with the connection that
//! made the change they announce, so an event exists exactly when its change
//! committed; delivery reads from here.

use entities::event;
use sea_orm::{ActiveModelTrait, ConnectionTrait, Set};

use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;

/// Event types.
pub mod kind {
    /// A pushed batch has been adjudicated.
    pub const TRANSACTIONS_INGESTED: &str = "transactions.ingested";
}

/// Records an event of `kind` with `data` for a partner.
pub async fn record(
    db: &impl ConnectionTrait,
    partner_id: &str,
    kind: &str,
    data: serde_json::Value,
) -> Result<event::Model, CoreError> {
    let model = event::ActiveModel {
        id: Set(new_id(IdKind::Event)),
        partner_id: Set(partner_id.to_string()),
        r#type: Set(kind.to_string()),
        data: Set(data.to_string()),
        created_at: Set(time::now()),
    };
    Ok(model.insert(db).await?)
}
