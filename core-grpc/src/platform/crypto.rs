//! Encryption at rest (docs/pii.md): personal fields, identity records,
//! account numbers, webhook signing secrets and stored idempotent replies
//! are sealed with XChaCha20-Poly1305 under the operator's key before they
//! reach the database, each value with a fresh random 24-byte nonce and its
//! column and row id bound as associated data, so a sealed value copied to
//! another row or column does not open. Values that must be found by their
//! content (a partner's external user id) are looked up by a keyed hash (a
//! blind index), never by the clear value.
//!
//! A [`Keyring`] holds the current key (everything new is sealed under it)
//! and previous keys, accepted for reading while `sail keys rotate-encryption`
//! re-seals what they sealed. The `encryption_keys` table records which keys
//! the database depends on, so a core given the wrong key refuses to start
//! ([`check_database`]) instead of serving garbage.

use std::sync::{Arc, OnceLock};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use entities::encryption_key;
use hkdf::Hkdf;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};

use crate::domain::{hex, time};
use crate::platform::memo::Memo;

/// The prefix of every sealed value: the format version.
pub const SEALED_PREFIX: &str = "enc1:";
/// The bytes of a key.
pub const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 24;

/// A column whose values are sealed, named `table.column`: bound into every
/// value as associated data with the row's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SealedColumn(pub &'static str);

impl SealedColumn {
    /// The table part of the name.
    pub fn table(self) -> &'static str {
        self.0.split_once('.').map_or(self.0, |(table, _)| table)
    }

    /// The column part of the name.
    pub fn column(self) -> &'static str {
        self.0.split_once('.').map_or(self.0, |(_, column)| column)
    }
}

/// Every sealed column, by table; `sail keys rotate-encryption` walks these.
pub mod columns {
    use super::SealedColumn;

    pub const USER_EXTERNAL_ID: SealedColumn = SealedColumn("users.external_user_id");
    pub const USER_EMAIL: SealedColumn = SealedColumn("users.email");
    pub const USER_FIRST_NAME: SealedColumn = SealedColumn("users.first_name");
    pub const USER_LAST_NAME: SealedColumn = SealedColumn("users.last_name");
    pub const USER_PHONE: SealedColumn = SealedColumn("users.phone");
    pub const USER_STREET: SealedColumn = SealedColumn("users.address_street");
    pub const USER_CITY: SealedColumn = SealedColumn("users.address_city");
    pub const USER_STATE: SealedColumn = SealedColumn("users.address_state");
    pub const USER_ZIP: SealedColumn = SealedColumn("users.address_zip");
    pub const USER_COUNTRY: SealedColumn = SealedColumn("users.address_country");
    pub const WEBHOOK_SECRET: SealedColumn = SealedColumn("webhook_endpoints.secret");
    pub const IDEMPOTENT_RESPONSE: SealedColumn = SealedColumn("idempotency_keys.response_hex");
    pub const IDENTITY_RECORD: SealedColumn = SealedColumn("identity_records.data");
    pub const ACH_ACCOUNT: SealedColumn = SealedColumn("accounts.ach_account_number");
    pub const ACH_ROUTING: SealedColumn = SealedColumn("accounts.ach_routing_number");
    pub const RECEIPT_CONTENT: SealedColumn = SealedColumn("receipts.content");
    /// A user's data key, in the key store (sealed under the service key).
    pub const USER_DATA_KEY: SealedColumn = SealedColumn("user_data_keys.sealed_key");
    /// Not a sealed column: the name under which an idempotent request's
    /// fingerprint is a blind index (it would otherwise be a plain hash of
    /// personal data).
    pub const IDEMPOTENT_FINGERPRINT: SealedColumn = SealedColumn("idempotency_keys.fingerprint");

    /// Every sealed column, grouped by table (the id column is `id`).
    pub const ALL: &[SealedColumn] = &[
        USER_EXTERNAL_ID,
        USER_EMAIL,
        USER_FIRST_NAME,
        USER_LAST_NAME,
        USER_PHONE,
        USER_STREET,
        USER_CITY,
        USER_STATE,
        USER_ZIP,
        USER_COUNTRY,
        WEBHOOK_SECRET,
        IDEMPOTENT_RESPONSE,
        IDENTITY_RECORD,
        ACH_ACCOUNT,
        ACH_ROUTING,
        RECEIPT_CONTENT,
    ];
}

