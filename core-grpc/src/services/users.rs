//! End users of a partner: create, list, read, update (status and profile).
//! Every query is bounded to the calling partner; another partner's user is
//! indistinguishable from none. An `inactive` user keeps its data readable
//! but takes no new pushes, connections or hosted sessions
//! ([`require_active`]), and its syncs wait until it is active again.

use entities::enums::{ConnectionStatus, ConnectionType, JobKind};
use entities::{connection, user, user_data_key};
use sail_api::pb;
use sea_orm::sea_query::{Alias, CommonTableExpression, OnConflict, WithClause};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseBackend, DbErr, DerivePartialModel, EntityTrait,
    FromQueryResult, QueryFilter, QueryOrder, QueryTrait, Select, Set, SqlErr,
};

use crate::domain::{CountryCode, Email, IdKind, Page, Phone, new_id, parse_id, time};
use crate::error::CoreError;
use crate::platform::crypto::{Keyring, Sealer, columns};
use crate::platform::db::{begin_write, fetch_page_of};
use crate::platform::jobs::{self, NewJob};
use crate::platform::vault::Vault;
use crate::services::{audit, outbox};

pub use entities::enums::UserStatus;

/// The `status` filter of a user list.
pub fn parse_user_status(raw: &str) -> Result<UserStatus, CoreError> {
    UserStatus::parse(raw)
        .ok_or_else(|| CoreError::invalid("status", format!("status must be 'active' or 'inactive'; got '{raw}'.")))
}

/// The postal address of a profile; every part optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    pub street: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip: Option<String>,
    pub country: Option<CountryCode>,
}

/// A validated request to create a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUser {
    pub external_user_id: String,
    pub email: Option<Email>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<Phone>,
    pub address: Address,
}

/// A free-text field: trimmed, non-empty when present, at most `max` characters.
pub fn text(param: &str, value: Option<String>, max: usize) -> Result<Option<String>, CoreError> {
    match value {
        None => Ok(None),
        Some(v) if v.trim().is_empty() => {
            Err(CoreError::invalid(param, format!("{param} must not be empty when given.")))
        }
        Some(v) if v.chars().count() > max => {
            Err(CoreError::invalid(param, format!("{param} must be at most {max} characters.")))
        }
        Some(v) => Ok(Some(v.trim().to_string())),
    }
}

/// The profile fields a request gives, each validated by the rule the
/// OpenAPI document states: what creating and updating a user share.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GivenProfile {
    pub email: Option<Email>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<Phone>,
    pub address: Address,
}

impl GivenProfile {
    /// Validates the given fields; the error names the first bad one.
    fn parse(
        email: Option<String>,
        first_name: Option<String>,
        last_name: Option<String>,
        phone: Option<String>,
        address: Option<pb::Address>,
    ) -> Result<GivenProfile, CoreError> {
        let address = address.unwrap_or_default();
        // Email and phone are taken exactly as sent (no trimming), so the
        // rule is the one the OpenAPI document states.
        let email =
            email.map(|e| Email::parse(&e).map_err(|err| CoreError::invalid("email", err.to_string()))).transpose()?;
        let phone = match phone {
            Some(p) if p.chars().count() > 32 => {
                return Err(CoreError::invalid("phone", "phone must be at most 32 characters."));
            }
            Some(p) => Some(Phone::parse(&p).map_err(|err| CoreError::invalid("phone", err.to_string()))?),
            None => None,
        };
        let country = text("address.country", address.country, 2)?
            .map(|c| CountryCode::parse(&c).map_err(|err| CoreError::invalid("address.country", err.to_string())))
            .transpose()?;
        Ok(GivenProfile {
            email,
            first_name: text("first_name", first_name, 255)?,
            last_name: text("last_name", last_name, 255)?,
            phone,
            address: Address {
                street: text("address.street", address.street, 255)?,
                city: text("address.city", address.city, 255)?,
                state: text("address.state", address.state, 64)?,
                zip: text("address.zip", address.zip, 16)?,
                country,
            },
        })
    }
}

