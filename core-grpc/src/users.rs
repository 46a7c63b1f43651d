//! End users of a partner: create, list, read. Every query is bounded to the
//! calling partner; another partner's user is indistinguishable from none.

use entities::user;
use sail_api::pb;
use sea_orm::SqlErr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};

use crate::domain::{CountryCode, Email, IdKind, Page, Phone, new_id, parse_id, time};
use crate::error::CoreError;

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

impl TryFrom<pb::CreateUserRequest> for NewUser {
    type Error = CoreError;

    /// Validates every field of CreateUser in docs/openapi.json; the error names the first bad one.
    fn try_from(request: pb::CreateUserRequest) -> Result<NewUser, CoreError> {
        let address = request.address.unwrap_or_default();
        let external_user_id = request.external_user_id;
        if external_user_id.trim().is_empty() {
            return Err(CoreError::invalid("external_user_id", "external_user_id is required."));
        }
        if external_user_id.chars().count() > 255 {
            return Err(CoreError::invalid("external_user_id", "external_user_id must be at most 255 characters."));
        }
        // Email and phone are taken exactly as sent (no trimming), so the
        // rule is the one the OpenAPI document states.
        let email = request
            .email
            .map(|e| Email::parse(&e).map_err(|err| CoreError::invalid("email", err.to_string())))
            .transpose()?;
        let phone = match request.phone {
            Some(p) if p.chars().count() > 32 => {
                return Err(CoreError::invalid("phone", "phone must be at most 32 characters."));
            }
            Some(p) => Some(Phone::parse(&p).map_err(|err| CoreError::invalid("phone", err.to_string()))?),
            None => None,
        };
        let country = text("address.country", address.country, 2)?
            .map(|c| CountryCode::parse(&c).map_err(|err| CoreError::invalid("address.country", err.to_string())))
            .transpose()?;
        Ok(NewUser {
            external_user_id,
            email,
            first_name: text("first_name", request.first_name, 255)?,
            last_name: text("last_name", request.last_name, 255)?,
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

/// Creates a user; a repeated `external_user_id` for the partner is `409`.
pub async fn create_user(db: &impl ConnectionTrait, partner_id: &str, new: NewUser) -> Result<user::Model, CoreError> {
    let now = time::now();
    let model = user::ActiveModel {
        id: Set(new_id(IdKind::User)),
        partner_id: Set(partner_id.to_string()),
        external_user_id: Set(new.external_user_id.clone()),
        status: Set(UserStatus::Active),
        email: Set(new.email.map(|e| e.as_str().to_string())),
        first_name: Set(new.first_name),
        last_name: Set(new.last_name),
        phone: Set(new.phone.map(|p| p.as_str().to_string())),
        address_street: Set(new.address.street),
        address_city: Set(new.address.city),
        address_state: Set(new.address.state),
        address_zip: Set(new.address.zip),
        address_country: Set(new.address.country.map(|c| c.as_str().to_string())),
        created_at: Set(now),
        updated_at: Set(now),
    };
    match model.insert(db).await {
        Ok(user) => Ok(user),
        Err(err) if matches!(err.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            Err(CoreError::UserAlreadyExists { external_user_id: new.external_user_id })
        }
        Err(err) => Err(err.into()),
    }
}

/// One user of the partner, or `not_found`.
pub async fn get_user(db: &impl ConnectionTrait, partner_id: &str, user_id: &str) -> Result<user::Model, CoreError> {
    let not_found = || CoreError::not_found("user", "user_id", user_id);
    let id = parse_id(IdKind::User, user_id).ok_or_else(not_found)?;
    user::Entity::find_by_id(id).filter(user::Column::PartnerId.eq(partner_id)).one(db).await?.ok_or_else(not_found)
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
) -> Result<(Vec<user::Model>, u64), CoreError> {
    let mut query = user::Entity::find().filter(user::Column::PartnerId.eq(partner_id));
    if let Some(status) = status {
        query = query.filter(user::Column::Status.eq(status.as_str()));
    }
    let total = query.clone().count(db).await?;
    let users = query.order_by_desc(user::Column::Id).limit(page.limit).offset(page.offset).all(db).await?;
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
