//! Partner accounts and API keys. Keys are issued outside the API (docs/contract.md#keys-scopes-and-tenants),
//! by Sail's own team through the `sail` binary, which calls these functions.
//! Each change is recorded in the operator audit trail, in its own
//! transaction, with who made it (`operator_audit`).

use entities::enums::OperatorActionKind;
use entities::{api_key, partner};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
};
use serde_json::json;

use crate::domain::api_key::{generate_key_secret, hash_key_secret};
use crate::domain::embed_origin::{self, EmbedOrigin, MAX_EMBED_ORIGINS};
use crate::domain::scope::ScopeSetError;
use crate::domain::{IdKind, ScopeSet, new_id, time};
use crate::error::CoreError;
use crate::platform::db::begin_write;
use crate::services::operator_audit::{self, Action, Operator};

/// Creates a partner account.
pub async fn create_partner(db: &DatabaseConnection, by: &Operator, name: &str) -> Result<partner::Model, CoreError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CoreError::invalid("name", "A partner needs a name."));
    }
    let model = partner::ActiveModel {
        id: Set(new_id(IdKind::Partner)),
        name: Set(name.to_string()),
        embed_origins: Set(embed_origin::to_stored(&[])),
        created_at: Set(time::now()),
    };
    let txn = begin_write(db).await?;
    let created = model.insert(&*txn).await?;
    let action = Action {
        kind: OperatorActionKind::PartnerCreated,
        partner_id: Some(&created.id),
        subject: None,
        detail: Some(json!({"name": created.name})),
    };
    operator_audit::record(&*txn, by, action).await?;
    txn.commit().await?;
    Ok(created)
}

/// Every partner account, oldest first.
pub async fn list_partners(db: &impl ConnectionTrait) -> Result<Vec<partner::Model>, CoreError> {
    Ok(partner::Entity::find().order_by_asc(partner::Column::Id).all(db).await?)
}

/// Changes the origins allowed to frame a partner's hosted pages
/// (docs/hosted-sessions.md#embedding-in-an-iframe): `clear` first removes
/// every one, then `add` appends those not yet registered. Answers the
/// partner as stored.
pub async fn update_embed_origins(
    db: &DatabaseConnection,
    by: &Operator,
    partner_id: &str,
    clear: bool,
    add: &[EmbedOrigin],
) -> Result<partner::Model, CoreError> {
    let txn = begin_write(db).await?;
    let found = partner::Entity::find_by_id(partner_id)
        .one(&*txn)
        .await?
        .ok_or_else(|| CoreError::not_found("partner", "partner", partner_id))?;
    let mut origins = if clear { Vec::new() } else { embed_origin::stored(&found.embed_origins) };
    for origin in add {
        if !origins.contains(origin) {
            origins.push(origin.clone());
        }
    }
    if origins.len() > MAX_EMBED_ORIGINS {
        return Err(CoreError::invalid(
            "embed_origin",
            format!("A partner may register at most {MAX_EMBED_ORIGINS} embed origins."),
        ));
    }
    let mut changed: partner::ActiveModel = found.into();
    changed.embed_origins = Set(embed_origin::to_stored(&origins));
    let updated = changed.update(&*txn).await?;
    let origins: Vec<String> = origins.iter().map(ToString::to_string).collect();
    let action = Action {
        kind: OperatorActionKind::PartnerUpdated,
        partner_id: Some(&updated.id),
        subject: None,
        detail: Some(json!({"embed_origins": origins})),
    };
    operator_audit::record(&*txn, by, action).await?;
    txn.commit().await?;
    Ok(updated)
}

/// A newly issued key; the only time its secret exists outside the caller.
#[derive(Debug, Clone, serde::Serialize)]
pub struct IssuedKey {
    pub id: String,
    pub key: String,
    pub partner_id: String,
    pub scopes: Vec<String>,
}

