//! The OpenAPI 3.1 document, generated from the same descriptors as the
//! gateway's routes: paths and parameters from `google.api.http`, schemas
//! from the messages (names, types, nullability from proto3 `optional`,
//! constraints and enums from `(sail.v1.field)`, required request fields
//! from `google.api.field_behavior`), descriptions from the proto comments,
//! security from `(sail.v1.access)`, and the error envelope for every
//! error status.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::descriptor::{Api, FieldDescriptorProto, field_type, short_name};
use crate::errors::ErrorCodes;
use crate::rest::{BASE, RestOperation};

const STATUS_TEXT: &[(u16, &str)] = &[
    (400, "The request is malformed or invalid; `param` names the field."),
    (401, "The API key (or user token) is missing, malformed, unknown, revoked or expired."),
    (403, "The key's scopes, or the connection's products, do not cover this operation."),
    (404, "No such resource for this partner, or an unknown path."),
    (409, "A conflict with the resource's state, or an Idempotency-Key reused with another request."),
    (413, "The request body is larger than the service accepts."),
    (429, "Too many requests for this key; retry after `Retry-After` seconds."),
    (500, "Sail failed; nothing internal is revealed. Retry with the same Idempotency-Key."),
    (503, "Sail could not be reached for a moment; nothing was applied. Retry with the same Idempotency-Key."),
];

fn first_sentence(text: &str) -> String {
    let flat = text.replace('\n', " ");
    match flat.find(". ") {
        Some(at) => flat[..=at].trim().to_string(),
        None => flat.trim().to_string(),
    }
}

fn parse_example(raw: &str, at: &str) -> Result<Value, String> {
    serde_json::from_str(raw).map_err(|err| format!("{at}: example is not JSON ({err}): {raw}"))
}

