//! Serde helpers for the generated messages' REST form.

use serde::de::Deserializer;
use serde::ser::Error;
use serde::{Deserialize, Serializer};

/// Serializes a string holding JSON as that JSON (an event's `data` object),
/// not as a string.
pub fn raw<S: Serializer>(json: &str, serializer: S) -> Result<S::Ok, S::Error> {
    let raw = serde_json::value::RawValue::from_string(json.to_string()).map_err(S::Error::custom)?;
    serializer.serialize_some(&raw)
}

/// Reads any JSON value (an event's `data` object) back into JSON text.
pub fn raw_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize)]
    struct Event {
        #[serde(serialize_with = "super::raw")]
        data: String,
    }

    #[test]
    fn json_text_becomes_an_object() {
        let out = serde_json::to_string(&Event { data: r#"{"a":1}"#.into() }).unwrap();
        assert_eq!(out, r#"{"data":{"a":1}}"#);
        assert!(serde_json::to_string(&Event { data: "not json".into() }).is_err());
    }
}
