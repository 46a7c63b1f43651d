//! The merchant and administrator directories: the same for every partner,
//! listed by name or fuzzy-searched (see `fuzzy`).

use entities::{administrator, merchant};
use sea_orm::{ConnectionTrait, EntityTrait, QueryOrder};

use crate::domain::Page;
use crate::error::CoreError;
use crate::fuzzy;

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
pub async fn list_merchants(
    db: &impl ConnectionTrait,
    search: Option<&str>,
    page: Page,
) -> Result<(Vec<merchant::Model>, u64), CoreError> {
    let all = merchant::Entity::find().order_by_asc(merchant::Column::Name).all(db).await?;
    let matches = match search {
        Some(query) => fuzzy::rank(query, all, |m| &m.name),
        None => all,
    };
    Ok((page.slice(&matches), matches.len() as u64))
}

/// Administrators matching `search` (best first) or all by name, paged.
pub async fn list_administrators(
    db: &impl ConnectionTrait,
    search: Option<&str>,
    page: Page,
) -> Result<(Vec<administrator::Model>, u64), CoreError> {
    let all = administrator::Entity::find().order_by_asc(administrator::Column::Name).all(db).await?;
    let matches = match search {
        Some(query) => fuzzy::rank(query, all, |a| &a.name),
        None => all,
    };
    Ok((page.slice(&matches), matches.len() as u64))
}