/// The JSON Schema of one field.
fn field_schema(owner: &str, field: &FieldDescriptorProto, nullable: bool) -> Result<Value, String> {
    let at = format!("{owner}.{}", field.name());
    let rule = field.rule();
    let mut scalar = Map::new();
    match field.kind() {
        field_type::STRING if rule.json_object => {
            scalar.insert("type".into(), json!("object"));
        }
        field_type::STRING => {
            scalar.insert("type".into(), json!("string"));
            if !rule.format.is_empty() {
                scalar.insert("format".into(), json!(rule.format));
            }
            if rule.min_length > 0 {
                scalar.insert("minLength".into(), json!(rule.min_length));
            }
            if rule.max_length > 0 {
                scalar.insert("maxLength".into(), json!(rule.max_length));
            }
            if !rule.pattern.is_empty() {
                scalar.insert("pattern".into(), json!(rule.pattern));
            }
            if !rule.r#enum.is_empty() {
                // Each value once: generators refuse an enum whose values
                // differ only in case. A code also accepted in lower case
                // says so in words.
                scalar.insert("enum".into(), json!(rule.r#enum));
                if rule.lower_case_too {
                    scalar.insert("x-case-insensitive".into(), json!(true));
                }
            }
        }
        field_type::INT64 | field_type::INT32 => {
            scalar.insert("type".into(), json!("integer"));
            let format = if field.kind() == field_type::INT64 { "int64" } else { "int32" };
            scalar.insert("format".into(), json!(format));
        }
        field_type::DOUBLE => {
            scalar.insert("type".into(), json!("number"));
        }
        field_type::BOOL => {
            scalar.insert("type".into(), json!("boolean"));
        }
        field_type::MESSAGE => {
            let name = field.type_name.as_deref().unwrap_or_default();
            scalar.insert("$ref".into(), json!(format!("#/components/schemas/{}", short_name(name))));
        }
        other => return Err(format!("{at}: field type {other} has no JSON mapping here")),
    }
    if let Some(minimum) = rule.minimum {
        scalar.insert("minimum".into(), json!(minimum as i64));
    }
    if let Some(maximum) = rule.maximum {
        scalar.insert("maximum".into(), json!(maximum as i64));
    }
    if let Some(minimum) = rule.exclusive_minimum {
        scalar.insert("exclusiveMinimum".into(), json!(minimum as i64));
    }
    if let Some(step) = rule.multiple_of {
        scalar.insert("multipleOf".into(), json!(step));
    }
    let mut schema = if field.is_repeated() {
        let mut array = Map::new();
        array.insert("type".into(), json!("array"));
        array.insert("items".into(), Value::Object(scalar));
        if rule.min_items > 0 {
            array.insert("minItems".into(), json!(rule.min_items));
        }
        if rule.max_items > 0 {
            array.insert("maxItems".into(), json!(rule.max_items));
        }
        array
    } else if nullable {
        if scalar.contains_key("$ref") {
            let mut wrapped = Map::new();
            wrapped.insert("anyOf".into(), json!([Value::Object(scalar), {"type": "null"}]));
            wrapped
        } else {
            let kind = scalar.get("type").cloned().unwrap_or(json!("string"));
            scalar.insert("type".into(), json!([kind, "null"]));
            if let Some(Value::Array(values)) = scalar.get_mut("enum") {
                values.push(Value::Null);
            }
            scalar
        }
    } else {
        scalar
    };
    if !rule.example.is_empty() {
        schema.insert("examples".into(), json!([parse_example(&rule.example, &at)?]));
    }
    Ok(Value::Object(schema))
}

/// The pattern every request string matches (no control character but tab,
/// line feed and carriage return), kept equal to
/// `sail_api::required::PLAIN_TEXT_PATTERN` by a test. Strings with an
/// enumeration or a format need none; one with a pattern of its own gets
/// both, through `allOf`.
pub const PLAIN_TEXT_PATTERN: &str = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$";

fn plain_text(schema: &mut Value) {
    let target = if schema.get("items").is_some() { &mut schema["items"] } else { schema };
    if target.get("enum").is_some() || target.get("format").is_some() {
        return;
    }
    match target.get("pattern") {
        Some(own) => {
            let own = own.clone();
            target["allOf"] = json!([{"pattern": own}]);
            target["pattern"] = json!(PLAIN_TEXT_PATTERN);
        }
        None => target["pattern"] = json!(PLAIN_TEXT_PATTERN),
    }
}

/// The length limit the core enforces on a request string (the declared one,
/// or the default for ids and labels), stated in the document.
fn limit_length(schema: &mut Value, field: &FieldDescriptorProto) {
    if let Some(max) = crate::rest::max_length(field) {
        let target = if schema.get("items").is_some() { &mut schema["items"] } else { schema };
        target["maxLength"] = json!(max);
    }
}

fn with_description(schema: Value, description: &str) -> Value {
    match schema {
        Value::Object(mut map) if !description.is_empty() => {
            map.insert("description".into(), json!(description));
            Value::Object(map)
        }
        other => other,
    }
}

/// Messages reachable from `roots` through message fields.
fn reachable(api: &Api, roots: impl IntoIterator<Item = String>) -> Result<BTreeSet<String>, String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = roots.into_iter().collect();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let message = api.message(&name)?;
        for (field, _) in &message.fields {
            if field.kind() == field_type::MESSAGE {
                stack.push(field.type_name.clone().unwrap_or_default());
            }
        }
        for variant in message.variants.iter().flat_map(|v| &v.variant) {
            stack.extend(variant.field.iter().filter(|s| !s.message.is_empty()).map(|s| full_message_name(&s.message)));
        }
    }
    Ok(seen)
}

/// `sail.v1.X` (as a `FieldShape` names a message) → `.sail.v1.X`.
fn full_message_name(name: &str) -> String {
    format!(".{}", name.trim_start_matches('.'))
}

