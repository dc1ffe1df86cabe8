//! Typed parameters: every algorithm's configuration is declared once,
//! with `config!`, as a table of fields with their type, default, range,
//! provenance and doc comment.
//!
//! From that one table the macro makes the configuration struct (each
//! field with its doc), its `Default` (the papers' values), a typed
//! builder setter per field (`LqfConfig::default().threshold(0.3)`), and
//! its [`Configure`] implementation: [`Configure::set`] parses a value by
//! the field's type ([`ParamType`]), [`Configure::validate`] checks every
//! [`Range`] (and runs the configuration's own cross-field check, when it
//! has one) and [`Configure::SPECS`] lists the [`ParamSpec`]s that
//! `gleaner algorithms --json`, `-p key=value`, Python's keyword arguments
//! and the server's `params` all read. A new parameter is one line of the
//! table; `docs/architecture.md#parameters` shows one being added.
//!
//! ```
//! use gleaner::extract::{Configure, LqfConfig, Params};
//! let typed = LqfConfig::default().threshold(0.3);
//! let named: LqfConfig = Params::new().with("threshold", 0.3).build()?;
//! assert_eq!(typed, named);
//! assert_eq!(LqfConfig::SPECS[0].name, "threshold");
//! assert!(Params::new().with("threshold", 2).build::<LqfConfig>().is_err());
//! # Ok::<(), gleaner::Error>(())
//! ```

use std::fmt;

use crate::error::{Error, Result};

/// A configuration that can be set by parameter name: what `config!`
/// implements for every algorithm's configuration.
pub trait Configure: Default {
    /// The name its errors give: the algorithm's, or its family's (`ttr`,
    /// `ccb`) for a configuration several algorithms share.
    const NAME: &'static str;

    /// Every parameter, in the order of the configuration's fields.
    const SPECS: &'static [ParamSpec];

    /// Sets parameter `key` (a field's name or an alias) from its textual
    /// `value`, parsed by the field's type.
    ///
    /// # Errors
    /// [`Error::UnknownParam`] for a key the configuration does not have,
    /// [`Error::InvalidParam`] (or the choice type's own error) for a
    /// value that does not parse.
    fn set(&mut self, key: &str, value: &str) -> Result<()>;

    /// The value of parameter `key` as text that [`Configure::set`] takes
    /// back (`None` for an unknown key; an unset optional value is empty).
    fn get(&self, key: &str) -> Option<String>;

    /// Checks every value against its [`Range`], then the values against
    /// each other.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first value out of its range,
    /// or [`Error::InvalidConfig`] from a cross-field check.
    fn validate(&self) -> Result<()>;
}

/// One parameter of a configuration, as `config!` declares it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ParamSpec {
    /// The key `-p key=value` takes: the field's name.
    pub name: &'static str,
    /// Other keys accepted for it (`k` for TTR's `max_k`).
    pub aliases: &'static [&'static str],
    /// What values it takes.
    pub kind: Kind,
    /// Whether it may be unset (an empty value unsets it).
    pub optional: bool,
    /// The values [`Configure::validate`] accepts, when limited.
    pub range: Option<Range>,
    /// The field's doc comment.
    pub doc: &'static str,
    /// Where the default comes from (`docs/algorithms.md#provenance-tags`):
    /// a paper section (`S-3 §IV`), `K`, `R: …`, `I` (gleaner's own), or
    /// the system it follows (`Readability`).
    pub source: &'static str,
}

impl ParamSpec {
    /// The doc comment as one line.
    pub fn summary(&self) -> String {
        // Rustdoc's escapes (`\[I\]`, kept from a link) are not for readers.
        let words: Vec<&str> = self.doc.split_whitespace().collect();
        words.join(" ").replace("\\[", "[").replace("\\]", "]")
    }
}

/// A parameter with its default in one algorithm (CCB's σ is 40
/// characters, TCCB's 30 tokens).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Param {
    /// The declaration.
    pub spec: &'static ParamSpec,
    /// The algorithm's default, as text [`Configure::set`] takes.
    pub default: String,
}

impl Param {
    /// The parameters of `config` with its values as their defaults.
    pub fn all_of<C: Configure>(config: &C) -> Vec<Param> {
        C::SPECS
            .iter()
            .map(|spec| Param { spec, default: config.get(spec.name).unwrap_or_default() })
            .collect()
    }
}

/// What values a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A number (`0.5`, `1e-3`).
    Float,
    /// A whole number ≥ 0.
    Integer,
    /// `true` or `false`.
    Bool,
    /// One of these names.
    Choice(&'static [&'static str]),
}

