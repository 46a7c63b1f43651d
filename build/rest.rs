//! The REST face of each operation, read from its `google.api.http` and
//! `(sail.v1.rest)` options, and the Rust the gateway routes with: a table of
//! routes, each with a function that decodes the request into the proto
//! request type and calls the core.

use std::fmt::Write;

use crate::descriptor::{Api, FieldDescriptorProto, Method, field_type, short_name, snake_case};

/// The base every REST path in proto starts with.
pub const BASE: &str = "/api/v1";

/// One REST operation.
pub struct RestOperation<'a> {
    pub method: &'a Method,
    pub verb: &'static str,
    /// Relative to the base, e.g. `/users/{user_id}`.
    pub path: String,
    pub path_params: Vec<String>,
    /// The JSON body maps onto every field the path does not bind.
    pub has_body: bool,
    pub success_status: u16,
    /// Fields taken from the query string (operations without a body).
    pub query: Vec<&'a FieldDescriptorProto>,
    /// For an upload, the `bytes` field the multipart body's file part fills.
    pub multipart_file: Option<String>,
}

/// Every sail.v1 method with an HTTP mapping; an inconsistent mapping fails
/// the build with the reason.
pub fn operations(api: &Api) -> Result<Vec<RestOperation<'_>>, String> {
    let mut out = Vec::new();
    for method in &api.methods {
        let Some(http) = &method.options.http else { continue };
        let where_ = method.grpc_path();
        let (verb, full_path) = http.pattern().ok_or_else(|| format!("{where_}: google.api.http has no verb"))?;
        let path = full_path
            .strip_prefix(BASE)
            .ok_or_else(|| format!("{where_}: path {full_path} must start with {BASE}"))?
            .to_string();
        let path_params: Vec<String> = path
            .split('/')
            .filter_map(|segment| segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .map(str::to_string)
            .collect();
        let has_body = match http.body.as_str() {
            "" => false,
            "*" => true,
            other => return Err(format!("{where_}: body \"{other}\" is not supported; use \"*\" or none")),
        };
        let input = api.message(&method.input)?;
        for param in &path_params {
            let field = input
                .fields
                .iter()
                .find(|(f, _)| f.name() == param)
                .ok_or_else(|| format!("{where_}: path variable {param} is not a field of {}", input.name))?;
            if field.0.kind() != field_type::STRING || field.0.is_repeated() {
                return Err(format!("{where_}: path variable {param} must be a singular string"));
            }
        }
        let unbound: Vec<&FieldDescriptorProto> =
            input.fields.iter().map(|(f, _)| f).filter(|f| !path_params.iter().any(|p| p == f.name())).collect();
        // With a body, every unbound field comes from it; without, from the query.
        let query = if has_body { Vec::new() } else { unbound };
        for field in &query {
            let scalar =
                [field_type::STRING, field_type::INT64, field_type::INT32, field_type::BOOL, field_type::DOUBLE]
                    .contains(&field.kind());
            if !scalar || field.is_repeated() {
                return Err(format!("{where_}: query parameter {} must be a singular scalar", field.name()));
            }
        }
        let success_status = match method.options.rest.as_ref().map(|r| r.success_status).unwrap_or(0) {
            0 => 200,
            status @ 200..=299 => status as u16,
            other => return Err(format!("{where_}: success_status {other} is not a 2xx status")),
        };
        let multipart_file = method.options.rest.as_ref().map(|r| r.multipart_file.clone()).filter(|f| !f.is_empty());
        if let Some(file) = &multipart_file {
            let field = input.fields.iter().find(|(f, _)| f.name() == file);
            if !has_body || field.is_none_or(|(f, _)| f.kind() != field_type::BYTES || f.is_repeated()) {
                return Err(format!("{where_}: multipart_file {file} must name a singular bytes field of a body"));
            }
            if !input.fields.iter().any(|(f, _)| f.name() == "file_name" && f.kind() == field_type::STRING) {
                return Err(format!("{where_}: an upload's request needs a string field file_name"));
            }
        }
        out.push(RestOperation { method, verb, path, path_params, has_body, success_status, query, multipart_file });
    }
    let mut seen = std::collections::HashSet::new();
    for op in &out {
        if !seen.insert((op.verb, op.path.clone())) {
            return Err(format!("{} {} is mapped twice", op.verb, op.path));
        }
    }
    Ok(out)
}

