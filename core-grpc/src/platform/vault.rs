//! The vault: the service keyring and the key store of per-user data keys
//! (docs/pii.md#per-user-data-keys).
//! Every user gets a random data key when it is created (or, for a user
//! made before per-user keys, at its next write); that user's personal
//! values are sealed under it, and the key itself is sealed under the
//! service key in `user_data_keys`. Deleting the user destroys the key row
//! first: what was sealed under it no longer opens anywhere, including in a
//! copy of the database taken earlier, as long as the key store is not in
//! that copy. So the store may live apart from the main database
//! (`--key-store-url`); by default it is the main database itself, and
//! erasure from older copies of it then waits for those copies to expire.
//!
//! Each function takes the main database connection the caller is working
//! in (a transaction, often): with the store in the main database, keys are
//! read and written through it, never through a second handle that would
//! wait on the caller's own write lock.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use entities::user_data_key;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, Set};

use crate::domain::time;
use crate::error::CoreError;
use crate::platform::crypto::{Keyring, Sealer, UserKey};
use crate::platform::memo::Memo;

/// Data keys kept opened in memory, at most, per process.
const OPENED_KEYS: usize = 16_384;
/// How long an opened data key is used without reading the store again. A
/// user deleted through another core stops opening here after this at
/// most; its rows are gone from the database at once.
const OPENED_FOR: Duration = Duration::from_secs(60);

/// A new user's data key, made but not yet in the store.
pub struct UnstoredKey {
    user_id: String,
    key: Arc<UserKey>,
    /// The row that stores it.
    pub row: user_data_key::ActiveModel,
}

/// The service keyring, where the data keys are, and those recently opened.
pub struct Vault {
    ring: Arc<Keyring>,
    /// A key store apart from the main database; `None`: the main database.
    store: Option<DatabaseConnection>,
    opened: Memo<String, Arc<UserKey>>,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vault").field("ring", &self.ring).field("separate_store", &self.store.is_some()).finish()
    }
}

impl Vault {
    /// Data keys kept in the main database.
    pub fn in_main_database(ring: Arc<Keyring>) -> Vault {
        Vault { ring, store: None, opened: Memo::expiring(OPENED_KEYS, OPENED_FOR) }
    }

    /// The service keyring (blind indexes, values that belong to no user).
    pub fn keyring(&self) -> &Keyring {
        &self.ring
    }

    /// Keys kept in a database of their own at `url`, its table created
    /// when missing.
    pub async fn connect(ring: Arc<Keyring>, url: &str) -> Result<Vault, DbErr> {
        // A SQLite store is made on first use, as the main database is.
        let url = if url.starts_with("sqlite:") && !url.contains("mode=") {
            format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
        } else {
            url.to_string()
        };
        let store = crate::platform::db::connect(&url).await?;
        migration::apply_key_store(&store).await?;
        Ok(Vault { ring, store: Some(store), opened: Memo::expiring(OPENED_KEYS, OPENED_FOR) })
    }

    /// Whether the keys live apart from the main database.
    pub fn is_separate(&self) -> bool {
        self.store.is_some()
    }

    /// The data keys of `user_ids` that exist, opened.
    pub async fn keys_of(
        &self,
        db: &impl ConnectionTrait,
        user_ids: &[&str],
    ) -> Result<HashMap<String, Arc<UserKey>>, CoreError> {
        let mut found = HashMap::new();
        let mut missing = Vec::new();
        for id in user_ids {
            match self.opened.get(*id) {
                Some(key) => {
                    found.insert(id.to_string(), key);
                }
                None => missing.push(id.to_string()),
            }
        }
        if missing.is_empty() {
            return Ok(found);
        }
        let query = user_data_key::Entity::find().filter(user_data_key::Column::UserId.is_in(missing));
        let rows = match &self.store {
            Some(store) => query.all(store).await?,
            None => query.all(db).await?,
        };
        for row in rows {
            let key = Arc::new(self.ring.open_user_key(&row.user_id, &row.sealed_key)?);
            self.opened.insert(row.user_id.clone(), key.clone());
            found.insert(row.user_id, key);
        }
        Ok(found)
    }

