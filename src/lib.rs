//! Sail's API contract as code, shared by the core, the gateway and the tests:
//! the types and tonic stubs generated from `proto/`, the access rule each
//! method declares there, and the error vocabulary both transports speak.

pub mod access;
pub mod errors;
pub mod json;

/// Messages, clients and servers generated from `proto/sail/v1`.
pub mod pb {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("sail.v1");
}

/// The compiled descriptors of `proto/`, served by gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/sail_descriptor.bin"));

pub use errors::{ErrorCode, ErrorDetail};