/// Why a key or a sealed value was refused.
#[derive(Debug, thiserror::Error)]
pub enum CryptoError {
    #[error(
        "the encryption key must be {KEY_BYTES} random bytes in base64 (make one with `sail keys generate-encryption-key`)"
    )]
    MalformedKey,
    #[error("a value of {0} is not in the sealed format")]
    NotSealed(&'static str),
    #[error("a value of {column} is sealed under key {key_id}, which is not configured")]
    UnknownKey { column: &'static str, key_id: String },
    #[error("a value of {0} failed authentication (tampered, moved, or the wrong key)")]
    Forged(&'static str),
}

impl From<CryptoError> for crate::error::CoreError {
    fn from(err: CryptoError) -> Self {
        crate::error::CoreError::Sealed(err.to_string())
    }
}

struct Key {
    id: String,
    aead: XChaCha20Poly1305,
    index: [u8; 32],
}

impl Key {
    fn from_bytes(bytes: &[u8; KEY_BYTES]) -> Key {
        // Separate keys for sealing and for blind indexes, so one use never
        // weakens the other; the id names the key without revealing it.
        let hkdf = Hkdf::<Sha256>::new(Some(b"sail encryption at rest"), bytes);
        let mut aead_key = [0u8; 32];
        let mut index = [0u8; 32];
        let mut id = [0u8; 8];
        // Expanding 32 bytes never exceeds HKDF's output limit.
        let _ = hkdf.expand(b"aead xchacha20poly1305 v1", &mut aead_key);
        let _ = hkdf.expand(b"blind index v1", &mut index);
        let _ = hkdf.expand(b"key id v1", &mut id);
        let aead = XChaCha20Poly1305::new(&aead_key.into());
        Key { id: hex(&id), aead, index }
    }
}

/// The first letter of every user data key's id: values sealed under one
/// are told from values under a service key by it (`enc1:u…:`).
pub const USER_KEY_ID_PREFIX: &str = "u";

/// One user's data key, opened (docs/pii.md#per-user-data-keys): that
/// user's personal values are sealed under it. Its id starts with
/// [`USER_KEY_ID_PREFIX`].
pub struct UserKey(Key);

impl UserKey {
    /// A new random key and its 32 bytes (to be sealed into the key store).
    pub fn generate() -> (UserKey, [u8; KEY_BYTES]) {
        let mut bytes = [0u8; KEY_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        (UserKey::from_bytes(&bytes), bytes)
    }

    fn from_bytes(bytes: &[u8; KEY_BYTES]) -> UserKey {
        let mut key = Key::from_bytes(bytes);
        key.id = format!("{USER_KEY_ID_PREFIX}{}", key.id);
        UserKey(key)
    }

    /// The id values sealed under it carry.
    pub fn id(&self) -> &str {
        &self.0.id
    }
}

impl std::fmt::Debug for UserKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("UserKey").field(&self.0.id).finish()
    }
}

/// Seals and opens one user's values: new values under the user's data key
/// when it has one, older values (sealed before per-user keys existed)
/// under the service keys they were sealed with.
#[derive(Clone)]
pub struct Sealer<'a> {
    ring: &'a Keyring,
    user: Option<Arc<UserKey>>,
}

