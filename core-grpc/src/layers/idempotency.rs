//! `Idempotency-Key` on every write (docs/contract.md#wire-conventions): the same key with the same
//! request replays the first success for 24 hours; with another request it is
//! `409 idempotency_key_reused`. The key is reserved before the operation
//! runs, so a concurrent duplicate is refused rather than run twice; the
//! reservation names the core that holds it, and frees once that core is
//! gone (`platform::liveness`) or after a minute. Failures are not kept: a
//! request that failed may be retried with its key. A call with a key runs
//! to its end even when its caller hangs up (a client timeout, a dropped
//! connection): its reply is kept, and the retry replays it rather than
//! waiting out the reservation and running again.
//!
//! One tower layer ([`IdempotencyLayer`]) applies it, beneath
//! authentication, to every method whose proto declares
//! `(sail.v1.idempotent)` (the build refuses a POST that does not): REST
//! calls arrive through the same layer as gRPC calls, and no handler opts in
//! by hand. It works on the encoded gRPC messages: the request, re-encoded
//! canonically, is fingerprinted; the reply is kept as the bytes it was.
//!
//! Nothing stored here gives away what was sent or answered (docs/pii.md):
//! the request's fingerprint is a blind index, the stored reply is sealed,
//! and a reply that carries a one-time secret (a webhook signing secret, a
//! user token) is stored without it, so a replay never shows it again. A
//! reply its handler marks as a user's ([`ReplyOwner`]: a created user, an
//! uploaded receipt) is sealed under that user's data key and recorded
//! with the user, so deleting the user takes it too, and an earlier copy of
//! the database cannot open it (docs/pii.md#per-user-data-keys).

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use entities::idempotency_key;
use http::{HeaderMap, HeaderValue, Request, Response};
use http_body_util::{BodyExt, Full, Limited};
use sail_api::access::{access_rule, canonical_request, without_shown_once};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};
use tonic::body::Body;
use tracing::Instrument;

use crate::domain::{hex, time, unhex};
use crate::error::CoreError;
use crate::layers::auth::Caller;
use crate::platform::crypto::columns;
use crate::platform::liveness::Liveness;
use crate::platform::vault::Vault;

/// How long a key replays its response.
pub const RETENTION: Duration = crate::config::IDEMPOTENCY_WINDOW;
/// A reservation whose request never finished frees itself after this
/// whatever else is known; one held by a core that is gone (its heartbeat
/// stopped: `platform::liveness`) frees as soon as that is seen.
const STALE_RESERVATION: Duration = Duration::from_secs(60);

/// The metadata a key arrives in (the REST header of the same name).
pub const METADATA: &str = "idempotency-key";

/// The largest request body the layer reads to fingerprint it: the largest
/// message any service accepts (a receipt upload) and its frame header.
const LARGEST_REQUEST: usize = crate::services::receipts::MAX_RECEIPT_BYTES + 64 * 1024 + 5;

/// Reads and checks the key of a request, if it has one.
pub fn key_of<T>(request: &tonic::Request<T>) -> Result<Option<String>, CoreError> {
    key_in(request.metadata().as_ref())
}

/// Reads and checks the key in a call's headers (gRPC metadata).
fn key_in(headers: &HeaderMap) -> Result<Option<String>, CoreError> {
    let Some(value) = headers.get(METADATA) else { return Ok(None) };
    let key = value
        .to_str()
        .map_err(|_| CoreError::invalid("Idempotency-Key", "Idempotency-Key must be printable ASCII."))?;
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| (0x21..0x7f).contains(&b)) {
        return Err(CoreError::invalid(
            "Idempotency-Key",
            "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.",
        ));
    }
    Ok(Some(key.to_string()))
}

fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut digest = Sha256::new();
    for part in parts {
        digest.update(part);
        digest.update([0u8]);
    }
    hex(&digest.finalize())
}

/// Where keys and their replies are kept: the database, sealed under the
/// vault's keys.
#[derive(Clone)]
struct KeyStore {
    db: sea_orm::DatabaseConnection,
    vault: Arc<Vault>,
    /// This core, which its reservations name, and the others' liveness.
    liveness: Arc<Liveness>,
}

/// Set by a handler on its reply (a response extension) when the reply
/// belongs to one user: the kept copy is then sealed under that user's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyOwner(pub String);

