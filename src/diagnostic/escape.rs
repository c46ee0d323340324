//! Characters from data that must not reach a terminal as they are.
//!
//! A name in a data file may hold ESC, BEL or other control characters
//! (`Evil\x1b]0;PWNED\x07`): printed raw they retitle the window, clear the screen or
//! recolour the report. Reports show them escaped the way rustc does (`\u{1b}`), and so do
//! the bidirectional-text overrides that can make a line read differently from its bytes.

use std::borrow::Cow;

/// True for a character shown escaped: control characters (C0 except tab and line breaks,
/// DEL, C1) and the bidirectional embedding, override and isolate characters.
pub fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The escaped form of one character, e.g. `\u{1b}`.
pub fn escaped(c: char) -> String {
    format!("\\u{{{:x}}}", u32::from(c))
}

/// `text` with every character of [`needs_escape`] escaped; borrowed when there is none.
/// Line breaks are kept (help and notes may span lines); a caller wanting one line escapes
/// them with [`escape_line`].
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&escaped(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Like [`escape`], and line breaks are escaped too: for text shown on one line.
pub fn escape_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c == '\n' || needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c == '\n' || needs_escape(c) {
            out.push_str(&escaped(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_are_escaped_like_rustc() {
        assert_eq!(
            escape("Evil\x1b]0;PWNED\x07\x1b[2J"),
            "Evil\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J"
        );
        assert_eq!(escape("a\u{202E}b\u{9b}"), "a\\u{202e}b\\u{9b}");
    }

    #[test]
    fn ordinary_text_is_borrowed_and_keeps_tabs_and_line_breaks() {
        assert!(matches!(escape("Bastard Sword\té"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nb"), "a\nb");
        assert_eq!(escape_line("a\nb\r"), "a\\u{a}b\\u{d}");
    }
}
