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

/// `params` over `preset`'s assignments for `algorithm` (so the given
/// parameters override the preset's): `None` when the preset does not
/// tune that algorithm (only `article` and `learned` have presets).
pub fn with_preset(
    preset: gleaner::extract::preset::Preset,
    algorithm: &str,
    params: &gleaner::extract::Params,
) -> Option<gleaner::extract::Params> {
    let mut out = preset.params_for(algorithm)?;
    for (k, v) in params.iter() {
        out = out.with(k, v);
    }
    Some(out)
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

    #[test]
    fn given_parameters_override_the_preset() {
        use gleaner::extract::{preset::Preset, Params};
        let given = Params::new().with("captions", "true");
        let out = super::with_preset(Preset::Precision, "article", &given).expect("article");
        assert_eq!(out.iter().find(|(k, _)| *k == "captions").map(|(_, v)| v), Some("true"));
        assert!(super::with_preset(Preset::Recall, "plain", &given).is_none());
    }
}
