//! Every Russian and Chinese string of the page (the interface, the reasons and the errors)
//! keeps the house rules of `xiangqi_teaching::words`: the glossary's one term for each game
//! word, and in Chinese the punctuation of a sentence.

use serde_json::Value;
use xiangqi_teaching::Lang;
use xiangqi_teaching::words::problems;

/// Every string of `value`, with the keys that lead to it.
fn strings<'v>(value: &'v Value, path: &str, out: &mut Vec<(String, &'v str)>) {
    match value {
        Value::String(s) => out.push((path.to_string(), s)),
        Value::Object(map) => {
            for (key, v) in map {
                strings(v, &format!("{path}.{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                strings(v, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_page_string_keeps_the_glossary_and_the_punctuation() {
    let mut found = Vec::new();
    for lang in [Lang::Ru, Lang::Zh] {
        let path = format!("{}/static/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let table: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut all = Vec::new();
        strings(&table, "", &mut all);
        assert!(all.len() > 300, "{path} holds {} strings", all.len());
        for (key, s) in all {
            for problem in problems(lang, s) {
                found.push(format!("{lang} {key}: {problem}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