impl<'a> Sealer<'a> {
    /// A sealer for a user whose data key is `user` (`None`: the user's key
    /// is gone or was never made, and only service-key values open).
    pub fn new(ring: &'a Keyring, user: Option<Arc<UserKey>>) -> Sealer<'a> {
        Sealer { ring, user }
    }

    /// Seals under the user's key (the service key for a user without one).
    pub fn seal(&self, column: SealedColumn, row_id: &str, plain: &str) -> String {
        self.seal_bytes(column, row_id, plain.as_bytes())
    }

    /// `seal` for bytes (a receipt's file).
    pub fn seal_bytes(&self, column: SealedColumn, row_id: &str, plain: &[u8]) -> String {
        let key = self.user.as_deref().map_or(&self.ring.current, |user| &user.0);
        Keyring::seal_with(key, column, row_id, plain)
    }

    /// `seal` for an optional value.
    pub fn seal_opt(&self, column: SealedColumn, row_id: &str, plain: Option<&str>) -> Option<String> {
        plain.map(|p| self.seal(column, row_id, p))
    }

    /// Opens a value sealed for the same column and row.
    pub fn open(&self, column: SealedColumn, row_id: &str, sealed: &str) -> Result<String, CryptoError> {
        String::from_utf8(self.open_bytes(column, row_id, sealed)?).map_err(|_| CryptoError::Forged(column.0))
    }

    /// `open` for bytes.
    pub fn open_bytes(&self, column: SealedColumn, row_id: &str, sealed: &str) -> Result<Vec<u8>, CryptoError> {
        self.ring.open_bytes_with(self.user.as_deref(), column, row_id, sealed)
    }

    /// `open` for an optional value.
    pub fn open_opt(
        &self,
        column: SealedColumn,
        row_id: &str,
        sealed: Option<&str>,
    ) -> Result<Option<String>, CryptoError> {
        sealed.map(|s| self.open(column, row_id, s)).transpose()
    }

    /// `Keyring::open_remembered` with the user's key.
    pub fn open_remembered(&self, column: SealedColumn, row_id: &str, sealed: &str) -> Result<String, CryptoError> {
        self.ring.open_remembered_with(self.user.as_deref(), column, row_id, sealed)
    }
}

/// The keys this process seals and opens with.
pub struct Keyring {
    current: Key,
    previous: Vec<Key>,
    /// Values opened with [`Keyring::open_remembered`], by row id, each with
    /// the column and sealed form it was opened from: only the same sealed
    /// value in the same place is answered from here (a value copied to
    /// another row is opened, and refused, as before).
    remembered: Memo<String, Arc<Remembered>>,
}

/// A value `open_remembered` opened, and where from.
struct Remembered {
    column: SealedColumn,
    sealed: String,
    opened: String,
}

/// Values `open_remembered` keeps opened, at most, per keyring.
const REMEMBERED_VALUES: usize = 16_384;
/// How long `open_remembered` answers a value from memory after opening it.
const REMEMBERED_FOR: std::time::Duration = std::time::Duration::from_secs(600);

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Ids only: a key never reaches a log line.
        f.debug_struct("Keyring").field("current", &self.current.id).field("previous", &self.previous_ids()).finish()
    }
}