impl Kind {
    /// The kind's name in `gleaner algorithms --json`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Float => "float",
            Kind::Integer => "integer",
            Kind::Bool => "bool",
            Kind::Choice(_) => "choice",
        }
    }

    /// What a value of this kind must be, for errors.
    pub fn expected(self) -> String {
        match self {
            Kind::Float => "a number".into(),
            Kind::Integer => "a whole number ≥ 0".into(),
            Kind::Bool => "true or false".into(),
            Kind::Choice(names) => format!("one of {}", names.join(", ")),
        }
    }
}

/// One end of a [`Range`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Bound {
    /// No limit on this side.
    Unbounded,
    /// The value may equal the limit.
    Inclusive(f64),
    /// The value must differ from the limit.
    Exclusive(f64),
}

/// The values a numeric parameter may take. Every range but none at all
/// (a [`ParamSpec`] without one) also refuses NaN and the infinities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// The lower end.
    pub min: Bound,
    /// The upper end.
    pub max: Bound,
}

impl Range {
    /// Any finite number.
    pub const FINITE: Range = Range { min: Bound::Unbounded, max: Bound::Unbounded };

    /// `min ≤ v ≤ max`.
    pub const fn closed(min: f64, max: f64) -> Range {
        Range { min: Bound::Inclusive(min), max: Bound::Inclusive(max) }
    }

    /// `v ≥ min`.
    pub const fn at_least(min: f64) -> Range {
        Range { min: Bound::Inclusive(min), max: Bound::Unbounded }
    }

    /// `v > min`.
    pub const fn above(min: f64) -> Range {
        Range { min: Bound::Exclusive(min), max: Bound::Unbounded }
    }

    /// `v ≤ max`.
    pub const fn at_most(max: f64) -> Range {
        Range { min: Bound::Unbounded, max: Bound::Inclusive(max) }
    }

    /// Is `v` in the range?
    pub fn contains(&self, v: f64) -> bool {
        let above_min = match self.min {
            Bound::Unbounded => true,
            Bound::Inclusive(m) => v >= m,
            Bound::Exclusive(m) => v > m,
        };
        let below_max = match self.max {
            Bound::Unbounded => true,
            Bound::Inclusive(m) => v <= m,
            Bound::Exclusive(m) => v < m,
        };
        v.is_finite() && above_min && below_max
    }

    /// What a value must be, for errors: `in [0, 1]`, `> 0`.
    pub fn expected(&self) -> String {
        let bounded = |b: Bound| !matches!(b, Bound::Unbounded);
        if bounded(self.min) && bounded(self.max) {
            format!("in {self}")
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for Range {
    /// `[0, 1]`, `(0, 1]`, `≥ 0`, `> 0`, `≤ 1000000`, or `finite`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (Bound::Unbounded, Bound::Unbounded) => f.write_str("finite"),
            (Bound::Inclusive(m), Bound::Unbounded) => write!(f, "≥ {m}"),
            (Bound::Exclusive(m), Bound::Unbounded) => write!(f, "> {m}"),
            (Bound::Unbounded, Bound::Inclusive(m)) => write!(f, "≤ {m}"),
            (Bound::Unbounded, Bound::Exclusive(m)) => write!(f, "< {m}"),
            (lo, hi) => {
                let end = |b: Bound, inclusive: char, exclusive: char| match b {
                    Bound::Inclusive(m) => (inclusive, m),
                    Bound::Exclusive(m) => (exclusive, m),
                    Bound::Unbounded => (exclusive, f64::NAN),
                };
                let ((open, lo), (close, hi)) = (end(lo, '[', '('), end(hi, ']', ')'));
                write!(f, "{open}{lo}, {hi}{close}")
            }
        }
    }
}

/// A type a parameter can have: how it is parsed from text, shown as
/// text, and checked against a [`Range`].
pub trait ParamType: Sized {
    /// What values it takes.
    const KIND: Kind;
    /// Whether it may be unset.
    const OPTIONAL: bool = false;

    /// Parses `text`: `Err(None)` when it is no value of the type (the
    /// caller names the parameter and [`Kind::expected`]), `Err(Some(e))`
    /// for a choice type's own error.
    ///
    /// # Errors
    /// As above.
    fn parse(text: &str) -> std::result::Result<Self, Option<Error>>;

    /// The value as text that [`ParamType::parse`] takes back.
    fn show(&self) -> String;

