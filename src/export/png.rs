//! The PNG export: the map drawn by [`render`](crate::render), each tile as
//! its glyph or as a solid cell, the start and markers visible.

use std::io::Write;

use crate::map::Map;
use crate::render::{render_map, Frame, Style};

/// Encodes the map as an 8-bit RGB PNG with `cell` pixels per tile.
pub fn write(map: &Map, style: Style, cell: usize, out: &mut impl Write) -> anyhow::Result<()> {
    write_frame(&render_map(map, style, cell), out)
}

/// Encodes a framebuffer as an 8-bit RGB PNG.
pub fn write_frame(frame: &Frame, out: &mut impl Write) -> anyhow::Result<()> {
    let mut encoder = png::Encoder::new(out, frame.width as u32, frame.height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&frame.rgb_bytes())?;
    writer.finish()?;
    Ok(())
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
        write(&map, Style::Cells, 3, &mut bytes).unwrap();
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
}
