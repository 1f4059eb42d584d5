//! Flags resolved into what the library takes: a [`Request`] for the
//! script and [`Options`] for the exports.

use std::path::Path;
use std::time::Duration;

use std::sync::Arc;

use super::flags::{ExportArgs, PictureArgs, PngRock, PngStyle, ScriptArgs};
use super::Failure;
use crate::export::tiled::UserTileset;
use crate::export::Options;
use crate::render::Style;
use crate::script::{Limits, Request};

impl ScriptArgs {
    pub(super) fn request(&self, script: &Path, seed: u64) -> Request {
        Request {
            script: script.to_path_buf(),
            source: None,
            modules: Default::default(),
            seed,
            size: self.size,
            params: self.params.clone(),
            values: Vec::new(),
            limits: Limits {
                max_instructions: self.max_instructions,
                max_memory: self.max_memory.saturating_mul(1 << 20),
                timeout: (self.timeout > 0.0).then(|| Duration::from_secs_f64(self.timeout)),
            },
            record: false,
            max_attempts: self.max_attempts,
            fast_paths: true,
            cancel: None,
            levels: self.levels,
            keep_rejected: false,
            limit_names: crate::script::LimitNames::COMMAND_LINE,
        }
    }
}

impl PictureArgs {
    /// The export options of these pictures, with no tileset of the user's.
    pub(super) fn options(&self) -> Options {
        let png_style = match self.png_style {
            PngStyle::Glyph => Style::Glyph,
            PngStyle::Cells => Style::Cells,
        };
        Options {
            png_style,
            png_rock: match self.png_rock {
                PngRock::All => crate::render::Rock::All,
                PngRock::Dark => crate::render::Rock::Dark,
            },
            cell_size: self
                .cell_size
                .map_or(Options::default_cell_size(png_style), usize::from),
            cell_size_chosen: self.cell_size.is_some(),
            tileset: None,
            embed_tileset: false,
        }
    }
}

impl ExportArgs {
    /// The export options; reads `--tileset` (a usage error when it cannot
    /// be read or holds no tile to match kinds by).
    pub(super) fn options(&self) -> Result<Options, Failure> {
        let tileset = match &self.tileset {
            Some(path) => Some(Arc::new(
                UserTileset::read(path).map_err(|e| Failure::usage(format!("{e:#}")))?,
            )),
            None => None,
        };
        Ok(Options {
            tileset,
            embed_tileset: self.embed_tileset,
            ..self.picture.options()
        })
    }
}