/// `connect_account` → `ConnectAccount`, for a shape's schema name.
fn pascal_case(value: &str) -> String {
    value
        .split(['_', '-', '.'])
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

/// The schema without `null` among the values it admits: a field a shape
/// requires.
fn not_null(schema: &mut Value) {
    if let Some(Value::Array(choices)) = schema.get("anyOf") {
        let rest: Vec<Value> = choices.iter().filter(|c| **c != json!({"type": "null"})).cloned().collect();
        if let [only] = rest.as_slice() {
            let description = schema.get("description").cloned();
            *schema = only.clone();
            if let Some(description) = description {
                schema["description"] = description;
            }
        }
    }
    if let Some(Value::Array(kinds)) = schema.get("type") {
        let kinds: Vec<Value> = kinds.iter().filter(|k| *k != "null").cloned().collect();
        schema["type"] = if kinds.len() == 1 { kinds[0].clone() } else { Value::Array(kinds) };
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
}

/// Whether every field of `shape` is a field of `of` with the same name,
/// type and cardinality: a message a `FieldShape` may stand in with.
fn fields_subset(api: &Api, shape: &str, of: &str) -> Result<(), String> {
    let original = api.message(of)?;
    for (field, _) in &api.message(shape)?.fields {
        let same = original.fields.iter().any(|(o, _)| {
            o.name() == field.name()
                && o.kind() == field.kind()
                && o.is_repeated() == field.is_repeated()
                && o.type_name == field.type_name
        });
        if !same {
            return Err(format!("{shape}.{} is not a field of {of} of the same type", field.name()));
        }
    }
    Ok(())
}

/// The schemas of a request message: its own, or, when it declares
/// `(sail.v1.variants)` (proto/sail/v1/rest.proto), one schema per value of
/// its discriminator (named after the message and the value) with its own
/// being their `oneOf` with an OpenAPI `discriminator`. A declaration that
/// does not match the message fails the build.
pub fn request_schemas(api: &Api, full_name: &str, path_bound: &[String]) -> Result<Vec<(String, Value)>, String> {
    let base = message_schema(api, full_name, true, path_bound)?;
    let message = api.message(full_name)?;
    let short = short_name(full_name);
    let Some(variants) = &message.variants else {
        return Ok(vec![(short.to_string(), base)]);
    };
    let at = |what: String| format!("{full_name} (sail.v1.variants): {what}");
    let field_named = |name: &str| {
        message.fields.iter().map(|(f, _)| f).find(|f| f.name() == name).ok_or_else(|| at(format!("no field {name}")))
    };
    let discriminator = field_named(&variants.discriminator)?;
    let mut values = discriminator.rule().r#enum;
    if discriminator.kind() != field_type::STRING || discriminator.is_repeated() || !discriminator.required() {
        return Err(at("the discriminator must be a required string field".into()));
    }
    let mut whens: Vec<String> = variants.variant.iter().map(|v| v.when.clone()).collect();
    values.sort();
    whens.sort();
    if values.is_empty() || values != whens {
        return Err(at(format!("each value of {:?} needs exactly one variant; the variants are {whens:?}", values)));
    }
    let base_required: Vec<String> = base
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let mut schemas = Vec::new();
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    for variant in &variants.variant {
        let at = |what: String| at(format!("variant {}: {what}", variant.when));
        if variant.description.is_empty() {
            return Err(at("no description".into()));
        }
        let mut schema = base.clone();
        let mut required = base_required.clone();
        let properties =
            schema.get_mut("properties").and_then(Value::as_object_mut).ok_or_else(|| at("no properties".into()))?;
        let tag = &mut properties[&variants.discriminator];
        let description = tag.get("description").cloned();
        *tag = json!({"type": "string", "const": variant.when});
        if let Some(description) = description {
            tag["description"] = description;
        }
        for name in &variant.omit {
            let field = field_named(name)?;
            if field.required() || *name == variants.discriminator || variant.require.contains(name) {
                return Err(at(format!("{name} is required; it cannot be omitted")));
            }
            properties.remove(name);
        }
        for name in &variant.require {
            field_named(name)?;
            let property = properties.get_mut(name).ok_or_else(|| at(format!("{name} is not in the request body")))?;
            not_null(property);
            required.push(name.clone());
        }
        for shape in &variant.field {
            let field = field_named(&shape.name)?;
            let property = properties
                .get_mut(&shape.name)
                .ok_or_else(|| at(format!("{} is not in the request body", shape.name)))?;
            if !shape.message.is_empty() {
                let own = field.type_name.clone().unwrap_or_default();
                if field.kind() != field_type::MESSAGE || field.is_repeated() {
                    return Err(at(format!("{} is not a singular message field", shape.name)));
                }
                let stand_in = full_message_name(&shape.message);
                fields_subset(api, &stand_in, &own).map_err(at)?;
                let reference = json!({"$ref": format!("#/components/schemas/{}", short_name(&stand_in))});
                let description = property.get("description").cloned();
                *property = if required.contains(&shape.name) {
                    reference
                } else {
                    json!({"anyOf": [reference, {"type": "null"}]})
                };
                if let Some(description) = description {
                    property["description"] = description;
                }
            }
            if !shape.r#enum.is_empty() {
                let own = field.rule().r#enum;
                if let Some(stray) = shape.r#enum.iter().find(|v| !own.contains(v)) {
                    return Err(at(format!("{stray} is not a value of {}", shape.name)));
                }
                let target = if property.get("items").is_some() { &mut property["items"] } else { property };
                let nullable = target.get("enum").and_then(Value::as_array).is_some_and(|v| v.contains(&Value::Null));
                let mut values = json!(shape.r#enum);
                if nullable && let Some(values) = values.as_array_mut() {
                    values.push(Value::Null);
                }
                target["enum"] = values;
            }
        }
        required.retain(|name| properties.contains_key(name));
        required.dedup();
        schema["required"] = json!(required);
        schema["description"] = json!(variant.description);
        let name = format!("{short}{}", pascal_case(&variant.when));
        let reference = format!("#/components/schemas/{name}");
        refs.push(json!({"$ref": reference}));
        mapping.insert(variant.when.clone(), json!(reference));
        schemas.push((name, schema));
    }
    let mut union = json!({
        "oneOf": refs,
        "discriminator": {"propertyName": variants.discriminator, "mapping": mapping},
    });
    if !message.comment.is_empty() {
        union["description"] = json!(message.comment);
    }
    schemas.insert(0, (short.to_string(), union));
    Ok(schemas)
}

/// The schema of a message. Request messages list their required fields and
/// leave out path-bound ones; response messages require every field the
/// service always sends.
fn message_schema(api: &Api, full_name: &str, request: bool, path_bound: &[String]) -> Result<Value, String> {
    let message = api.message(full_name)?;
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (field, comment) in &message.fields {
        if path_bound.iter().any(|p| p == field.name()) {
            continue;
        }
        let skipped = field.rule().omitted_when_absent;
        // Requests take null for any singular message or optional field;
        // responses send null only for proto3 `optional` fields.
        let nullable = !field.is_repeated()
            && !skipped
            && (field.is_optional() || (request && field.kind() == field_type::MESSAGE));
        let mut schema = field_schema(full_name, field, nullable)?;
        if request && field.kind() == field_type::STRING {
            plain_text(&mut schema);
            limit_length(&mut schema, field);
        }
        let required_text = request && field.required() && field.kind() == field_type::STRING && !field.is_repeated();
        if required_text && schema.get("minLength").is_none() && schema.get("enum").is_none() {
            schema["minLength"] = json!(1);
        }
        let schema = with_description(schema, comment);
        properties.insert(field.name().to_string(), schema);
        if (request && field.required()) || (!request && !skipped) {
            required.push(field.name().to_string());
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    if !message.comment.is_empty() {
        schema.insert("description".into(), json!(message.comment));
    }
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    Ok(Value::Object(schema))
}

fn security(op: &RestOperation<'_>) -> (Value, String) {
    let access = op.method.options.access.clone().unwrap_or_default();
    if access.public {
        return (json!([]), "No API key needed.".into());
    }
    if access.token_admin {
        return (json!([{"apiKey": ["token_admin"]}]), "Needs a `token_admin` key.".into());
    }
    let mut text = if access.any_key_scope.is_empty() {
        "Needs any data key (any key that is not a `token_admin` key).".to_string()
    } else {
        let scopes: Vec<String> = access.any_key_scope.iter().map(|s| format!("`{s}`")).collect();
        format!("Needs a key with scope {}.", scopes.join(" or "))
    };
    if !access.user_token_scope.is_empty() {
        text.push_str(&format!(
            " Also needs a user token with scope `{}` in the `Sail-User-Token` header.",
            access.user_token_scope
        ));
    }
    let requirements: Vec<Value> = if access.any_key_scope.is_empty() {
        vec![json!({"apiKey": []})]
    } else {
        access.any_key_scope.iter().map(|s| json!({"apiKey": [s]})).collect()
    };
    (Value::Array(requirements), text)
}

fn error_statuses(op: &RestOperation<'_>) -> Vec<u16> {
    let mut statuses = vec![400, 401, 403, 404];
    if op.verb == "POST" {
        statuses.push(409);
    }
    if op.has_body {
        statuses.push(413);
    }
    statuses.extend([429, 500, 503]);
    statuses
}

fn operation(api: &Api, op: &RestOperation<'_>) -> Result<Value, String> {
    let method = op.method;
    let input = api.message(&method.input)?;
    let comment_of =
        |name: &str| input.fields.iter().find(|(f, _)| f.name() == name).map(|(_, c)| c.clone()).unwrap_or_default();
    let mut parameters = Vec::new();
    for name in &op.path_params {
        let description = match comment_of(name) {
            c if c.is_empty() => format!("The `{name}`."),
            c => c,
        };
        parameters.push(json!({
            "name": name, "in": "path", "required": true, "description": description,
            "schema": {"type": "string", "minLength": 1, "maxLength": crate::rest::DEFAULT_MAX_LENGTH, "pattern": PLAIN_TEXT_PATTERN},
        }));
    }
    for field in &op.query {
        let mut schema = field_schema(&method.input, field, false)?;
        if field.kind() == field_type::STRING {
            plain_text(&mut schema);
            limit_length(&mut schema, field);
        }
        let mut parameter = json!({"name": field.name(), "in": "query", "required": false, "schema": schema});
        let comment = comment_of(field.name());
        if !comment.is_empty() {
            parameter["description"] = json!(comment);
        }
        parameters.push(parameter);
    }
    if method.options.idempotent {
        parameters.push(json!({
            "name": "Idempotency-Key", "in": "header", "required": false,
            "description": "Makes a retry safe for 24 hours: the same key with the same request replays the first response; with another request it is `409 idempotency_key_reused`.",
            "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x21-\\x7e]+$"},
        }));
    }
    if method.options.access.as_ref().is_some_and(|a| !a.user_token_scope.is_empty()) {
        parameters.push(json!({
            "name": "Sail-User-Token", "in": "header", "required": true,
            "description": "A user token minted by a `token_admin` key for this user, with this operation's token scope.",
            "schema": {"type": "string"},
        }));
    }

    let (security, access_text) = security(op);
    let description =
        if method.comment.is_empty() { access_text.clone() } else { format!("{}\n\n{access_text}", method.comment) };
    let mut responses = Map::new();
    let output = short_name(&method.output);
    let success_text = match first_sentence(&api.message(&method.output)?.comment) {
        text if text.is_empty() => format!("The {output}."),
        text => text,
    };
    responses.insert(
        op.success_status.to_string(),
        json!({
            "description": success_text,
            "headers": {"Request-Id": {"$ref": "#/components/headers/Request-Id"}},
            "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{output}")}}},
        }),
    );
    for status in error_statuses(op) {
        responses.insert(status.to_string(), json!({"$ref": format!("#/components/responses/Error{status}")}));
    }

    let mut operation = json!({
        "operationId": method.name,
        "tags": [method.service],
        "summary": first_sentence(&method.comment),
        "description": description,
        "security": security,
        "x-sail-grpc-method": method.grpc_path(),
        "responses": responses,
    });
    if !parameters.is_empty() {
        operation["parameters"] = Value::Array(parameters);
    }
    if let Some(file) = &op.multipart_file {
        let schema = json!({
            "type": "object",
            "required": [file],
            "additionalProperties": false,
            "properties": {file: {
                "type": "string",
                "minLength": 1,
                // `format: binary` for generators that read OpenAPI 3.0
                // (without it a generated client sends the file object's
                // text, not its bytes); `contentMediaType` for 3.1.
                "format": "binary",
                "contentMediaType": "application/octet-stream",
                "description": "The file, with its filename. PDF, PNG, JPEG, WebP or plain text, recognised from its bytes; at most 10 MiB.",
            }},
        });
        operation["requestBody"] = json!({"required": true, "content": {"multipart/form-data": {"schema": schema}}});
    } else if op.has_body {
        let mut content = json!({"schema": {"$ref": format!("#/components/schemas/{}", short_name(&method.input))}});
        if let Some(example) =
            method.options.rest.as_ref().map(|r| r.request_example.as_str()).filter(|e| !e.is_empty())
        {
            content["example"] = parse_example(example, &method.grpc_path())?;
        }
        operation["requestBody"] = json!({"required": true, "content": {"application/json": content}});
    }
    Ok(operation)
}