/// The layer that makes every `(sail.v1.idempotent)` method honour
/// `Idempotency-Key`; it sits beneath authentication, whose [`Caller`] it
/// reads.
#[derive(Clone)]
pub struct IdempotencyLayer {
    core: KeyStore,
}

impl IdempotencyLayer {
    pub fn new(db: sea_orm::DatabaseConnection, vault: Arc<Vault>, liveness: Arc<Liveness>) -> Self {
        IdempotencyLayer { core: KeyStore { db, vault, liveness } }
    }
}

impl<S> tower::Layer<S> for IdempotencyLayer {
    type Service = Idempotent<S>;

    fn layer(&self, inner: S) -> Idempotent<S> {
        Idempotent { inner, core: self.core.clone() }
    }
}

/// The service [`IdempotencyLayer`] wraps around the core's routes.
#[derive(Clone)]
pub struct Idempotent<S> {
    inner: S,
    core: KeyStore,
}

type CallFuture = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send + 'static>>;

impl<S, B> tower::Service<Request<B>> for Idempotent<S>
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = CallFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> CallFuture {
        // The clone that was made ready is the one that serves this call.
        let ready = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let core = self.core.clone();
        Box::pin(async move {
            let replays = access_rule(request.uri().path()).is_some_and(|rule| rule.idempotent);
            let caller = request.extensions().get::<Caller>().cloned();
            let key = match key_in(request.headers()) {
                Ok(key) => key,
                Err(err) => return Ok(refusal(err)),
            };
            let (Some(caller), Some(key), true) = (caller, key, replays) else {
                return inner.call(request.map(Body::new)).await;
            };
            // In a task of its own, so that dropping this future (the
            // caller hung up) does not cut the call off between its effects
            // and the keeping of its reply.
            let partner_id = caller.partner_id;
            let call = async move { once(&core, &partner_id, key, request, &mut inner).await };
            match tokio::spawn(call.instrument(tracing::Span::current())).await {
                Ok(Ok(response)) => Ok(response),
                Ok(Err(err)) => Ok(refusal(err)),
                Err(ended) => Ok(refusal(CoreError::Internal(format!("an idempotent call's task ended: {ended}")))),
            }
        })
    }
}

/// A refusal as the gRPC status a handler would have answered.
fn refusal(err: CoreError) -> Response<Body> {
    tonic::Status::from(err).into_http()
}

/// The one message of a unary gRPC request or reply body: a frame of one
/// byte (not compressed), a 4-byte length and the message.
fn message_of(frame: &[u8]) -> Option<&[u8]> {
    let (header, message) = frame.split_at_checked(5)?;
    let length = u32::from_be_bytes([header[1], header[2], header[3], header[4]]) as usize;
    (header[0] == 0 && message.len() == length).then_some(message)
}

/// A unary reply frame around `message`.
fn frame_of(message: &[u8]) -> Bytes {
    let mut frame = Vec::with_capacity(message.len() + 5);
    frame.push(0);
    frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
    frame.extend_from_slice(message);
    Bytes::from(frame)
}

/// The gRPC status of a reply: in its headers (a trailers-only reply, how
/// errors come back) or in its trailers.
fn grpc_status(headers: &HeaderMap, trailers: Option<&HeaderMap>) -> Option<HeaderValue> {
    headers.get("grpc-status").or_else(|| trailers.and_then(|t| t.get("grpc-status"))).cloned()
}

/// A successful reply to a replayed request: the kept message, status OK.
fn replay(message: &[u8]) -> Response<Body> {
    let mut trailers = HeaderMap::new();
    trailers.insert("grpc-status", HeaderValue::from_static("0"));
    let body = Full::new(frame_of(message)).with_trailers(async move { Some(Ok(trailers)) });
    let mut response = Response::new(Body::new(body));
    response.headers_mut().insert(http::header::CONTENT_TYPE, HeaderValue::from_static("application/grpc"));
    response
}

