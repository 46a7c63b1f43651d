//! The directories held in memory, indexed by name for fuzzy search. A low
//! module (the core's shared state holds the index). The directories change
//! only when a process seeds them from `data/` at start-up, so each core
//! reads them once, at first use.

use std::sync::Arc;

use entities::{administrator, merchant};
use sea_orm::{ConnectionTrait, EntityTrait, QueryOrder};

use crate::error::CoreError;
use crate::platform::fuzzy::NameIndex;

/// Both directories, indexed by name, and the card issuers the core's
/// providers reach, `(id, name)`.
pub struct DirectoryIndex {
    pub merchants: NameIndex<merchant::Model>,
    pub administrators: NameIndex<administrator::Model>,
    pub card_issuers: Vec<(String, String)>,
}

impl DirectoryIndex {
    /// Reads both directories (in name order) and indexes them.
    pub async fn load(
        db: &impl ConnectionTrait,
        card_issuers: Vec<(String, String)>,
    ) -> Result<DirectoryIndex, CoreError> {
        let merchants = merchant::Entity::find().order_by_asc(merchant::Column::Name).all(db).await?;
        let administrators = administrator::Entity::find().order_by_asc(administrator::Column::Name).all(db).await?;
        Ok(DirectoryIndex {
            merchants: NameIndex::new(merchants, |m| &m.name),
            administrators: NameIndex::new(administrators, |a| &a.name),
            card_issuers,
        })
    }
}

/// The directory index of a core, read at first use.
#[derive(Clone)]
pub struct Directory {
    index: Arc<tokio::sync::OnceCell<Arc<DirectoryIndex>>>,
    card_issuers: Vec<(String, String)>,
}

impl Directory {
    /// A directory whose card issuers are `card_issuers`.
    pub fn new(card_issuers: Vec<(String, String)>) -> Self {
        Directory { index: Arc::default(), card_issuers }
    }

    /// The index, read from `db` the first time.
    pub async fn get(&self, db: &impl ConnectionTrait) -> Result<Arc<DirectoryIndex>, CoreError> {
        let issuers = self.card_issuers.clone();
        self.index.get_or_try_init(|| async { DirectoryIndex::load(db, issuers).await.map(Arc::new) }).await.cloned()
    }
}
