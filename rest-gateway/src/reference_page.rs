//! The API reference page at `/api/v1/docs`: the generated OpenAPI document
//! rendered once into one self-contained HTML page (no scripts, fonts or
//! styles from the network), grouped by resource, with every operation's
//! scopes, parameters, body fields, responses and example, and every schema.

use std::sync::LazyLock;

use minijinja::Environment;
use serde::Serialize;
use serde_json::Value;

const TEMPLATE: &str = include_str!("../templates/reference.html");

#[derive(Serialize)]
struct Field {
    name: String,
    kind: String,
    link: Option<String>,
    required: bool,
    description: String,
    values: Vec<String>,
    rules: String,
}

#[derive(Serialize)]
struct Operation {
    anchor: String,
    method: String,
    path: String,
    summary: String,
    description: String,
    parameters: Vec<Field>,
    body: Option<String>,
    example: Option<String>,
    success: String,
    success_schema: String,
    errors: Vec<String>,
}

#[derive(Serialize)]
struct Section {
    name: String,
    description: String,
    operations: Vec<Operation>,
}

#[derive(Serialize)]
struct Webhook {
    anchor: String,
    event: String,
    summary: String,
    description: String,
    headers: Vec<Field>,
    data_schema: String,
}

#[derive(Serialize)]
struct Schema {
    name: String,
    description: String,
    fields: Vec<Field>,
    /// For a schema with one shape per value of a field (a `oneOf` with a
    /// `discriminator`): that field, and each value with its shape.
    discriminator: Option<String>,
    shapes: Vec<Shape>,
}

#[derive(Serialize)]
struct Shape {
    value: String,
    schema: String,
}