impl TryFrom<pb::CreateUserRequest> for NewUser {
    type Error = CoreError;

    /// Validates every field of CreateUser in docs/openapi.json; the error names the first bad one.
    fn try_from(request: pb::CreateUserRequest) -> Result<NewUser, CoreError> {
        let external_user_id = request.external_user_id;
        if external_user_id.trim().is_empty() {
            return Err(CoreError::invalid("external_user_id", "external_user_id is required."));
        }
        if external_user_id.chars().count() > 255 {
            return Err(CoreError::invalid("external_user_id", "external_user_id must be at most 255 characters."));
        }
        let given =
            GivenProfile::parse(request.email, request.first_name, request.last_name, request.phone, request.address)?;
        Ok(NewUser {
            external_user_id,
            email: given.email,
            first_name: given.first_name,
            last_name: given.last_name,
            phone: given.phone,
            address: given.address,
        })
    }
}

/// A validated change to a user: a new status, and the profile fields to
/// replace (those not given keep their value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserChange {
    pub status: Option<UserStatus>,
    pub profile: GivenProfile,
}

impl TryFrom<pb::UpdateUserRequest> for UserChange {
    type Error = CoreError;

    /// Validates UpdateUser as CreateUser is validated; the error names the
    /// first bad field.
    fn try_from(request: pb::UpdateUserRequest) -> Result<UserChange, CoreError> {
        let status = request.status.as_deref().map(parse_user_status).transpose()?;
        let profile =
            GivenProfile::parse(request.email, request.first_name, request.last_name, request.phone, request.address)?;
        Ok(UserChange { status, profile })
    }
}

/// Applies `change` to the partner's user: the given profile fields are
/// sealed in place of the old ones, and a change of status is recorded as
/// `user.deactivated` or `user.reactivated` in the same transaction. Made
/// active again, the user's provider-managed connections that are not
/// disconnected each get a sync queued, resuming what inactivity paused.
pub async fn update_user(
    db: &sea_orm::DatabaseConnection,
    vault: &Vault,
    partner_id: &str,
    user_id: &str,
    change: UserChange,
) -> Result<user::Model, CoreError> {
    let txn = begin_write(db).await?;
    let found = get_user(&*txn, partner_id, user_id).await?;
    let was = found.status;
    let id = found.id.clone();
    let sealer = vault.sealer_for_writing(&*txn, partner_id, &id).await?;
    let seal = |column, value: Option<&str>| Set(sealer.seal_opt(column, &id, value));
    let given = &change.profile;
    let mut model: user::ActiveModel = found.into();
    if let Some(email) = &given.email {
        model.email = seal(columns::USER_EMAIL, Some(email.as_str()));
    }
    if let Some(first_name) = &given.first_name {
        model.first_name = seal(columns::USER_FIRST_NAME, Some(first_name));
    }
    if let Some(last_name) = &given.last_name {
        model.last_name = seal(columns::USER_LAST_NAME, Some(last_name));
    }
    if let Some(phone) = &given.phone {
        model.phone = seal(columns::USER_PHONE, Some(phone.as_str()));
    }
    let address = &given.address;
    if let Some(street) = &address.street {
        model.address_street = seal(columns::USER_STREET, Some(street));
    }
    if let Some(city) = &address.city {
        model.address_city = seal(columns::USER_CITY, Some(city));
    }
    if let Some(state) = &address.state {
        model.address_state = seal(columns::USER_STATE, Some(state));
    }
    if let Some(zip) = &address.zip {
        model.address_zip = seal(columns::USER_ZIP, Some(zip));
    }
    if let Some(country) = &address.country {
        model.address_country = seal(columns::USER_COUNTRY, Some(country.as_str()));
    }
    if let Some(status) = change.status {
        model.status = Set(status);
    }
    model.updated_at = Set(time::now());
    let updated = model.update(&*txn).await?;
    match (was, updated.status) {
        (UserStatus::Active, UserStatus::Inactive) => {
            outbox::record(&txn, partner_id, &pb::UserDeactivatedData { user_id: updated.id.clone() }).await?;
        }
        (UserStatus::Inactive, UserStatus::Active) => {
            let syncs_queued = queue_syncs(&txn, partner_id, &updated.id).await?;
            let data = pb::UserReactivatedData { user_id: updated.id.clone(), syncs_queued };
            outbox::record(&txn, partner_id, &data).await?;
        }
        _ => {}
    }
    txn.commit().await?;
    Ok(updated)
}

