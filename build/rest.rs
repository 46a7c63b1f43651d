//! The REST face of each operation, read from its `google.api.http` and
//! `(sail.v1.rest)` options, and the Rust the gateway routes with: a table of
//! routes, each with a function that decodes the request into the proto
//! request type and calls the core.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::descriptor::{Api, FieldDescriptorProto, Method, field_type, short_name, snake_case};

/// The serde attributes a field's options ask for, as `(field path,
/// attribute)`: `omitted_when_absent`, `json_object` and `whole_number`
/// (proto/sail/v1/rest.proto), and base64 for every `bytes` field, as the
/// protobuf JSON mapping writes bytes. An option on a field of the wrong
/// type fails the build.
pub fn serde_attributes(api: &Api) -> Result<Vec<(String, &'static str)>, String> {
    let mut out = Vec::new();
    for (path, field) in api.sail_fields() {
        let rule = field.rule();
        let singular = !field.is_repeated();
        let optional = field.is_optional() || field.kind() == field_type::MESSAGE;
        let mut wants = |ok: bool, option: &str, attribute: &'static str| {
            if ok {
                out.push((path.clone(), attribute));
                Ok(())
            } else {
                Err(format!("{path}: {option} does not apply to a field of this type"))
            }
        };
        if rule.omitted_when_absent {
            wants(singular && optional, "omitted_when_absent", "#[serde(skip_serializing_if = \"Option::is_none\")]")?;
        }
        if rule.json_object {
            wants(
                singular && !optional && field.kind() == field_type::STRING,
                "json_object",
                "#[serde(serialize_with = \"crate::json::raw\", deserialize_with = \"crate::json::raw_text\")]",
            )?;
        }
        if rule.whole_number {
            wants(
                singular && optional && field.kind() == field_type::INT64,
                "whole_number",
                "#[serde(deserialize_with = \"crate::json::optional_whole_number\")]",
            )?;
        }
        if field.kind() == field_type::BYTES && singular {
            out.push((path.clone(), "#[serde(with = \"crate::json::base64_bytes\")]"));
        }
    }
    Ok(out)
}

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

fn param_kind(field: &FieldDescriptorProto) -> proc_macro2::Ident {
    let kind = match field.kind() {
        field_type::INT64 | field_type::INT32 => "Integer",
        field_type::DOUBLE => "Number",
        field_type::BOOL => "Boolean",
        _ => "String",
    };
    format_ident!("{kind}")
}

/// A field's name as a Rust identifier (`type` is a keyword).
fn field_ident(name: &str) -> proc_macro2::Ident {
    if name == "type" { format_ident!("r#type") } else { format_ident!("{name}") }
}