/// The shapes of a `oneOf` schema with a `discriminator`, by value, in the
/// document's order.
fn shapes(schema: &Value) -> Vec<Shape> {
    let mapping = &schema["discriminator"]["mapping"];
    schema["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(ref_name)
        .filter_map(|name| {
            let value =
                mapping.as_object()?.iter().find(|(_, target)| target.as_str().map(schema_name) == Some(&name))?.0;
            Some(Shape { value: value.clone(), schema: name })
        })
        .collect()
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// A description as HTML: descriptions are Markdown (`code`, lists,
/// paragraphs). Raw HTML in them is shown as text, never as markup.
fn markdown(source: &str) -> String {
    use pulldown_cmark::{Event, Parser, html};
    let events = Parser::new(source).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

/// One line of Markdown (a summary) as inline HTML, without a paragraph.
fn inline_markdown(source: &str) -> String {
    let html = markdown(source);
    let trimmed = html.trim();
    trimmed.strip_prefix("<p>").and_then(|rest| rest.strip_suffix("</p>")).unwrap_or(trimmed).to_string()
}

/// The pattern every request string carries (no control characters): an
/// implementation detail, said in words on the page.
const PLAIN_TEXT_PATTERN: &str = sail_api::required::PLAIN_TEXT_PATTERN;

/// The schema a `$ref` (`#/components/schemas/Name`) names.
fn schema_name(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}

/// The schema `value` refers to, when it is a `$ref`.
fn ref_name(value: &Value) -> Option<String> {
    value.get("$ref").and_then(Value::as_str).map(|r| schema_name(r).to_string())
}

/// A field's type in words, and the schema it links to.
fn describe(schema: &Value) -> (String, Option<String>) {
    if let Some(name) = ref_name(schema) {
        return (name.clone(), Some(name));
    }
    if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
        let (kind, link) = options.first().map(describe).unwrap_or_default();
        return (format!("{kind} or null"), link);
    }
    match schema.get("type") {
        Some(Value::String(kind)) if kind == "array" => {
            let (item, link) = schema.get("items").map(describe).unwrap_or_default();
            (format!("array of {item}"), link)
        }
        Some(Value::String(kind)) => {
            let format = schema.get("format").and_then(Value::as_str).map(|f| format!(" ({f})")).unwrap_or_default();
            (format!("{kind}{format}"), None)
        }
        Some(Value::Array(kinds)) => {
            let kinds: Vec<String> = kinds.iter().map(text).collect();
            let format = schema.get("format").and_then(Value::as_str).map(|f| format!(" ({f})")).unwrap_or_default();
            (format!("{}{format}", kinds.join(" or ")), None)
        }
        _ => ("any".to_string(), None),
    }
}

fn rules(schema: &Value) -> String {
    let target = schema.get("items").unwrap_or(schema);
    let mut out = Vec::new();
    for (key, label) in
        [("minLength", "min length"), ("maxLength", "max length"), ("minimum", "min"), ("maximum", "max")]
    {
        if let Some(value) = target.get(key) {
            out.push(format!("{label} {}", value.as_str().map(str::to_string).unwrap_or_else(|| value.to_string())));
        }
    }
    match target.get("pattern").and_then(Value::as_str) {
        Some(PLAIN_TEXT_PATTERN) => out.push("no control characters".to_string()),
        Some(pattern) => out.push(format!("matches {pattern}")),
        None => {}
    }
    if target.get("x-case-insensitive").is_some_and(|v| v == true) {
        out.push("upper or lower case".to_string());
    }
    for (key, label) in [("minItems", "min items"), ("maxItems", "max items")] {
        if let Some(value) = schema.get(key) {
            out.push(format!("{label} {value}"));
        }
    }
    out.join(", ")
}

fn field(name: &str, schema: &Value, required: bool) -> Field {
    let (kind, link) = describe(schema);
    let target = schema.get("items").unwrap_or(schema);
    let values = target
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().filter(|v| !v.is_null()).map(text).collect())
        .unwrap_or_default();
    Field {
        name: name.to_string(),
        kind,
        link,
        required,
        description: markdown(&text(&schema["description"])),
        values,
        rules: rules(schema),
    }
}

fn schema_fields(schema: &Value) -> Vec<Field> {
    let required: Vec<&str> =
        schema["required"].as_array().map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    schema["properties"]
        .as_object()
        .map(|props| props.iter().map(|(name, s)| field(name, s, required.contains(&name.as_str()))).collect())
        .unwrap_or_default()
}

fn render(document: &Value) -> Result<String, String> {
    let mut sections: Vec<Section> = document["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|tag| Section {
            name: text(&tag["name"]),
            description: markdown(&text(&tag["description"])),
            operations: Vec::new(),
        })
        .collect();
    for (path, item) in document["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let parameters = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    let mut f = field(&text(&p["name"]), &p["schema"], p["required"].as_bool().unwrap_or(false));
                    f.description = markdown(&format!("{} ({})", text(&p["description"]), text(&p["in"])));
                    f
                })
                .collect();
            let body_content = &op["requestBody"]["content"]["application/json"];
            let (success, success_schema) = op["responses"]
                .as_object()
                .and_then(|r| r.iter().find(|(code, _)| code.starts_with('2')))
                .map(|(code, r)| {
                    (code.clone(), ref_name(&r["content"]["application/json"]["schema"]).unwrap_or_default())
                })
                .unwrap_or_default();
            let errors = op["responses"]
                .as_object()
                .map(|r| r.keys().filter(|c| !c.starts_with('2')).cloned().collect())
                .unwrap_or_default();
            let operation = Operation {
                anchor: text(&op["operationId"]),
                method: method.to_ascii_uppercase(),
                path: path.clone(),
                summary: inline_markdown(&text(&op["summary"])),
                description: markdown(&text(&op["description"])),
                parameters,
                body: ref_name(&body_content["schema"]),
                example: body_content.get("example").and_then(|e| serde_json::to_string_pretty(e).ok()),
                success,
                success_schema,
                errors,
            };
            let tag = op["tags"][0].as_str().unwrap_or_default();
            match sections.iter_mut().find(|s| s.name == tag) {
                Some(section) => section.operations.push(operation),
                None => return Err(format!("operation {} has no tag", operation.anchor)),
            }
        }
    }
    let webhooks: Vec<Webhook> = document["webhooks"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(event, item)| {
            let post = &item["post"];
            let data = &post["requestBody"]["content"]["application/json"]["schema"]["properties"]["data"];
            Webhook {
                anchor: format!("webhook-{}", event.replace('.', "-")),
                event: event.clone(),
                summary: inline_markdown(&text(&post["summary"])),
                description: markdown(&text(&post["description"])),
                headers: post["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| {
                        let mut f = field(&text(&p["name"]), &p["schema"], true);
                        f.description = markdown(&text(&p["description"]));
                        f
                    })
                    .collect(),
                data_schema: ref_name(data).unwrap_or_default(),
            }
        })
        .collect();
    let schemas: Vec<Schema> = document["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, schema)| Schema {
            name: name.clone(),
            description: markdown(&text(&schema["description"])),
            fields: schema_fields(schema),
            discriminator: schema["discriminator"]["propertyName"].as_str().map(str::to_string),
            shapes: shapes(schema),
        })
        .collect();
    let mut env = Environment::new();
    env.add_template("reference.html", TEMPLATE).map_err(|e| e.to_string())?;
    let template = env.get_template("reference.html").map_err(|e| e.to_string())?;
    template
        .render(minijinja::context! {
            title => text(&document["info"]["title"]),
            version => text(&document["info"]["version"]),
            intro => markdown(&text(&document["info"]["description"])),
            sections => sections,
            webhooks => webhooks,
            schemas => schemas,
        })
        .map_err(|e| e.to_string())
}

