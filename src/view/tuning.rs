//! Live parameters in the window: pick one with Tab, lower and raise it
//! with `,` and `.`, restore the defaults with Ctrl+R. Pure rules, tested
//! without a window.

use crate::params::{ParamValue, Params};

/// One step of a parameter: integers by 1, numbers by a tenth of their
/// default (0.1 when the default is 0), booleans toggled, text unchanged.
pub fn step_value(value: &ParamValue, default: &ParamValue, up: bool) -> ParamValue {
    let sign = if up { 1.0 } else { -1.0 };
    match (value, default) {
        (ParamValue::Integer(v), _) => ParamValue::Integer(if up {
            v.saturating_add(1)
        } else {
            v.saturating_sub(1)
        }),
        (ParamValue::Number(v), ParamValue::Number(d)) => {
            let step = if *d == 0.0 { 0.1 } else { d.abs() / 10.0 };
            // Rounded so repeated steps print as 0.5, not 0.49999999999999994.
            ParamValue::Number(((v + sign * step) * 1e9).round() / 1e9)
        }
        (ParamValue::Number(v), _) => ParamValue::Number(((v + sign * 0.1) * 1e9).round() / 1e9),
        (ParamValue::Boolean(v), _) => ParamValue::Boolean(!v),
        (ParamValue::Text(v), _) => ParamValue::Text(v.clone()),
    }
}

/// The script's declared parameters, their current values and which one
/// the keys act on.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    defaults: Params,
    values: Params,
    selected: Option<usize>,
}

impl Tuning {
    pub fn new(defaults: Params, values: Params) -> Tuning {
        Tuning {
            defaults,
            values,
            selected: None,
        }
    }

    pub fn values(&self) -> &Params {
        &self.values
    }

    /// Tab: the next parameter, wrapping around.
    pub fn select_next(&mut self) {
        let n = self.values.len();
        if n > 0 {
            self.selected = Some(self.selected.map_or(0, |i| (i + 1) % n));
        }
    }

    /// `,` / `.`: steps the selected parameter; returns whether it changed.
    pub fn step(&mut self, up: bool) -> bool {
        let Some(i) = self.selected else { return false };
        let Some((name, value)) = self.values.nth(i) else {
            return false;
        };
        let name = name.to_string();
        let default = self
            .defaults
            .get(&name)
            .cloned()
            .unwrap_or_else(|| value.clone());
        let next = step_value(value, &default, up);
        let changed = &next != value;
        self.values.set(&name, next);
        changed
    }

    /// Ctrl+R: every parameter back to its default; returns whether any changed.
    pub fn reset(&mut self) -> bool {
        let changed = self.values != self.defaults;
        self.values = self.defaults.clone();
        changed
    }

    /// `key=value` for every parameter that differs from its default.
    pub fn overrides(&self) -> Vec<String> {
        self.values
            .iter()
            .filter(|(k, v)| self.defaults.get(k) != Some(v))
            .map(|(k, v)| format!("{k}={}", v.to_arg()))
            .collect()
    }

    /// The selected parameter as `name=value`, for the status line.
    pub fn selected_text(&self) -> Option<String> {
        let (k, v) = self.values.nth(self.selected?)?;
        Some(format!("{k}={}", v.to_arg()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_rules() {
        use ParamValue::*;
        assert_eq!(step_value(&Integer(30), &Integer(30), true), Integer(31));
        assert_eq!(step_value(&Integer(30), &Integer(30), false), Integer(29));
        assert_eq!(
            step_value(&Number(0.45), &Number(0.45), true),
            Number(0.495)
        );
        assert_eq!(
            step_value(&Number(0.45), &Number(0.45), false),
            Number(0.405)
        );
        assert_eq!(step_value(&Number(0.0), &Number(0.0), true), Number(0.1));
        assert_eq!(step_value(&Number(2.0), &Number(-4.0), false), Number(1.6));
        assert_eq!(
            step_value(&Boolean(false), &Boolean(false), true),
            Boolean(true)
        );
        assert_eq!(
            step_value(&Boolean(true), &Boolean(false), false),
            Boolean(false)
        );
        assert_eq!(
            step_value(&Text("a".into()), &Text("a".into()), true),
            Text("a".into())
        );
        let mut v = Number(0.4);
        for _ in 0..10 {
            v = step_value(&v, &Number(0.4), true);
        }
        assert_eq!(v, Number(0.8), "no drift over many steps");
    }

    #[test]
    fn select_step_reset() {
        let defaults = Params::new(vec![
            ("doors".into(), ParamValue::Boolean(true)),
            ("fill".into(), ParamValue::Number(0.5)),
            ("rooms".into(), ParamValue::Integer(10)),
        ]);
        let mut t = Tuning::new(defaults.clone(), defaults);
        assert!(!t.step(true), "nothing selected yet");
        t.select_next();
        assert_eq!(t.selected_text().as_deref(), Some("doors=true"));
        assert!(t.step(true));
        t.select_next();
        t.select_next();
        assert!(t.step(false));
        assert_eq!(t.selected_text().as_deref(), Some("rooms=9"));
        assert_eq!(t.overrides(), ["doors=false", "rooms=9"]);
        t.select_next();
        assert_eq!(
            t.selected_text().as_deref(),
            Some("doors=false"),
            "wraps around"
        );
        assert!(t.reset());
        assert!(t.overrides().is_empty());
        assert!(!t.reset());
    }
}