/// Runs the call once per (partner, key): replays its kept success for a
/// repeated request with the same body.
async fn once<S, B>(
    core: &KeyStore,
    partner_id: &str,
    key: String,
    request: Request<B>,
    inner: &mut S,
) -> Result<Response<Body>, CoreError>
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let method = request.uri().path().to_string();
    let (parts, body) = request.into_parts();
    let bytes = Limited::new(body, LARGEST_REQUEST).collect().await.map(|c| c.to_bytes()).map_err(|_| {
        CoreError::TooLarge { param: "body".into(), message: "The request is larger than the service accepts.".into() }
    })?;
    let call = |bytes: Bytes| Request::from_parts(parts, Body::new(Full::new(bytes)));
    // A body that is not one plain message is the service's to refuse.
    let canonical = match message_of(&bytes).and_then(|message| canonical_request(&method, message)) {
        Some(Ok(canonical)) => canonical,
        _ => {
            let Ok(response) = inner.call(call(bytes)).await;
            return Ok(response);
        }
    };

    let id = sha256_hex(&[partner_id.as_bytes(), key.as_bytes()]);
    match claim(core, partner_id, &id, &method, &canonical).await? {
        Claim::Replay(message) => return Ok(replay(&message)),
        Claim::Run => {}
    }
    let Ok(response) = inner.call(call(bytes)).await;
    let (parts, body) = response.into_parts();
    let collected = match body.collect().await {
        Ok(collected) => collected,
        Err(err) => {
            Settle::Release { id }.now_or_later(core).await;
            return Err(CoreError::Internal(format!("reading a reply to keep for its idempotency key: {err}")));
        }
    };
    let trailers = collected.trailers().cloned();
    let succeeded = grpc_status(&parts.headers, trailers.as_ref()).is_some_and(|status| status == "0");
    let bytes = collected.to_bytes();
    let owner = parts.extensions.get::<ReplyOwner>().map(|owner| owner.0.as_str());
    // The call's answer stands whatever happens to its record: a push that
    // was applied is answered as applied even when the database went away
    // before its reply could be kept. Its reservation then holds the key
    // until it goes stale, and a retry waits for that (`409`, in progress).
    let settle = match message_of(&bytes) {
        Some(message) if succeeded => Settle::Keep {
            partner_id: partner_id.to_string(),
            id,
            method,
            reply: message.to_vec(),
            owner: owner.map(str::to_string),
        },
        _ => Settle::Release { id },
    };
    settle.now_or_later(core).await;
    let body = Full::new(bytes).with_trailers(async move { trailers.map(Ok) });
    Ok(Response::from_parts(parts, Body::new(body)))
}

/// What a key's record says to do.
enum Claim {
    /// The key answered this request before: its kept reply.
    Replay(Vec<u8>),
    /// The key is now reserved for this call.
    Run,
}

/// Reserves the key for this request, or finds what it answered before.
async fn claim(core: &KeyStore, partner_id: &str, id: &str, method: &str, request: &[u8]) -> Result<Claim, CoreError> {
    let db = &core.db;
    let keyring = core.vault.keyring();
    let mut content = method.as_bytes().to_vec();
    content.push(0);
    content.extend_from_slice(request);
    let in_progress = || CoreError::IdempotencyKeyInProgress;

    if let Some(found) = idempotency_key::Entity::find_by_id(id).one(db).await? {
        let age = (time::now() - found.created_at).to_std().unwrap_or_default();
        let expired = age > RETENTION || (found.response_hex.is_none() && age > STALE_RESERVATION);
        let abandoned = match (&found.response_hex, &found.reserved_by) {
            (None, Some(holder)) if !expired => core.liveness.is_gone(db, holder).await?,
            _ => false,
        };
        if expired {
            idempotency_key::Entity::delete_by_id(id).exec(db).await?;
        } else if abandoned {
            // Held by a core that died mid-call: free it, unless another
            // call has just taken it over (its reservation names a live core).
            idempotency_key::Entity::delete_many()
                .filter(idempotency_key::Column::Id.eq(id))
                .filter(idempotency_key::Column::ResponseHex.is_null())
                .filter(idempotency_key::Column::ReservedBy.eq(found.reserved_by.clone()))
                .exec(db)
                .await?;
        } else if found.method != method
            || !keyring
                .blind_indexes(columns::IDEMPOTENT_FINGERPRINT, partner_id, &content)
                .contains(&found.fingerprint)
        {
            return Err(CoreError::IdempotencyKeyReused(
                "This Idempotency-Key was already used with a different request; use a new key for a new request."
                    .to_string(),
            ));
        } else {
            let Some(sealed) = found.response_hex.as_deref() else { return Err(in_progress()) };
            let opened = match &found.user_id {
                Some(owner) => core.vault.sealer(db, owner).await?.open(columns::IDEMPOTENT_RESPONSE, id, sealed)?,
                None => keyring.open(columns::IDEMPOTENT_RESPONSE, id, sealed)?,
            };
            let message =
                unhex(&opened).ok_or_else(|| CoreError::Internal("a stored idempotent reply is not hex".into()))?;
            return Ok(Claim::Replay(message));
        }
    }

    let reservation = idempotency_key::ActiveModel {
        id: Set(id.to_string()),
        partner_id: Set(partner_id.to_string()),
        method: Set(method.to_string()),
        fingerprint: Set(keyring.blind_index(columns::IDEMPOTENT_FINGERPRINT, partner_id, &content)),
        response_hex: Set(None),
        created_at: Set(time::now()),
        user_id: Set(None),
        reserved_by: Set(Some(core.liveness.id().to_string())),
    };
    match reservation.insert(db).await {
        Ok(_) => Ok(Claim::Run),
        // Another request took the key between our read and our insert.
        Err(err) => match err.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => Err(in_progress()),
            _ => Err(err.into()),
        },
    }
}

