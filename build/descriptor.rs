//! The parts of `google/protobuf/descriptor.proto` the build reads, mirrored
//! as prost messages so the build can also read Sail's and Google's
//! extension options (which prost-types would drop as unknown fields), and
//! an index over them: messages by full name, comments by location.

use std::collections::{BTreeMap, HashMap};

use prost::Message;

#[derive(Clone, PartialEq, Message)]
pub struct FileDescriptorSet {
    #[prost(message, repeated, tag = "1")]
    pub file: Vec<FileDescriptorProto>,
}

#[derive(Clone, PartialEq, Message)]
pub struct FileDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub package: Option<String>,
    #[prost(message, repeated, tag = "4")]
    pub message_type: Vec<DescriptorProto>,
    #[prost(message, repeated, tag = "6")]
    pub service: Vec<ServiceDescriptorProto>,
    #[prost(message, optional, tag = "9")]
    pub source_code_info: Option<SourceCodeInfo>,
}

#[derive(Clone, PartialEq, Message)]
pub struct DescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub field: Vec<FieldDescriptorProto>,
    #[prost(message, optional, tag = "7")]
    pub options: Option<MessageOptions>,
}

/// A message's options: Sail's `(sail.v1.event)` and `(sail.v1.variants)`
/// (proto/sail/v1/rest.proto).
#[derive(Clone, PartialEq, Message)]
pub struct MessageOptions {
    #[prost(string, optional, tag = "51004")]
    pub event: Option<String>,
    #[prost(message, optional, tag = "51006")]
    pub variants: Option<Variants>,
}

/// `sail.v1.Variants`: a message's shapes by the value of one field.
#[derive(Clone, PartialEq, Message)]
pub struct Variants {
    #[prost(string, tag = "1")]
    pub discriminator: String,
    #[prost(message, repeated, tag = "2")]
    pub variant: Vec<Variant>,
}

/// `sail.v1.Variant`: one shape.
#[derive(Clone, PartialEq, Message)]
pub struct Variant {
    #[prost(string, tag = "1")]
    pub when: String,
    #[prost(string, tag = "2")]
    pub description: String,
    #[prost(string, repeated, tag = "3")]
    pub omit: Vec<String>,
    #[prost(string, repeated, tag = "4")]
    pub require: Vec<String>,
    #[prost(message, repeated, tag = "5")]
    pub field: Vec<FieldShape>,
}

/// `sail.v1.FieldShape`: a field's schema in one shape.
#[derive(Clone, PartialEq, Message)]
pub struct FieldShape {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(string, tag = "2")]
    pub message: String,
    #[prost(string, repeated, tag = "3")]
    pub r#enum: Vec<String>,
}

/// `FieldDescriptorProto.Type` values the API uses.
pub mod field_type {
    pub const DOUBLE: i32 = 1;
    pub const INT64: i32 = 3;
    pub const INT32: i32 = 5;
    pub const BOOL: i32 = 8;
    pub const STRING: i32 = 9;
    pub const BYTES: i32 = 12;
    pub const MESSAGE: i32 = 11;
}

/// `FieldDescriptorProto.Label.LABEL_REPEATED`.
pub const LABEL_REPEATED: i32 = 3;

#[derive(Clone, PartialEq, Message)]
pub struct FieldDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(int32, optional, tag = "4")]
    pub label: Option<i32>,
    #[prost(int32, optional, tag = "5")]
    pub r#type: Option<i32>,
    #[prost(string, optional, tag = "6")]
    pub type_name: Option<String>,
    #[prost(message, optional, tag = "8")]
    pub options: Option<FieldOptions>,
    #[prost(bool, optional, tag = "17")]
    pub proto3_optional: Option<bool>,
}

impl FieldDescriptorProto {
    pub fn is_repeated(&self) -> bool {
        self.label == Some(LABEL_REPEATED)
    }
    pub fn is_optional(&self) -> bool {
        self.proto3_optional == Some(true)
    }
    pub fn kind(&self) -> i32 {
        self.r#type.unwrap_or_default()
    }
    pub fn required(&self) -> bool {
        self.options.as_ref().is_some_and(|o| o.field_behavior.contains(&FIELD_BEHAVIOR_REQUIRED))
    }
    pub fn rule(&self) -> FieldRule {
        self.options.as_ref().and_then(|o| o.field.clone()).unwrap_or_default()
    }
}

/// `google.api.FieldBehavior.REQUIRED`.
pub const FIELD_BEHAVIOR_REQUIRED: i32 = 2;

#[derive(Clone, PartialEq, Message)]
pub struct FieldOptions {
    #[prost(int32, repeated, packed = "false", tag = "1052")]
    pub field_behavior: Vec<i32>,
    #[prost(message, optional, tag = "51003")]
    pub field: Option<FieldRule>,
}

