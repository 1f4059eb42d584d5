//! Script parameters: typed by their declared defaults, overridden from the
//! command line with `key=value` or by a game with typed values. Pure Rust,
//! so sinks and tests can use them.

use std::fmt;

use crate::one_line::quoted;

/// A parameter's value; the variant of the default is the parameter's type.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Integer(i64),
    Number(f64),
    Boolean(bool),
    Text(String),
}

impl ParamValue {
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Integer(_) => "integer",
            ParamValue::Number(_) => "number",
            ParamValue::Boolean(_) => "boolean",
            ParamValue::Text(_) => "string",
        }
    }

    /// Parses `text` as a value of the same type as `self`.
    pub fn parse_like(&self, text: &str) -> Option<ParamValue> {
        let text_trimmed = text.trim();
        match self {
            ParamValue::Integer(_) => text_trimmed.parse().ok().map(ParamValue::Integer),
            ParamValue::Number(_) => text_trimmed
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(ParamValue::Number),
            ParamValue::Boolean(_) => match text_trimmed {
                "true" | "yes" | "on" | "1" => Some(ParamValue::Boolean(true)),
                "false" | "no" | "off" | "0" => Some(ParamValue::Boolean(false)),
                _ => None,
            },
            ParamValue::Text(_) => Some(ParamValue::Text(text.to_string())),
        }
    }
}

impl ParamValue {
    /// The value as `-p key=value` takes it back.
    pub fn to_arg(&self) -> String {
        match self {
            ParamValue::Integer(v) => v.to_string(),
            ParamValue::Number(v) => v.to_string(),
            ParamValue::Boolean(v) => v.to_string(),
            ParamValue::Text(v) => v.clone(),
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Integer(v) => write!(f, "{v}"),
            // Debug keeps a ".0" on whole numbers, so the type stays visible.
            ParamValue::Number(v) => write!(f, "{v:?}"),
            ParamValue::Boolean(v) => write!(f, "{v}"),
            ParamValue::Text(v) => write!(f, "{v:?}"),
        }
    }
}

/// Named values sorted by name, so listings and exports never depend on a
/// Lua table's iteration order.
///
/// A script that declares none may carry the key of its table that looks
/// like a misspelled `params` (`parms`), for the error that says none are
/// declared; it is no part of the parameters (nor of their equality).
#[derive(Clone, Debug, Default)]
pub struct Params(Vec<(String, ParamValue)>, Option<String>);

impl PartialEq for Params {
    fn eq(&self, other: &Params) -> bool {
        self.0 == other.0
    }
}

impl Params {
    pub fn new(mut entries: Vec<(String, ParamValue)>) -> Params {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Params(entries, None)
    }

