//! `check`'s completion proof for a seed: the levels proved against the
//! puzzle the script declares ([`crate::proof`]), timed for the
//! `proof_ms` row, a failure turned into its problem kind and sentence.
//! Scripts that declare no puzzle are not touched.

use std::time::Instant;

use super::Problem;
use crate::generated::Generated;
use crate::proof::{self, Outcome, Verdict};

/// What proving one seed gave.
pub(crate) struct Proved {
    /// The problem, when the proof failed (or the declaration does not
    /// fit the maps).
    pub(crate) problem: Option<(Problem, String)>,
    /// Time spent proving, in milliseconds.
    pub(crate) ms: f64,
    /// The verdict, for the report's picture of a failing seed.
    pub(crate) verdict: Option<Verdict>,
}

/// Proves the seed's levels, giving up at `stop` (the seed's `--timeout`,
/// counted from the start of its run, and its cancel flag: no seed
/// outlasts its deadline for its proof either); `None` when the script
/// declares no puzzle.
pub(crate) fn prove_seed(levels: &[Generated], stop: &proof::Stop) -> Option<Proved> {
    let started = Instant::now();
    let result = proof::prove_levels_until(levels, stop)?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let script = levels
        .first()
        .map(|g| g.provenance.script.as_str())
        .unwrap_or("");
    Some(match result {
        Err(why) => Proved {
            problem: Some((Problem::ScriptError, format!("{script}: {why}"))),
            ms,
            verdict: None,
        },
        Ok(verdict) => {
            let kind = match verdict.outcome {
                Outcome::Finishable => None,
                Outcome::Unfinishable => Some(Problem::Unfinishable),
                Outcome::Softlock => Some(Problem::Softlock),
                Outcome::TooManyStates => Some(Problem::Unproved),
            };
            Proved {
                problem: kind.map(|k| (k, verdict.sentence.clone())),
                ms,
                verdict: kind.map(|_| verdict),
            }
        }
    })
}
