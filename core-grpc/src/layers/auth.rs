//! The request path every gRPC call passes through before its handler:
//! authentication of the API key in `authorization` metadata, the per-key rate
//! limit, and the scope check against the access rule `proto/` declares for the
//! method. The authenticated [`Caller`] rides in the request extensions.
//!
//! Verified keys are kept for a second ([`KeyCache`]), so the hot path reads
//! no database and a revocation reaches every core within that second.
//! Requests that bring no verified key (each costs a lookup) are limited per
//! client address ([`AddressLimits`]) before the lookup is made.
//!
//! PII operations take a second credential on the same path: the user token
//! in `sail-user-token` metadata, checked against the rule's
//! `user_token_scope` (so the rule has one source, the proto), its grant
//! riding in the extensions beside the caller for the handler to bind to the
//! user in the request.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;

use entities::api_key;
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use http::{Request, Response};
use sail_api::access::{AccessRule, access_rule};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter};
use tower_http::auth::AsyncAuthorizeRequest;

use crate::domain::ScopeSet;
use crate::domain::api_key::{hash_key_secret, looks_like_key};
use crate::error::CoreError;
use crate::platform::memo::Memo;
use crate::platform::shared_limits::{SharedBuckets, Taken};
use crate::services::user_tokens::{self, TokenGrant};

/// Metadata in which a trusted gateway forwards its client's IP address.
pub const CLIENT_ADDR: &str = "sail-client-addr";

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

/// The key secret of an `authorization` value, when it is well-formed.
fn presented_secret(authorization: Option<&str>) -> Result<&str, CoreError> {
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
    Ok(secret)
}

/// Finds the active key for a presented `authorization` value.
pub async fn authenticate(db: &impl ConnectionTrait, authorization: Option<&str>) -> Result<Caller, CoreError> {
    let secret = presented_secret(authorization)?;
    lookup_key(db, &hash_key_secret(secret)).await
}

/// Reads the active key whose secret hashes to `secret_hash`.
/// What a key that is unknown or revoked is told.
const UNKNOWN_KEY: &str = "The API key is unknown or has been revoked.";

async fn lookup_key(db: &impl ConnectionTrait, secret_hash: &str) -> Result<Caller, CoreError> {
    let key = api_key::Entity::find()
        .filter(api_key::Column::SecretHash.eq(secret_hash))
        .one(db)
        .await?
        .filter(|key| key.revoked_at.is_none())
        .ok_or(CoreError::InvalidApiKey(UNKNOWN_KEY))?;
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

/// Per-key token buckets (docs/contract.md#running: 100 rps, burst 200 by
/// default). Each core keeps its own buckets, unless shared ones are given
/// ([`RateLimits::shared`]): then every core of the fleet takes from the same
/// bucket in Redis, and falls back to its own only while Redis cannot be
/// reached (a limit that holds per core beats refusing every request).
pub struct RateLimits {
    limiter: Option<DefaultKeyedRateLimiter<String>>,
    burst: u32,
    /// One token per this interval.
    emission: std::time::Duration,
    shared: Option<(Arc<SharedBuckets>, &'static str)>,
    /// What is counted, as a refusal names it: "requests for this API key".
    of: &'static str,
}

/// What the per-key limits count, as a refusal names it.
const PER_KEY: &str = "requests for this API key";

impl RateLimits {
    pub fn new(rps: u32, burst: u32) -> Self {
        let limiter = NonZeroU32::new(rps).map(|rps| {
            let burst = NonZeroU32::new(burst).unwrap_or(rps);
            RateLimiter::keyed(Quota::per_second(rps).allow_burst(burst))
        });
        let emission = std::time::Duration::from_secs(1) / rps.max(1);
        RateLimits { limiter, burst: burst.max(1), emission, shared: None, of: PER_KEY }
    }

    /// `per_minute` operations a minute per key, all of them at once at most.
    pub fn per_minute(per_minute: u32) -> Self {
        let limiter = NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n)));
        let emission = std::time::Duration::from_secs(60) / per_minute.max(1);
        RateLimits { limiter, burst: per_minute, emission, shared: None, of: PER_KEY }
    }

    /// The same limits, naming what they count as `of` in a refusal.
    pub fn counting(mut self, of: &'static str) -> Self {
        self.of = of;
        self
    }

    /// The same limits, kept in `buckets` under keys named `name`, shared by
    /// every core that uses the same Redis.
    pub fn shared(mut self, buckets: Arc<SharedBuckets>, name: &'static str) -> Self {
        self.shared = Some((buckets, name));
        self
    }

    pub async fn check(&self, key_id: &str) -> Result<(), CoreError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if let Some((buckets, name)) = &self.shared {
            match buckets.take(&format!("sail:rate:{name}:{key_id}"), self.emission, self.burst).await {
                Ok(Taken::Admitted) => return Ok(()),
                Ok(Taken::Refused(retry_after)) => {
                    metrics::counter!("sail_rate_limited_total", "limit" => self.of).increment(1);
                    return Err(CoreError::RateLimited { retry_after, limit: self.burst, of: self.of });
                }
                Err(err) => {
                    tracing::warn!(error = %err, "shared rate limits unreachable; limiting in this core alone");
                }
            }
        }
        limiter.check_key(&key_id.to_string()).map_err(|not_until| {
            metrics::counter!("sail_rate_limited_total", "limit" => self.of).increment(1);
            CoreError::RateLimited {
                // The limiter's own clock: a new one calibrates itself (CPUID
                // instructions, slow under a hypervisor), which made a refusal
                // cost more than an answer.
                retry_after: not_until.wait_time_from(limiter.clock().now()),
                limit: self.burst,
                of: self.of,
            }
        })
    }
}