/// Queues a sync of each of the user's provider-managed connections that
/// is not disconnected; returns how many.
async fn queue_syncs(txn: &crate::platform::db::WriteTxn, partner_id: &str, user_id: &str) -> Result<i64, CoreError> {
    let syncable = connection::Entity::find()
        .filter(connection::Column::PartnerId.eq(partner_id))
        .filter(connection::Column::UserId.eq(user_id))
        .filter(connection::Column::Type.ne(ConnectionType::External))
        .filter(connection::Column::Status.ne(ConnectionStatus::Disconnected))
        .order_by_asc(connection::Column::Id)
        .all(&**txn)
        .await?;
    for found in &syncable {
        let job = NewJob {
            partner_id,
            kind: JobKind::SyncConnection,
            user_id: Some(user_id),
            connection_id: Some(&found.id),
            accepted: 0,
            duplicates_updated: 0,
            payload: None,
        };
        jobs::enqueue(txn, job).await?;
    }
    Ok(syncable.len() as i64)
}

/// The partner's user, when it is active: `409 user_inactive` otherwise,
/// for the writes an inactive user does not take (pushes, new connections,
/// hosted sessions).
pub async fn require_active(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
) -> Result<user::Model, CoreError> {
    let found = get_user(db, partner_id, user_id).await?;
    if found.status == UserStatus::Inactive {
        return Err(CoreError::UserInactive { user_id: found.id });
    }
    Ok(found)
}

/// Creates a user; a repeated `external_user_id` for the partner is `409`.
/// The user gets a data key of its own first; the external id and every
/// profile field are sealed under it with the row's id bound; the external
/// id is unique through its blind index (under the service key).
pub async fn create_user(
    db: &impl ConnectionTrait,
    vault: &Vault,
    partner_id: &str,
    new: NewUser,
) -> Result<user::Model, CoreError> {
    let now = time::now();
    let id = new_id(IdKind::User);
    let keyring = vault.keyring();
    // The unique index on the blind index under the current key refuses a
    // repeat by itself (below). Only during a rotation may the same id be
    // indexed under a previous key, which that index cannot see: then it is
    // looked up first. (On a young PostgreSQL table the lookup's cached plan
    // read every user of the partner, docs/benchmarks.md.)
    if keyring.rotating() && find_by_external_id(db, keyring, partner_id, &new.external_user_id).await?.is_some() {
        return Err(CoreError::UserAlreadyExists);
    }
    // On PostgreSQL, with the keys in the main database, the user and its
    // data key are stored by one statement: one round trip and one commit
    // instead of two, and never a key without its user. SQLite cannot
    // write inside a `WITH`; a separate key store is another database.
    let together = db.get_database_backend() == DatabaseBackend::Postgres && !vault.is_separate();
    let (unstored, sealer) = if together {
        let unstored = vault.unstored_key_for_new_user(partner_id, &id);
        let sealer = vault.sealer_with(&unstored);
        (Some(unstored), sealer)
    } else {
        (None, vault.sealer_for_new_user(db, partner_id, &id).await?)
    };
    let seal = |column, value: Option<&str>| sealer.seal_opt(column, &id, value);
    let model = user::ActiveModel {
        id: Set(id.clone()),
        partner_id: Set(partner_id.to_string()),
        external_user_id: Set(sealer.seal(columns::USER_EXTERNAL_ID, &id, &new.external_user_id)),
        external_user_id_hash: Set(Some(external_id_index(keyring, partner_id, &new.external_user_id))),
        status: Set(UserStatus::Active),
        email: Set(seal(columns::USER_EMAIL, new.email.as_ref().map(Email::as_str))),
        first_name: Set(seal(columns::USER_FIRST_NAME, new.first_name.as_deref())),
        last_name: Set(seal(columns::USER_LAST_NAME, new.last_name.as_deref())),
        phone: Set(seal(columns::USER_PHONE, new.phone.as_ref().map(Phone::as_str))),
        address_street: Set(seal(columns::USER_STREET, new.address.street.as_deref())),
        address_city: Set(seal(columns::USER_CITY, new.address.city.as_deref())),
        address_state: Set(seal(columns::USER_STATE, new.address.state.as_deref())),
        address_zip: Set(seal(columns::USER_ZIP, new.address.zip.as_deref())),
        address_country: Set(seal(columns::USER_COUNTRY, new.address.country.as_ref().map(CountryCode::as_str))),
        created_at: Set(now),
        updated_at: Set(now),
    };
    let inserted = match &unstored {
        Some(unstored) => insert_with_key(db, model, unstored.row.clone()).await,
        None => model.insert(db).await,
    };
    match (&inserted, unstored) {
        (Ok(_), Some(stored)) => vault.remember(stored),
        // No user holds the key stored just before: it goes too (a failure
        // here leaves a key nothing is sealed under, which nothing reads).
        (Err(_), None) => {
            let _ = vault.destroy(db, &id).await;
        }
        // Stored together, a refused user left no key.
        (Ok(_), None) | (Err(_), Some(_)) => {}
    }
    match inserted {
        Ok(user) => Ok(user),
        Err(err) if matches!(err.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            Err(CoreError::UserAlreadyExists)
        }
        Err(err) => Err(err.into()),
    }
}

