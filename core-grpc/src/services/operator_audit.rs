//! The operator audit trail (docs/operations.md#operator-audit): every
//! change an operator makes through the `sail` binary (a partner created or
//! updated, a key issued or revoked, an encryption rotation) is recorded in
//! the same transaction as the change, with who made it. Listed with
//! `sail audit operator`. Key secrets are never recorded.

use entities::enums::OperatorActionKind;
use entities::operator_action;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;

/// Who runs an operator command: a name of at most [`Operator::MAX_CHARS`]
/// printable characters, as the trail records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator(String);

impl Operator {
    /// The longest name kept.
    pub const MAX_CHARS: usize = 200;

    /// The operator called `name`: trimmed, not empty, no control characters.
    pub fn parse(name: &str) -> Result<Operator, CoreError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > Self::MAX_CHARS || name.chars().any(char::is_control) {
            return Err(CoreError::invalid(
                "actor",
                format!("The actor must be 1 to {} printable characters.", Self::MAX_CHARS),
            ));
        }
        Ok(Operator(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One action, as recorded.
#[derive(Debug, Clone)]
pub struct Action<'a> {
    pub kind: OperatorActionKind,
    pub partner_id: Option<&'a str>,
    /// The key acted on, if any.
    pub subject: Option<&'a str>,
    /// What changed (scopes, origins, counts): never a secret.
    pub detail: Option<serde_json::Value>,
}

/// Records `action` by `by`, in the caller's transaction.
pub async fn record(db: &impl ConnectionTrait, by: &Operator, action: Action<'_>) -> Result<(), CoreError> {
    operator_action::ActiveModel {
        id: Set(new_id(IdKind::OperatorAction)),
        actor: Set(by.0.clone()),
        action: Set(action.kind),
        partner_id: Set(action.partner_id.map(str::to_string)),
        subject: Set(action.subject.map(str::to_string)),
        detail: Set(action.detail.map(|detail| detail.to_string())),
        created_at: Set(time::now()),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// The trail, newest first, optionally for one partner or one actor.
pub async fn list(
    db: &impl ConnectionTrait,
    partner_id: Option<&str>,
    actor: Option<&str>,
    limit: u64,
) -> Result<Vec<operator_action::Model>, CoreError> {
    let mut query = operator_action::Entity::find();
    if let Some(partner_id) = partner_id {
        query = query.filter(operator_action::Column::PartnerId.eq(partner_id));
    }
    if let Some(actor) = actor {
        query = query.filter(operator_action::Column::Actor.eq(actor));
    }
    Ok(query.order_by_desc(operator_action::Column::Id).limit(limit).all(db).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operator_is_a_bounded_printable_name() {
        assert_eq!(Operator::parse("  alice@ops-1 ").unwrap().as_str(), "alice@ops-1");
        for refused in ["", "   ", "bob\nmallory", &"x".repeat(201)] {
            assert!(Operator::parse(refused).is_err(), "{refused:?}");
        }
        assert!(Operator::parse(&"é".repeat(200)).is_ok());
    }
}
