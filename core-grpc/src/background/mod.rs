//! Work that runs beside the requests: the one claim-and-lease loop
//! (`worker`) that every kind of background work plugs into, the durable
//! jobs it runs (`job_worker`: ingestion, connection syncs, receipt
//! readings), webhook delivery (`delivery`) and retention sweeps
//! (`retention`).

pub mod delivery;
pub mod gauges;
pub mod job_worker;
pub mod retention;
pub mod worker;