    /// A sealer for reading one user's values: its data key when it has
    /// one; values sealed before it had one open under the service keys.
    pub async fn sealer(&self, db: &impl ConnectionTrait, user_id: &str) -> Result<Sealer<'_>, CoreError> {
        let key = self.keys_of(db, &[user_id]).await?.remove(user_id);
        Ok(Sealer::new(&self.ring, key))
    }

    /// A sealer for writing one user's values: its data key, made now when
    /// the user has none yet (two writers racing both end with the one
    /// stored).
    pub async fn sealer_for_writing(
        &self,
        db: &impl ConnectionTrait,
        partner_id: &str,
        user_id: &str,
    ) -> Result<Sealer<'_>, CoreError> {
        if let Some(key) = self.keys_of(db, &[user_id]).await?.remove(user_id) {
            return Ok(Sealer::new(&self.ring, Some(key)));
        }
        self.sealer_for_new_user(db, partner_id, user_id).await
    }

    /// A sealer for writing the values of a user whose id was made just now:
    /// no key can be stored for it yet, so none is looked up before one is
    /// made (a key stored meanwhile still wins, as in
    /// [`Vault::sealer_for_writing`]).
    pub async fn sealer_for_new_user(
        &self,
        db: &impl ConnectionTrait,
        partner_id: &str,
        user_id: &str,
    ) -> Result<Sealer<'_>, CoreError> {
        let ring = &*self.ring;
        let unstored = self.unstored_key_for_new_user(partner_id, user_id);
        let insert = user_data_key::Entity::insert(unstored.row.clone())
            .on_conflict(OnConflict::column(user_data_key::Column::UserId).do_nothing().to_owned());
        let inserted = match &self.store {
            Some(store) => insert.exec_without_returning(store).await,
            None => insert.exec_without_returning(db).await,
        };
        match inserted {
            Ok(1) => {
                let sealer = self.sealer_with(&unstored);
                self.remember(unstored);
                Ok(sealer)
            }
            // Another writer stored one first: use that one.
            Ok(_) | Err(DbErr::RecordNotInserted) => {
                let key = self.keys_of(db, &[user_id]).await?.remove(user_id);
                let key = key.ok_or_else(|| CoreError::Internal("a user's data key could not be stored".into()))?;
                Ok(Sealer::new(ring, Some(key)))
            }
            Err(err) => Err(err.into()),
        }
    }

    /// A data key made for a user whose id was made just now, not yet
    /// stored: for a caller that stores it in the same statement as the
    /// user (only possible with the keys in the main database), then hands
    /// it back with [`Vault::remember`].
    pub fn unstored_key_for_new_user(&self, partner_id: &str, user_id: &str) -> UnstoredKey {
        let (key, bytes) = UserKey::generate();
        let row = user_data_key::ActiveModel {
            user_id: Set(user_id.to_string()),
            partner_id: Set(partner_id.to_string()),
            sealed_key: Set(self.ring.seal_user_key(user_id, &bytes)),
            created_at: Set(time::now()),
        };
        UnstoredKey { user_id: user_id.to_string(), key: Arc::new(key), row }
    }

    /// A sealer under a key made by [`Vault::unstored_key_for_new_user`].
    pub fn sealer_with(&self, unstored: &UnstoredKey) -> Sealer<'_> {
        Sealer::new(&self.ring, Some(unstored.key.clone()))
    }

    /// Keeps a key the caller has stored opened, as if read from the store.
    pub fn remember(&self, stored: UnstoredKey) {
        self.opened.insert(stored.user_id, stored.key);
    }

    /// Destroys the user's data key: nothing sealed under it opens again.
    pub async fn destroy(&self, db: &impl ConnectionTrait, user_id: &str) -> Result<(), CoreError> {
        self.opened.remove(user_id);
        self.ring.forget(user_id);
        let delete = user_data_key::Entity::delete_by_id(user_id);
        match &self.store {
            Some(store) => delete.exec(store).await?,
            None => delete.exec(db).await?,
        };
        Ok(())
    }

    /// The key store's connection, when it is apart from the main database
    /// (key rotation re-seals its rows there).
    pub fn separate_store(&self) -> Option<&DatabaseConnection> {
        self.store.as_ref()
    }
}
