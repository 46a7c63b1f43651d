//! The merchant and administrator directories: the same for every partner,
//! listed by name or fuzzy-searched (see `fuzzy`), from the index each core
//! holds in memory (`directory_index`): a search touches no database.

use entities::{administrator, merchant};
use sea_orm::{ConnectionTrait, EntityTrait};

use crate::domain::Page;
use crate::error::CoreError;
use crate::platform::fuzzy::{self, NameIndex};

pub use crate::platform::directory_index::{Directory, DirectoryIndex};

/// One page of `index`'s items matching `search` (best first), or of all of
/// them in name order, with the total.
fn page_of<T: Clone>(index: &NameIndex<T>, search: Option<&str>, page: Page) -> (Vec<T>, u64) {
    match search {
        Some(query) => {
            let matches = index.search(query);
            let total = matches.len() as u64;
            (matches.into_iter().skip(page.offset as usize).take(page.limit as usize).cloned().collect(), total)
        }
        None => (page.slice(index.all()), index.all().len() as u64),
    }
}

/// A search string: trimmed, at most 100 characters, absent when blank.
pub fn search_text(search: Option<String>) -> Result<Option<String>, CoreError> {
    match search.map(|s| s.trim().to_string()) {
        Some(s) if s.chars().count() > 100 => {
            Err(CoreError::invalid("search", "search must be at most 100 characters."))
        }
        Some(s) if s.is_empty() => Ok(None),
        other => Ok(other),
    }
}

/// Merchants matching `search` (best first) or all by name, paged, with total.
pub fn list_merchants(index: &DirectoryIndex, search: Option<&str>, page: Page) -> (Vec<merchant::Model>, u64) {
    page_of(&index.merchants, search, page)
}

/// Administrators matching `search` (best first) or all by name, paged.
pub fn list_administrators(
    index: &DirectoryIndex,
    search: Option<&str>,
    page: Page,
) -> (Vec<administrator::Model>, u64) {
    page_of(&index.administrators, search, page)
}

/// The display name of a provider id: a merchant, an administrator or a
/// card issuer.
pub async fn provider_name(
    db: &impl ConnectionTrait,
    index: &DirectoryIndex,
    id: &str,
) -> Result<Option<String>, CoreError> {
    if let Some(found) = merchant::Entity::find_by_id(id).one(db).await? {
        return Ok(Some(found.name));
    }
    if let Some(found) = administrator::Entity::find_by_id(id).one(db).await? {
        return Ok(Some(found.name));
    }
    Ok(index.card_issuers.iter().find(|(issuer, _)| issuer == id).map(|(_, name)| name.clone()))
}

/// The providers a user may link for a connection `kind` (`card`, `store`,
/// `benefit_account`), best match first when searching: `(id, name)`, at
/// most 20.
pub fn providers(index: &DirectoryIndex, kind: &str, search: Option<&str>) -> Vec<(String, String)> {
    let page = Page { limit: 20, offset: 0 };
    match kind {
        "store" => list_merchants(index, search, page).0.into_iter().map(|m| (m.id, m.name)).collect(),
        "benefit_account" => list_administrators(index, search, page).0.into_iter().map(|a| (a.id, a.name)).collect(),
        _ => {
            let issuers = index.card_issuers.iter().cloned();
            match search {
                Some(query) => fuzzy::rank(query, issuers.collect::<Vec<_>>(), |(_, n)| n.as_str()),
                None => issuers.collect(),
            }
        }
    }
}
