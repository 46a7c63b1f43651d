//! Compiles `proto/` into Rust (messages, tonic clients and servers) and turns
//! each method's `(sail.v1.access)` option into `access_rules.rs`, the table the
//! core enforces. A sail.v1 method without an access rule fails the build.

use std::{collections::BTreeMap, env, fs, path::PathBuf};

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
    // A fresh machine has no protoc: use the vendored one. SAFETY: build
    // scripts are single-threaded; nothing else reads the environment now.
    unsafe { env::set_var("PROTOC", protoc_bin_vendored::protoc_bin_path()?) };
    tonic_prost_build::configure()
        .file_descriptor_set_path(&descriptor_path)
        // Responses render to the REST JSON shape directly: field names are the
        // contract's snake_case names and optional fields become null.
        .type_attribute(".sail.v1", "#[derive(serde::Serialize)]")
        // Spec §2.2: `balance` is present only when the connection has the
        // benefit_account product, so it is left out rather than null.
        .field_attribute(".sail.v1.Account.balance", "#[serde(skip_serializing_if = \"Option::is_none\")]")
        .field_attribute(".sail.v1.AccountDetail.balance", "#[serde(skip_serializing_if = \"Option::is_none\")]")
        // The secret is shown once: absent from every other response.
        .field_attribute(".sail.v1.WebhookEndpoint.secret", "#[serde(skip_serializing_if = \"Option::is_none\")]")
        // Event data is JSON text on the wire of gRPC, a JSON object in REST.
        .field_attribute(".sail.v1.Event.data", "#[serde(serialize_with = \"crate::json::raw\")]")
        .compile_protos(&protos, &[PathBuf::from("proto"), well_known])?;

    let descriptor = fs::read(&descriptor_path)?;
    let table = access_table(&descriptor)?;
    fs::write(out_dir.join("access_rules.rs"), table)?;

    // Without this, printing any rerun-if line would hide .proto edits.
    println!("cargo:rerun-if-changed=proto");
    println!("cargo:rerun-if-changed=build.rs");
    Ok(())
}

/// Mirrors of the few descriptor.proto fields read here. prost keeps the
/// extension field `access` (51001) on MethodOptions because this mirror names it.
mod mirror {
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct FileDescriptorSet {
        #[prost(message, repeated, tag = "1")]
        pub file: Vec<FileDescriptorProto>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct FileDescriptorProto {
        #[prost(string, optional, tag = "2")]
        pub package: Option<String>,
        #[prost(message, repeated, tag = "6")]
        pub service: Vec<ServiceDescriptorProto>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct ServiceDescriptorProto {
        #[prost(string, optional, tag = "1")]
        pub name: Option<String>,
        #[prost(message, repeated, tag = "2")]
        pub method: Vec<MethodDescriptorProto>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct MethodDescriptorProto {
        #[prost(string, optional, tag = "1")]
        pub name: Option<String>,
        #[prost(message, optional, tag = "4")]
        pub options: Option<MethodOptions>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct MethodOptions {
        #[prost(message, optional, tag = "51001")]
        pub access: Option<AccessRule>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct AccessRule {
        #[prost(bool, tag = "1")]
        pub public: bool,
        #[prost(string, repeated, tag = "2")]
        pub any_key_scope: Vec<String>,
        #[prost(bool, tag = "3")]
        pub token_admin: bool,
        #[prost(string, tag = "4")]
        pub user_token_scope: String,
    }
}

fn access_table(descriptor: &[u8]) -> Result<String, Box<dyn std::error::Error>> {
    use prost::Message;
    let set = mirror::FileDescriptorSet::decode(descriptor)?;
    let mut rules = BTreeMap::new();
    let mut missing = Vec::new();
    for file in set.file.iter().filter(|f| f.package.as_deref() == Some("sail.v1")) {
        for service in &file.service {
            let service_name = service.name.clone().unwrap_or_default();
            for method in &service.method {
                let path = format!("/sail.v1.{service_name}/{}", method.name.clone().unwrap_or_default());
                match method.options.as_ref().and_then(|o| o.access.clone()) {
                    Some(rule) => {
                        rules.insert(path, rule);
                    }
                    None => missing.push(path),
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(format!("methods without a (sail.v1.access) option: {}", missing.join(", ")).into());
    }

    let mut out = String::from(
        "/// Generated by build.rs from the `(sail.v1.access)` option of every sail.v1 method.\n\
         pub fn access_rule(path: &str) -> Option<&'static AccessRule> {\n    match path {\n",
    );
    for (path, rule) in &rules {
        let scopes: Vec<String> = rule.any_key_scope.iter().map(|s| format!("{s:?}")).collect();
        let token_scope = if rule.user_token_scope.is_empty() {
            "None".to_string()
        } else {
            format!("Some({:?})", rule.user_token_scope)
        };
        out.push_str(&format!(
            "        {path:?} => Some(&AccessRule {{ public: {}, any_key_scope: &[{}], token_admin: {}, user_token_scope: {token_scope} }}),\n",
            rule.public,
            scopes.join(", "),
            rule.token_admin,
        ));
    }
    out.push_str("        _ => None,\n    }\n}\n\n/// Every sail.v1 method path that declares an access rule.\npub const METHOD_PATHS: &[&str] = &[\n");
    for path in rules.keys() {
        out.push_str(&format!("    {path:?},\n"));
    }
    out.push_str("];\n");
    Ok(out)
}