/// `sail.v1.FieldRule` (proto/sail/v1/rest.proto).
#[derive(Clone, PartialEq, Message)]
pub struct FieldRule {
    #[prost(string, repeated, tag = "1")]
    pub r#enum: Vec<String>,
    #[prost(string, tag = "2")]
    pub format: String,
    #[prost(uint32, tag = "3")]
    pub min_length: u32,
    #[prost(uint32, tag = "4")]
    pub max_length: u32,
    #[prost(double, optional, tag = "5")]
    pub minimum: Option<f64>,
    #[prost(double, optional, tag = "6")]
    pub maximum: Option<f64>,
    #[prost(uint32, tag = "7")]
    pub min_items: u32,
    #[prost(uint32, tag = "8")]
    pub max_items: u32,
    #[prost(string, tag = "9")]
    pub example: String,
    #[prost(string, tag = "10")]
    pub pattern: String,
    #[prost(double, optional, tag = "11")]
    pub exclusive_minimum: Option<f64>,
    #[prost(double, optional, tag = "12")]
    pub multiple_of: Option<f64>,
    #[prost(bool, tag = "13")]
    pub lower_case_too: bool,
    #[prost(bool, tag = "14")]
    pub shown_once: bool,
    #[prost(bool, tag = "15")]
    pub omitted_when_absent: bool,
    #[prost(bool, tag = "16")]
    pub json_object: bool,
    #[prost(bool, tag = "17")]
    pub whole_number: bool,
}

#[derive(Clone, PartialEq, Message)]
pub struct ServiceDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub method: Vec<MethodDescriptorProto>,
}

#[derive(Clone, PartialEq, Message)]
pub struct MethodDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub input_type: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub output_type: Option<String>,
    #[prost(message, optional, tag = "4")]
    pub options: Option<MethodOptions>,
}

#[derive(Clone, PartialEq, Message)]
pub struct MethodOptions {
    #[prost(message, optional, tag = "51001")]
    pub access: Option<AccessRule>,
    #[prost(message, optional, tag = "51002")]
    pub rest: Option<RestRule>,
    #[prost(message, optional, tag = "72295728")]
    pub http: Option<HttpRule>,
    /// `(sail.v1.idempotent)` (proto/sail/v1/access.proto).
    #[prost(bool, tag = "51005")]
    pub idempotent: bool,
}

/// `sail.v1.AccessRule` (proto/sail/v1/access.proto).
#[derive(Clone, PartialEq, Message)]
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

/// `sail.v1.RestRule` (proto/sail/v1/rest.proto).
#[derive(Clone, PartialEq, Message)]
pub struct RestRule {
    #[prost(int32, tag = "1")]
    pub success_status: i32,
    #[prost(string, tag = "2")]
    pub request_example: String,
    #[prost(string, tag = "3")]
    pub multipart_file: String,
}

/// `google.api.HttpRule`, the verbs Sail uses.
#[derive(Clone, PartialEq, Message)]
pub struct HttpRule {
    #[prost(string, optional, tag = "2")]
    pub get: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub put: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub post: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub delete: Option<String>,
    #[prost(string, optional, tag = "6")]
    pub patch: Option<String>,
    #[prost(string, tag = "7")]
    pub body: String,
}

impl HttpRule {
    /// The verb and path template.
    pub fn pattern(&self) -> Option<(&'static str, &str)> {
        [("GET", &self.get), ("PUT", &self.put), ("POST", &self.post), ("DELETE", &self.delete), ("PATCH", &self.patch)]
            .into_iter()
            .find_map(|(verb, path)| path.as_deref().map(|p| (verb, p)))
    }
}

#[derive(Clone, PartialEq, Message)]
pub struct SourceCodeInfo {
    #[prost(message, repeated, tag = "1")]
    pub location: Vec<Location>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Location {
    #[prost(int32, repeated, tag = "1")]
    pub path: Vec<i32>,
    #[prost(string, optional, tag = "3")]
    pub leading_comments: Option<String>,
}

/// One sail.v1 method with everything the generators need.
pub struct Method {
    pub service: String,
    pub name: String,
    pub input: String,
    pub output: String,
    pub options: MethodOptions,
    pub comment: String,
}

impl Method {
    /// `/sail.v1.Users/CreateUser`.
    pub fn grpc_path(&self) -> String {
        format!("/sail.v1.{}/{}", self.service, self.name)
    }

    /// The HTTP verb of its REST mapping, if it has one.
    pub fn verb(&self) -> Option<&'static str> {
        self.options.http.as_ref().and_then(HttpRule::pattern).map(|(verb, _)| verb)
    }
}

