//! `dunlua check --html report.html`: the report as one self-contained
//! page (pictures embedded as data URIs, no scripts, no network) to judge
//! a generator at a glance: the summary, each kind of failure with a
//! thumbnail of every failing map shown (or its error), a histogram per
//! metric, and the maps at each metric's minimum, median and maximum.
//! The seeds pictured are generated again (the same seed makes the same
//! map), so the run itself keeps no maps but the failing ones.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{CheckOptions, Metrics, Report, SeedResult, COLUMNS};
use crate::map::Map;
use crate::params::Params;
use crate::script::Session;
use crate::thumbnail::thumbnail;

/// The box a thumbnail fits in, in pixels.
pub(super) const THUMB: usize = 220;
/// How many failing seeds of one kind are pictured.
pub(crate) const FAILURES_SHOWN: usize = 12;
/// Bars a histogram has (fewer when the values are few whole numbers).
const BINS: usize = 20;
const BAR: &str = "#4a90d9";

/// Writes the page, atomically.
pub(crate) fn write(
    path: &Path,
    options: &CheckOptions,
    report: &Report,
    results: &[SeedResult],
) -> anyhow::Result<()> {
    let page = page(options, report, results);
    crate::export::write_atomically(path, page.as_bytes())
}

fn page(options: &CheckOptions, report: &Report, results: &[SeedResult]) -> String {
    let mut request = options.request.clone();
    request.record = false;
    let session = Session::new(&request).ok();
    // Level 1 of a seed, made again for its picture.
    let level_one = |seed: u64| -> Option<Map> {
        let levels = session.as_ref()?.run_levels(seed).ok()?;
        levels.into_iter().next().map(|g| g.map)
    };
    let picture = |seed: u64| level_one(seed).map(|map| png_uri(&map));
    let declared = crate::script::inspect(&options.request)
        .ok()
        .map(|info| info.params);
    let mut out = String::new();
    let title = format!("dunlua check {}", report.script);
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head><body>",
        escape(&title)
    );
    let _ = writeln!(
        out,
        "<h1>{}</h1>\n<p class=\"summary\"><b>{}</b> seeds ({}..{}): <b class=\"ok\">{} ok</b>, <b class=\"{}\">{} failed</b>. Maps digest <code>{}</code>.</p>",
        escape(&title),
        report.total,
        report.seeds[0],
        report.seeds[1],
        report.ok,
        if report.failed > 0 { "bad" } else { "ok" },
        report.failed,
        report.digest
    );
    let _ = writeln!(
        out,
        "<pre class=\"report\">{}</pre>",
        escape(&report.text())
    );

    // Failures, by kind, each failing map pictured (or its error).
    let by_seed: BTreeMap<u64, &SeedResult> = results.iter().map(|r| (r.seed, r)).collect();
    if !report.failures.is_empty() {
        out.push_str("<h2>Failures</h2>\n");
    }
    for group in &report.failures {
        let _ = writeln!(
            out,
            "<h3>{} ({} seeds)</h3>\n<p class=\"example\">{}</p>\n<div class=\"row\">",
            escape(group.kind.describe()),
            group.seeds.len(),
            escape(&group.example)
        );
        for &seed in group.seeds.iter().take(FAILURES_SHOWN) {
            let result = by_seed.get(&seed);
            let map = result.and_then(|r| r.maps.as_ref()).and_then(|m| m.first());
            // A failed proof: its level with the way tried and the blocking cells.
            // The caption names the level pictured: the proof's, or the first.
            let mut map = map;
            let proof = result.and_then(|r| {
                let (frame, shown) =
                    super::proof_picture::picture(r.maps.as_ref()?, r.verdict.as_ref()?)?;
                let Err((_, why)) = &r.outcome else {
                    return None;
                };
                map = Some(shown);
                Some(format!(
                    "<img src=\"{}\" alt=\"seed {seed}: {}\"><p class=\"proof\">{}</p>",
                    frame_uri(&frame),
                    escape(why),
                    escape(why)
                ))
            });
            let body = match (map, result.map(|r| &r.outcome)) {
                _ if proof.is_some() => proof.unwrap_or_default(),
                (Some(g), _) => format!("<img src=\"{}\" alt=\"seed {seed}\">", png_uri(&g.map)),
                (None, Some(Err((_, why)))) => {
                    format!("<pre class=\"error\">{}</pre>", escape(why))
                }
                _ => String::new(),
            };
            let level = map
                .filter(|g| g.is_level())
                .map(|g| format!(", level {}", g.provenance.level))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<figure>{body}<figcaption>seed {seed}{level} <code>{}</code></figcaption></figure>",
                escape(&rerun_command(&report.script, options, declared.as_ref(), seed))
            );
        }
        if group.seeds.len() > FAILURES_SHOWN {
            let _ = writeln!(
                out,
                "<p>and {} more</p>",
                group.seeds.len() - FAILURES_SHOWN
            );
        }
        out.push_str("</div>\n");
    }

    // Each metric: its histogram, and the maps at its min, median and max.
    let ok: Vec<(u64, Metrics)> = results
        .iter()
        .filter_map(|r| match &r.outcome {
            Ok(levels) => levels.first().map(|m| (r.seed, *m)),
            Err(_) => None,
        })
        .collect();
    if !ok.is_empty() {
        out.push_str("<h2>Metrics</h2>\n<p>Over the maps that passed (level 1 of a multi-level script); the pictures are the seeds at the minimum, median and maximum.</p>\n");
    }
    for (name, get) in COLUMNS {
        if ok.is_empty() {
            break;
        }
        let mut values: Vec<(f64, u64)> = ok.iter().map(|(seed, m)| (get(m), *seed)).collect();
        values.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let _ = writeln!(out, "<section class=\"metric\"><h3>{name}</h3>");
        out.push_str(&histogram(
            name,
            &values.iter().map(|v| v.0).collect::<Vec<_>>(),
        ));
        out.push_str("<div class=\"row\">\n");
        let n = values.len();
        for (what, (value, seed)) in [
            ("min", values[0]),
            ("median", values[(n - 1) / 2]),
            ("max", values[n - 1]),
        ] {
            let img = picture(seed)
                .map(|uri| format!("<img src=\"{uri}\" alt=\"seed {seed}\">"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<figure>{img}<figcaption>{what} {} — seed {seed}</figcaption></figure>",
                number(value)
            );
        }
        out.push_str("</div></section>\n");
    }
    if let Some(variety) = &report.variety {
        out.push_str(&super::variety_html::section(variety, &level_one));
    }
    out.push_str("</body></html>\n");
    out
}

