//! `Idempotency-Key` on every write (docs/contract.md#wire-conventions): the same key with the same
//! request replays the first success for 24 hours; with another request it is
//! `409 idempotency_key_reused`. The key is reserved before the operation
//! runs, so a concurrent duplicate is refused rather than run twice. Failures
//! are not kept: a request that failed may be retried with its key.
//!
//! Nothing stored here gives away what was sent or answered (docs/pii.md):
//! the request's fingerprint is a blind index, the stored reply is sealed,
//! and a reply that carries a one-time secret (a webhook signing secret, a
//! user token) is stored without it, so a replay never shows it again.

use std::time::Duration;

use entities::idempotency_key;
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use sha2::{Digest, Sha256};

use crate::crypto::columns;
use crate::domain::{hex, time, unhex};
use crate::error::CoreError;
use crate::state::Core;

/// How long a key replays its response.
pub const RETENTION: Duration = Duration::from_secs(24 * 3600);
/// A reservation whose request never finished (its process died) frees
/// itself after this.
const STALE_RESERVATION: Duration = Duration::from_secs(60);

/// The metadata a key arrives in (the REST header of the same name).
pub const METADATA: &str = "idempotency-key";

/// Reads and checks the key of a request, if it has one.
pub fn key_of<T>(request: &tonic::Request<T>) -> Result<Option<String>, CoreError> {
    let Some(value) = request.metadata().get(METADATA) else { return Ok(None) };
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

/// Runs `operation` once per (partner, key): replays its stored success for
/// a repeated request with the same body.
pub async fn once<Req, Resp, Op, Fut>(
    core: &Core,
    partner_id: &str,
    key: Option<String>,
    method: &str,
    request: &Req,
    operation: Op,
) -> Result<Resp, CoreError>
where
    Req: prost::Message,
    Resp: prost::Message + Default + Clone,
    Op: FnOnce() -> Fut,
    Fut: Future<Output = Result<Resp, CoreError>>,
{
    once_keeping_secret_out(core, partner_id, key, method, request, |_| {}, operation).await
}

/// `once` for an operation whose reply carries a one-time secret:
/// `strip_secret` removes it from the copy that is stored, so the replay of
/// a repeated request answers without it (a secret is shown once).
pub async fn once_keeping_secret_out<Req, Resp, Op, Fut>(
    core: &Core,
    partner_id: &str,
    key: Option<String>,
    method: &str,
    request: &Req,
    strip_secret: impl FnOnce(&mut Resp),
    operation: Op,
) -> Result<Resp, CoreError>
where
    Req: prost::Message,
    Resp: prost::Message + Default + Clone,
    Op: FnOnce() -> Fut,
    Fut: Future<Output = Result<Resp, CoreError>>,
{
    let Some(key) = key else { return operation().await };
    let db = &core.db;
    let keyring = &core.config.keyring;
    let id = sha256_hex(&[partner_id.as_bytes(), key.as_bytes()]);
    let mut content = method.as_bytes().to_vec();
    content.push(0);
    content.extend_from_slice(&request.encode_to_vec());
    let fingerprint = keyring.blind_index(columns::IDEMPOTENT_FINGERPRINT, partner_id, &content);
    let reused = || {
        CoreError::IdempotencyKeyReused(
            "This Idempotency-Key was already used with a different request; use a new key for a new request."
                .to_string(),
        )
    };

    if let Some(found) = idempotency_key::Entity::find_by_id(id.as_str()).one(db).await? {
        let age = (time::now() - found.created_at).to_std().unwrap_or_default();
        let expired = age > RETENTION || (found.response_hex.is_none() && age > STALE_RESERVATION);
        if expired {
            idempotency_key::Entity::delete_by_id(id.as_str()).exec(db).await?;
        } else if found.method != method
            || !keyring
                .blind_indexes(columns::IDEMPOTENT_FINGERPRINT, partner_id, &content)
                .contains(&found.fingerprint)
        {
            return Err(reused());
        } else {
            return match found.response_hex.as_deref() {
                Some(sealed) => {
                    let opened = keyring.open(columns::IDEMPOTENT_RESPONSE, &id, sealed)?;
                    let bytes = unhex(&opened)
                        .ok_or_else(|| CoreError::Internal("a stored idempotent reply is not hex".into()))?;
                    Resp::decode(bytes.as_slice())
                        .map_err(|err| CoreError::Internal(format!("stored response for an idempotency key: {err}")))
                }
                None => Err(CoreError::IdempotencyKeyReused(
                    "A request with this Idempotency-Key is still in progress; retry it shortly.".to_string(),
                )),
            };
        }
    }

    let reservation = idempotency_key::ActiveModel {
        id: Set(id.clone()),
        partner_id: Set(partner_id.to_string()),
        method: Set(method.to_string()),
        fingerprint: Set(fingerprint),
        response_hex: Set(None),
        created_at: Set(time::now()),
    };
    if let Err(err) = reservation.insert(db).await {
        // Another request took the key between our read and our insert.
        return match err.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => Err(CoreError::IdempotencyKeyReused(
                "A request with this Idempotency-Key is still in progress; retry it shortly.".to_string(),
            )),
            _ => Err(err.into()),
        };
    }
    match operation().await {
        Ok(response) => {
            let mut kept = response.clone();
            strip_secret(&mut kept);
            let sealed = keyring.seal(columns::IDEMPOTENT_RESPONSE, &id, &hex(&kept.encode_to_vec()));
            let stored =
                idempotency_key::ActiveModel { id: Set(id), response_hex: Set(Some(sealed)), ..Default::default() };
            stored.update(db).await?;
            Ok(response)
        }
        Err(err) => {
            idempotency_key::Entity::delete_by_id(id.as_str()).exec(db).await?;
            Err(err)
        }
    }
}
