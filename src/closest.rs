//! The name a mistyped one was meant to be: "did you mean `caves`?" in the
//! messages for an unknown API name (`script/suggest.rs`) or starting
//! script (`dunlua new --from cave`).

/// The one name of `candidates` closest to `name` by [`edit_distance`], at
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
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for candidate in candidates {
        if candidate == name {
            return None;
        }
        // Lengths further apart than the limit are too far already (and a
        // long candidate is not compared byte by byte).
        if candidate.len().abs_diff(name.len()) > 4 * limit {
            continue;
        }
        let d = edit_distance(name, candidate);
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

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of two neighbours (`conenct`) each cost 1.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

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