/// The whole document, pretty-printed with sorted keys.
/// The `webhooks` section: one entry per event type of
/// proto/sail/v1/events.proto, a `POST` of the event object with its data
/// typed, and the delivery headers (docs/webhooks.md). The data messages
/// (and the messages they hold) join `schemas`; also returns the `$ref`s
/// of the data schemas, for `Event.data`.
fn webhooks(
    api: &Api,
    requests: &BTreeSet<String>,
    schemas: &mut Map<String, Value>,
) -> Result<(Value, Vec<Value>), String> {
    let events = api.events();
    if events.is_empty() {
        return Err("no message carries a (sail.v1.event) option".into());
    }
    // The `type` filter of `GET /events` lists exactly these types.
    let filter = api
        .message(".sail.v1.ListEventsRequest")?
        .fields
        .iter()
        .find(|(field, _)| field.name() == "type")
        .map(|(field, _)| field.rule().r#enum)
        .unwrap_or_default();
    let mut declared: Vec<&str> = events.iter().map(|(event, _)| *event).collect();
    let mut filtered: Vec<&str> = filter.iter().map(String::as_str).collect();
    declared.sort_unstable();
    filtered.sort_unstable();
    if declared != filtered {
        return Err(format!("ListEventsRequest.type lists {filtered:?}, the events are {declared:?}"));
    }
    let data_messages = reachable(api, events.iter().map(|(_, name)| name.to_string()))?;
    for name in &data_messages {
        if requests.contains(name) {
            return Err(format!("{name} is an event's data and a request; give each its own message"));
        }
        schemas.insert(short_name(name).to_string(), message_schema(api, name, false, &[])?);
    }
    let header = |name: &str, description: &str| json!({"name": name, "in": "header", "required": true, "description": description, "schema": {"type": "string"}});
    let mut section = Map::new();
    let mut refs = Vec::new();
    for (event, name) in events {
        let data_ref = json!({"$ref": format!("#/components/schemas/{}", short_name(name))});
        refs.push(data_ref.clone());
        let comment = &api.message(name)?.comment;
        let summary = comment.lines().next().unwrap_or(event).trim_end_matches('.').to_string();
        section.insert(
            event.to_string(),
            json!({"post": {
                "operationId": format!("webhook_{}", event.replace('.', "_")),
                "summary": summary,
                "description": format!("{comment}\n\nSent to every endpoint subscribed to `{event}`, signed with the endpoint's secret (docs/webhooks.md). Answer any `2xx` within 10 seconds; anything else is retried with backoff for three days."),
                "parameters": [
                    header("Sail-Event-Id", "The event's id: the same on every attempt and redelivery; drop duplicates by it."),
                    header("Sail-Event-Type", "The event's type."),
                    header("Sail-Signature", "`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`."),
                ],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object",
                    "required": ["id", "type", "created_at", "data"],
                    "additionalProperties": false,
                    "properties": {
                        "id": {"type": "string", "description": "`evt_` + UUIDv7 hex."},
                        "type": {"type": "string", "const": event},
                        "created_at": {"type": "string", "format": "date-time"},
                        "data": data_ref,
                    },
                }}}},
                "responses": {"2XX": {"description": "Acknowledged: the delivery is done."}},
            }}),
        );
    }
    Ok((Value::Object(section), refs))
}