static PAGE: LazyLock<String> = LazyLock::new(|| {
    let rendered =
        serde_json::from_str::<Value>(sail_api::OPENAPI_JSON).map_err(|e| e.to_string()).and_then(|d| render(&d));
    rendered.unwrap_or_else(|err| {
        tracing::error!(error = %err, "the API reference page could not be rendered");
        "<!doctype html><title>Sail API</title><p>The reference could not be rendered; see /api/v1/openapi.json.</p>"
            .to_string()
    })
});

/// The rendered page (rendered on first use, then kept).
pub fn page() -> &'static str {
    &PAGE
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_renders_every_operation_and_schema() {
        let document: serde_json::Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
        let html = super::render(&document).unwrap();
        for route in sail_api::rest::ROUTES {
            let name = route.operation.rsplit('/').next().unwrap();
            assert!(html.contains(&format!("<article id=\"{name}\">")), "{route:?}");
        }
        assert!(html.contains("id=\"schema-PushTransactionsRequest\""));
        // A request with a shape per value lists each shape by its value.
        let union = html.split("id=\"schema-CreateHostedSessionRequest\"").nth(1).unwrap();
        let union = union.split("</article>").next().unwrap();
        for (value, shape) in [
            ("connect_account", "CreateHostedSessionRequestConnectAccount"),
            ("reconnect", "CreateHostedSessionRequestReconnect"),
            ("upload_receipt", "CreateHostedSessionRequestUploadReceipt"),
        ] {
            assert!(union.contains(&format!("<code>{value}</code>: <a href=\"#schema-{shape}\">")), "{union}");
        }
        assert!(!union.contains("<table>"), "a union has no fields of its own: {union}");
        for remote in ["src=\"http", "href=\"http", "url(http", "@import"] {
            assert!(!html.contains(remote), "no network assets: {remote}");
        }
    }

    #[test]
    fn descriptions_are_markdown_rules_are_words_and_webhooks_are_listed() {
        let document: serde_json::Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
        let html = super::render(&document).unwrap();
        assert!(!html.contains('`'), "Markdown code spans are rendered, not shown as backticks");
        assert!(html.contains("<code>Idempotency-Key</code>") || html.contains("<code>"), "code spans become <code>");
        assert!(!html.contains(r"\x00"), "the control-character pattern is said in words");
        assert!(html.contains("no control characters"));
        for event in document["webhooks"].as_object().unwrap().keys() {
            assert!(html.contains(&format!("id=\"webhook-{}\"", event.replace('.', "-"))), "{event}");
        }
        // Every operation is named by its summary in the navigation.
        for route in sail_api::rest::ROUTES {
            let name = route.operation.rsplit('/').next().unwrap();
            assert!(!html.contains(&format!(">{name}</a>")), "{name} is named by its RPC name");
        }
        // Raw HTML in a description is shown as text.
        assert_eq!(super::markdown("a <b>bold</b> `x`").trim(), "<p>a &lt;b&gt;bold&lt;/b&gt; <code>x</code></p>");
    }
}