/// A message with its fields and comments.
pub struct MessageInfo {
    pub name: String,
    pub comment: String,
    pub fields: Vec<(FieldDescriptorProto, String)>,
    /// The webhook event type whose data it is, for the messages of
    /// proto/sail/v1/events.proto.
    pub event: Option<String>,
    /// Its shapes by a discriminator's value, when it declares them.
    pub variants: Option<Variants>,
}

/// Everything the build reads from the compiled descriptors.
pub struct Api {
    pub methods: Vec<Method>,
    pub services: BTreeMap<String, String>,
    /// By full name, e.g. `.sail.v1.User`.
    pub messages: HashMap<String, MessageInfo>,
}

fn clean(comment: Option<&String>) -> String {
    comment.map(|c| c.lines().map(str::trim).collect::<Vec<_>>().join("\n").trim().to_string()).unwrap_or_default()
}

impl Api {
    pub fn decode(bytes: &[u8]) -> Result<Api, Box<dyn std::error::Error>> {
        let set = FileDescriptorSet::decode(bytes)?;
        let mut api = Api { methods: Vec::new(), services: BTreeMap::new(), messages: HashMap::new() };
        for file in &set.file {
            let package = file.package.clone().unwrap_or_default();
            let comments: HashMap<Vec<i32>, String> = file
                .source_code_info
                .iter()
                .flat_map(|info| &info.location)
                .map(|loc| (loc.path.clone(), clean(loc.leading_comments.as_ref())))
                .collect();
            let comment = |path: &[i32]| comments.get(path).cloned().unwrap_or_default();
            for (i, message) in file.message_type.iter().enumerate() {
                let name = message.name.clone().unwrap_or_default();
                let fields = message
                    .field
                    .iter()
                    .enumerate()
                    .map(|(j, f)| (f.clone(), comment(&[4, i as i32, 2, j as i32])))
                    .collect();
                let event = message.options.as_ref().and_then(|o| o.event.clone());
                let variants = message.options.as_ref().and_then(|o| o.variants.clone());
                api.messages.insert(
                    format!(".{package}.{name}"),
                    MessageInfo { name, comment: comment(&[4, i as i32]), fields, event, variants },
                );
            }
            if package != "sail.v1" {
                continue;
            }
            for (s, service) in file.service.iter().enumerate() {
                let service_name = service.name.clone().unwrap_or_default();
                api.services.insert(service_name.clone(), comment(&[6, s as i32]));
                for (m, method) in service.method.iter().enumerate() {
                    api.methods.push(Method {
                        service: service_name.clone(),
                        name: method.name.clone().unwrap_or_default(),
                        input: method.input_type.clone().unwrap_or_default(),
                        output: method.output_type.clone().unwrap_or_default(),
                        options: method.options.clone().unwrap_or_default(),
                        comment: comment(&[6, s as i32, 2, m as i32]),
                    });
                }
            }
        }
        api.methods.sort_by_key(|m| m.grpc_path());
        Ok(api)
    }

    /// The event data messages, `(event type, full name)`, by event type.
    pub fn events(&self) -> Vec<(&str, &str)> {
        let mut events: Vec<(&str, &str)> = self
            .messages
            .iter()
            .filter_map(|(name, info)| info.event.as_deref().map(|event| (event, name.as_str())))
            .collect();
        events.sort_unstable();
        events
    }

    /// Every field of every sail.v1 message with the rule it declares, as
    /// `(.sail.v1.Message.field, field)`, sorted, for the options that
    /// change how a field is encoded.
    pub fn sail_fields(&self) -> Vec<(String, &FieldDescriptorProto)> {
        let mut fields: Vec<(String, &FieldDescriptorProto)> = self
            .messages
            .iter()
            .filter(|(name, _)| name.starts_with(".sail.v1."))
            .flat_map(|(name, info)| info.fields.iter().map(move |(f, _)| (format!("{name}.{}", f.name()), f)))
            .collect();
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields
    }

    pub fn message(&self, full_name: &str) -> Result<&MessageInfo, String> {
        self.messages.get(full_name).ok_or_else(|| format!("message {full_name} is not in the descriptors"))
    }
}

/// `CreateSandboxConnection` → `create_sandbox_connection`, as prost and
/// tonic name methods and modules.
pub fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let after_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let before_lower =
                i > 0 && chars[i - 1].is_uppercase() && chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if after_lower || before_lower {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(*c);
        }
    }
    out
}

/// `.sail.v1.CreateUserRequest` → `CreateUserRequest`.
pub fn short_name(full_name: &str) -> &str {
    full_name.rsplit('.').next().unwrap_or(full_name)
}