    /// These parameters, with `key` named as the script table's likely
    /// misspelling of `params` when none are declared.
    pub(crate) fn misspelled_as(mut self, key: String) -> Params {
        self.1 = Some(key);
        self
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The `i`-th parameter in name order.
    pub fn nth(&self, i: usize) -> Option<(&str, &ParamValue)> {
        self.0.get(i).map(|(k, v)| (k.as_str(), v))
    }

    /// Replaces a declared parameter's value (the type is the caller's
    /// business); unknown names are ignored.
    pub fn set(&mut self, name: &str, value: ParamValue) {
        if let Some(slot) = self.0.iter_mut().find(|(k, _)| k == name) {
            slot.1 = value;
        }
    }

    /// One line per parameter, `name = default (type)`, with any control
    /// character in a name or a text escaped: a script's names cannot
    /// drive the terminal they are listed on.
    pub fn listing(&self) -> String {
        self.iter()
            .map(|(k, v)| {
                format!(
                    "{} = {} ({})\n",
                    crate::one_line::one_line(k),
                    crate::one_line::one_line(&v.to_string()),
                    v.type_name()
                )
            })
            .collect()
    }

    /// The error for an undeclared `key`: the closest declared name when
    /// one is near (`gpa` for `gap`), then every declared one.
    fn unknown(&self, key: &str) -> String {
        let guess = crate::closest::closest(key, self.iter().map(|(k, _)| k))
            .map(|k| format!("did you mean '{k}'? "))
            .unwrap_or_default();
        format!(
            "unknown parameter '{}'; {guess}{}",
            quoted(key),
            self.declared()
        )
    }

    fn declared(&self) -> String {
        if self.is_empty() {
            return match &self.1 {
                Some(key) => format!(
                    "no parameters are declared (the table has '{key}': did you mean params?)"
                ),
                None => "no parameters are declared".to_string(),
            };
        }
        let names: Vec<String> = self
            .iter()
            .map(|(k, v)| format!("{k} ({}, default {v})", v.type_name()))
            .collect();
        format!("declared: {}", names.join(", "))
    }

    /// These defaults with `overrides` (`key=value` texts) applied; an
    /// undeclared key or a value of the wrong type is an error that lists the
    /// declared parameters.
    pub fn with_overrides(&self, overrides: &[String]) -> Result<Params, String> {
        let mut out = self.clone();
        for item in overrides {
            let Some((key, text)) = item.split_once('=') else {
                return Err(format!(
                    "-p expects key=value, got '{}'; {}",
                    quoted(item),
                    self.declared()
                ));
            };
            let key = key.trim();
            let Some(slot) = out.0.iter_mut().find(|(k, _)| k == key) else {
                return Err(self.unknown(key));
            };
            slot.1 = slot.1.parse_like(text).ok_or_else(|| {
                format!(
                    "parameter '{key}' must be {} {}, got '{}'; {}",
                    article(slot.1.type_name()),
                    slot.1.type_name(),
                    quoted(text),
                    self.declared()
                )
            })?;
        }
        Ok(out)
    }

    /// These defaults with typed `values` applied (a game's overrides); an
    /// undeclared key or a value of another type is an error that lists the
    /// declared parameters. An integer is accepted for a number parameter.
    pub fn with_values(&self, values: &[(String, ParamValue)]) -> Result<Params, String> {
        let mut out = self.clone();
        for (key, value) in values {
            let Some(slot) = out.0.iter_mut().find(|(k, _)| k == key) else {
                return Err(self.unknown(key));
            };
            slot.1 = match (&slot.1, value) {
                (ParamValue::Number(_), ParamValue::Integer(v)) => ParamValue::Number(*v as f64),
                (ParamValue::Number(_), ParamValue::Number(v)) if !v.is_finite() => {
                    return Err(format!(
                        "parameter '{key}' must be a finite number, got {v}; {}",
                        self.declared()
                    ))
                }
                (declared, given) if declared.type_name() == given.type_name() => given.clone(),
                (declared, given) => {
                    return Err(format!(
                        "parameter '{key}' must be {} {}, got {} {} ({}); {}",
                        article(declared.type_name()),
                        declared.type_name(),
                        article(given.type_name()),
                        given.type_name(),
                        quoted(&given.to_string()),
                        self.declared()
                    ))
                }
            };
        }
        Ok(out)
    }
}

impl From<i64> for ParamValue {
    fn from(v: i64) -> Self {
        ParamValue::Integer(v)
    }
}

impl From<i32> for ParamValue {
    fn from(v: i32) -> Self {
        ParamValue::Integer(v.into())
    }
}

impl From<f64> for ParamValue {
    fn from(v: f64) -> Self {
        ParamValue::Number(v)
    }
}

impl From<bool> for ParamValue {
    fn from(v: bool) -> Self {
        ParamValue::Boolean(v)
    }
}

impl From<&str> for ParamValue {
    fn from(v: &str) -> Self {
        ParamValue::Text(v.to_string())
    }
}

impl From<String> for ParamValue {
    fn from(v: String) -> Self {
        ParamValue::Text(v)
    }
}

fn article(type_name: &str) -> &'static str {
    if type_name.starts_with('i') {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Params {
        Params::new(vec![
            ("max_rooms".into(), ParamValue::Integer(30)),
            ("fill".into(), ParamValue::Number(0.45)),
            ("doors".into(), ParamValue::Boolean(false)),
            ("theme".into(), ParamValue::Text("crypt".into())),
        ])
    }

    #[test]
    fn errors_quote_a_long_key_or_value_cut_short() {
        for item in [
            "x".repeat(100_000),
            format!("max_rooms={}", "x".repeat(100_000)),
        ] {
            let err = defaults().with_overrides(&[item]).unwrap_err();
            assert!(err.len() < 600, "{}", err.len());
            assert!(err.contains(" bytes)"), "{err}");
        }
        let err = defaults()
            .with_values(&[("k".repeat(100_000), ParamValue::Integer(1))])
            .unwrap_err();
        assert!(
            err.starts_with(&format!(
                "unknown parameter '{}... (100000 bytes)'",
                "k".repeat(200)
            )),
            "{err}"
        );
        assert!(err.len() < 600, "{}", err.len());
        let err = defaults()
            .with_values(&[("doors".to_string(), ParamValue::Text("é".repeat(50_000)))])
            .unwrap_err();
        assert!(err.contains("... (100002 bytes)"), "{err}");
        assert!(err.len() < 600, "{}", err.len());
    }

    #[test]
    fn sorted_by_name() {
        let params = defaults();
        let names: Vec<&str> = params.iter().map(|(k, _)| k).collect();
        assert_eq!(names, ["doors", "fill", "max_rooms", "theme"]);
    }

    #[test]
    fn overrides_follow_the_default_type() {
        let p = defaults()
            .with_overrides(&[
                "max_rooms=12".into(),
                "fill=0.5".into(),
                "doors=true".into(),
                "theme=ice cave".into(),
            ])
            .unwrap();
        assert_eq!(p.get("max_rooms"), Some(&ParamValue::Integer(12)));
        assert_eq!(p.get("fill"), Some(&ParamValue::Number(0.5)));
        assert_eq!(p.get("doors"), Some(&ParamValue::Boolean(true)));
        assert_eq!(p.get("theme"), Some(&ParamValue::Text("ice cave".into())));
        let whole = defaults().with_overrides(&["fill=1".into()]).unwrap();
        assert_eq!(whole.get("fill"), Some(&ParamValue::Number(1.0)));
    }

    #[test]
    fn bad_overrides_list_the_declared_params() {
        let declared = "declared: doors (boolean, default false), fill (number, default 0.45), \
                        max_rooms (integer, default 30), theme (string, default \"crypt\")";
        assert_eq!(
            defaults().with_overrides(&["rooms=3".into()]).unwrap_err(),
            format!("unknown parameter 'rooms'; {declared}")
        );
        assert_eq!(
            defaults()
                .with_overrides(&["max_rooms=abc".into()])
                .unwrap_err(),
            format!("parameter 'max_rooms' must be an integer, got 'abc'; {declared}")
        );
        assert!(defaults().with_overrides(&["fill=nan".into()]).is_err());
        assert!(defaults()
            .with_overrides(&["max_rooms=2.5".into()])
            .is_err());
        assert!(defaults().with_overrides(&["doors=maybe".into()]).is_err());
        assert!(defaults()
            .with_overrides(&["max_rooms".into()])
            .unwrap_err()
            .starts_with("-p expects key=value"));
        assert_eq!(
            Params::default()
                .with_overrides(&["x=1".into()])
                .unwrap_err(),
            "unknown parameter 'x'; no parameters are declared"
        );
    }

    #[test]
    fn typed_values_must_match_the_declared_type() {
        let p = defaults()
            .with_values(&[
                ("max_rooms".into(), 12.into()),
                ("fill".into(), 1.into()),
                ("doors".into(), true.into()),
                ("theme".into(), "ice".into()),
            ])
            .unwrap();
        assert_eq!(p.get("max_rooms"), Some(&ParamValue::Integer(12)));
        assert_eq!(p.get("fill"), Some(&ParamValue::Number(1.0)));
        assert_eq!(p.get("theme"), Some(&ParamValue::Text("ice".into())));
        let wrong = defaults()
            .with_values(&[("max_rooms".into(), "many".into())])
            .unwrap_err();
        assert!(
            wrong.starts_with(
                "parameter 'max_rooms' must be an integer, got a string (\"many\"); declared: doors"
            ),
            "{wrong}"
        );
        assert!(defaults()
            .with_values(&[("max_rooms".into(), 2.5.into())])
            .is_err());
        assert!(defaults()
            .with_values(&[("fill".into(), f64::NAN.into())])
            .is_err());
        assert!(defaults()
            .with_values(&[("rooms".into(), 3.into())])
            .unwrap_err()
            .starts_with("unknown parameter 'rooms'; declared: doors"));
    }

    #[test]
    fn listing_shows_defaults_and_types() {
        assert_eq!(
            defaults().listing(),
            "doors = false (boolean)\nfill = 0.45 (number)\nmax_rooms = 30 (integer)\ntheme = \"crypt\" (string)\n"
        );
        let hostile = Params(
            vec![(
                "k\x1b]0;title\x07".to_string(),
                ParamValue::Text("\x1b[31mred\nline".to_string()),
            )],
            None,
        );
        assert_eq!(
            hostile.listing(),
            "k\\x1b]0;title\\x07 = \"\\u{1b}[31mred\\nline\" (string)\n"
        );
    }
}