fn decode_key(text: &str) -> Result<[u8; KEY_BYTES], CryptoError> {
    let text = text.trim();
    let bytes = STANDARD
        .decode(text)
        .or_else(|_| URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')))
        .map_err(|_| CryptoError::MalformedKey)?;
    bytes.try_into().map_err(|_| CryptoError::MalformedKey)
}

impl Keyring {
    fn new(current: Key, previous: Vec<Key>) -> Keyring {
        let remembered = Memo::expiring(REMEMBERED_VALUES, REMEMBERED_FOR);
        Keyring { current, previous, remembered }
    }

    /// A keyring from base64 keys: the current one, and those still accepted
    /// for reading.
    pub fn parse(current: &str, previous: &[&str]) -> Result<Keyring, CryptoError> {
        let current = Key::from_bytes(&decode_key(current)?);
        let mut others = Vec::new();
        for text in previous {
            let key = Key::from_bytes(&decode_key(text)?);
            if key.id != current.id && !others.iter().any(|k: &Key| k.id == key.id) {
                others.push(key);
            }
        }
        Ok(Keyring::new(current, others))
    }

    /// A new random key, in the base64 form `parse` reads.
    pub fn generate_key() -> String {
        let mut bytes = [0u8; KEY_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        STANDARD.encode(bytes)
    }

    /// A key made for this process alone, the same for every core it runs:
    /// what `sail_test_support::serve_defaults()` uses (tests, benchmarks). `sail serve`
    /// and `sail core` always configure a real one.
    pub fn ephemeral() -> Arc<Keyring> {
        static EPHEMERAL: OnceLock<Arc<Keyring>> = OnceLock::new();
        EPHEMERAL
            .get_or_init(|| {
                let mut bytes = [0u8; KEY_BYTES];
                rand::rng().fill_bytes(&mut bytes);
                Arc::new(Keyring::new(Key::from_bytes(&bytes), Vec::new()))
            })
            .clone()
    }

    /// The id of the key new values are sealed under.
    pub fn current_id(&self) -> &str {
        &self.current.id
    }

    /// The ids of the keys accepted for reading only.
    pub fn previous_ids(&self) -> Vec<&str> {
        self.previous.iter().map(|k| k.id.as_str()).collect()
    }

    fn key(&self, id: &str) -> Option<&Key> {
        std::iter::once(&self.current).chain(&self.previous).find(|k| k.id == id)
    }

    fn associated_data(column: SealedColumn, row_id: &str) -> Vec<u8> {
        let mut aad = Vec::with_capacity(column.0.len() + 1 + row_id.len());
        aad.extend_from_slice(column.0.as_bytes());
        aad.push(0);
        aad.extend_from_slice(row_id.as_bytes());
        aad
    }

    /// Seals `plain` for `column` of row `row_id` under the current key:
    /// `enc1:<key id>:<base64url(nonce ‖ ciphertext ‖ tag)>`.
    pub fn seal(&self, column: SealedColumn, row_id: &str, plain: &str) -> String {
        self.seal_bytes(column, row_id, plain.as_bytes())
    }

    /// `seal` for bytes (a receipt's file), in the same text form.
    pub fn seal_bytes(&self, column: SealedColumn, row_id: &str, plain: &[u8]) -> String {
        Self::seal_with(&self.current, column, row_id, plain)
    }

    fn seal_with(key: &Key, column: SealedColumn, row_id: &str, plain: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_BYTES];
        rand::rng().fill_bytes(&mut nonce);
        let aad = Self::associated_data(column, row_id);
        // Encryption fails only for inputs of gigabytes; nothing sealed here
        // comes near (every input is bounded before it is stored).
        let sealed = key.aead.encrypt(&XNonce::from(nonce), Payload { msg: plain, aad: &aad }).unwrap_or_default();
        let mut bytes = Vec::with_capacity(NONCE_BYTES + sealed.len());
        bytes.extend_from_slice(&nonce);
        bytes.extend_from_slice(&sealed);
        format!("{SEALED_PREFIX}{}:{}", key.id, URL_SAFE_NO_PAD.encode(bytes))
    }

    /// `seal` for an optional value.
    pub fn seal_opt(&self, column: SealedColumn, row_id: &str, plain: Option<&str>) -> Option<String> {
        plain.map(|p| self.seal(column, row_id, p))
    }

    /// Opens a value `seal` made for the same column and row.
    pub fn open(&self, column: SealedColumn, row_id: &str, sealed: &str) -> Result<String, CryptoError> {
        String::from_utf8(self.open_bytes(column, row_id, sealed)?).map_err(|_| CryptoError::Forged(column.0))
    }

    /// `open` for a value read far more often than it changes (the external
    /// user id, opened for every user a list returns): answered from memory
    /// for ten minutes after it was opened, 16,384 values at most
    /// (docs/pii.md). Only the same sealed value in the same column and row
    /// is answered from memory; a re-sealed value is opened anew. One column
    /// per row id: ids name one table's rows.
    pub fn open_remembered(&self, column: SealedColumn, row_id: &str, sealed: &str) -> Result<String, CryptoError> {
        self.open_remembered_with(None, column, row_id, sealed)
    }

    /// Whether `open_remembered` would answer this value from memory,
    /// without a key (a list loads the data keys of the rest only).
    pub fn remembers(&self, column: SealedColumn, row_id: &str, sealed: &str) -> bool {
        self.remembered.get(row_id).is_some_and(|found| found.column == column && found.sealed == sealed)
    }

    /// Forgets what `open_remembered` keeps of a row (its user was deleted).
    pub fn forget(&self, row_id: &str) {
        self.remembered.remove(row_id);
    }

    fn open_remembered_with(
        &self,
        user: Option<&UserKey>,
        column: SealedColumn,
        row_id: &str,
        sealed: &str,
    ) -> Result<String, CryptoError> {
        // Looked up by the row id alone (a short key to hash), then checked
        // against the column and the sealed form.
        if let Some(found) = self.remembered.get(row_id)
            && found.column == column
            && found.sealed == sealed
        {
            return Ok(found.opened.clone());
        }
        let opened = String::from_utf8(self.open_bytes_with(user, column, row_id, sealed)?)
            .map_err(|_| CryptoError::Forged(column.0))?;
        let remembered = Remembered { column, sealed: sealed.to_string(), opened: opened.clone() };
        self.remembered.insert(row_id.to_string(), Arc::new(remembered));
        Ok(opened)
    }

    /// Opens a value `seal_bytes` (or `seal`) made for the same column and row.
    pub fn open_bytes(&self, column: SealedColumn, row_id: &str, sealed: &str) -> Result<Vec<u8>, CryptoError> {
        self.open_bytes_with(None, column, row_id, sealed)
    }

    /// `open_bytes` with a user's data key beside the service keys.
    fn open_bytes_with(
        &self,
        user: Option<&UserKey>,
        column: SealedColumn,
        row_id: &str,
        sealed: &str,
    ) -> Result<Vec<u8>, CryptoError> {
        let (key_id, body) = split_sealed(sealed).ok_or(CryptoError::NotSealed(column.0))?;
        let key = match user {
            Some(user) if user.0.id == key_id => Some(&user.0),
            _ => self.key(key_id),
        };
        let key = key.ok_or_else(|| CryptoError::UnknownKey { column: column.0, key_id: key_id.to_string() })?;
        let bytes = URL_SAFE_NO_PAD.decode(body).map_err(|_| CryptoError::NotSealed(column.0))?;
        if bytes.len() < NONCE_BYTES {
            return Err(CryptoError::NotSealed(column.0));
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_BYTES);
        let nonce: [u8; NONCE_BYTES] = nonce.try_into().map_err(|_| CryptoError::NotSealed(column.0))?;
        let aad = Self::associated_data(column, row_id);
        key.aead
            .decrypt(&XNonce::from(nonce), Payload { msg: ciphertext, aad: &aad })
            .map_err(|_| CryptoError::Forged(column.0))
    }

    /// `open` for an optional value.
    pub fn open_opt(
        &self,
        column: SealedColumn,
        row_id: &str,
        sealed: Option<&str>,
    ) -> Result<Option<String>, CryptoError> {
        sealed.map(|s| self.open(column, row_id, s)).transpose()
    }

    /// A user's data key sealed under the current service key, the user id
    /// bound: what the key store keeps.
    pub fn seal_user_key(&self, user_id: &str, bytes: &[u8; KEY_BYTES]) -> String {
        self.seal_bytes(columns::USER_DATA_KEY, user_id, bytes)
    }

    /// Opens a user's data key from the key store.
    pub fn open_user_key(&self, user_id: &str, sealed: &str) -> Result<UserKey, CryptoError> {
        let bytes = self.open_bytes(columns::USER_DATA_KEY, user_id, sealed)?;
        let bytes: [u8; KEY_BYTES] = bytes.try_into().map_err(|_| CryptoError::Forged(columns::USER_DATA_KEY.0))?;
        Ok(UserKey::from_bytes(&bytes))
    }

    /// Whether `sealed` is sealed under the current key (rotation skips it).
    pub fn is_current(&self, sealed: &str) -> bool {
        split_sealed(sealed).is_some_and(|(id, _)| id == self.current.id)
    }

    fn index_with(key: &Key, column: SealedColumn, scope: &str, value: &[u8]) -> String {
        // The key is 32 bytes; HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(&key.index).unwrap_or_else(|_| unreachable!());
        mac.update(column.0.as_bytes());
        mac.update(&[0]);
        mac.update(scope.as_bytes());
        mac.update(&[0]);
        mac.update(value);
        format!("{}:{}", key.id, hex(&mac.finalize().into_bytes()))
    }

    /// The blind index of `value` in `column` within `scope` (a partner),
    /// under the current key: what is stored and looked up instead of the
    /// clear value.
    pub fn blind_index(&self, column: SealedColumn, scope: &str, value: &[u8]) -> String {
        Self::index_with(&self.current, column, scope, value)
    }

    /// Whether a previous key is configured: a rotation may be half done,
    /// so rows may be indexed or sealed under either key.
    pub fn rotating(&self) -> bool {
        !self.previous.is_empty()
    }

    /// The blind index under every configured key: a lookup during a
    /// rotation finds rows indexed under the previous key too.
    pub fn blind_indexes(&self, column: SealedColumn, scope: &str, value: &[u8]) -> Vec<String> {
        std::iter::once(&self.current)
            .chain(&self.previous)
            .map(|k| Self::index_with(k, column, scope, value))
            .collect()
    }
}

/// The key id and body of a sealed value.
fn split_sealed(sealed: &str) -> Option<(&str, &str)> {
    sealed.strip_prefix(SEALED_PREFIX)?.split_once(':')
}

/// The id of the key a sealed value is under.
pub fn key_id_of(sealed: &str) -> Option<&str> {
    split_sealed(sealed).map(|(id, _)| id)
}

const VERIFIER: SealedColumn = SealedColumn("encryption_keys.verifier");
const VERIFIER_TEXT: &str = "sail encryption key check";

/// Why a core may not start with its keyring.
#[derive(Debug, thiserror::Error)]
pub enum KeyCheckError {
    #[error(
        "this database holds values sealed under encryption key {0}, which is not configured: set SAIL_ENCRYPTION_KEY to the key this database was created with (or, while rotating, list it in SAIL_ENCRYPTION_KEY_PREVIOUS)"
    )]
    MissingKey(String),
    #[error("encryption key {0} does not open this database's check value: the key or the database is damaged")]
    Mismatch(String),
    #[error("reading the database's encryption keys: {0}")]
    Database(#[from] sea_orm::DbErr),
}

