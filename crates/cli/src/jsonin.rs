//! Reading the JSON files users give: the top level must be an object, and the error says
//! what was expected in the project's words.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// What a JSON value is, as an error message says it.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A value that must be an object, read as `what` (e.g. "a results file").
pub fn object<T: DeserializeOwned>(v: Value, what: &str) -> Result<T, String> {
    if !v.is_object() {
        return Err(format!(
            "not {what}: expected a JSON object, found {}",
            kind(&v)
        ));
    }
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        // serde's names for JSON's shapes, in the words JSON itself uses
        let inner = e
            .into_inner()
            .to_string()
            .replace("a sequence", "a list")
            .replace("a map", "an object");
        if path == "." {
            format!("not {what}: {inner}")
        } else {
            format!("not {what}: at {path}: {inner}")
        }
    })
}

/// Text that must hold one JSON object, read as `what`.
pub fn parse<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not {what}: not JSON ({e})"))?;
    object(v, what)
}