    /// The value as a number, for the range check (`None`: not checked).
    fn number(&self) -> Option<f64> {
        None
    }
}

macro_rules! number_param {
    ($($ty:ty => $kind:expr, $to_f64:path;)*) => {$(
        impl ParamType for $ty {
            const KIND: Kind = $kind;
            fn parse(text: &str) -> std::result::Result<$ty, Option<Error>> {
                text.parse().map_err(|_| None)
            }
            fn show(&self) -> String {
                self.to_string()
            }
            fn number(&self) -> Option<f64> {
                Some($to_f64(*self))
            }
        }
    )*};
}

number_param! {
    f64 => Kind::Float, f64::from;
    f32 => Kind::Float, f64::from;
    u32 => Kind::Integer, f64::from;
    usize => Kind::Integer, usize_to_f64;
}

/// Exact up to 2^53, far beyond any range a parameter has.
fn usize_to_f64(v: usize) -> f64 {
    v as f64
}

impl ParamType for bool {
    const KIND: Kind = Kind::Bool;
    fn parse(text: &str) -> std::result::Result<bool, Option<Error>> {
        text.parse().map_err(|_| None)
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl<T: ParamType> ParamType for Option<T> {
    const KIND: Kind = T::KIND;
    const OPTIONAL: bool = true;
    /// Empty text unsets the value.
    fn parse(text: &str) -> std::result::Result<Option<T>, Option<Error>> {
        if text.is_empty() {
            Ok(None)
        } else {
            T::parse(text).map(Some)
        }
    }
    fn show(&self) -> String {
        self.as_ref().map(T::show).unwrap_or_default()
    }
    fn number(&self) -> Option<f64> {
        self.as_ref().and_then(T::number)
    }
}

/// Implements [`ParamType`] for a field-less enum with `FromStr` (whose
/// error is kept), each variant shown by its name.
macro_rules! choice_param {
    ($ty:ty { $($variant:pat => $name:literal),* $(,)? }) => {
        impl $crate::extract::params::ParamType for $ty {
            const KIND: $crate::extract::params::Kind =
                $crate::extract::params::Kind::Choice(&[$($name),*]);
            fn parse(text: &str) -> std::result::Result<$ty, Option<$crate::Error>> {
                text.parse().map_err(Some)
            }
            fn show(&self) -> String {
                match self {
                    $($variant => $name,)*
                }
                .to_string()
            }
        }
    };
}
pub(crate) use choice_param;

/// Declares a configuration: the struct, `Default`, a typed setter per
/// parameter and [`Configure`], from one table.
///
/// ```text
/// config! {
///     /// Parameters of [`Lqf`].
///     #[derive(Debug, Clone, Copy, PartialEq)]
///     #[non_exhaustive]
///     pub struct LqfConfig for "lqf" {
///         /// A block whose link quota exceeds this is removed. …
///         threshold: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
///     }
///     fixed { /* fields that are no parameters: `name: Type = default;` */ }
///     check LqfConfig::check;   // a cross-field check, `fn(&Self) -> Result<()>`
/// }
/// ```
///
/// Each parameter is `name: Type = default`, then optionally `, range
/// EXPR` (a [`Range`]), `, source "TAG"` and `, alias "KEY"` (repeated);
/// `fixed` and `check` are optional.
macro_rules! config {
    (@range) => { None };
    (@range $range:expr) => { Some($range) };
    (@source) => { "" };
    (@source $source:literal) => { $source };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident for $label:literal {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr
                    $(, range $range:expr)?
                    $(, source $source:literal)?
                    $(, alias $alias:literal)*
                ;
            )*
        }
        $(fixed {
            $(
                $(#[doc = $fdoc:literal])*
                $ffield:ident : $fty:ty = $fdefault:expr;
            )*
        })?
        $(check $check:path;)?
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
            $($(
                $(#[doc = $fdoc])*
                pub $ffield: $fty,
            )*)?
        }

        impl Default for $name {
            fn default() -> $name {
                $name {
                    $($field: $default,)*
                    $($($ffield: $fdefault,)*)?
                }
            }
        }

        impl $name {
            $(
                #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`].")]
                pub fn $field(mut self, value: $ty) -> $name {
                    self.$field = value;
                    self
                }
            )*
        }

        impl $crate::extract::params::Configure for $name {
            const NAME: &'static str = $label;

            const SPECS: &'static [$crate::extract::params::ParamSpec] = &[$(
                $crate::extract::params::ParamSpec {
                    name: stringify!($field),
                    aliases: &[$($alias),*],
                    kind: <$ty as $crate::extract::params::ParamType>::KIND,
                    optional: <$ty as $crate::extract::params::ParamType>::OPTIONAL,
                    range: $crate::extract::params::config!(@range $($range)?),
                    doc: concat!($($doc, "\n",)*),
                    source: $crate::extract::params::config!(@source $($source)?),
                },
            )*];

            fn set(&mut self, key: &str, value: &str) -> $crate::Result<()> {
                $(
                    if key == stringify!($field) $(|| key == $alias)* {
                        return $crate::extract::params::parse_into(
                            &mut self.$field,
                            $label,
                            stringify!($field),
                            value,
                        );
                    }
                )*
                let _ = value;
                Err($crate::extract::params::unknown_param::<$name>(key))
            }

            fn get(&self, key: &str) -> Option<String> {
                $(
                    if key == stringify!($field) {
                        return Some($crate::extract::params::ParamType::show(&self.$field));
                    }
                )*
                let _ = key;
                None
            }

            fn validate(&self) -> $crate::Result<()> {
                $(
                    $crate::extract::params::check_range(
                        &self.$field,
                        $label,
                        stringify!($field),
                        $crate::extract::params::config!(@range $($range)?),
                    )?;
                )*
                $($check(self)?;)?
                Ok(())
            }
        }
    };
}
pub(crate) use config;