/// Checks the keyring against the keys the database depends on, and
/// records the current key: every key that sealed a value still in the
/// database must be configured, so a wrong key stops the core at start-up.
pub async fn check_database(db: &impl ConnectionTrait, keyring: &Keyring) -> Result<(), KeyCheckError> {
    let registered = encryption_key::Entity::find().filter(encryption_key::Column::RetiredAt.is_null()).all(db).await?;
    for row in &registered {
        if keyring.key(&row.id).is_none() {
            return Err(KeyCheckError::MissingKey(row.id.clone()));
        }
        if keyring.open(VERIFIER, &row.id, &row.verifier).ok().as_deref() != Some(VERIFIER_TEXT) {
            return Err(KeyCheckError::Mismatch(row.id.clone()));
        }
    }
    if !registered.iter().any(|row| row.id == keyring.current.id) {
        // A retired key brought back as current is simply in use again.
        let existing = encryption_key::Entity::find_by_id(keyring.current.id.as_str()).one(db).await?;
        let verifier = keyring.seal(VERIFIER, &keyring.current.id, VERIFIER_TEXT);
        let result = match existing {
            Some(found) => {
                let mut active: encryption_key::ActiveModel = found.into();
                active.retired_at = Set(None);
                active.verifier = Set(verifier);
                active.update(db).await.map(|_| ())
            }
            None => encryption_key::ActiveModel {
                id: Set(keyring.current.id.clone()),
                verifier: Set(verifier),
                created_at: Set(time::now()),
                retired_at: Set(None),
            }
            .insert(db)
            .await
            .map(|_| ()),
        };
        match result {
            Ok(()) => {}
            // Another core registered it at the same moment.
            Err(err) if matches!(err.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))) => {}
            Err(err) => return Err(err.into()),
        }
    }
    Ok(())
}

