//! Compiles `proto/` into Rust (messages, tonic clients and servers) and
//! derives from the same descriptors everything that would otherwise be
//! written twice:
//!
//! - `access_rules.rs`: each method's `(sail.v1.access)` and
//!   `(sail.v1.idempotent)` options, the table the core's layers enforce; a
//!   sail.v1 method without an access rule, or a POST that is not
//!   idempotent, fails the build;
//! - `rest_routes.rs`: each method's `google.api.http` mapping and
//!   `(sail.v1.rest)` option, the routes and request decoding of the gateway;
//! - `required_fields.rs`: each request message's `REQUIRED` fields, checked
//!   by the core;
//! - `plain_text.rs`: every string a request can carry, checked by the core
//!   for control characters;
//! - `json_shapes.rs`: where a REST body must hold a JSON object, checked by
//!   the gateway before decoding;
//! - `error_codes.rs`: the error vocabulary of `proto/sail/v1/error_codes.csv`,
//!   the one place a code, its statuses and its meaning are declared;
//! - `openapi.json`: the OpenAPI 3.1 document of those routes.
//!
//! The descriptor mirror lives in `build/descriptor.rs`, the generators in
//! `build/rest.rs` and `build/openapi.rs`.

#[path = "build/access.rs"]
mod access;
#[path = "build/descriptor.rs"]
mod descriptor;
#[path = "build/errors.rs"]
mod errors;
#[path = "build/openapi.rs"]
mod openapi;
#[path = "build/print.rs"]
mod print;
#[path = "build/rest.rs"]
mod rest;

use std::{env, fs, path::PathBuf};

use descriptor::Api;
use print::pretty;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    let descriptor_path = out_dir.join("sail_descriptor.bin");

    let mut protos: Vec<PathBuf> = fs::read_dir("proto/sail/v1")?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "proto"))
        .collect();
    protos.sort();
    // Served by reflection so grpcurl can decode ErrorInfo and BadRequest.
    protos.push(PathBuf::from("proto/google/rpc/error_details.proto"));

    let well_known = protoc_bin_vendored::include_path()?;
    let includes = [PathBuf::from("proto"), well_known];
    // A fresh machine has no protoc: use the vendored one. The descriptors
    // are compiled first, on their own, because the Rust the messages
    // compile to follows options read from them.
    let protoc = protoc_bin_vendored::protoc_bin_path()?;
    let status = std::process::Command::new(&protoc)
        .arg("--include_imports")
        .arg("--include_source_info")
        .arg(format!("--descriptor_set_out={}", descriptor_path.display()))
        .args(includes.iter().map(|dir| format!("--proto_path={}", dir.display())))
        .args(&protos)
        .status()?;
    if !status.success() {
        return Err(format!("protoc failed: {status}").into());
    }
    let api = Api::decode(&fs::read(&descriptor_path)?)?;

    let mut config = tonic_prost_build::configure()
        .file_descriptor_set_path(&descriptor_path)
        .skip_protoc_run()
        // Messages are the REST JSON shapes: field names are the contract's
        // snake_case names, optional fields are null. Requests decode
        // straight into them: unknown fields are refused, absent fields take
        // their default, and the core checks what is required, so REST and
        // gRPC callers get the same answer.
        .type_attribute(
            ".sail.v1",
            "#[derive(serde::Serialize, serde::Deserialize)]\n#[serde(default, deny_unknown_fields)]",
        );
    // How a field's JSON differs from serde's default, as its options in
    // proto/ declare (proto/sail/v1/rest.proto, `FieldRule`).
    for (path, attribute) in rest::serde_attributes(&api)? {
        config = config.field_attribute(path, attribute);
    }
    config.compile_protos(&protos, &includes)?;

    fs::write(out_dir.join("access_rules.rs"), pretty(access::generate(&api)?)?)?;
    let operations = rest::operations(&api)?;
    fs::write(out_dir.join("rest_routes.rs"), pretty(rest::generate(&operations))?)?;
    fs::write(out_dir.join("required_fields.rs"), pretty(rest::generate_required(&api)?)?)?;
    fs::write(out_dir.join("plain_text.rs"), pretty(rest::generate_plain_text(&api)?)?)?;
    fs::write(out_dir.join("json_shapes.rs"), pretty(rest::generate_json_shapes(&api)?)?)?;
    let errors = errors::ErrorCodes::read(&fs::read_to_string("proto/sail/v1/error_codes.csv")?)?;
    fs::write(out_dir.join("error_codes.rs"), pretty(errors.generate())?)?;
    fs::write(out_dir.join("openapi.json"), openapi::document(&api, &operations, &errors)?)?;

    // Without this, printing any rerun-if line would hide .proto edits.
    println!("cargo:rerun-if-changed=proto");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    Ok(())
}
