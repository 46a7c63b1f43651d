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

/// Reads an optional whole number for an integer body field. JSON Schema
/// (and so the OpenAPI document) calls `1.0` an integer; serde would refuse
/// it for an `i64`. A fraction, or a number out of range, is still refused.
pub fn optional_whole_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    use serde::de::Error as _;
    match Option::<serde_json::Number>::deserialize(deserializer)? {
        None => Ok(None),
        Some(number) => match (number.as_i64(), number.as_f64()) {
            (Some(whole), _) => Ok(Some(whole)),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
            _ => Err(D::Error::custom(format!("invalid value: {number}, expected a whole number"))),
        },
    }
}

/// An uploaded file's bytes as base64 text in the REST form of a message.
pub mod base64_bytes {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        use serde::de::Error as _;
        let text = String::deserialize(deserializer)?;
        STANDARD.decode(text.as_bytes()).map_err(|_| D::Error::custom("expected the file's bytes in base64"))
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize)]
    struct Event {
        #[serde(serialize_with = "super::raw")]
        data: String,
    }

    #[derive(serde::Deserialize, Debug)]
    struct Ttl {
        #[serde(default, deserialize_with = "super::optional_whole_number")]
        ttl: Option<i64>,
    }

    #[test]
    fn whole_numbers_may_be_written_as_floats() {
        let read = |text: &str| serde_json::from_str::<Ttl>(text).map(|t| t.ttl);
        assert_eq!(read(r#"{"ttl": 60}"#).unwrap(), Some(60));
        assert_eq!(read(r#"{"ttl": 1.0}"#).unwrap(), Some(1));
        assert_eq!(read(r#"{}"#).unwrap(), None);
        assert_eq!(read(r#"{"ttl": null}"#).unwrap(), None);
        assert!(read(r#"{"ttl": 1.5}"#).is_err());
        assert!(read(r#"{"ttl": 1e300}"#).is_err());
        assert!(read(r#"{"ttl": "60"}"#).is_err());
    }

    #[test]
    fn json_text_becomes_an_object() {
        let out = serde_json::to_string(&Event { data: r#"{"a":1}"#.into() }).unwrap();
        assert_eq!(out, r#"{"data":{"a":1}}"#);
        assert!(serde_json::to_string(&Event { data: "not json".into() }).is_err());
    }
}
