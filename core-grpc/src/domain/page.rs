//! List pagination (docs/contract.md#wire-conventions): `limit` 1..=100, default 25; `offset` ≥ 0.

use crate::error::CoreError;

pub const DEFAULT_LIMIT: u64 = 25;
pub const MAX_LIMIT: u64 = 100;

/// A validated page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub limit: u64,
    pub offset: u64,
}

impl Page {
    pub fn parse(limit: Option<i64>, offset: Option<i64>) -> Result<Page, CoreError> {
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(n) if (1..=MAX_LIMIT as i64).contains(&n) => n as u64,
            Some(n) => {
                return Err(CoreError::invalid("limit", format!("limit must be between 1 and {MAX_LIMIT}; got {n}.")));
            }
        };
        let offset = match offset {
            None => 0,
            Some(n) if n >= 0 => n as u64,
            Some(n) => {
                return Err(CoreError::invalid("offset", format!("offset must be 0 or greater; got {n}.")));
            }
        };
        Ok(Page { limit, offset })
    }

    /// The `pagination` object for a page of this request out of `total`.
    pub fn pagination(&self, total: u64) -> sail_api::pb::Pagination {
        sail_api::pb::Pagination {
            total: total as i64,
            limit: self.limit as i64,
            offset: self.offset as i64,
            has_more: self.offset.saturating_add(self.limit) < total,
        }
    }

    /// This page of an in-memory list.
    pub fn slice<T: Clone>(&self, items: &[T]) -> Vec<T> {
        items.iter().skip(self.offset as usize).take(self.limit as usize).cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(Page::parse(None, None).unwrap(), Page { limit: 25, offset: 0 });
        assert_eq!(Page::parse(Some(1), Some(0)).unwrap().limit, 1);
        assert_eq!(Page::parse(Some(100), None).unwrap().limit, 100);
        for bad in [0, 101, -1] {
            match Page::parse(Some(bad), None) {
                Err(CoreError::InvalidRequest { param, .. }) => assert_eq!(param, "limit"),
                other => panic!("{other:?}"),
            }
        }
        assert!(
            matches!(Page::parse(None, Some(-1)), Err(CoreError::InvalidRequest { param, .. }) if param == "offset")
        );
    }

    #[test]
    fn has_more_is_exact_at_the_edges() {
        let page = Page::parse(Some(2), Some(0)).unwrap();
        assert!(page.pagination(3).has_more);
        assert!(!page.pagination(2).has_more);
        let past = Page::parse(Some(2), Some(10)).unwrap();
        assert!(!past.pagination(3).has_more);
        assert!(past.slice(&[1, 2, 3]).is_empty());
    }
}
