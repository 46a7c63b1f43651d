//! User tokens (docs/pii.md): the second credential personal data needs. A
//! `token_admin` key mints one for a user and a subset of the PII scopes;
//! a workload key presents it on `identity` and `account_numbers` reads.
//! Tokens are random, stored as SHA-256, bound to a partner, a user and
//! scopes, refused from the second they expire, and refused on the next
//! request once revoked (every check reads the database).

use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};
use entities::{user, user_token};
use sail_api::pb;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};

use crate::domain::{IdKind, Scope, hex, new_id, parse_id, random_token, time};
use crate::error::{CoreError, UserTokenProblem};
use crate::platform::db::begin_write;
use crate::platform::vault::Vault;
use crate::services::users;

/// The prefix of every user token.
pub const TOKEN_PREFIX: &str = "ut_";
/// Base62 characters after the prefix (about 256 bits).
pub const TOKEN_SECRET_LEN: usize = 43;
/// The lifetime of a token minted without `ttl_seconds`.
pub const DEFAULT_TTL: Duration = Duration::from_secs(900);
/// The longest lifetime a token can have.
pub const MAX_TTL: Duration = Duration::from_secs(3600);
/// The metadata a token arrives in (the REST `Sail-User-Token` header).
pub const METADATA: &str = "sail-user-token";

/// The scopes a user token can carry.
pub const PII_SCOPES: [Scope; 2] = [Scope::Identity, Scope::AccountNumbers];

/// Who a token names: an existing user, or the partner's own id for one
/// (created when missing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSubject {
    UserId(String),
    ExternalUserId(String),
}

/// A validated mint request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUserToken {
    pub subject: TokenSubject,
    pub scopes: Vec<Scope>,
    pub ttl: Duration,
}

impl TryFrom<pb::CreateUserTokenRequest> for NewUserToken {
    type Error = CoreError;

