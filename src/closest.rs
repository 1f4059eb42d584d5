//! The name a mistyped one was meant to be: "did you mean `caves`?" in the
//! messages for an unknown API name (`script/suggest.rs`) or starting
//! script (`dunlua new --from cave`).

/// The one name of `candidates` closest to `name` by edit distance
/// (optimal string alignment: insertions, deletions, substitutions and
/// swaps of two neighbours, `conenct`, each cost 1), at
/// most a third of `name`'s length away (at least 1); `None` when `name`
/// is itself a candidate, when none is that close, or when two different
/// names are equally close (a guess between them would mislead).
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    let name_chars: Vec<char> = name.chars().collect();
    let limit = (name_chars.len() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    let mut work = Workspace::default();
    let mut chars: Vec<char> = Vec::new();
    for candidate in candidates {
        if candidate == name {
            return None;
        }
        // Lengths further apart than the limit are too far already (and a
        // long candidate is not compared byte by byte). An empty name is
        // never what was meant.
        if candidate.is_empty() || candidate.len().abs_diff(name.len()) > 4 * limit {
            continue;
        }
        chars.clear();
        chars.extend(candidate.chars());
        let d = work.distance(&name_chars, &chars);
        if d > limit {
            continue;
        }
        match best {
            Some((b, c)) if d == b && c != candidate => tied = true,
            Some((b, _)) if d >= b => {}
            _ => {
                best = Some((d, candidate));
                tied = false;
            }
        }
    }
    match best {
        Some((_, found)) if !tied => Some(found),
        _ => None,
    }
}

/// The edit distance [`closest`] uses.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    Workspace::default().distance(&a, &b)
}

/// The rows the edit distance reuses across the candidates of one
/// [`closest`]: a caller comparing a name with a thousand candidates
/// (a script's parameters, on every read of an undeclared one) made an
/// allocation a row before.
#[derive(Default)]
struct Workspace {
    /// The three rows the distance needs: two before and the current one.
    rows: Vec<usize>,
}

impl Workspace {
    fn distance(&mut self, a: &[char], b: &[char]) -> usize {
        let width = b.len() + 1;
        self.rows.clear();
        self.rows.resize(3 * width, 0);
        // Row i lives at (i % 3) * width.
        for (j, cell) in self.rows[..width].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            let (now, before, twice) = (
                (i % 3) * width,
                ((i - 1) % 3) * width,
                ((i + 1) % 3) * width,
            );
            self.rows[now] = i;
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (self.rows[before + j] + 1)
                    .min(self.rows[now + j - 1] + 1)
                    .min(self.rows[before + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(self.rows[twice + j - 2] + 1);
                }
                self.rows[now + j] = d;
            }
        }
        self.rows[(a.len() % 3) * width + b.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_name_is_never_suggested() {
        assert_eq!(closest("x", [""]), None);
        assert_eq!(closest("x", ["", "y"]), Some("y"));
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("fill", "fill"), 0);
        assert_eq!(edit_distance("fil", "fill"), 1);
        assert_eq!(edit_distance("fitl", "fill"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }

    #[test]
    fn one_close_name_or_none() {
        let names = ["caves", "rooms", "river", "rivers_b"];
        assert_eq!(closest("cave", names), Some("caves"));
        assert_eq!(closest("romos", names), Some("rooms"));
        // Exact, too far, tied between two names, empty.
        assert_eq!(closest("caves", names), None);
        assert_eq!(closest("dungeon", names), None);
        assert_eq!(closest("rivet", ["river", "rived"]), None);
        assert_eq!(closest("", names), None);
    }
}