fn param_kind(field: &FieldDescriptorProto) -> &'static str {
    match field.kind() {
        field_type::INT64 | field_type::INT32 => "Integer",
        field_type::DOUBLE => "Number",
        field_type::BOOL => "Boolean",
        _ => "String",
    }
}

/// `rest_routes.rs`: the route table and one call function per operation.
pub fn generate(ops: &[RestOperation<'_>]) -> String {
    let mut out = String::from(
        "// Generated by build.rs from the google.api.http and (sail.v1.rest) options of proto/sail/v1.\n\n\
         /// Every REST operation, in gRPC method order.\n\
         pub static ROUTES: &[Route] = &[\n",
    );
    for op in ops {
        let fn_name = format!("{}_{}", snake_case(&op.method.service), snake_case(&op.method.name));
        let query: Vec<String> = op
            .query
            .iter()
            .map(|f| format!("QueryParam {{ name: {:?}, kind: ParamKind::{} }}", f.name(), param_kind(f)))
            .collect();
        let _ = writeln!(
            out,
            "    Route {{ method: {:?}, path: {:?}, operation: {:?}, success_status: {}, path_params: &{:?}, query: &[{}], has_body: {}, multipart_file: {:?}, call: calls::{fn_name} }},",
            op.verb,
            op.path,
            op.method.grpc_path(),
            op.success_status,
            op.path_params,
            query.join(", "),
            op.has_body,
            op.multipart_file.as_deref(),
        );
    }
    out.push_str(
        "];\n\n/// Decode, call the core, encode: one function per operation.\nmod calls {\n    use super::*;\n",
    );
    for op in ops {
        let service = &op.method.service;
        let fn_name = format!("{}_{}", snake_case(service), snake_case(&op.method.name));
        let _ = writeln!(
            out,
            "\n    pub(super) fn {fn_name}(core: CoreChannel, input: JsonObject, metadata: tonic::metadata::MetadataMap) -> CallFuture {{\n        \
             Box::pin(async move {{\n            \
             let message: crate::pb::{input} = decode(input)?;\n            \
             let mut request = tonic::Request::new(message);\n            \
             *request.metadata_mut() = metadata;\n            \
             let reply = crate::pb::{module}_client::{service}Client::new(core).{method}(request).await.map_err(CallError::Status)?;\n            \
             encode(&reply.into_inner())\n        \
             }})\n    }}",
            input = short_name(&op.method.input),
            module = snake_case(service),
            method = snake_case(&op.method.name),
        );
    }
    out.push_str("}\n");
    out
}

/// `required_fields.rs`: for each request message with `REQUIRED` fields, the
/// check the core runs so that an absent field is `invalid_request` naming it
/// over gRPC and REST alike (JSON decoding gives absent fields their
/// default, which is what a gRPC caller's omission looks like too).
pub fn generate_required(api: &crate::descriptor::Api) -> Result<String, String> {
    let mut out =
        String::from("// Generated by build.rs from google.api.field_behavior = REQUIRED in proto/sail/v1.\n");
    let mut inputs: Vec<&str> = api.methods.iter().map(|m| m.input.as_str()).collect();
    inputs.sort();
    inputs.dedup();
    for input in inputs {
        let message = api.message(input)?;
        let mut checks = String::new();
        for (field, _) in message.fields.iter().filter(|(f, _)| f.required()) {
            let name = field.name();
            let rust = if name == "type" { "r#type".to_string() } else { name.to_string() };
            let test = if field.is_repeated() || field.kind() == field_type::STRING || field.kind() == field_type::BYTES
            {
                format!("self.{rust}.is_empty()")
            } else {
                continue;
            };
            let values = field.rule().r#enum;
            let message = match values.as_slice() {
                [] => format!("{name} is required."),
                [only] => format!("{name} is required; {name} must be {only}."),
                many => format!("{name} is required; one of {}.", many.join(", ")),
            };
            checks.push_str(&format!(
                "        if {test} {{\n            return Some(({name:?}, {message:?}));\n        }}\n"
            ));
        }
        out.push_str(&format!(
            "\nimpl Required for crate::pb::{} {{\n    fn missing_field(&self) -> Option<(&'static str, &'static str)> {{\n{checks}        None\n    }}\n}}\n",
            short_name(input)
        ));
    }
    Ok(out)
}

/// The longest a request string without a declared `max_length`, enumeration
/// or format may be: ids, labels and filters.
pub const DEFAULT_MAX_LENGTH: u32 = 255;

/// The length limit a request string field has: its declared `max_length`,
/// or [`DEFAULT_MAX_LENGTH`] when it declares no enumeration or format.
pub fn max_length(field: &FieldDescriptorProto) -> Option<u32> {
    let rule = field.rule();
    if rule.max_length > 0 {
        Some(rule.max_length)
    } else if rule.r#enum.is_empty() && rule.format.is_empty() {
        Some(DEFAULT_MAX_LENGTH)
    } else {
        None
    }
}