    fn try_from(request: pb::CreateUserTokenRequest) -> Result<Self, CoreError> {
        let subject = match (request.user_id, request.external_user_id) {
            (Some(_), Some(_)) => {
                return Err(CoreError::invalid("external_user_id", "Give user_id or external_user_id, not both."));
            }
            (Some(id), None) => TokenSubject::UserId(id),
            (None, Some(external)) => {
                if external.trim().is_empty() {
                    return Err(CoreError::invalid("external_user_id", "external_user_id must not be blank."));
                }
                TokenSubject::ExternalUserId(external)
            }
            (None, None) => {
                return Err(CoreError::invalid(
                    "user_id",
                    "Name the user: give user_id, or external_user_id to create the user when there is none.",
                ));
            }
        };
        let mut scopes = Vec::new();
        for (index, name) in request.scopes.iter().enumerate() {
            let scope = Scope::parse(name).filter(|s| PII_SCOPES.contains(s)).ok_or_else(|| {
                CoreError::invalid(
                    format!("scopes.{index}"),
                    "A user token's scopes are identity and account_numbers.".to_string(),
                )
            })?;
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        if scopes.is_empty() {
            return Err(CoreError::invalid("scopes", "scopes must name identity, account_numbers or both."));
        }
        let ttl = match request.ttl_seconds {
            None => DEFAULT_TTL,
            Some(seconds) if (1..=MAX_TTL.as_secs() as i64).contains(&seconds) => Duration::from_secs(seconds as u64),
            Some(_) => {
                return Err(CoreError::invalid(
                    "ttl_seconds",
                    format!("ttl_seconds must be from 1 to {}.", MAX_TTL.as_secs()),
                ));
            }
        };
        Ok(NewUserToken { subject, scopes, ttl })
    }
}

/// A minted token: the stored row, the credential (shown once), and
/// whether the exchange created the user.
#[derive(Debug)]
pub struct Minted {
    pub token: user_token::Model,
    pub secret: String,
    pub user_created: bool,
}

fn hash_token(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

fn looks_like_token(secret: &str) -> bool {
    secret.len() == TOKEN_PREFIX.len() + TOKEN_SECRET_LEN
        && secret.starts_with(TOKEN_PREFIX)
        && secret[TOKEN_PREFIX.len()..].bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The scopes column of a token.
pub fn scopes_of(token: &user_token::Model) -> Vec<String> {
    token.scopes.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// Mints a token for the calling partner's user; by external id, the user
/// is created in the same transaction when missing.
/// `partner_id` and `key_id` are the minting token_admin key's.
pub async fn mint(
    db: &DatabaseConnection,
    vault: &Vault,
    (partner_id, key_id): (&str, &str),
    new: NewUserToken,
) -> Result<Minted, CoreError> {
    let txn = begin_write(db).await?;
    let (owner, user_created): (user::Model, bool) = match &new.subject {
        TokenSubject::UserId(id) => (users::get_user(&*txn, partner_id, id).await?, false),
        TokenSubject::ExternalUserId(external) => users::find_or_create(&*txn, vault, partner_id, external).await?,
    };
    let now = time::now();
    let secret = random_token(TOKEN_PREFIX, TOKEN_SECRET_LEN);
    // Expiry falls on the whole second that `expires_at` shows (rounded up,
    // so a token never lives shorter than asked): refused from that second.
    let next_second = now.with_nanosecond(0).unwrap_or(now) + chrono::Duration::seconds(1);
    let expires_at = next_second + chrono::Duration::from_std(new.ttl).unwrap_or_default();
    let token = user_token::ActiveModel {
        id: Set(new_id(IdKind::UserToken)),
        partner_id: Set(partner_id.to_string()),
        user_id: Set(owner.id),
        key_id: Set(key_id.to_string()),
        token_hash: Set(hash_token(&secret)),
        scopes: Set(new.scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(",")),
        expires_at: Set(expires_at),
        created_at: Set(now),
        revoked_at: Set(None),
    }
    .insert(&*txn)
    .await?;
    txn.commit().await?;
    Ok(Minted { token, secret, user_created })
}

/// Revokes one of the partner's tokens at once; revoking again is a no-op
/// that answers the token as it is.
pub async fn revoke(
    db: &impl ConnectionTrait,
    partner_id: &str,
    token_id: &str,
) -> Result<user_token::Model, CoreError> {
    let not_found = || CoreError::not_found("user token", "user_token_id", token_id);
    let id = parse_id(IdKind::UserToken, token_id).ok_or_else(not_found)?;
    let found = user_token::Entity::find_by_id(id)
        .filter(user_token::Column::PartnerId.eq(partner_id))
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    if found.revoked_at.is_some() {
        return Ok(found);
    }
    let mut revoked: user_token::ActiveModel = found.into();
    revoked.revoked_at = Set(Some(time::now()));
    Ok(revoked.update(db).await?)
}

/// `active`, `expired` or `revoked` at `now`.
pub fn status_at(token: &user_token::Model, now: DateTime<Utc>) -> &'static str {
    if token.revoked_at.is_some() {
        "revoked"
    } else if now >= token.expires_at {
        "expired"
    } else {
        "active"
    }
}

/// What a verified token grants: one user of the partner, for the scope
/// the operation needs. Rides in the request extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenGrant {
    pub token_id: String,
    pub user_id: String,
}

impl TokenGrant {
    /// A token opens only the user it was minted for.
    pub fn require_user(&self, user_id: &str) -> Result<(), CoreError> {
        if self.user_id == user_id {
            Ok(())
        } else {
            Err(CoreError::user_token(
                UserTokenProblem::Mismatch,
                "This user token was minted for another user; mint one for the user in the path.",
            ))
        }
    }
}

/// Checks a token presented to `partner_id` for an operation that needs
/// `scope`, in the order docs/pii.md gives: missing, malformed or unknown
/// or revoked, another partner's, expired, lacking the scope.
pub async fn verify(
    db: &impl ConnectionTrait,
    partner_id: &str,
    presented: Option<&str>,
    scope: &str,
) -> Result<TokenGrant, CoreError> {
    let presented = presented.ok_or(CoreError::user_token(
        UserTokenProblem::Required,
        "This operation needs a user token in the Sail-User-Token header (mint one with POST /user-tokens).",
    ))?;
    let invalid =
        || CoreError::user_token(UserTokenProblem::Invalid, "The user token is malformed, unknown or revoked.");
    if !looks_like_token(presented) {
        return Err(invalid());
    }
    let found = user_token::Entity::find()
        .filter(user_token::Column::TokenHash.eq(hash_token(presented)))
        .one(db)
        .await?
        .filter(|t| t.revoked_at.is_none())
        .ok_or_else(invalid)?;
    if found.partner_id != partner_id {
        return Err(CoreError::user_token(
            UserTokenProblem::Mismatch,
            "This user token was minted for another partner account.",
        ));
    }
    if time::now() >= found.expires_at {
        return Err(CoreError::user_token(
            UserTokenProblem::Expired,
            "The user token has expired; mint a new one with POST /user-tokens.",
        ));
    }
    if !scopes_of(&found).iter().any(|s| s == scope) {
        return Err(CoreError::user_token(
            UserTokenProblem::InsufficientScope,
            "The user token does not carry the scope this operation needs.",
        ));
    }
    Ok(TokenGrant { token_id: found.id, user_id: found.user_id })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> pb::CreateUserTokenRequest {
        pb::CreateUserTokenRequest {
            user_id: Some("usr_1".into()),
            external_user_id: None,
            scopes: vec!["identity".into()],
            ttl_seconds: None,
        }
    }

    fn param_of(result: Result<NewUserToken, CoreError>) -> String {
        match result {
            Err(CoreError::InvalidRequest { param, .. }) => param,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_mint_request_parses_with_defaults() {
        let parsed = NewUserToken::try_from(request()).unwrap();
        assert_eq!(parsed.subject, TokenSubject::UserId("usr_1".into()));
        assert_eq!(parsed.scopes, vec![Scope::Identity]);
        assert_eq!(parsed.ttl, DEFAULT_TTL);
        let both = pb::CreateUserTokenRequest {
            scopes: vec!["account_numbers".into(), "identity".into(), "identity".into()],
            ttl_seconds: Some(3600),
            ..request()
        };
        let parsed = NewUserToken::try_from(both).unwrap();
        assert_eq!(parsed.scopes, vec![Scope::AccountNumbers, Scope::Identity]);
        assert_eq!(parsed.ttl, MAX_TTL);
    }

    #[test]
    fn each_bad_field_is_named() {
        let none = pb::CreateUserTokenRequest { user_id: None, ..request() };
        assert_eq!(param_of(NewUserToken::try_from(none)), "user_id");
        let both = pb::CreateUserTokenRequest { external_user_id: Some("p-1".into()), ..request() };
        assert_eq!(param_of(NewUserToken::try_from(both)), "external_user_id");
        let scope = pb::CreateUserTokenRequest { scopes: vec!["identity".into(), "expenses".into()], ..request() };
        assert_eq!(param_of(NewUserToken::try_from(scope)), "scopes.1");
        let admin = pb::CreateUserTokenRequest { scopes: vec!["token_admin".into()], ..request() };
        assert_eq!(param_of(NewUserToken::try_from(admin)), "scopes.0");
        let empty = pb::CreateUserTokenRequest { scopes: vec![], ..request() };
        assert_eq!(param_of(NewUserToken::try_from(empty)), "scopes");
        for ttl in [0, -5, 3601] {
            let bad = pb::CreateUserTokenRequest { ttl_seconds: Some(ttl), ..request() };
            assert_eq!(param_of(NewUserToken::try_from(bad)), "ttl_seconds");
        }
    }

    #[test]
    fn tokens_have_the_documented_form() {
        let secret = random_token(TOKEN_PREFIX, TOKEN_SECRET_LEN);
        assert!(looks_like_token(&secret), "{secret}");
        assert!(!looks_like_token("ut_short"));
        assert!(!looks_like_token(&secret.replace("ut_", "sk_")));
        assert_eq!(hash_token(&secret).len(), 64);
    }

    #[test]
    fn expiry_is_exact_to_the_second() {
        let now = time::now();
        let token = user_token::Model {
            id: "utok_1".into(),
            partner_id: "ptn_1".into(),
            user_id: "usr_1".into(),
            key_id: "key_1".into(),
            token_hash: "h".into(),
            scopes: "identity".into(),
            expires_at: now,
            created_at: now,
            revoked_at: None,
        };
        assert_eq!(status_at(&token, now - chrono::Duration::milliseconds(1)), "active");
        assert_eq!(status_at(&token, now), "expired");
        assert_eq!(status_at(&user_token::Model { revoked_at: Some(now), ..token }, now), "revoked");
    }
}
