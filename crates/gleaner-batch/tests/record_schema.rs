//! The record's JSON Schema (`schema/record.schema.json`, issue 33) says
//! what every front end writes: the test serialises records of every kind
//! (a page, a failed input, one with comments asked for) and checks each
//! against the schema's keys and types. The Python tests validate the
//! package's records with a full JSON Schema validator.

use gleaner_batch::{JobSpec, Page, Record, CSV_COLUMNS};
use serde_json::Value;

const SCHEMA: &str = include_str!("../../../schema/record.schema.json");

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("the schema is JSON")
}

fn records() -> Vec<Record> {
    let page = b"<html lang=en><head><title>A page</title></head><body><article><h1>A page</h1>\
        <p>A paragraph long enough to be the main content of this page, with words and more \
        words in it, so that the extractor keeps it.</p></article>\
        <section id=comments><p>A comment on it, by a reader.</p></section></body></html>";
    let mut out = Vec::new();
    for json in
        [r#"{}"#, r#"{"comments": true, "output_format": "jsonl"}"#, r#"{"algorithm": "bte"}"#]
    {
        let spec: JobSpec = serde_json::from_str(json).expect("spec");
        let job = spec.build().expect("job");
        let with_url =
            Page { source: "mem", bytes: page, url: Some("https://example.org/a"), encoding: None };
        out.push(job.record_for_page(&with_url, None));
        let binary =
            Page { source: "png", bytes: b"\x89PNG\r\n\x1a\n\0\0\0\0", url: None, encoding: None };
        out.push(job.record_for_page(&binary, None));
        out.push(job.failed_record("gone", "cannot read gone: no such file"));
    }
    out
}

/// The JSON types a schema `type` allows.
fn allowed(types: &Value) -> Vec<&str> {
    match types {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_u64() || n.is_i64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[test]
fn every_record_has_every_key_of_the_schema_in_its_order_with_its_type() {
    let schema = schema();
    let required: Vec<&str> =
        schema["required"].as_array().expect("required").iter().filter_map(Value::as_str).collect();
    let properties = schema["properties"].as_object().expect("properties");
    assert_eq!(required, CSV_COLUMNS, "the schema's keys are the CSV columns, in order");
    assert_eq!(properties.len(), required.len());
    let records = records();
    assert!(records.iter().any(|r| r.error.is_none()) && records.iter().any(|r| r.error.is_some()));
    for record in records {
        let text = serde_json::to_string(&record).expect("serialise");
        let json: Value = serde_json::from_str(&text).expect("JSON");
        let object = json.as_object().expect("an object");
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        let mut sorted = required.clone();
        keys.sort_unstable();
        sorted.sort_unstable();
        assert_eq!(keys, sorted, "{json}");
        // In the schema's order in the written text.
        let mut at = 0;
        for key in &required {
            let found = text[at..].find(&format!("\"{key}\":")).map(|i| at + i);
            at = found.unwrap_or_else(|| panic!("{key} out of order in {text}"));
        }
        for (key, value) in object {
            let types = allowed(&properties[key]["type"]);
            let t = type_of(value);
            assert!(
                types.contains(&t) || (t == "integer" && types.contains(&"number")),
                "{key}: {t} is not {types:?} in {json}"
            );
            if let Some(choices) = properties[key]["enum"].as_array() {
                assert!(choices.contains(value), "{key}: {value} not in the schema's enum");
            }
        }
    }
}