/// API keys verified in the last `ttl`, by secret hash: authentication
/// without a database round trip on the hot path. Entries are never
/// updated, only dropped at `ttl`, so a key revoked or re-scoped (by
/// `sail keys`, on any core) is read afresh within `ttl` everywhere. Keys
/// found unknown or revoked are remembered for as long, so a client
/// repeating a wrong key costs one lookup per `ttl`, not one per request.
pub struct KeyCache {
    verified: Memo<String, Caller>,
    refused: Memo<String, ()>,
}

/// Keys a core keeps verified at once; beyond it, keys seen once are
/// evicted first (`memo`).
const KEY_CACHE_CAPACITY: usize = 100_000;

impl KeyCache {
    pub fn new(ttl: std::time::Duration) -> Self {
        KeyCache { verified: Memo::expiring(KEY_CACHE_CAPACITY, ttl), refused: Memo::expiring(KEY_CACHE_CAPACITY, ttl) }
    }

    fn get(&self, secret_hash: &str) -> Option<Caller> {
        self.verified.get(secret_hash)
    }

    fn insert(&self, secret_hash: String, caller: Caller) {
        self.verified.insert(secret_hash, caller);
    }

    fn was_refused(&self, secret_hash: &str) -> bool {
        self.refused.get(secret_hash).is_some()
    }

    fn refuse(&self, secret_hash: String) {
        self.refused.insert(secret_hash, ());
    }
}

/// Requests that bring no verified key, limited per client address: each
/// costs a database lookup, and nothing else bounds them. Burst: twice the
/// rate.
pub struct AddressLimits {
    /// The same token buckets as the per-key limits, keyed by address and
    /// always this core's own.
    limits: RateLimits,
    trusted_gateways: Vec<IpAddr>,
}

impl AddressLimits {
    pub fn new(rps: u32, trusted_gateways: impl IntoIterator<Item = IpAddr>) -> Self {
        let limits =
            RateLimits::new(rps, rps.saturating_mul(2)).counting("requests without a valid API key from this address");
        AddressLimits { limits, trusted_gateways: trusted_gateways.into_iter().collect() }
    }

    /// The client's address: the peer's own, or the one a trusted gateway
    /// forwards for it. A call without a peer came from the gateway in the
    /// same process (`server::in_process`), which is trusted.
    fn client(&self, peer: Option<IpAddr>, forwarded: Option<&str>) -> Option<IpAddr> {
        let trusted = peer.is_none_or(|p| p.is_loopback() || self.trusted_gateways.contains(&p));
        match forwarded.and_then(|f| f.parse::<IpAddr>().ok()) {
            Some(client) if trusted => Some(client),
            _ => peer,
        }
    }

    async fn check(&self, client: Option<IpAddr>) -> Result<(), CoreError> {
        match client {
            Some(client) => self.limits.check(&client.to_string()).await,
            None => Ok(()),
        }
    }
}

/// The tower layer's authorizer (tower-http `AsyncRequireAuthorization`).
#[derive(Clone)]
pub struct Authenticator {
    db: DatabaseConnection,
    limits: Arc<RateLimits>,
    keys: Arc<KeyCache>,
    addresses: Arc<AddressLimits>,
}

/// Where a call came from, for [`AddressLimits`].
struct Origin<'a> {
    peer: Option<IpAddr>,
    forwarded: Option<&'a str>,
}

