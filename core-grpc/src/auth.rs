//! The request path every gRPC call passes through before its handler:
//! authentication of the API key in `authorization` metadata, the per-key rate
//! limit, and the scope check against the access rule `proto/` declares for the
//! method. The authenticated [`Caller`] rides in the request extensions.
//!
//! PII operations take a second credential on the same path: the user token
//! in `sail-user-token` metadata, checked against the rule's
//! `user_token_scope` (so the rule has one source, the proto), its grant
//! riding in the extensions beside the caller for the handler to bind to the
//! user in the request.

use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;

use entities::api_key;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use http::{Request, Response};
use sail_api::access::{AccessRule, access_rule};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter};
use sha2::{Digest, Sha256};
use tower_http::auth::AsyncAuthorizeRequest;

use crate::domain::ScopeSet;
use crate::error::CoreError;
use crate::user_tokens::{self, TokenGrant};

/// The prefix of every API key secret.
pub const KEY_PREFIX: &str = "sk_";
/// Base62 characters after the prefix.
pub const KEY_SECRET_LEN: usize = 40;

/// A new API key secret: `sk_` + 40 base62 characters (about 238 bits).
pub fn generate_key_secret() -> String {
    crate::domain::random_token(KEY_PREFIX, KEY_SECRET_LEN)
}

/// The stored form of a key secret. The secrets are random and long, so a
/// plain SHA-256 is as strong as a slow hash and keeps lookups indexed.
pub fn hash_key_secret(secret: &str) -> String {
    crate::domain::hex(&Sha256::digest(secret.as_bytes()))
}

fn looks_like_key(secret: &str) -> bool {
    secret.len() == KEY_PREFIX.len() + KEY_SECRET_LEN
        && secret.starts_with(KEY_PREFIX)
        && secret[KEY_PREFIX.len()..].bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Who is calling: set by the authentication layer, read by every handler.
#[derive(Debug, Clone)]
pub struct Caller {
    pub partner_id: String,
    pub key_id: String,
    pub scopes: ScopeSet,
}

/// Reads the caller the authentication layer attached. A request without one
/// never reaches a handler; if it somehow did, it is refused, not served.
pub fn caller<T>(request: &tonic::Request<T>) -> Result<Caller, CoreError> {
    request.extensions().get::<Caller>().cloned().ok_or(CoreError::InvalidApiKey("No API key was provided."))
}

/// Reads the user-token grant the authentication layer attached to a PII
/// operation, and checks that it opens `user_id`.
pub fn token_grant_for<T>(request: &tonic::Request<T>, user_id: &str) -> Result<TokenGrant, CoreError> {
    let grant = request
        .extensions()
        .get::<TokenGrant>()
        .cloned()
        .ok_or_else(|| CoreError::Internal("a PII operation ran without a verified user token".into()))?;
    grant.require_user(user_id)?;
    Ok(grant)
}

/// Finds the active key for a presented `authorization` value.
pub async fn authenticate(db: &impl ConnectionTrait, authorization: Option<&str>) -> Result<Caller, CoreError> {
    let header =
        authorization.ok_or(CoreError::InvalidApiKey("No API key was provided. Send 'Authorization: Bearer sk_…'."))?;
    let secret = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .map(str::trim)
        .ok_or(CoreError::InvalidApiKey("The Authorization header must be 'Bearer sk_…'."))?;
    if !looks_like_key(secret) {
        return Err(CoreError::InvalidApiKey("The API key is malformed."));
    }
    let key = api_key::Entity::find()
        .filter(api_key::Column::SecretHash.eq(hash_key_secret(secret)))
        .one(db)
        .await?
        .filter(|key| key.revoked_at.is_none())
        .ok_or(CoreError::InvalidApiKey("The API key is unknown or has been revoked."))?;
    let scopes = ScopeSet::parse_csv(&key.scopes)
        .map_err(|err| CoreError::Internal(format!("stored scopes of {} do not parse: {err}", key.id)))?;
    Ok(Caller { partner_id: key.partner_id, key_id: key.id, scopes })
}

/// Whether `caller` may call a method with `rule`.
pub fn check_scope(caller: &Caller, rule: &AccessRule) -> Result<(), CoreError> {
    if rule.token_admin {
        return if caller.scopes.is_token_admin() {
            Ok(())
        } else {
            Err(CoreError::InsufficientKeyScope("This operation needs a token_admin key.".to_string()))
        };
    }
    if caller.scopes.is_token_admin() {
        // A token_admin key mints tokens and can do nothing else.
        return Err(CoreError::InsufficientKeyScope(
            "A token_admin key can only create and revoke user tokens; use a data key for this operation.".to_string(),
        ));
    }
    if rule.any_key_scope.is_empty() || rule.any_key_scope.iter().any(|s| caller.scopes.contains_name(s)) {
        Ok(())
    } else {
        Err(CoreError::InsufficientKeyScope(format!(
            "This API key lacks the scope this operation needs: {}.",
            rule.any_key_scope.join(" or ")
        )))
    }
}

/// Per-key token buckets (docs/contract.md#running: 100 rps, burst 200 by default). Each
/// core process keeps its own buckets.
pub struct RateLimits {
    limiter: Option<DefaultKeyedRateLimiter<String>>,
    burst: u32,
}

impl RateLimits {
    pub fn new(rps: u32, burst: u32) -> Self {
        let limiter = NonZeroU32::new(rps).map(|rps| {
            let burst = NonZeroU32::new(burst).unwrap_or(rps);
            RateLimiter::keyed(Quota::per_second(rps).allow_burst(burst))
        });
        RateLimits { limiter, burst }
    }

    /// `per_minute` operations a minute per key, all of them at once at most.
    pub fn per_minute(per_minute: u32) -> Self {
        let limiter = NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n)));
        RateLimits { limiter, burst: per_minute }
    }

    pub fn check(&self, key_id: &str) -> Result<(), CoreError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter.check_key(&key_id.to_string()).map_err(|not_until| CoreError::RateLimited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
            limit: self.burst,
        })
    }
}

