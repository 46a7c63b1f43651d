//! The audit trail of personal data (docs/pii.md#the-audit-trail): one row
//! per read of a user's identity, account numbers or export, and one per
//! deletion of a user, naming the partner, the key, the user token (none for
//! a deletion), the user, the operation, the request id and the time. It
//! never holds the data, so it outlives the user it names. The operator
//! lists it with `sail audit list`.

use entities::pii_read;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;

/// Who is reading, with which credentials: what the audit trail records.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    pub partner_id: &'a str,
    pub key_id: &'a str,
    pub user_token_id: &'a str,
    pub request_id: Option<&'a str>,
}

/// The REST form of the deletion of a user, as the trail names it.
pub const DELETION_ENDPOINT: &str = "DELETE /users/{user_id}";

/// Records one row of the trail, in the caller's transaction.
pub async fn record(
    db: &impl ConnectionTrait,
    reader: &Reader<'_>,
    user_id: &str,
    endpoint: &str,
    account_id: Option<&str>,
) -> Result<(), CoreError> {
    pii_read::ActiveModel {
        id: Set(new_id(IdKind::PiiRead)),
        partner_id: Set(reader.partner_id.to_string()),
        key_id: Set(reader.key_id.to_string()),
        user_token_id: Set(reader.user_token_id.to_string()),
        user_id: Set(user_id.to_string()),
        endpoint: Set(endpoint.to_string()),
        account_id: Set(account_id.map(str::to_string)),
        request_id: Set(reader.request_id.map(str::to_string)),
        created_at: Set(time::now()),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// The audit trail, newest first, optionally for one partner or one user.
pub async fn list_reads(
    db: &impl ConnectionTrait,
    partner_id: Option<&str>,
    user_id: Option<&str>,
    limit: u64,
) -> Result<Vec<pii_read::Model>, CoreError> {
    let mut query = pii_read::Entity::find();
    if let Some(partner_id) = partner_id {
        query = query.filter(pii_read::Column::PartnerId.eq(partner_id));
    }
    if let Some(user_id) = user_id {
        query = query.filter(pii_read::Column::UserId.eq(user_id));
    }
    Ok(query.order_by_desc(pii_read::Column::Id).limit(limit).all(db).await?)
}
