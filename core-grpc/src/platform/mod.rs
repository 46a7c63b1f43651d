//! What every service stands on, and nothing above it: database
//! connections and write transactions (`db`), the process-wide wake-ups
//! (`signal`), the keyring that seals personal data and its rotation
//! (`crypto`, `rotation`), the durable job queue and its leases (`jobs`,
//! `lease`), which cores of the fleet are alive (`liveness`), rate-limit buckets shared through Redis (`shared_limits`), the
//! guard on Sail's own outbound requests (`egress`), the child process that
//! reads receipt files under limits (`receipt_reader`), small in-memory
//! caches (`memo`) and the directory index with its fuzzy name search
//! (`directory_index`, `fuzzy`).

pub mod crypto;
pub mod db;
pub mod directory_index;
pub mod egress;
pub mod fuzzy;
pub mod jobs;
pub mod lease;
pub mod liveness;
pub mod memo;
pub mod receipt_reader;
pub mod rotation;
pub mod shared_limits;
pub mod signal;
pub mod vault;