/// The tower layer's authorizer (tower-http `AsyncRequireAuthorization`).
#[derive(Clone)]
pub struct Authenticator {
    db: DatabaseConnection,
    limits: Arc<RateLimits>,
}

impl Authenticator {
    pub fn new(db: DatabaseConnection, limits: Arc<RateLimits>) -> Self {
        Authenticator { db, limits }
    }

    async fn admit(
        &self,
        path: &str,
        authorization: Option<&str>,
        user_token: Option<&str>,
    ) -> Result<Option<(Caller, Option<TokenGrant>)>, CoreError> {
        let Some(rule) = access_rule(path) else {
            // Not a sail.v1 method: health, reflection, or unknown (tonic
            // answers UNIMPLEMENTED for those).
            return Ok(None);
        };
        if rule.public {
            return Ok(None);
        }
        let caller = authenticate(&self.db, authorization).await?;
        self.limits.check(&caller.key_id)?;
        if caller.scopes.is_token_admin() && user_token.is_some() {
            // The minting key must never be the key that uses a token: PII
            // needs two credentials.
            return Err(CoreError::InvalidKeyConfiguration(
                "A token_admin key mints user tokens and cannot present one; present it with a data key holding the operation's scope.".to_string(),
            ));
        }
        check_scope(&caller, rule)?;
        let grant = match rule.user_token_scope {
            Some(scope) => Some(user_tokens::verify(&self.db, &caller.partner_id, user_token, scope).await?),
            None => None,
        };
        Ok(Some((caller, grant)))
    }
}

type AuthFuture<B> = Pin<Box<dyn Future<Output = Result<Request<B>, Response<tonic::body::Body>>> + Send + 'static>>;

impl<B: Send + 'static> AsyncAuthorizeRequest<B> for Authenticator {
    type RequestBody = B;
    type ResponseBody = tonic::body::Body;
    type Future = AuthFuture<B>;

    fn authorize(&mut self, mut request: Request<B>) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let authorization =
                request.headers().get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string);
            // A token that is not visible ASCII is presented but unusable.
            let user_token = request
                .headers()
                .get(user_tokens::METADATA)
                .map(|v| v.to_str().map(str::to_string).unwrap_or_default());
            match this.admit(request.uri().path(), authorization.as_deref(), user_token.as_deref()).await {
                Ok(Some((caller, grant))) => {
                    request.extensions_mut().insert(caller);
                    if let Some(grant) = grant {
                        request.extensions_mut().insert(grant);
                    }
                    Ok(request)
                }
                Ok(None) => Ok(request),
                Err(err) => Err(tonic::Status::from(err).into_http()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(scopes: &str) -> Caller {
        Caller { partner_id: "ptn_x".into(), key_id: "key_x".into(), scopes: ScopeSet::parse_csv(scopes).unwrap() }
    }

    #[test]
    fn secrets_have_the_documented_format_and_hash_stably() {
        let secret = generate_key_secret();
        assert!(looks_like_key(&secret), "{secret}");
        assert_eq!(hash_key_secret(&secret), hash_key_secret(&secret));
        assert_eq!(hash_key_secret(&secret).len(), 64);
        assert_ne!(generate_key_secret(), secret);
    }

    #[test]
    fn scope_rules() {
        let any_data = AccessRule { public: false, any_key_scope: &[], token_admin: false, user_token_scope: None };
        let connections = AccessRule {
            public: false,
            any_key_scope: &["connections", "expenses"],
            token_admin: false,
            user_token_scope: None,
        };
        let tokens = AccessRule { public: false, any_key_scope: &[], token_admin: true, user_token_scope: None };
        assert!(check_scope(&caller("ingest"), &any_data).is_ok());
        assert!(check_scope(&caller("token_admin"), &any_data).is_err());
        assert!(check_scope(&caller("expenses"), &connections).is_ok());
        assert!(check_scope(&caller("ingest"), &connections).is_err());
        assert!(check_scope(&caller("token_admin"), &tokens).is_ok());
        assert!(check_scope(&caller("identity"), &tokens).is_err());
    }

    #[test]
    fn rate_limit_refuses_past_the_burst_and_reports_a_wait() {
        let limits = RateLimits::new(1, 2);
        assert!(limits.check("key_a").is_ok());
        assert!(limits.check("key_a").is_ok());
        match limits.check("key_a") {
            Err(CoreError::RateLimited { retry_after, limit }) => {
                assert_eq!(limit, 2);
                assert!(retry_after.as_millis() > 0);
            }
            other => panic!("{other:?}"),
        }
        assert!(limits.check("key_b").is_ok(), "buckets are per key");
        assert!(RateLimits::new(0, 0).check("key_a").is_ok());
    }
}