pub fn document(api: &Api, ops: &[RestOperation<'_>], errors: &ErrorCodes) -> Result<String, String> {
    // An operation is named by its comment's first sentence: a method
    // without one would show partners its RPC name.
    let bare: Vec<String> = ops.iter().filter(|o| o.method.comment.is_empty()).map(|o| o.method.grpc_path()).collect();
    if !bare.is_empty() {
        return Err(format!("methods without a comment to name them by: {}", bare.join(", ")));
    }
    let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for op in ops {
        paths.entry(op.path.clone()).or_default().insert(op.verb.to_ascii_lowercase(), operation(api, op)?);
    }

    let requests = reachable(
        api,
        ops.iter().filter(|o| o.has_body && o.multipart_file.is_none()).map(|o| o.method.input.clone()),
    )?;
    let responses = reachable(api, ops.iter().map(|o| o.method.output.clone()))?;
    let mut schemas = Map::new();
    for name in &responses {
        if api.message(name)?.variants.is_some() {
            return Err(format!("{name} is a response; only request messages declare (sail.v1.variants)"));
        }
        schemas.insert(short_name(name).to_string(), message_schema(api, name, false, &[])?);
    }
    for name in &requests {
        if responses.contains(name) {
            return Err(format!("{name} is used in both requests and responses; give each its own message"));
        }
        let bound: Vec<String> =
            ops.iter().filter(|o| &o.method.input == name).flat_map(|o| o.path_params.clone()).collect();
        for (schema_name, schema) in request_schemas(api, name, &bound)? {
            if schemas.insert(schema_name.clone(), schema).is_some() {
                return Err(format!("two schemas are named {schema_name}"));
            }
        }
    }
    let (webhooks, event_data) = webhooks(api, &requests, &mut schemas)?;
    // `Event.data` is one of the events' data objects.
    let data = schemas
        .get_mut("Event")
        .and_then(|event| event.pointer_mut("/properties/data"))
        .ok_or("the Event schema has no data property")?;
    *data = json!({
        "description": "The event's data: the object of its type (the `webhooks` section lists each).",
        "oneOf": event_data,
    });
    let all_codes: Vec<&str> = errors.0.iter().map(|row| row.code.as_str()).collect();
    schemas.insert(
        "Error".into(),
        json!({
            "type": "object",
            "description": "The envelope of every error response.",
            "properties": {"error": {
                "type": "object",
                "properties": {
                    "code": {"type": "string", "enum": all_codes, "description": "Machine-readable; match on this."},
                    "message": {"type": "string", "description": "Human-readable; may change."},
                    "param": {"type": ["string", "null"], "description": "The request field (dotted for nesting) or header at fault; null when none."},
                },
                "required": ["code", "message", "param"],
                "additionalProperties": false,
            }},
            "required": ["error"],
            "additionalProperties": false,
        }),
    );

    let mut error_responses = Map::new();
    for (status, text) in STATUS_TEXT {
        let codes: Vec<String> = errors.for_status(*status).iter().map(|c| format!("`{c}`")).collect();
        let mut headers = json!({"Request-Id": {"$ref": "#/components/headers/Request-Id"}});
        if *status == 429 {
            for (name, what) in [
                ("Retry-After", "Seconds to wait before retrying."),
                ("RateLimit-Limit", "Requests allowed in a burst."),
                ("RateLimit-Remaining", "Requests left now."),
                ("RateLimit-Reset", "Seconds until the allowance refills."),
            ] {
                headers[name] = json!({"description": what, "schema": {"type": "integer", "minimum": 0}});
            }
        }
        // A refusal a retry will cure says when (docs/operations.md#database-connections).
        let retry_after = match *status {
            503 => Some(("Seconds to wait before retrying; always sent.", true)),
            409 => Some(("Sent when the Idempotency-Key's first request is still in progress: retry after it.", false)),
            _ => None,
        };
        if let Some((what, required)) = retry_after {
            headers["Retry-After"] =
                json!({"description": what, "required": required, "schema": {"type": "integer", "minimum": 0}});
        }
        let description =
            if codes.is_empty() { text.to_string() } else { format!("{text} Codes: {}.", codes.join(", ")) };
        error_responses.insert(
            format!("Error{status}"),
            json!({
                "description": description,
                "headers": headers,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            }),
        );
    }

    let tags: Vec<Value> = api
        .services
        .iter()
        .filter(|(name, _)| ops.iter().any(|o| &o.method.service == *name))
        .map(|(name, comment)| json!({"name": name, "description": comment}))
        .collect();

    let document = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Sail partner data API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Users, their linked cards, stores and HSA/FSA administrators, accounts and balances, pushed transactions, and the HSA/FSA adjudication of every purchase.\n\nEvery request carries `Authorization: Bearer <API key>`. Errors come as `{\"error\": {\"code\", \"message\", \"param\"}}`; every response carries `Request-Id`. Generated from the proto definitions; the same operations are served over gRPC.",
        },
        "servers": [{"url": BASE, "description": "This service"}],
        "security": [{"apiKey": []}],
        "tags": tags,
        "paths": paths,
        "webhooks": webhooks,
        "components": {
            "securitySchemes": {"apiKey": {
                "type": "http", "scheme": "bearer", "bearerFormat": "sk_ + 40 base62 characters",
                "description": "An API key issued by Sail's team. Each operation lists the key scopes that admit it.",
            }},
            "headers": {"Request-Id": {
                "description": "The request's id: the one sent, or one Sail made. Quote it when asking for help.",
                "required": true, "schema": {"type": "string"},
            }},
            "responses": error_responses,
            "schemas": schemas,
        },
    });
    serde_json::to_string_pretty(&document)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| e.to_string())
}
