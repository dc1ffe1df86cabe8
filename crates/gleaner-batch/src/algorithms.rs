//! The extraction algorithms with their parameter specs, as JSON: what
//! `gleaner algorithms --json` prints and the server's `GET
//! /v1/algorithms` returns.

/// Every algorithm as `{name, summary, paper, default, needs_template,
/// line_based, curve, params: [{name, default, type, choices, optional,
/// range, doc, source, aliases}]}`, in the library's order. Each
/// parameter comes from its configuration's declaration
/// ([`gleaner::extract::ParamSpec`]); `default` is the algorithm's own
/// (empty for an optional parameter left unset).
pub fn algorithm_specs() -> serde_json::Value {
    serde_json::Value::Array(gleaner::extract::algorithms().iter().map(algorithm_spec).collect())
}

/// The parameters of the algorithm registered as `name` (`default` too),
/// as [`algorithm_specs`] lists them.
///
/// # Errors
/// [`gleaner::Error::UnknownAlgorithm`].
pub fn parameter_specs(name: &str) -> gleaner::Result<serde_json::Value> {
    let algorithm = gleaner::extract::algorithm(name)?;
    Ok(serde_json::Value::Array(algorithm.params().iter().map(param_spec).collect()))
}

/// One algorithm of [`algorithm_specs`].
fn algorithm_spec(a: &gleaner::extract::Algorithm) -> serde_json::Value {
    serde_json::json!({
        "name": a.name,
        "summary": a.summary,
        "paper": a.paper,
        "default": a.name == gleaner::extract::DEFAULT_ALGORITHM,
        "needs_template": a.capabilities.needs_template,
        "line_based": a.capabilities.line_based,
        "curve": a.capabilities.curve,
        "params": a.params().iter().map(param_spec).collect::<Vec<_>>(),
    })
}

/// One parameter of [`algorithm_specs`].
fn param_spec(p: &gleaner::extract::Param) -> serde_json::Value {
    let spec = p.spec;
    let choices = match spec.kind {
        gleaner::extract::params::Kind::Choice(names) => Some(names),
        _ => None,
    };
    serde_json::json!({
        "name": spec.name,
        "default": p.default,
        "type": spec.kind.name(),
        "choices": choices,
        "optional": spec.optional,
        "range": spec.range.map(|r| r.to_string()),
        "doc": spec.summary(),
        "source": spec.source,
        "aliases": spec.aliases,
    })
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

    /// The JSON lists every declared parameter of every algorithm, with
    /// its declaration and the algorithm's default.
    #[test]
    fn the_spec_table_matches_the_declarations() {
        let specs = super::algorithm_specs();
        for (a, json) in gleaner::extract::algorithms().iter().zip(specs.as_array().expect("list"))
        {
            assert_eq!(json["name"], a.name);
            assert_eq!(json["needs_template"], a.capabilities.needs_template);
            let params = json["params"].as_array().expect("params");
            assert_eq!(params.len(), a.params().len(), "{}", a.name);
            for (p, j) in a.params().iter().zip(params) {
                assert_eq!(j["name"], p.spec.name);
                assert_eq!(j["default"], p.default.as_str());
                assert_eq!(j["type"], p.spec.kind.name());
                assert_eq!(j["source"], p.spec.source);
                assert!(
                    j["doc"].as_str().is_some_and(|d| !d.is_empty()),
                    "{} {}",
                    a.name,
                    p.spec.name
                );
            }
        }
        let lqf =
            specs.as_array().and_then(|l| l.iter().find(|a| a["name"] == "lqf")).expect("lqf");
        let threshold = &lqf["params"][0];
        assert_eq!(
            (&threshold["name"], &threshold["default"]),
            (&"threshold".into(), &"0.5".into())
        );
        assert_eq!((&threshold["type"], &threshold["range"]), (&"float".into(), &"[0, 1]".into()));
        let tccb =
            specs.as_array().and_then(|l| l.iter().find(|a| a["name"] == "tccb")).expect("tccb");
        assert_eq!(tccb["params"][0]["default"], "30");
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
