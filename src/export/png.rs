//! The PNG export: the map drawn by [`render`](crate::render), each tile as
//! its glyph or as a solid cell, the start and markers visible.

use std::io::Write;

use crate::map::Map;
use crate::render::{render_rows, Frame, MarkerLooks, Rock, Style};

/// About how many pixels one band of tile rows holds while a map is
/// encoded: memory stays near this (a few MB) whatever the map's size.
const BAND_PIXELS: usize = 1 << 20;

/// Encodes the map as an 8-bit RGB PNG with `cell` pixels per tile, drawn
/// and compressed a band of tile rows at a time; markers in `looks` (the
/// map's, or its dungeon's so a name looks alike on every level).
pub fn write(
    map: &Map,
    looks: &MarkerLooks,
    style: Style,
    rock: Rock,
    cell: usize,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let mut writer = header(w * cell, h * cell, out)?;
    let mut stream = writer.stream_writer()?;
    let rows_per_band = (BAND_PIXELS / (w * cell * cell).max(1)).max(1);
    let mut bytes = Vec::new();
    for first in (0..h).step_by(rows_per_band) {
        render_rows(map, looks, style, rock, cell, first..first + rows_per_band)
            .rgb_into(&mut bytes);
        stream.write_all(&bytes)?;
    }
    stream.finish()?;
    writer.finish()?;
    Ok(())
}

/// Encodes a framebuffer as an 8-bit RGB PNG.
pub fn write_frame(frame: &Frame, out: &mut impl Write) -> anyhow::Result<()> {
    let mut writer = header(frame.width, frame.height, out)?;
    writer.write_image_data(&frame.rgb_bytes())?;
    writer.finish()?;
    Ok(())
}

fn header<W: Write>(width: usize, height: usize, out: W) -> anyhow::Result<png::Writer<W>> {
    let mut encoder = png::Encoder::new(out, width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    Ok(encoder.write_header()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Rgb;
    use crate::render::START_COLOR;

    #[test]
    fn decodes_with_the_right_size_and_colours() {
        let map = Map::from_ascii("#####\n#@..#\n#####\n").unwrap();
        let mut bytes = Vec::new();
        let looks = MarkerLooks::of(&map);
        write(&map, &looks, Style::Cells, Rock::All, 3, &mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (15, 9));
        let at = |x: usize, y: usize| {
            let i = (y * info.width as usize + x) * 3;
            Rgb(buf[i], buf[i + 1], buf[i + 2])
        };
        assert_eq!(at(1, 1), Rgb(0x88, 0x88, 0x88), "wall");
        assert_eq!(at(4, 4), START_COLOR, "start");
        assert_eq!(at(7, 4), Rgb(0x55, 0x55, 0x55), "floor");
    }

    #[test]
    fn banded_encoding_decodes_to_the_whole_frame() {
        // Tall enough for several bands at this cell size.
        let mut text = String::new();
        for y in 0..600 {
            let row: String = (0..7)
                .map(|x| if (x + y) % 3 == 0 { '#' } else { '.' })
                .collect();
            text.push_str(&row);
            text.push('\n');
        }
        let mut map = Map::from_ascii(&text).unwrap();
        map.set_start(0, 599).unwrap();
        let mut bytes = Vec::new();
        let looks = MarkerLooks::of(&map);
        write(&map, &looks, Style::Glyph, Rock::All, 40, &mut bytes).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(
            buf,
            crate::render::render_map(&map, Style::Glyph, 40).rgb_bytes()
        );
    }
}