/// Stores a new user and its data key in one PostgreSQL statement (the key
/// inserted by a data-modifying `WITH`), so either both are stored or
/// neither is.
async fn insert_with_key(
    db: &impl ConnectionTrait,
    user: user::ActiveModel,
    key: user_data_key::ActiveModel,
) -> Result<user::Model, DbErr> {
    let key_insert = user_data_key::Entity::insert(key)
        .on_conflict(OnConflict::column(user_data_key::Column::UserId).do_nothing().to_owned())
        .into_query();
    let mut new_key = CommonTableExpression::new();
    new_key.query(key_insert).table_name(Alias::new("new_data_key"));
    let mut user_insert = user::Entity::insert(user).into_query();
    user_insert.with_cte(WithClause::new().cte(new_key).to_owned()).returning_all();
    let statement = db.get_database_backend().build(&user_insert);
    user::Model::find_by_statement(statement).one(db).await?.ok_or(DbErr::RecordNotInserted)
}

/// The blind index of a partner's external user id, under the current key.
fn external_id_index(keyring: &Keyring, partner_id: &str, external_user_id: &str) -> String {
    keyring.blind_index(columns::USER_EXTERNAL_ID, partner_id, external_user_id.as_bytes())
}

/// The partner's user with this external id, found by its blind index under
/// any configured key (a rotation may be half done).
pub async fn find_by_external_id(
    db: &impl ConnectionTrait,
    keyring: &Keyring,
    partner_id: &str,
    external_user_id: &str,
) -> Result<Option<user::Model>, CoreError> {
    let indexes = keyring.blind_indexes(columns::USER_EXTERNAL_ID, partner_id, external_user_id.as_bytes());
    Ok(user::Entity::find()
        .filter(user::Column::PartnerId.eq(partner_id))
        .filter(user::Column::ExternalUserIdHash.is_in(indexes))
        .one(db)
        .await?)
}

/// The partner's own id for user `user_id`, opened from its sealed form
/// (remembered opened: every user a list returns carries it, and opening 25
/// was a fifth of a page's cost, docs/benchmarks.md).
pub fn external_user_id(sealer: &Sealer<'_>, user_id: &str, sealed: &str) -> Result<String, CoreError> {
    Ok(sealer.open_remembered(columns::USER_EXTERNAL_ID, user_id, sealed)?)
}