/// `rest_routes.rs`: the route table and one call function per operation.
pub fn generate(ops: &[RestOperation<'_>]) -> TokenStream {
    let call_name =
        |op: &RestOperation<'_>| format_ident!("{}_{}", snake_case(&op.method.service), snake_case(&op.method.name));
    let routes = ops.iter().map(|op| {
        let verb = op.verb;
        let path = &op.path;
        let operation = op.method.grpc_path();
        let status = op.success_status;
        let path_params = &op.path_params;
        let query = op.query.iter().map(|field| {
            let name = field.name();
            let kind = param_kind(field);
            quote!(QueryParam { name: #name, kind: ParamKind::#kind })
        });
        let has_body = op.has_body;
        let multipart_file = match &op.multipart_file {
            Some(file) => quote!(Some(#file)),
            None => quote!(None),
        };
        let call = call_name(op);
        quote! {
            Route {
                method: #verb,
                path: #path,
                operation: #operation,
                success_status: #status,
                path_params: &[#(#path_params),*],
                query: &[#(#query),*],
                has_body: #has_body,
                multipart_file: #multipart_file,
                call: calls::#call,
            }
        }
    });
    let calls = ops.iter().map(|op| {
        let call = call_name(op);
        let input = format_ident!("{}", short_name(&op.method.input));
        let client_module = format_ident!("{}_client", snake_case(&op.method.service));
        let client = format_ident!("{}Client", op.method.service);
        let method = format_ident!("{}", snake_case(&op.method.name));
        quote! {
            pub(super) fn #call(core: CoreChannel, input: JsonObject, metadata: tonic::metadata::MetadataMap) -> CallFuture {
                Box::pin(async move {
                    let message: crate::pb::#input = decode(input)?;
                    let mut request = tonic::Request::new(message);
                    *request.metadata_mut() = metadata;
                    let reply = crate::pb::#client_module::#client::new(core)
                        .max_decoding_message_size(MAX_REPLY_BYTES)
                        .#method(request)
                        .await
                        .map_err(CallError::Status)?;
                    encode(&reply.into_inner())
                })
            }
        }
    });
    quote! {
        /// Every REST operation, in gRPC method order.
        pub static ROUTES: &[Route] = &[#(#routes),*];

        /// Decode, call the core, encode: one function per operation.
        mod calls {
            use super::*;
            #(#calls)*
        }
    }
}

/// `required_fields.rs`: for each request message with `REQUIRED` fields, the
/// check the core runs so that an absent field is `invalid_request` naming it
/// over gRPC and REST alike (JSON decoding gives absent fields their
/// default, which is what a gRPC caller's omission looks like too).
pub fn generate_required(api: &Api) -> Result<TokenStream, String> {
    let mut inputs: Vec<&str> = api.methods.iter().map(|m| m.input.as_str()).collect();
    inputs.sort();
    inputs.dedup();
    let mut impls = Vec::new();
    for input in inputs {
        let message = api.message(input)?;
        let mut checks = Vec::new();
        for (field, _) in message.fields.iter().filter(|(f, _)| f.required()) {
            let name = field.name();
            let emptiable =
                field.is_repeated() || field.kind() == field_type::STRING || field.kind() == field_type::BYTES;
            if !emptiable {
                continue;
            }
            let rust = field_ident(name);
            let values = field.rule().r#enum;
            let text = match values.as_slice() {
                [] => format!("{name} is required."),
                [only] => format!("{name} is required; {name} must be {only}."),
                many => format!("{name} is required; one of {}.", many.join(", ")),
            };
            checks.push(quote! {
                if self.#rust.is_empty() {
                    return Some((#name, #text));
                }
            });
        }
        let message = format_ident!("{}", short_name(input));
        impls.push(quote! {
            impl Required for crate::pb::#message {
                fn missing_field(&self) -> Option<(&'static str, &'static str)> {
                    #(#checks)*
                    None
                }
            }
        });
    }
    Ok(quote!(#(#impls)*))
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
pub fn generate_plain_text(api: &Api) -> Result<TokenStream, String> {
    let mut stack: Vec<String> = api.methods.iter().map(|m| m.input.clone()).collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut impls = Vec::new();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let message = api.message(&name)?;
        let mut checks = Vec::new();
        for (field, _) in &message.fields {
            let field_name = field.name();
            let rust = field_ident(field_name);
            let max = match max_length(field) {
                Some(max) => quote!(#max),
                None => quote!(u32::MAX),
            };
            let max_items = field.rule().max_items;
            if field.is_repeated() && max_items > 0 {
                let limit = max_items as usize;
                checks.push(quote! {
                    if self.#rust.len() > #limit {
                        return Some((#field_name.to_string(), TextProblem::TooMany(#max_items)));
                    }
                });
            }
            let item_path = format!("{field_name}.{{at}}");
            let inner_path = format!("{field_name}.{{inner}}");
            let item_inner_path = format!("{field_name}.{{at}}.{{inner}}");
            match (field.kind(), field.is_repeated(), field.is_optional()) {
                (field_type::STRING, false, false) => checks.push(quote! {
                    if let Some(problem) = text_problem(&self.#rust, #max) {
                        return Some((#field_name.to_string(), problem));
                    }
                }),
                (field_type::STRING, false, true) => checks.push(quote! {
                    if let Some(problem) = self.#rust.as_deref().and_then(|v| text_problem(v, #max)) {
                        return Some((#field_name.to_string(), problem));
                    }
                }),
                (field_type::STRING, true, _) => checks.push(quote! {
                    for (at, item) in self.#rust.iter().enumerate() {
                        if let Some(problem) = text_problem(item, #max) {
                            return Some((format!(#item_path), problem));
                        }
                    }
                }),
                (field_type::MESSAGE, false, _) => {
                    stack.push(field.type_name.clone().unwrap_or_default());
                    checks.push(quote! {
                        if let Some((inner, problem)) = self.#rust.as_ref().and_then(PlainText::text_problem) {
                            return Some((format!(#inner_path), problem));
                        }
                    });
                }
                (field_type::MESSAGE, true, _) => {
                    stack.push(field.type_name.clone().unwrap_or_default());
                    checks.push(quote! {
                        for (at, item) in self.#rust.iter().enumerate() {
                            if let Some((inner, problem)) = item.text_problem() {
                                return Some((format!(#item_inner_path), problem));
                            }
                        }
                    });
                }
                _ => {}
            }
        }
        let message = format_ident!("{}", short_name(&name));
        impls.push(quote! {
            impl PlainText for crate::pb::#message {
                fn text_problem(&self) -> Option<(String, TextProblem)> {
                    #(#checks)*
                    None
                }
            }
        });
    }
    Ok(quote!(#(#impls)*))
}

/// `json_shapes.rs`: for every message a REST body can carry, the check
/// that each field holding a message is a JSON object (or null) and each
/// repeated one an array of objects, before the body is decoded: serde
/// would otherwise read a struct from an array (`"address": [null, null]`)
/// and accept a body the document refuses.
pub fn generate_json_shapes(api: &Api) -> Result<TokenStream, String> {
    let mut stack: Vec<String> = api.methods.iter().map(|m| m.input.clone()).collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut impls = Vec::new();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let message = api.message(&name)?;
        let mut checks = Vec::new();
        for (field, _) in message.fields.iter().filter(|(f, _)| f.kind() == field_type::MESSAGE) {
            let field_name = field.name();
            let inner_type = field.type_name.clone().unwrap_or_default();
            stack.push(inner_type.clone());
            let inner = format_ident!("{}", short_name(&inner_type));
            let inner_path = format!("{field_name}.{{inner}}");
            let item_path = format!("{field_name}.{{at}}");
            let item_inner_path = format!("{field_name}.{{at}}.{{inner}}");
            if field.is_repeated() {
                checks.push(quote! {
                    if let Some(serde_json::Value::Array(items)) = object.get(#field_name) {
                        for (at, item) in items.iter().enumerate() {
                            match item {
                                serde_json::Value::Object(fields) => {
                                    if let Some(inner) = <crate::pb::#inner as JsonShape>::shape_problem(fields) {
                                        return Some(format!(#item_inner_path));
                                    }
                                }
                                _ => return Some(format!(#item_path)),
                            }
                        }
                    }
                });
            } else {
                checks.push(quote! {
                    match object.get(#field_name) {
                        Some(serde_json::Value::Object(fields)) => {
                            if let Some(inner) = <crate::pb::#inner as JsonShape>::shape_problem(fields) {
                                return Some(format!(#inner_path));
                            }
                        }
                        None | Some(serde_json::Value::Null) => {}
                        Some(_) => return Some(#field_name.to_string()),
                    }
                });
            }
        }
        let message = format_ident!("{}", short_name(&name));
        impls.push(quote! {
            impl JsonShape for crate::pb::#message {
                fn shape_problem(object: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
                    #(#checks)*
                    let _ = object;
                    None
                }
            }
        });
    }
    Ok(quote!(#(#impls)*))
}