/// Parses `value` into `slot`, naming the parameter in the error.
pub(crate) fn parse_into<T: ParamType>(
    slot: &mut T,
    algorithm: &'static str,
    key: &'static str,
    value: &str,
) -> Result<()> {
    match T::parse(value) {
        Ok(v) => {
            *slot = v;
            Ok(())
        }
        Err(Some(own)) => Err(own),
        Err(None) => Err(Error::InvalidParam {
            algorithm,
            key,
            value: value.to_string(),
            expected: T::KIND.expected(),
        }),
    }
}

/// Checks `value` against `range` (when there is one and the value is a
/// number).
pub(crate) fn check_range<T: ParamType>(
    value: &T,
    algorithm: &'static str,
    key: &'static str,
    range: Option<Range>,
) -> Result<()> {
    match (range, value.number()) {
        (Some(range), Some(v)) if !range.contains(v) => Err(Error::InvalidParam {
            algorithm,
            key,
            value: value.show(),
            expected: range.expected(),
        }),
        _ => Ok(()),
    }
}

/// The error for a key `C` does not have, listing the keys it has.
pub(crate) fn unknown_param<C: Configure>(key: &str) -> Error {
    Error::UnknownParam {
        algorithm: C::NAME,
        key: key.to_string(),
        valid: C::SPECS.iter().map(|s| s.name).collect(),
    }
}

config! {
    /// The configuration of an algorithm without parameters (`plain`,
    /// `entropy`): every key is unknown.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct NoParams for "this algorithm" {}
}

