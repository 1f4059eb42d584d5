//! Messages are one line: a control character inside one (a newline or an
//! escape sequence in a script's `error("...")`, a file name with a newline
//! in it) is written escaped, `\n`, `\t`, `\x1b`, so it can neither break
//! the line nor drive the terminal. [`characters`] words a count of
//! characters in them ("1 character", "3 characters"); [`quoted`] cuts a
//! long text a message quotes; [`shell_word`] quotes a word of a command
//! a message prints.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `n` characters, as a message says it: "1 character", "3 characters".
pub fn characters(n: usize) -> String {
    if n == 1 {
        "1 character".to_string()
    } else {
        format!("{n} characters")
    }
}

/// The most bytes of a long text a message quotes ([`quoted`]).
pub const MAX_QUOTED: usize = 200;

/// The first `max` bytes of `text` or fewer, ending at a character.
pub fn head(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` as a message quotes a caller's key or value: whole up to
/// [`MAX_QUOTED`] bytes, else cut there with how long it was (`...
/// (N bytes)`): a 10 MB argument made a 10 MB message.
pub fn quoted(text: &str) -> Cow<'_, str> {
    if text.len() <= MAX_QUOTED {
        return Cow::Borrowed(text);
    }
    Cow::Owned(format!(
        "{}... ({} bytes)",
        head(text, MAX_QUOTED),
        text.len()
    ))
}

/// `word` as one POSIX shell word, for a command a message prints to run
/// again: as it is when only safe characters make it, else in single
/// quotes (a `'` in it as `'\''`), so a name with a space or a `$` runs as
/// shown.
pub fn shell_word(word: &str) -> Cow<'_, str> {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', "'\\''")))
    }
}

/// `text` with every control character escaped: `\n`, `\r`, `\t`, `\xNN`
/// for the other C0 controls and DEL, `\u{NN}` for the C1 controls, the
/// Unicode line and paragraph separators and the bidirectional overrides
/// (which reorder what a terminal shows). A backslash is left as it is.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(one_line("plain: text"), "plain: text");
        assert!(matches!(one_line("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(one_line("two\nlines"), "two\\nlines");
        assert_eq!(one_line("a\r\tb"), "a\\r\\tb");
        assert_eq!(one_line("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
        assert_eq!(
            one_line("\u{85}\u{2028}\u{202e}é"),
            "\\u{85}\\u{2028}\\u{202e}é"
        );
        assert_eq!(one_line("C:\\maps\\a.lua"), "C:\\maps\\a.lua");
    }
}
