//! The build's generators (`build/`), run on a proto fixture that uses every
//! option they read (`tests/generator/fixture`), their output compared with
//! reviewed snapshots (`tests/snapshots/`): a change to what the build emits
//! fails here until the new snapshot is reviewed and committed
//! (`cargo insta review`, or `INSTA_UPDATE=always` and a look at the diff).
//! The OpenAPI generator's snapshot is `docs/openapi.json` itself, which a
//! test of the gateway holds equal to what the build emits.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a test fails loudly")]
#![allow(dead_code, reason = "the build's modules, included whole; not every item is exercised here")]

#[path = "../build/access.rs"]
mod access;
#[path = "../build/descriptor.rs"]
mod descriptor;
#[path = "../build/errors.rs"]
mod errors;
#[path = "../build/openapi.rs"]
mod openapi;
#[path = "../build/print.rs"]
mod print;
#[path = "../build/rest.rs"]
mod rest;

use std::path::{Path, PathBuf};

use descriptor::Api;
use print::pretty;

/// The descriptors of the proto files under `tests/generator/<dir>`, with
/// Sail's option definitions from `proto/`.
fn compile(dir: &str) -> Api {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/generator").join(dir);
    let protos: Vec<PathBuf> = std::fs::read_dir(fixture.join("sail/v1"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "proto"))
        .collect();
    let out = tempfile::NamedTempFile::new().unwrap();
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg("--include_imports")
        .arg("--include_source_info")
        .arg(format!("--descriptor_set_out={}", out.path().display()))
        .arg(format!("--proto_path={}", fixture.display()))
        .arg(format!("--proto_path={}", root.join("proto").display()))
        .arg(format!("--proto_path={}", protoc_bin_vendored::include_path().unwrap().display()))
        .args(&protos)
        .status()
        .unwrap();
    assert!(status.success(), "protoc failed on {dir}");
    Api::decode(&std::fs::read(out.path()).unwrap()).unwrap()
}

#[test]
fn the_access_table_is_as_reviewed() {
    let api = compile("fixture");
    insta::assert_snapshot!("access_rules", pretty(access::generate(&api).unwrap()).unwrap());
}

#[test]
fn the_gateway_routes_are_as_reviewed() {
    let api = compile("fixture");
    let operations = rest::operations(&api).unwrap();
    assert_eq!(operations.len(), 5, "every method with an HTTP mapping");
    insta::assert_snapshot!("rest_routes", pretty(rest::generate(&operations)).unwrap());
}

#[test]
fn the_required_and_plain_text_checks_are_as_reviewed() {
    let api = compile("fixture");
    insta::assert_snapshot!("required_fields", pretty(rest::generate_required(&api).unwrap()).unwrap());
    insta::assert_snapshot!("plain_text", pretty(rest::generate_plain_text(&api).unwrap()).unwrap());
    insta::assert_snapshot!("json_shapes", pretty(rest::generate_json_shapes(&api).unwrap()).unwrap());
}

#[test]
fn field_options_become_these_serde_attributes() {
    let api = compile("fixture");
    let attributes: Vec<(String, &str)> =
        rest::serde_attributes(&api).unwrap().into_iter().filter(|(path, _)| path.contains("Widget")).collect();
    insta::assert_debug_snapshot!("serde_attributes", attributes);
}

#[test]
fn the_error_vocabulary_is_as_reviewed() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("proto/sail/v1/error_codes.csv")).unwrap();
    let codes = errors::ErrorCodes::read(&text).unwrap();
    assert_eq!(codes.for_status(413), ["request_too_large"]);
    insta::assert_snapshot!("error_codes", pretty(codes.generate()).unwrap());
}

#[test]
fn a_malformed_error_row_fails_the_build_with_its_line() {
    let header = "code,http_status,grpc_code,meaning\n";
    for (row, expected) in [
        ("Bad-Code,400,InvalidArgument,x", "line 2: code \"Bad-Code\" is not snake_case"),
        ("teapot,200,InvalidArgument,x", "line 2: \"200\" is not an error status"),
        ("teapot,400,Teapot,x", "line 2: \"Teapot\" is not a gRPC code"),
        ("teapot,400,InvalidArgument,", "line 2: teapot has no meaning"),
    ] {
        let err = errors::ErrorCodes::read(&format!("{header}{row}\n")).err().unwrap();
        assert!(err.contains(expected), "{row}: {err}");
    }
    let twice = errors::ErrorCodes::read(&format!("{header}a,400,Internal,x\na,400,Internal,y\n")).err().unwrap();
    assert!(twice.contains("line 3: a twice"), "{twice}");
}

#[test]
fn a_post_that_does_not_honour_idempotency_keys_fails_the_build() {
    let err = access::generate(&compile("refused")).err().unwrap();
    assert!(err.contains("/sail.v1.Refused/CreateThing"), "{err}");
    assert!(err.contains("option (sail.v1.idempotent) = true"), "{err}");
}

#[test]
fn variants_become_one_schema_per_value_under_a_discriminator() {
    let api = compile("variants");
    let schemas: std::collections::BTreeMap<String, serde_json::Value> =
        openapi::request_schemas(&api, ".sail.v1.Pick", &[]).unwrap().into_iter().collect();
    insta::assert_snapshot!("variants", serde_json::to_string_pretty(&schemas).unwrap());
    let union = &schemas["Pick"];
    assert_eq!(union["discriminator"]["propertyName"], "kind");
    assert_eq!(union["discriminator"]["mapping"]["detailed"], "#/components/schemas/PickDetailed");
    let plain = &schemas["PickPlain"];
    assert!(plain["properties"].get("detail").is_none(), "{plain}");
    assert_eq!(plain["properties"]["tags"]["items"]["enum"], serde_json::json!(["red"]));
    assert_eq!(plain["properties"]["kind"]["const"], "plain");
    let detailed = &schemas["PickDetailed"];
    assert_eq!(detailed["properties"]["detail"]["$ref"], "#/components/schemas/DetailShape");
    assert_eq!(detailed["required"], serde_json::json!(["kind", "detail"]));
}

#[test]
fn a_variant_declaration_that_does_not_fit_its_message_fails_the_build() {
    let api = compile("variants");
    for (message, expected) in [
        ("MissingVariant", "needs exactly one variant"),
        ("OmitsRequired", "name is required; it cannot be omitted"),
        ("StrayValue", "green is not a value of tags"),
        ("WiderShape", ".sail.v1.Pick.kind is not a field of .sail.v1.Detail"),
        ("LooseDiscriminator", "the discriminator must be a required string field"),
    ] {
        let err = openapi::request_schemas(&api, &format!(".sail.v1.{message}"), &[]).err().unwrap();
        assert!(err.contains(expected), "{message}: {err}");
    }
}