/// Issues a key with `scopes` (comma-separated) for a partner. A key that
/// combines `token_admin` with another scope is `invalid_key_configuration`.
pub async fn create_key(
    db: &DatabaseConnection,
    by: &Operator,
    partner_id: &str,
    scopes: &str,
    name: Option<&str>,
) -> Result<IssuedKey, CoreError> {
    let scopes = ScopeSet::parse_csv(scopes).map_err(|err| match err {
        ScopeSetError::TokenAdminNotAlone => {
            CoreError::InvalidKeyConfiguration("A key holding token_admin cannot hold any other scope.".to_string())
        }
        other => CoreError::invalid("scopes", other.to_string()),
    })?;
    let txn = begin_write(db).await?;
    partner::Entity::find_by_id(partner_id)
        .one(&*txn)
        .await?
        .ok_or_else(|| CoreError::not_found("partner", "partner", partner_id))?;
    let secret = generate_key_secret();
    let model = api_key::ActiveModel {
        id: Set(new_id(IdKind::Key)),
        partner_id: Set(partner_id.to_string()),
        name: Set(name.map(str::to_string)),
        secret_hash: Set(hash_key_secret(&secret)),
        secret_last4: Set(secret[secret.len() - 4..].to_string()),
        scopes: Set(scopes.to_csv()),
        created_at: Set(time::now()),
        revoked_at: Set(None),
    }
    .insert(&*txn)
    .await?;
    // The key's id and scopes, never its secret.
    let action = Action {
        kind: OperatorActionKind::KeyCreated,
        partner_id: Some(&model.partner_id),
        subject: Some(&model.id),
        detail: Some(json!({"scopes": scopes.names(), "name": model.name})),
    };
    operator_audit::record(&*txn, by, action).await?;
    txn.commit().await?;
    Ok(IssuedKey { id: model.id, key: secret, partner_id: model.partner_id, scopes: scopes.names() })
}

/// A partner's keys, oldest first, never with secrets.
pub async fn list_keys(db: &impl ConnectionTrait, partner_id: &str) -> Result<Vec<api_key::Model>, CoreError> {
    partner::Entity::find_by_id(partner_id)
        .one(db)
        .await?
        .ok_or_else(|| CoreError::not_found("partner", "partner", partner_id))?;
    Ok(api_key::Entity::find()
        .filter(api_key::Column::PartnerId.eq(partner_id))
        .order_by_asc(api_key::Column::Id)
        .all(db)
        .await?)
}

/// Revokes a key at once; revoking twice keeps the first revocation time.
/// Only a revocation that changes something is recorded.
pub async fn revoke_key(db: &DatabaseConnection, by: &Operator, key_id: &str) -> Result<api_key::Model, CoreError> {
    let txn = begin_write(db).await?;
    let key = api_key::Entity::find_by_id(key_id)
        .one(&*txn)
        .await?
        .ok_or_else(|| CoreError::not_found("key", "key_id", key_id))?;
    if key.revoked_at.is_some() {
        return Ok(key);
    }
    let mut active: api_key::ActiveModel = key.into();
    active.revoked_at = Set(Some(time::now()));
    let revoked = active.update(&*txn).await?;
    let action = Action {
        kind: OperatorActionKind::KeyRevoked,
        partner_id: Some(&revoked.partner_id),
        subject: Some(&revoked.id),
        detail: None,
    };
    operator_audit::record(&*txn, by, action).await?;
    txn.commit().await?;
    Ok(revoked)
}

/// Records a finished encryption rotation by `by`: the key everything is
/// sealed under now, the rows re-sealed per table, the keys retired. The
/// re-sealing itself runs in many transactions; this is its last step.
pub async fn record_rotation(
    db: &DatabaseConnection,
    by: &Operator,
    summary: &crate::platform::rotation::RotationSummary,
) -> Result<(), CoreError> {
    let action = Action {
        kind: OperatorActionKind::EncryptionRotated,
        partner_id: None,
        subject: None,
        detail: Some(json!({
            "key_id": summary.key_id, "rows_resealed": summary.rows_resealed, "retired_keys": summary.retired_keys,
        })),
    };
    operator_audit::record(db, by, action).await
}