/// The ids of the keys the database depends on (registered, not retired).
pub async fn registered_keys(db: &impl ConnectionTrait) -> Result<Vec<String>, sea_orm::DbErr> {
    Ok(encryption_key::Entity::find()
        .filter(encryption_key::Column::RetiredAt.is_null())
        .all(db)
        .await?
        .into_iter()
        .map(|row| row.id)
        .collect())
}

/// Marks every registered key but the current one retired: the database no
/// longer depends on them (the end of a rotation).
pub async fn retire_previous(db: &impl ConnectionTrait, keyring: &Keyring) -> Result<Vec<String>, sea_orm::DbErr> {
    let registered = encryption_key::Entity::find().filter(encryption_key::Column::RetiredAt.is_null()).all(db).await?;
    let mut retired = Vec::new();
    for row in registered.into_iter().filter(|row| row.id != keyring.current.id) {
        retired.push(row.id.clone());
        let mut active: encryption_key::ActiveModel = row.into();
        active.retired_at = Set(Some(time::now()));
        active.update(db).await?;
    }
    Ok(retired)
}

/// A short fingerprint of a value for log lines that must tell values apart
/// without showing them (never reversible for long random values).
pub fn fingerprint(value: &str) -> String {
    hex(&Sha256::digest(value.as_bytes())[..6])
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMN: SealedColumn = columns::USER_EMAIL;

    fn ring() -> Keyring {
        Keyring::parse(&Keyring::generate_key(), &[]).unwrap()
    }

    #[test]
    fn a_remembered_value_opens_only_where_it_was_sealed() {
        let ring = ring();
        let sealed = ring.seal(COLUMN, "usr_1", "ext-1");
        for _ in 0..2 {
            assert_eq!(ring.open_remembered(COLUMN, "usr_1", &sealed).unwrap(), "ext-1");
        }
        // Remembered for usr_1 in COLUMN: still refused anywhere else.
        assert!(matches!(ring.open_remembered(COLUMN, "usr_2", &sealed), Err(CryptoError::Forged(_))));
        assert!(matches!(ring.open_remembered(columns::USER_PHONE, "usr_1", &sealed), Err(CryptoError::Forged(_))));
        // Another keyring (another key) does not share what this one opened.
        let other = self::ring();
        assert!(matches!(other.open_remembered(COLUMN, "usr_1", &sealed), Err(CryptoError::UnknownKey { .. })));
        // Re-sealed (a rotation, a change): the new form opens to its own text.
        let resealed = ring.seal(COLUMN, "usr_1", "ext-2");
        assert_eq!(ring.open_remembered(COLUMN, "usr_1", &resealed).unwrap(), "ext-2");
    }

    #[test]
    fn a_users_values_open_only_with_its_data_key_and_older_values_still_open() {
        let ring = ring();
        let (key, bytes) = UserKey::generate();
        assert!(key.id().starts_with(USER_KEY_ID_PREFIX));
        let key = Arc::new(key);
        let sealer = Sealer::new(&ring, Some(key.clone()));
        let sealed = sealer.seal(COLUMN, "usr_1", "jane@example.com");
        assert_eq!(key_id_of(&sealed), Some(key.id()));
        assert_eq!(sealer.open(COLUMN, "usr_1", &sealed).unwrap(), "jane@example.com");
        // Without the data key (destroyed): the service key cannot open it.
        assert!(matches!(ring.open(COLUMN, "usr_1", &sealed), Err(CryptoError::UnknownKey { .. })));
        assert!(Sealer::new(&ring, None).open(COLUMN, "usr_1", &sealed).is_err());
        // Another user's key neither.
        let (other, _) = UserKey::generate();
        assert!(Sealer::new(&ring, Some(Arc::new(other))).open(COLUMN, "usr_1", &sealed).is_err());
        // A value sealed before the user had a key opens through its sealer.
        let older = ring.seal(COLUMN, "usr_1", "old@example.com");
        assert_eq!(sealer.open(COLUMN, "usr_1", &older).unwrap(), "old@example.com");
        // The key itself round-trips through the key store's sealed form,
        // bound to its user.
        let stored = ring.seal_user_key("usr_1", &bytes);
        assert_eq!(ring.open_user_key("usr_1", &stored).unwrap().id(), key.id());
        assert!(ring.open_user_key("usr_2", &stored).is_err());
    }

    #[test]
    fn sealed_values_open_only_in_their_column_and_row() {
        let ring = ring();
        let sealed = ring.seal(COLUMN, "usr_1", "jane@example.com");
        assert!(sealed.starts_with(SEALED_PREFIX), "{sealed}");
        assert!(!sealed.contains("jane"), "{sealed}");
        assert_eq!(ring.open(COLUMN, "usr_1", &sealed).unwrap(), "jane@example.com");
        assert!(matches!(ring.open(COLUMN, "usr_2", &sealed), Err(CryptoError::Forged(_))));
        assert!(matches!(ring.open(columns::USER_PHONE, "usr_1", &sealed), Err(CryptoError::Forged(_))));
        // A fresh nonce per value: the same text never seals the same twice.
        assert_ne!(ring.seal(COLUMN, "usr_1", "jane@example.com"), sealed);
        let mut tampered = sealed.clone();
        let last = tampered.pop().unwrap();
        tampered.push(if last == 'A' { 'B' } else { 'A' });
        assert!(ring.open(COLUMN, "usr_1", &tampered).is_err());
        assert!(matches!(ring.open(COLUMN, "usr_1", "jane@example.com"), Err(CryptoError::NotSealed(_))));
    }

    #[test]
    fn a_wrong_key_does_not_open_and_previous_keys_still_do() {
        let old = Keyring::generate_key();
        let new = Keyring::generate_key();
        let before = Keyring::parse(&old, &[]).unwrap();
        let sealed = before.seal(COLUMN, "usr_1", "x");
        let stranger = Keyring::parse(&new, &[]).unwrap();
        assert!(matches!(stranger.open(COLUMN, "usr_1", &sealed), Err(CryptoError::UnknownKey { .. })));
        let rotating = Keyring::parse(&new, &[&old]).unwrap();
        assert_eq!(rotating.open(COLUMN, "usr_1", &sealed).unwrap(), "x");
        assert!(!rotating.is_current(&sealed));
        assert!(rotating.is_current(&rotating.seal(COLUMN, "usr_1", "x")));
        assert_eq!(rotating.previous_ids(), vec![before.current_id()]);
    }

    #[test]
    fn a_ring_with_a_previous_key_is_rotating_and_indexes_under_both() {
        let alone = ring();
        assert!(!alone.rotating());
        let previous = Keyring::generate_key();
        let both = Keyring::parse(&Keyring::generate_key(), &[previous.as_str()]).unwrap();
        assert!(both.rotating());
        let old = Keyring::parse(&previous, &[]).unwrap();
        let indexes = both.blind_indexes(columns::USER_EXTERNAL_ID, "ptn_1", b"partner-user-42");
        assert_eq!(indexes.len(), 2);
        assert_eq!(indexes[1], old.blind_index(columns::USER_EXTERNAL_ID, "ptn_1", b"partner-user-42"));
    }

    #[test]
    fn blind_indexes_are_keyed_and_scoped() {
        let a = ring();
        let b = ring();
        let index = a.blind_index(columns::USER_EXTERNAL_ID, "ptn_1", b"partner-user-42");
        assert_eq!(index, a.blind_index(columns::USER_EXTERNAL_ID, "ptn_1", b"partner-user-42"));
        assert_ne!(index, a.blind_index(columns::USER_EXTERNAL_ID, "ptn_2", b"partner-user-42"));
        assert_ne!(index, b.blind_index(columns::USER_EXTERNAL_ID, "ptn_1", b"partner-user-42"));
        assert!(!index.contains("partner-user-42"));
    }

    #[test]
    fn keys_must_be_32_bytes_of_base64() {
        assert!(Keyring::parse("short", &[]).is_err());
        assert!(Keyring::parse(&STANDARD.encode([0u8; 16]), &[]).is_err());
        let key = Keyring::generate_key();
        assert_eq!(
            Keyring::parse(&key, &[]).unwrap().current_id(),
            Keyring::parse(&format!(" {key}\n"), &[]).unwrap().current_id()
        );
        let debug = format!("{:?}", Keyring::parse(&key, &[]).unwrap());
        assert!(!debug.contains(&key), "{debug}");
    }
}
