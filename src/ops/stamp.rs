//! Stamping prefabs and vaults written as ASCII: each character of the rows
//! maps through a legend to a tile and optionally a marker; a space leaves
//! the cell as it is.

use crate::map::{Map, MapError, Tile};

/// What one legend character puts down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StampCell {
    pub tile: Option<Tile>,
    pub mark: Option<String>,
}

impl Map {
    /// Stamps `rows` with their top-left corner at `(x, y)`. The whole stamp
    /// must fit on the map, rows must be equally long, and every character
    /// but a space must be in the legend; nothing is changed otherwise.
    pub fn stamp(
        &mut self,
        x: i64,
        y: i64,
        rows: &[String],
        legend: &[(char, StampCell)],
    ) -> Result<(), MapError> {
        let width = rows.first().map_or(0, |r| r.chars().count());
        for (i, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != width {
                return Err(MapError::Invalid(format!(
                    "stamp row {} has {len} characters where row 1 has {width}",
                    i + 1
                )));
            }
            if let Some(c) = row
                .chars()
                .find(|&c| c != ' ' && !legend.iter().any(|(l, _)| *l == c))
            {
                return Err(MapError::Invalid(format!(
                    "stamp row {} uses '{c}', which the legend does not define",
                    i + 1
                )));
            }
        }
        if rows.is_empty() || width == 0 {
            return Err(MapError::Invalid("the stamp has no rows".into()));
        }
        let (w, h) = (width as i64, rows.len() as i64);
        if self.index(x, y).is_err() || self.index(x + w - 1, y + h - 1).is_err() {
            return Err(MapError::Invalid(format!(
                "the {w}x{h} stamp at ({x}, {y}) reaches outside the {}x{} map",
                self.width(),
                self.height()
            )));
        }
        for (dy, row) in rows.iter().enumerate() {
            for (dx, c) in row.chars().enumerate() {
                let Some((_, cell)) = legend.iter().find(|(l, _)| *l == c) else {
                    continue;
                };
                let (cx, cy) = (x + dx as i64, y + dy as i64);
                if let Some(tile) = cell.tile {
                    self.set(cx, cy, tile)?;
                }
                if let Some(name) = &cell.mark {
                    self.mark(cx, cy, name)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legend() -> Vec<(char, StampCell)> {
        vec![
            (
                '#',
                StampCell {
                    tile: Some(Tile::WALL),
                    mark: None,
                },
            ),
            (
                '.',
                StampCell {
                    tile: Some(Tile::FLOOR),
                    mark: None,
                },
            ),
            (
                '+',
                StampCell {
                    tile: Some(Tile::DOOR),
                    mark: None,
                },
            ),
            (
                '$',
                StampCell {
                    tile: Some(Tile::FLOOR),
                    mark: Some("treasure".into()),
                },
            ),
        ]
    }

    fn rows(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn stamps_tiles_and_markers_and_skips_spaces() {
        let mut map = Map::from_ascii("......\n......\n......\n......\n").unwrap();
        map.stamp(1, 0, &rows(&["### ", "#$+.", "####"]), &legend())
            .unwrap();
        assert_eq!(map.to_string(), ".###..\n.#.+..\n.####.\n......\n");
        assert_eq!(map.markers()[0].name, "treasure");
        assert_eq!((map.markers()[0].x, map.markers()[0].y), (2, 1));
    }

    #[test]
    fn refuses_stamps_off_the_edge_and_unknown_characters() {
        let mut map = Map::new(6, 4).unwrap();
        let before = map.clone();
        let err = map
            .stamp(4, 2, &rows(&["...", "..."]), &legend())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the 3x2 stamp at (4, 2) reaches outside the 6x4 map"
        );
        let err = map.stamp(0, 0, &rows(&[".?."]), &legend()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "stamp row 1 uses '?', which the legend does not define"
        );
        assert!(map.stamp(0, 0, &rows(&["...", ".."]), &legend()).is_err());
        assert_eq!(map, before, "a refused stamp changes nothing");
    }
}