/// `plain_text.rs`: for every message a request can carry, the check of its
/// strings (nested and repeated ones included): no control character other
/// than tab, line feed and carriage return, and no longer than the field's
/// limit; and of its lists: no more items than declared. PostgreSQL cannot
/// store NUL, and none belongs in a name, id or descriptor; refusing them
/// before anything is stored means a `202` is never followed by a row that
/// cannot be written.
pub fn generate_plain_text(api: &crate::descriptor::Api) -> Result<String, String> {
    let mut out = String::from("// Generated by build.rs: the string and list fields of every request message.\n");
    let mut stack: Vec<String> = api.methods.iter().map(|m| m.input.clone()).collect();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let message = api.message(&name)?;
        let mut checks = String::new();
        for (field, _) in &message.fields {
            let field_name = field.name();
            let rust = if field_name == "type" { "r#type".to_string() } else { field_name.to_string() };
            let max = max_length(field).map(|m| m.to_string()).unwrap_or_else(|| "usize::MAX as u32".to_string());
            let max_items = field.rule().max_items;
            if field.is_repeated() && max_items > 0 {
                checks.push_str(&format!(
                    "        if self.{rust}.len() > {max_items} {{\n            return Some(({field_name:?}.to_string(), TextProblem::TooMany({max_items})));\n        }}\n"
                ));
            }
            match (field.kind(), field.is_repeated(), field.is_optional()) {
                (field_type::STRING, false, false) => checks.push_str(&format!(
                    "        if let Some(problem) = text_problem(&self.{rust}, {max}) {{\n            return Some(({field_name:?}.to_string(), problem));\n        }}\n"
                )),
                (field_type::STRING, false, true) => checks.push_str(&format!(
                    "        if let Some(problem) = self.{rust}.as_deref().and_then(|v| text_problem(v, {max})) {{\n            return Some(({field_name:?}.to_string(), problem));\n        }}\n"
                )),
                (field_type::STRING, true, _) => checks.push_str(&format!(
                    "        for (at, item) in self.{rust}.iter().enumerate() {{\n            if let Some(problem) = text_problem(item, {max}) {{\n                return Some((format!(\"{field_name}.{{at}}\"), problem));\n            }}\n        }}\n"
                )),
                (field_type::MESSAGE, false, _) => {
                    stack.push(field.type_name.clone().unwrap_or_default());
                    checks.push_str(&format!(
                        "        if let Some((inner, problem)) = self.{rust}.as_ref().and_then(PlainText::text_problem) {{\n            return Some((format!(\"{field_name}.{{inner}}\"), problem));\n        }}\n"
                    ));
                }
                (field_type::MESSAGE, true, _) => {
                    stack.push(field.type_name.clone().unwrap_or_default());
                    checks.push_str(&format!(
                        "        for (at, item) in self.{rust}.iter().enumerate() {{\n            if let Some((inner, problem)) = item.text_problem() {{\n                return Some((format!(\"{field_name}.{{at}}.{{inner}}\"), problem));\n            }}\n        }}\n"
                    ));
                }
                _ => {}
            }
        }
        out.push_str(&format!(
            "\nimpl PlainText for crate::pb::{} {{\n    fn text_problem(&self) -> Option<(String, TextProblem)> {{\n{checks}        None\n    }}\n}}\n",
            short_name(&name)
        ));
    }
    Ok(out)
}