/// A metric's values as an SVG bar chart: equal-width bins from the
/// smallest value to the largest, each bar's count above it.
fn histogram(name: &str, values: &[f64]) -> String {
    let (lo, hi) = (values[0], values[values.len() - 1]);
    let whole = values.iter().all(|v| v.fract() == 0.0);
    let bins = if hi == lo {
        1
    } else if whole {
        ((hi - lo) as usize + 1).min(BINS)
    } else {
        BINS
    };
    let mut counts = vec![0usize; bins];
    for &v in values {
        let i = if hi == lo {
            0
        } else {
            (((v - lo) / (hi - lo)) * bins as f64) as usize
        };
        counts[i.min(bins - 1)] += 1;
    }
    let (w, h, pad) = (600.0, 160.0, 24.0);
    let most = *counts.iter().max().unwrap_or(&1) as f64;
    let bar_w = (w - 2.0 * pad) / bins as f64;
    let mut svg = format!(
        "<svg class=\"histogram\" role=\"img\" aria-label=\"histogram of {name}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    );
    for (i, &c) in counts.iter().enumerate() {
        let bh = (h - 2.0 * pad - 12.0) * c as f64 / most;
        let x = pad + i as f64 * bar_w;
        let y = h - pad - bh;
        let _ = writeln!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{BAR}\"><title>{c}</title></rect>",
            (bar_w - 2.0).max(1.0)
        );
        if c > 0 {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" class=\"count\">{c}</text>",
                x + bar_w / 2.0,
                y - 3.0
            );
        }
    }
    let _ = writeln!(
        svg,
        "<line x1=\"{pad}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#888\"/>\n<text x=\"{pad}\" y=\"{2}\" class=\"axis\">{3}</text>\n<text x=\"{1}\" y=\"{2}\" class=\"axis end\">{4}</text>\n</svg>",
        h - pad,
        w - pad,
        h - 6.0,
        number(lo),
        number(hi)
    );
    svg
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// A map's thumbnail as a `data:image/png;base64,...` URI.
pub(super) fn png_uri(map: &Map) -> String {
    frame_uri(&thumbnail(map, THUMB, THUMB))
}

/// A picture as a `data:image/png;base64,...` URI.
pub(super) fn frame_uri(frame: &crate::render::Frame) -> String {
    let mut bytes = Vec::new();
    if crate::export::png::write_frame(frame, &mut bytes).is_err() {
        return String::new();
    }
    format!("data:image/png;base64,{}", base64(&bytes))
}

