//! The extraction algorithms with their parameter specs, as JSON: what
//! `gleaner algorithms --json` prints and the server's `GET
//! /v1/algorithms` returns.

/// Every algorithm as `{name, summary, paper, default, needs_template,
/// params: [{name, default}]}`, in the library's order.
pub fn algorithm_specs() -> serde_json::Value {
    let list: Vec<serde_json::Value> = gleaner::extract::algorithms()
        .iter()
        .map(|a| {
            serde_json::json!({
                "name": a.name,
                "summary": a.summary,
                "paper": a.paper,
                "default": a.name == gleaner::extract::DEFAULT_ALGORITHM,
                "needs_template": gleaner::extract::needs_template(a.name),
                "params": a
                    .params()
                    .into_iter()
                    .map(|(name, default)| serde_json::json!({"name": name, "default": default}))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::Value::Array(list)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_algorithm_is_listed_with_its_parameters() {
        let specs = super::algorithm_specs();
        let list = specs.as_array().expect("a list");
        assert_eq!(list.len(), gleaner::extract::algorithms().len());
        let article = list.iter().find(|a| a["name"] == "article").expect("article");
        assert!(article["params"].as_array().is_some_and(|p| !p.is_empty()));
        assert_eq!(list.iter().filter(|a| a["default"] == true).count(), 1);
    }
}