impl Authenticator {
    pub fn new(
        db: DatabaseConnection,
        limits: Arc<RateLimits>,
        keys: Arc<KeyCache>,
        addresses: Arc<AddressLimits>,
    ) -> Self {
        Authenticator { db, limits, keys, addresses }
    }

    /// The caller of a valid key: from the cache, or from the database.
    /// Only a request whose key fails is charged to its client address's
    /// budget for requests without a valid key: a flood of junk from an
    /// address a partner shares (a proxy, a NAT, a load balancer) never
    /// refuses that partner's valid calls, cached or not.
    async fn caller(&self, authorization: Option<&str>, origin: &Origin<'_>) -> Result<Caller, CoreError> {
        let client = self.addresses.client(origin.peer, origin.forwarded);
        let refused = |err: CoreError| async move {
            self.addresses.check(client).await?;
            Err(err)
        };
        let secret = match presented_secret(authorization) {
            Ok(secret) => secret,
            Err(err) => return refused(err).await,
        };
        let secret_hash = hash_key_secret(secret);
        if let Some(caller) = self.keys.get(&secret_hash) {
            return Ok(caller);
        }
        if self.keys.was_refused(&secret_hash) {
            return refused(CoreError::InvalidApiKey(UNKNOWN_KEY)).await;
        }
        match lookup_key(&self.db, &secret_hash).await {
            Ok(caller) => {
                self.keys.insert(secret_hash, caller.clone());
                Ok(caller)
            }
            Err(err @ CoreError::InvalidApiKey(_)) => {
                self.keys.refuse(secret_hash);
                refused(err).await
            }
            Err(err) => Err(err),
        }
    }

    async fn admit(
        &self,
        path: &str,
        authorization: Option<&str>,
        user_token: Option<&str>,
        origin: Origin<'_>,
    ) -> Result<Option<(Caller, Option<TokenGrant>)>, CoreError> {
        let Some(rule) = access_rule(path) else {
            // Not a sail.v1 method: health, reflection, or unknown (tonic
            // answers UNIMPLEMENTED for those).
            return Ok(None);
        };
        if rule.public {
            // Hosted pages: a session's URL is the only credential, so a
            // lookup is limited per client address like any request
            // without a valid key (it costs a database read).
            let client = self.addresses.client(origin.peer, origin.forwarded);
            self.addresses.check(client).await?;
            return Ok(None);
        }
        let caller = self.caller(authorization, &origin).await?;
        self.limits.check(&caller.key_id).await?;
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
            let peer = request
                .extensions()
                .get::<tonic::transport::server::TcpConnectInfo>()
                .and_then(|info| info.remote_addr())
                .map(|addr| addr.ip());
            let forwarded = request.headers().get(CLIENT_ADDR).and_then(|v| v.to_str().ok()).map(str::to_string);
            let origin = Origin { peer, forwarded: forwarded.as_deref() };
            match this.admit(request.uri().path(), authorization.as_deref(), user_token.as_deref(), origin).await {
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
    fn scope_rules() {
        let any_data = AccessRule {
            public: false,
            any_key_scope: &[],
            token_admin: false,
            user_token_scope: None,
            idempotent: false,
        };
        let connections = AccessRule {
            public: false,
            any_key_scope: &["connections", "expenses"],
            token_admin: false,
            user_token_scope: None,
            idempotent: false,
        };
        let tokens = AccessRule {
            public: false,
            any_key_scope: &[],
            token_admin: true,
            user_token_scope: None,
            idempotent: false,
        };
        assert!(check_scope(&caller("ingest"), &any_data).is_ok());
        assert!(check_scope(&caller("token_admin"), &any_data).is_err());
        assert!(check_scope(&caller("expenses"), &connections).is_ok());
        assert!(check_scope(&caller("ingest"), &connections).is_err());
        assert!(check_scope(&caller("token_admin"), &tokens).is_ok());
        assert!(check_scope(&caller("identity"), &tokens).is_err());
    }

    #[tokio::test]
    async fn rate_limit_refuses_past_the_burst_and_reports_a_wait() {
        let limits = RateLimits::new(1, 2);
        assert!(limits.check("key_a").await.is_ok());
        assert!(limits.check("key_a").await.is_ok());
        match limits.check("key_a").await {
            Err(err @ CoreError::RateLimited { retry_after, limit, .. }) => {
                assert!(err.to_string().starts_with("Too many requests for this API key; retry after"), "{err}");
                assert_eq!(limit, 2);
                assert!(retry_after.as_millis() > 0);
            }
            other => panic!("{other:?}"),
        }
        assert!(limits.check("key_b").await.is_ok(), "buckets are per key");
        assert!(RateLimits::new(0, 0).check("key_a").await.is_ok());
    }
}
