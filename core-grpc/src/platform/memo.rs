//! Bounded in-memory caches for what the core would otherwise read or
//! compute on every request: verified keys, opened external ids, recent
//! directory searches. One shape for all of them: quick_cache's concurrent
//! cache (S3-FIFO eviction; a lookup takes a shard's read lock and sets a
//! bit), with an optional time to live checked on each read. An expired
//! entry is simply not answered; it is overwritten by the next insert or
//! evicted like any other.
//!
//! Measured choice: mini-moka, used before, keeps a log of every read for
//! its eviction policy and drains it under load; on a full page of users
//! (25 lookups) its lookups were 6% of the process's CPU
//! (docs/benchmarks.md).

use std::hash::Hash;
use std::time::{Duration, Instant};

use quick_cache::Equivalent;
use quick_cache::sync::Cache;

/// At most `capacity` values by key, each answered for `ttl` after it was
/// inserted (or until evicted, with no `ttl`).
pub struct Memo<K, V> {
    entries: Cache<K, (V, Option<Instant>)>,
    ttl: Option<Duration>,
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    /// Values kept until evicted.
    pub fn new(capacity: usize) -> Self {
        Memo { entries: Cache::new(capacity), ttl: None }
    }

    /// Values kept for `ttl` at most.
    pub fn expiring(capacity: usize, ttl: Duration) -> Self {
        Memo { entries: Cache::new(capacity), ttl: Some(ttl) }
    }

    /// The value for `key`, if one was inserted and has not expired.
    pub fn get<Q>(&self, key: &Q) -> Option<V>
    where
        Q: Hash + Equivalent<K> + ?Sized,
    {
        let (value, until) = self.entries.get(key)?;
        match until {
            Some(until) if Instant::now() >= until => None,
            _ => Some(value),
        }
    }

    /// Drops what is kept for `key`.
    pub fn remove<Q>(&self, key: &Q)
    where
        Q: Hash + Equivalent<K> + ?Sized,
    {
        self.entries.remove(key);
    }

    /// Keeps `value` for `key`, replacing what was there.
    pub fn insert(&self, key: K, value: V) {
        let until = self.ttl.and_then(|ttl| Instant::now().checked_add(ttl));
        self.entries.insert(key, (value, until));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_answered_until_its_time_runs_out() {
        let memo: Memo<String, u32> = Memo::expiring(16, Duration::from_millis(50));
        memo.insert("a".into(), 1);
        assert_eq!(memo.get("a"), Some(1));
        assert_eq!(memo.get("b"), None);
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(memo.get("a"), None, "answered after its time to live");
        memo.insert("a".into(), 2);
        assert_eq!(memo.get("a"), Some(2), "an insert after expiry is answered afresh");
    }

    #[test]
    fn it_stays_within_its_capacity() {
        let memo: Memo<u32, u32> = Memo::new(100);
        for n in 0..10_000 {
            memo.insert(n, n);
        }
        let kept = (0..10_000).filter(|n| memo.get(n).is_some()).count();
        assert!(kept > 0 && kept <= 110, "kept {kept} of 10,000 in a cache of 100");
    }
}
