//! `dunlua sheet SCRIPT --seeds A..B --out sheet.png`: a contact sheet of
//! consecutive seeds, each map's thumbnail labelled with its seed, to see
//! at a glance what a generator makes (and which seeds fail).

use rayon::prelude::*;

use super::flags::SheetArgs;
use super::Failure;
use crate::export;
use crate::render::MarkerLooks;
use crate::script::{ScriptError, Session};
use crate::thumbnail::{sheet, thumbnail_with, Tile};

/// What one seed gave at `level`: its thumbnail and label. A level below
/// the first is made with the levels above it, as the dungeon would be
/// (a seed whose dungeon fails on any level is a failed seed).
fn picture(
    session: &Result<Session, ScriptError>,
    seed: u64,
    level: u32,
    box_px: (usize, usize),
) -> (String, Tile) {
    // Markers in the looks of the levels down to this one: a name looks
    // as it does on the dungeon's other levels.
    let result = match session {
        Ok(session) if level == 1 => session.run(seed).map(|g| vec![g]),
        Ok(session) => session.run_levels(seed),
        Err(e) => Err(e.clone()),
    }
    .map(|levels| MarkerLooks::level_of(levels, level as usize));
    match result {
        Ok((g, looks)) => {
            let mut label = format!("seed {seed}");
            if g.provenance.attempt > 0 {
                label.push_str(&format!(" (try {})", g.provenance.attempt + 1));
            }
            (
                label,
                Tile::Map(thumbnail_with(&g.map, &looks, box_px.0, box_px.1)),
            )
        }
        Err(e) => (format!("seed {seed} failed: {:?}", e.kind), Tile::Failed),
    }
}

pub(super) fn sheet_command(args: &SheetArgs) -> Result<(), Failure> {
    if args.out.extension().is_none_or(|e| e != "png") {
        return Err(Failure::usage(format!(
            "--out {}: a sheet is a .png",
            args.out.display()
        )));
    }
    export::check_target(&args.out).map_err(|e| Failure::usage(e.to_string()))?;
    super::commands::not_the_script("--out", &args.out, &args.script)?;
    let request = args.script_args.request(&args.script, 0);
    // A bad script, parameter or size is a usage error, not a sheet of failures.
    let info = crate::script::inspect(&request)?;
    info.params
        .with_overrides(&request.params)
        .map_err(Failure::usage)?;
    let levels = request.levels.unwrap_or(info.levels);
    if args.level > levels {
        return Err(Failure::usage(format!(
            "--level {}: {} makes {levels} level{} a seed",
            args.level,
            args.script.display(),
            if levels == 1 { "" } else { "s" }
        )));
    }
    let seeds: Vec<u64> = args.seeds.clone().collect();
    if seeds.len() > 10_000 {
        return Err(Failure::usage(format!(
            "--seeds: {} seeds is too many for one sheet (at most 10000)",
            seeds.len()
        )));
    }
    // The box has the maps' shape, its longer side `--thumb` pixels.
    let (w, h) = request.size.unwrap_or((info.width, info.height));
    let long = usize::from(args.thumb);
    let box_px = if w >= h {
        (long, (long * h as usize / w as usize).max(8))
    } else {
        ((long * w as usize / h as usize).max(8), long)
    };
    let columns = args
        .columns
        .map_or_else(|| (seeds.len() as f64).sqrt().ceil() as usize, usize::from)
        .clamp(1, seeds.len().max(1));
    // Too big a picture is refused before any map is made.
    let (bw, bh) = crate::thumbnail::cell_size(box_px);
    let rows = seeds.len().div_ceil(columns);
    let (sheet_w, sheet_h) = (columns * bw + 8, rows * bh + 8);
    if (sheet_w * sheet_h) as u64 > crate::export::MAX_PNG_PIXELS {
        return Err(Failure::usage(format!(
            "a sheet of {} seeds at --thumb {} would be {sheet_w}x{sheet_h} px, over the {} million pixels a PNG may have: fewer seeds or a smaller --thumb",
            seeds.len(),
            args.thumb,
            crate::export::MAX_PNG_PIXELS / 1_000_000
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, usize::from))
        .build()
        .map_err(|e| Failure::run(anyhow::Error::from(e)))?;
    let pictures: Vec<(String, Tile)> = pool.install(|| {
        seeds
            .par_iter()
            .map_init(
                || Session::new(&request),
                |s, &seed| picture(s, seed, args.level, box_px),
            )
            .collect()
    });
    let frame = sheet(&pictures, columns, box_px);
    let mut bytes = Vec::new();
    export::png::write_frame(&frame, &mut bytes).map_err(Failure::run)?;
    export::write_atomically(&args.out, &bytes).map_err(Failure::run)?;
    let failed = pictures
        .iter()
        .filter(|(_, t)| matches!(t, Tile::Failed))
        .count();
    let which = if levels > 1 {
        format!(", level {} of {levels}", args.level)
    } else {
        String::new()
    };
    note!(
        "dunlua: wrote {} ({} seeds{which}, {failed} failed, {}x{} px)",
        args.out.display(),
        seeds.len(),
        frame.width,
        frame.height
    );
    Ok(())
}