/// Keeps a success for the key's replays, sealed (under its owner's data
/// key when it has one) and without its shown-once fields.
async fn keep(
    core: &KeyStore,
    partner_id: &str,
    id: &str,
    method: &str,
    reply: &[u8],
    owner: Option<&str>,
) -> Result<(), CoreError> {
    let kept = without_shown_once(method, reply)
        .map_err(|err| CoreError::Internal(format!("a reply to keep for an idempotency key: {err}")))?;
    let sealed = match owner {
        Some(owner) => {
            let sealer = core.vault.sealer_for_writing(&core.db, partner_id, owner).await?;
            sealer.seal(columns::IDEMPOTENT_RESPONSE, id, &hex(&kept))
        }
        None => core.vault.keyring().seal(columns::IDEMPOTENT_RESPONSE, id, &hex(&kept)),
    };
    let stored = idempotency_key::ActiveModel {
        id: Set(id.to_string()),
        response_hex: Set(Some(sealed)),
        user_id: Set(owner.map(str::to_string)),
        ..Default::default()
    };
    stored.update(&core.db).await?;
    Ok(())
}

/// How a key's record ends once its call has answered: the reply kept for
/// replays (a success), or the reservation released so that a retry may run
/// (anything else).
enum Settle {
    Keep { partner_id: String, id: String, method: String, reply: Vec<u8>, owner: Option<String> },
    Release { id: String },
}

/// How long a record that could not be settled at once is retried in the
/// background: past this the reservation is stale anyway.
const SETTLE_RETRIES: u32 = 110;
const SETTLE_RETRY_EVERY: Duration = Duration::from_millis(500);

impl Settle {
    async fn apply(&self, core: &KeyStore) -> Result<(), CoreError> {
        match self {
            Settle::Keep { partner_id, id, method, reply, owner } => {
                keep(core, partner_id, id, method, reply, owner.as_deref()).await
            }
            Settle::Release { id } => {
                idempotency_key::Entity::delete_by_id(id.as_str()).exec(&core.db).await?;
                Ok(())
            }
        }
    }

    /// Settles the record now, or, when the database cannot take the write
    /// (it restarted under the call, say), keeps trying in the background
    /// for as long as the reservation would hold the key, so a retry after
    /// the outage is replayed or runs instead of waiting it out. The call's
    /// own answer stands either way: an applied push is answered as applied.
    async fn now_or_later(self, core: &KeyStore) {
        let Err(err) = self.apply(core).await else { return };
        tracing::warn!(error = %err, "an idempotency key's record could not be settled; retrying in the background");
        let core = core.clone();
        tokio::spawn(async move {
            for _ in 0..SETTLE_RETRIES {
                tokio::time::sleep(SETTLE_RETRY_EVERY).await;
                if self.apply(&core).await.is_ok() {
                    return;
                }
            }
            tracing::warn!("an idempotency key's record was never settled; its reservation frees itself when stale");
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_holds_exactly_one_plain_message() {
        let framed = frame_of(b"abc");
        assert_eq!(message_of(&framed), Some(&b"abc"[..]));
        assert_eq!(message_of(&framed[..7]), None, "a short frame");
        let mut compressed = framed.to_vec();
        compressed[0] = 1;
        assert_eq!(message_of(&compressed), None, "a compressed frame");
        let mut two = framed.to_vec();
        two.extend_from_slice(&framed);
        assert_eq!(message_of(&two), None, "two messages");
        assert_eq!(message_of(&[]), None);
    }
}