/// Parameter assignments `key=value`, as given on a command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// No parameters: every algorithm's defaults.
    pub fn new() -> Params {
        Params::default()
    }

    /// Adds `key=value`.
    pub fn with(mut self, key: &str, value: impl ToString) -> Params {
        self.0.push((key.to_string(), value.to_string()));
        self
    }

    /// Parses `"key=value"`.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when there is no `=`.
    pub fn push_assignment(&mut self, assignment: &str) -> Result<()> {
        let (k, v) = assignment.split_once('=').ok_or_else(|| {
            Error::InvalidConfig(format!("parameter {assignment:?} is not key=value"))
        })?;
        self.0.push((k.trim().to_string(), v.trim().to_string()));
        Ok(())
    }

    /// The assignments in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Applies the assignments to a default configuration and validates it.
    ///
    /// # Errors
    /// Whatever [`Configure::set`] or [`Configure::validate`] reports.
    pub fn build<C: Configure>(&self) -> Result<C> {
        self.apply(C::default())
    }

    /// Applies the assignments to `config` (for algorithms whose defaults
    /// depend on a variant) and validates it.
    ///
    /// # Errors
    /// Whatever [`Configure::set`] or [`Configure::validate`] reports.
    pub fn apply<C: Configure>(&self, mut config: C) -> Result<C> {
        for (k, v) in self.iter() {
            config.set(k, v)?;
        }
        config.validate()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    config! {
        /// A toy configuration.
        #[derive(Debug, Clone, Copy, PartialEq)]
        struct Toy for "toy" {
            /// A share.
            share: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
            /// A count.
            count: usize = 3, range Range::at_least(1.0), alias "n";
            /// An optional weight.
            weight: Option<f32> = None, range Range::above(0.0);
            /// A switch.
            on: bool = true;
            /// How lines are cut.
            lines: crate::extract::LineMode = crate::extract::LineMode::Source;
        }
        fixed {
            /// Not a parameter.
            family: u32 = 7;
        }
        check Toy::check;
    }

    impl Toy {
        fn check(&self) -> Result<()> {
            if self.count > 10 && self.on {
                return Err(Error::InvalidConfig("toy count above 10 needs on=false".into()));
            }
            Ok(())
        }
    }

    #[test]
    fn defaults_and_typed_setters() {
        let toy = Toy::default();
        assert_eq!((toy.share, toy.count, toy.weight, toy.on, toy.family), (0.5, 3, None, true, 7));
        let set = Toy::default().share(0.25).count(4).weight(Some(2.0)).on(false);
        let set = set.lines(crate::extract::LineMode::Blocks);
        assert_eq!((set.share, set.count, set.weight, set.on), (0.25, 4, Some(2.0), false));
    }

    #[test]
    fn set_parses_by_type_and_names_bad_values() {
        let toy: Toy = Params::new()
            .with("share", "0.75")
            .with("n", 5)
            .with("weight", 1.5)
            .with("on", false)
            .with("lines", "blocks")
            .build()
            .expect("valid");
        assert_eq!((toy.share, toy.count, toy.weight, toy.on), (0.75, 5, Some(1.5), false));
        assert_eq!(toy.lines, crate::extract::LineMode::Blocks);
        assert_eq!(Params::new().with("weight", "").build::<Toy>().expect("unset").weight, None);
        let err = Params::new().with("count", "-1").build::<Toy>().expect_err("negative");
        assert!(matches!(err, Error::InvalidParam { key: "count", .. }), "{err}");
        assert!(err.to_string().contains("whole number"), "{err}");
        let err = Params::new().with("on", "yes").build::<Toy>().expect_err("not a bool");
        assert!(err.to_string().contains("true or false"), "{err}");
        let err = Params::new().with("lines", "nope").build::<Toy>().expect_err("no such mode");
        assert!(err.to_string().contains("nope"), "{err}");
    }

    #[test]
    fn unknown_keys_list_the_valid_ones() {
        let err = Params::new().with("family", 1).build::<Toy>().expect_err("fixed field");
        let Error::UnknownParam { algorithm, key, valid } = &err else { panic!("{err}") };
        assert_eq!((*algorithm, key.as_str()), ("toy", "family"));
        assert_eq!(valid, &["share", "count", "weight", "on", "lines"]);
        assert!(err.to_string().contains("share, count, weight, on, lines"), "{err}");
    }

    #[test]
    fn validate_checks_ranges_then_the_hook() {
        for (key, bad) in [("share", "1.5"), ("share", "NaN"), ("count", "0"), ("weight", "0")] {
            let err = Params::new().with(key, bad).build::<Toy>().expect_err(key);
            assert!(matches!(&err, Error::InvalidParam { key: k, .. } if *k == key), "{err}");
        }
        let err = Params::new().with("count", 11).build::<Toy>().expect_err("hook");
        assert!(matches!(err, Error::InvalidConfig(_)), "{err}");
        assert!(Params::new().with("count", 11).with("on", false).build::<Toy>().is_ok());
    }

    #[test]
    fn specs_list_every_parameter_with_its_declaration() {
        let names: Vec<&str> = Toy::SPECS.iter().map(|s| s.name).collect();
        assert_eq!(names, ["share", "count", "weight", "on", "lines"]);
        let [share, count, weight, on, lines] = Toy::SPECS else { panic!("five specs") };
        assert_eq!(
            (share.kind, share.source, share.summary().as_str()),
            (Kind::Float, "I", "A share.")
        );
        assert_eq!(share.range.map(|r| r.to_string()).as_deref(), Some("[0, 1]"));
        assert_eq!((count.kind, count.aliases), (Kind::Integer, &["n"][..]));
        assert!(weight.optional && !on.optional);
        assert_eq!(lines.kind, Kind::Choice(&["source", "blocks"]));
        let defaults: Vec<String> =
            Param::all_of(&Toy::default()).into_iter().map(|p| p.default).collect();
        assert_eq!(defaults, ["0.5", "3", "", "true", "source"]);
    }

    #[test]
    fn ranges_describe_themselves() {
        assert_eq!(Range::above(0.0).expected(), "> 0");
        assert_eq!(Range::closed(1.0, 8.0).expected(), "in [1, 8]");
        assert_eq!(Range::at_most(1e6).to_string(), "≤ 1000000");
        assert!(!Range::FINITE.contains(f64::INFINITY) && Range::FINITE.contains(-3.0));
    }
}