/// The partner's own ids of `found`, in order: those opened recently come
/// from memory, and the data keys of the rest are read in one query.
pub async fn external_user_ids(
    db: &impl ConnectionTrait,
    vault: &Vault,
    found: &[UserSummary],
) -> Result<Vec<String>, CoreError> {
    let keyring = vault.keyring();
    let unopened: Vec<&str> = found
        .iter()
        .filter(|u| !keyring.remembers(columns::USER_EXTERNAL_ID, &u.id, &u.external_user_id))
        .map(|u| u.id.as_str())
        .collect();
    let mut keys = if unopened.is_empty() { Default::default() } else { vault.keys_of(db, &unopened).await? };
    found
        .iter()
        .map(|u| {
            let sealer = Sealer::new(keyring, keys.remove(&u.id));
            external_user_id(&sealer, &u.id, &u.external_user_id)
        })
        .collect()
}

/// The profile given at creation, opened: the identity record of source
/// `profile`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub email: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub street: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip: Option<String>,
    pub country: Option<String>,
}

/// Opens the profile fields of a user with its sealer.
pub fn profile(sealer: &Sealer<'_>, user: &user::Model) -> Result<Profile, CoreError> {
    let open = |column, value: &Option<String>| sealer.open_opt(column, &user.id, value.as_deref());
    Ok(Profile {
        email: open(columns::USER_EMAIL, &user.email)?,
        first_name: open(columns::USER_FIRST_NAME, &user.first_name)?,
        last_name: open(columns::USER_LAST_NAME, &user.last_name)?,
        phone: open(columns::USER_PHONE, &user.phone)?,
        street: open(columns::USER_STREET, &user.address_street)?,
        city: open(columns::USER_CITY, &user.address_city)?,
        state: open(columns::USER_STATE, &user.address_state)?,
        zip: open(columns::USER_ZIP, &user.address_zip)?,
        country: open(columns::USER_COUNTRY, &user.address_country)?,
    })
}

/// The user of the partner with `external_user_id`, created (with no
/// profile) when there is none: the token exchange of a token-scoped
/// integration. Returns the user and whether it was created.
pub async fn find_or_create(
    db: &impl ConnectionTrait,
    vault: &Vault,
    partner_id: &str,
    external_user_id: &str,
) -> Result<(user::Model, bool), CoreError> {
    let keyring = vault.keyring();
    if let Some(found) = find_by_external_id(db, keyring, partner_id, external_user_id).await? {
        return Ok((found, false));
    }
    let new = NewUser::try_from(pb::CreateUserRequest {
        external_user_id: external_user_id.to_string(),
        ..Default::default()
    })
    .map_err(|err| match err {
        CoreError::InvalidRequest { message, .. } => CoreError::invalid("external_user_id", message),
        other => other,
    })?;
    match create_user(db, vault, partner_id, new).await {
        Ok(created) => Ok((created, true)),
        // Another exchange for the same id won the race: use its user.
        Err(CoreError::UserAlreadyExists) => find_by_external_id(db, keyring, partner_id, external_user_id)
            .await?
            .map(|found| (found, false))
            .ok_or_else(|| CoreError::Internal("a user that already exists could not be found".into())),
        Err(err) => Err(err),
    }
}

