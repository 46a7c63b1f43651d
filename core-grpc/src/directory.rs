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

/// The display name of a provider id: a merchant, an administrator or a
/// sandbox card issuer.
pub async fn provider_name(db: &impl ConnectionTrait, id: &str) -> Result<Option<String>, CoreError> {
    if let Some(found) = merchant::Entity::find_by_id(id).one(db).await? {
        return Ok(Some(found.name));
    }
    if let Some(found) = administrator::Entity::find_by_id(id).one(db).await? {
        return Ok(Some(found.name));
    }
    Ok(crate::sandbox::CARD_ISSUERS.iter().find(|n| crate::sandbox::card_issuer_id(n) == id).map(|n| n.to_string()))
}

/// The providers a user may link for a connection `kind` (`card`, `store`,
/// `benefit_account`), best match first when searching: `(id, name)`, at
/// most 20.
pub async fn providers(
    db: &impl ConnectionTrait,
    kind: &str,
    search: Option<&str>,
) -> Result<Vec<(String, String)>, CoreError> {
    let page = Page { limit: 20, offset: 0 };
    Ok(match kind {
        "store" => list_merchants(db, search, page).await?.0.into_iter().map(|m| (m.id, m.name)).collect(),
        "benefit_account" => {
            list_administrators(db, search, page).await?.0.into_iter().map(|a| (a.id, a.name)).collect()
        }
        _ => {
            let issuers =
                crate::sandbox::CARD_ISSUERS.iter().map(|n| (crate::sandbox::card_issuer_id(n), n.to_string()));
            match search {
                Some(query) => fuzzy::rank(query, issuers.collect::<Vec<_>>(), |(_, n)| n.as_str()),
                None => issuers.collect(),
            }
        }
    })
}
