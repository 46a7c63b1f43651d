//! Rate-limit buckets shared by every core of a fleet, in Redis
//! (`SAIL_REDIS_URL`): the generic cell rate algorithm (GCRA) in one Lua
//! script, so taking a token is one atomic operation on one key, timed by
//! Redis's own clock (the cores' clocks never meet). A low module: `auth`
//! and the core's state use it.

use std::time::Duration;

use redis::aio::ConnectionManager;

/// GCRA: a bucket is its theoretical arrival time (TAT), in ms of Redis's
/// clock. A request is admitted when `TAT - (burst - 1) · emission` has
/// passed; admitting it moves the TAT on by one emission interval. Returns
/// `{1, 0}` when admitted, `{0, ms to wait}` when not. The key expires when
/// the bucket would be full again.
const GCRA: &str = r"
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local emission = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local allow_at = tat - (burst - 1) * emission
if now < allow_at then
  return {0, math.ceil(allow_at - now)}
end
local new_tat = tat + emission
redis.call('SET', KEYS[1], tostring(new_tat), 'PX', math.ceil(new_tat - now) + 1000)
return {1, 0}
";

/// How long an answer from Redis may take before the core limits on its
/// own for this request.
const TIMEOUT: Duration = Duration::from_millis(250);
/// After Redis failed, how long the core limits on its own before trying
/// Redis again (so an outage costs one timeout per interval, not one per
/// request).
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(5);

/// A connection to the Redis that holds the fleet's buckets, made at first
/// use and re-made by the connection manager when it drops.
pub struct SharedBuckets {
    client: redis::Client,
    connection: tokio::sync::OnceCell<ConnectionManager>,
    script: redis::Script,
    /// Until when Redis is not asked, after a failure.
    resting_until: std::sync::Mutex<Option<std::time::Instant>>,
}

/// Why a bucket could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("Redis did not answer within {0:?}")]
    Timeout(Duration),
    #[error("Redis failed recently; retried after a pause")]
    Resting,
}

/// What a bucket said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    Admitted,
    /// Refused; this long until a token is free.
    Refused(Duration),
}

impl SharedBuckets {
    /// Buckets in the Redis at `url` (`redis://host:port`). Only the URL
    /// is checked here; the connection is made at first use.
    pub fn new(url: &str) -> Result<Self, redis::RedisError> {
        Ok(SharedBuckets {
            client: redis::Client::open(url)?,
            connection: tokio::sync::OnceCell::new(),
            script: redis::Script::new(GCRA),
            resting_until: std::sync::Mutex::new(None),
        })
    }

    /// Takes a token from `bucket`, which refills one token per `emission`
    /// and holds at most `burst`.
    pub async fn take(&self, bucket: &str, emission: Duration, burst: u32) -> Result<Taken, SharedError> {
        {
            let resting = self.resting_until.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if resting.is_some_and(|until| std::time::Instant::now() < until) {
                return Err(SharedError::Resting);
            }
        }
        let taken = match tokio::time::timeout(TIMEOUT, self.take_now(bucket, emission, burst)).await {
            Ok(Ok(taken)) => return Ok(taken),
            Ok(Err(err)) => SharedError::Redis(err),
            Err(_) => SharedError::Timeout(TIMEOUT),
        };
        *self.resting_until.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) =
            Some(std::time::Instant::now() + RETRY_AFTER_FAILURE);
        Err(taken)
    }

    async fn take_now(&self, bucket: &str, emission: Duration, burst: u32) -> Result<Taken, redis::RedisError> {
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(TIMEOUT)
            .set_response_timeout(TIMEOUT)
            .set_number_of_retries(1);
        let connection =
            self.connection.get_or_try_init(|| self.client.get_connection_manager_with_config(config)).await?;
        let mut connection = connection.clone();
        let (admitted, wait_ms): (i64, i64) = self
            .script
            .key(bucket)
            .arg(emission.as_secs_f64() * 1000.0)
            .arg(burst.max(1))
            .invoke_async(&mut connection)
            .await?;
        Ok(if admitted == 1 { Taken::Admitted } else { Taken::Refused(Duration::from_millis(wait_ms.max(1) as u64)) })
    }
}