/// Standard base64 with padding (RFC 4648).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The command that makes `seed` again as the check made it: its script
/// as given, each parameter whose value is not its default (of the
/// `declared` ones; without them, every `-p` as given), `--size`,
/// `--levels` and each limit the check ran with that is not the default,
/// as one POSIX shell line. A merge, whose shards list every parameter,
/// shows the same line as one run over all the seeds.
pub(crate) fn rerun_command(
    script: &str,
    options: &CheckOptions,
    declared: Option<&Params>,
    seed: u64,
) -> String {
    use crate::script::{Limits, DEFAULT_MAX_ATTEMPTS};
    let request = &options.request;
    // A script named like a flag would be read as one.
    let script = if script.starts_with('-') {
        format!("./{script}")
    } else {
        script.to_string()
    };
    let mut words = vec![
        "dunlua".to_string(),
        script,
        "--seed".into(),
        seed.to_string(),
    ];
    let resolved = declared.and_then(|declared| {
        let ran = declared
            .with_overrides(&request.params)
            .and_then(|p| p.with_values(&request.values))
            .ok()?;
        Some(
            ran.iter()
                .filter(|(k, v)| declared.get(k) != Some(*v))
                .map(|(k, v)| format!("{k}={}", v.to_arg()))
                .collect::<Vec<_>>(),
        )
    });
    let params = resolved.unwrap_or_else(|| {
        let values = request.values.iter();
        let values = values.map(|(k, v)| format!("{k}={}", v.to_arg()));
        request.params.iter().cloned().chain(values).collect()
    });
    for param in params {
        words.extend(["-p".to_string(), param]);
    }
    if let Some((w, h)) = request.size {
        words.extend(["--size".to_string(), format!("{w}x{h}")]);
    }
    if let Some(levels) = request.levels {
        words.extend(["--levels".to_string(), levels.to_string()]);
    }
    if request.max_attempts != DEFAULT_MAX_ATTEMPTS {
        words.extend([
            "--max-attempts".to_string(),
            request.max_attempts.to_string(),
        ]);
    }
    let limits = &request.limits;
    if limits.max_instructions != Limits::DEFAULT_INSTRUCTIONS {
        words.extend([
            "--max-instructions".to_string(),
            limits.max_instructions.to_string(),
        ]);
    }
    // The flag is in MiB (what every check's limit came from); a library
    // caller's odd byte count is rounded up.
    let mib = limits.max_memory.div_ceil(1 << 20);
    if mib != Limits::DEFAULT_MEMORY_MB {
        words.extend(["--max-memory".to_string(), mib.to_string()]);
    }
    let default_timeout = Some(std::time::Duration::from_secs(Limits::DEFAULT_TIMEOUT_SECS));
    if limits.timeout != default_timeout {
        let seconds = limits.timeout.map_or(0.0, |t| t.as_secs_f64());
        words.extend(["--timeout".to_string(), seconds.to_string()]);
    }
    words
        .iter()
        .map(|w| crate::one_line::shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:sans-serif;background:#16161c;color:#ddd;margin:24px}\
h1{font-size:22px}h2{border-bottom:1px solid #444;padding-bottom:4px}\
code,pre{font-family:monospace}pre.report{background:#202028;padding:8px;overflow:auto}\
.ok{color:#6c6}.bad{color:#f66}.example{color:#f99}\
.row{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;background:#202028;padding:6px}\
figcaption{font-size:12px;margin-top:4px}img{image-rendering:pixelated;display:block}\
pre.error{color:#f99;width:220px;white-space:pre-wrap;font-size:11px}\
p.proof{color:#f99;max-width:440px;font-size:12px}\
.histogram text{fill:#ccc;font-size:11px;text-anchor:middle}.histogram .axis{text-anchor:start}\
.histogram .end{text-anchor:end}section.metric{margin-bottom:24px}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_examples() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn histograms_count_every_value_once() {
        let svg = histogram("rooms", &[1.0, 2.0, 2.0, 5.0]);
        assert_eq!(
            svg.matches("<rect").count(),
            5,
            "whole numbers 1..5: a bar each"
        );
        assert!(svg.contains("<title>2</title>") && svg.contains(">5</text>"));
        let flat = histogram("regions", &[1.0, 1.0]);
        assert_eq!(flat.matches("<rect").count(), 1);
        let many = histogram("floor_ratio", &[0.1, 0.15, 0.2, 0.5]);
        assert_eq!(many.matches("<rect").count(), BINS);
        assert!(escape("<a & \"b\">") == "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