/// What the user endpoints answer: a user without its profile. Read alone,
/// the nine sealed profile columns stay in the table (a user read or listed
/// copied and decoded every one of them for nothing).
#[derive(Debug, Clone, PartialEq, Eq, DerivePartialModel)]
#[sea_orm(entity = "user::Entity", from_query_result)]
pub struct UserSummary {
    pub id: String,
    pub external_user_id: String,
    pub status: UserStatus,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

impl From<user::Model> for UserSummary {
    fn from(user: user::Model) -> Self {
        UserSummary {
            id: user.id,
            external_user_id: user.external_user_id,
            status: user.status,
            created_at: user.created_at,
        }
    }
}

/// One user of the partner, as the user endpoints answer it, or `not_found`.
pub async fn get_user_summary(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
) -> Result<UserSummary, CoreError> {
    partner_user(partner_id, user_id)?
        .into_partial_model::<UserSummary>()
        .one(db)
        .await?
        .ok_or_else(|| user_not_found(user_id))
}

/// One user of the partner, or `not_found`.
pub async fn get_user(db: &impl ConnectionTrait, partner_id: &str, user_id: &str) -> Result<user::Model, CoreError> {
    partner_user(partner_id, user_id)?.one(db).await?.ok_or_else(|| user_not_found(user_id))
}

/// The query for one user of the partner (another partner's user is
/// indistinguishable from none), or `not_found` when `user_id` cannot be a
/// user's id.
fn partner_user(partner_id: &str, user_id: &str) -> Result<Select<user::Entity>, CoreError> {
    let id = parse_id(IdKind::User, user_id).ok_or_else(|| user_not_found(user_id))?;
    Ok(user::Entity::find_by_id(id).filter(user::Column::PartnerId.eq(partner_id)))
}

/// `user_id` if it can be a user's id, or the `not_found` an unknown
/// user gets: for reads that look the user up only when they must.
pub fn well_formed_user_id(user_id: &str) -> Result<&str, CoreError> {
    parse_id(IdKind::User, user_id).ok_or_else(|| user_not_found(user_id))
}

fn user_not_found(user_id: &str) -> CoreError {
    CoreError::not_found("user", "user_id", user_id)
}

/// A user by id, for internal work that already knows it exists.
pub async fn user_by_id(db: &impl ConnectionTrait, user_id: &str) -> Result<user::Model, CoreError> {
    user::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or_else(|| CoreError::Internal(format!("user {user_id} vanished")))
}

/// A page of the partner's users, newest first, and the total.
pub async fn list_users(
    db: &impl ConnectionTrait,
    partner_id: &str,
    status: Option<UserStatus>,
    page: Page,
) -> Result<(Vec<UserSummary>, u64), CoreError> {
    let mut query = user::Entity::find().filter(user::Column::PartnerId.eq(partner_id));
    if let Some(status) = status {
        query = query.filter(user::Column::Status.eq(status.as_str()));
    }
    let (users, total) = fetch_page_of(db, query.order_by_desc(user::Column::Id), page).await?;
    Ok((users, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> pb::CreateUserRequest {
        pb::CreateUserRequest { external_user_id: "p-1".into(), ..Default::default() }
    }

    fn address(address: pb::Address) -> pb::CreateUserRequest {
        pb::CreateUserRequest { address: Some(address), ..fields() }
    }

    fn param_of(result: Result<NewUser, CoreError>) -> String {
        match result {
            Err(CoreError::InvalidRequest { param, .. }) => param,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn minimal_user_parses() {
        assert_eq!(NewUser::try_from(fields()).unwrap().external_user_id, "p-1");
    }

    #[test]
    fn each_bad_field_is_named() {
        assert_eq!(
            param_of(NewUser::try_from(pb::CreateUserRequest { external_user_id: " ".into(), ..fields() })),
            "external_user_id"
        );
        assert_eq!(
            param_of(NewUser::try_from(pb::CreateUserRequest { email: Some("nope".into()), ..fields() })),
            "email"
        );
        assert_eq!(param_of(NewUser::try_from(pb::CreateUserRequest { phone: Some("x".into()), ..fields() })), "phone");
        assert_eq!(
            param_of(NewUser::try_from(address(pb::Address { country: Some("USA".into()), ..Default::default() }))),
            "address.country"
        );
        assert_eq!(
            param_of(NewUser::try_from(pb::CreateUserRequest { first_name: Some("".into()), ..fields() })),
            "first_name"
        );
        assert_eq!(
            param_of(NewUser::try_from(address(pb::Address { zip: Some("1".repeat(17)), ..Default::default() }))),
            "address.zip"
        );
    }

    #[test]
    fn status_parses() {
        assert_eq!(UserStatus::parse("inactive").unwrap(), UserStatus::Inactive);
        assert!(parse_user_status("deleted").is_err());
    }
}

/// What `delete_user` removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeletedUser {
    pub id: String,
    /// The connections closed with the user (`user.deleted` names them).
    pub connection_ids: Vec<String>,
}

/// Erases the partner's user (docs/pii.md#erasing-a-user). Its data key is
/// destroyed first: from then on nothing sealed under it opens, here or in
/// an earlier copy of the database (when the key store is kept apart).
/// Then, in one transaction: everything the user owns (connections,
/// accounts, expenses, receipts, identity records, hosted sessions, tokens,
/// jobs and the pushes they hold), the events that name the user with their
/// deliveries and attempts, and the user row (freeing its external id); and
/// `user.deleted` is recorded with ids only, and the deletion itself goes
/// into the audit trail (`actor`: the deleting key). The trail's earlier
/// rows stay: they hold who read and when, never the data. Should the transaction fail
/// after the key is gone, the user is still there but its personal values
/// no longer open; the same call again finishes the deletion.
pub async fn delete_user(
    db: &sea_orm::DatabaseConnection,
    vault: &Vault,
    actor: &audit::Reader<'_>,
    user_id: &str,
) -> Result<DeletedUser, CoreError> {
    let partner_id = actor.partner_id;
    use entities::{
        account, event, hosted_session, identity_record, job, pending_push, receipt, transaction, user_token,
        webhook_attempt, webhook_delivery,
    };

    let txn = begin_write(db).await?;
    let found = get_user(&*txn, partner_id, user_id).await?;
    let id = found.id;
    vault.destroy(&*txn, &id).await?;

    let connection_ids: Vec<String> = connection::Entity::find()
        .filter(connection::Column::PartnerId.eq(partner_id))
        .filter(connection::Column::UserId.eq(id.as_str()))
        .order_by_asc(connection::Column::Id)
        .all(&*txn)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect();
    // Every row below carries the user's id and its partner's; the partner
    // filter is what keeps one partner's deletion from touching another's.
    macro_rules! delete_owned {
        ($($entity:ident),* $(,)?) => {$(
            $entity::Entity::delete_many()
                .filter($entity::Column::PartnerId.eq(partner_id))
                .filter($entity::Column::UserId.eq(id.as_str()))
                .exec(&*txn)
                .await?;
        )*};
    }
    pending_push::Entity::delete_many()
        .filter(pending_push::Column::ConnectionId.is_in(connection_ids.iter().map(String::as_str)))
        .exec(&*txn)
        .await?;
    delete_owned!(transaction, receipt, identity_record, account, hosted_session, user_token, job, connection);
    // Replies kept for Idempotency-Key replays that are the user's.
    entities::idempotency_key::Entity::delete_many()
        .filter(entities::idempotency_key::Column::PartnerId.eq(partner_id))
        .filter(entities::idempotency_key::Column::UserId.eq(id.as_str()))
        .exec(&*txn)
        .await?;

    // Events name the user by id in their data (ids are unique, quoted).
    let naming_user = event::Entity::find()
        .filter(event::Column::PartnerId.eq(partner_id))
        .filter(event::Column::Data.contains(format!("\"{id}\"")));
    let event_ids: Vec<String> = naming_user.all(&*txn).await?.into_iter().map(|e| e.id).collect();
    for ids in event_ids.chunks(500) {
        webhook_attempt::Entity::delete_many()
            .filter(webhook_attempt::Column::EventId.is_in(ids.iter().map(String::as_str)))
            .exec(&*txn)
            .await?;
        webhook_delivery::Entity::delete_many()
            .filter(webhook_delivery::Column::EventId.is_in(ids.iter().map(String::as_str)))
            .exec(&*txn)
            .await?;
        event::Entity::delete_many()
            .filter(event::Column::Id.is_in(ids.iter().map(String::as_str)))
            .exec(&*txn)
            .await?;
    }
    user::Entity::delete_by_id(id.as_str()).exec(&*txn).await?;
    audit::record(&*txn, actor, &id, audit::DELETION_ENDPOINT, None).await?;
    let data = pb::UserDeletedData { user_id: id.clone(), connection_ids: connection_ids.clone() };
    outbox::record(&txn, partner_id, &data).await?;
    txn.commit().await?;
    Ok(DeletedUser { id, connection_ids })
}
