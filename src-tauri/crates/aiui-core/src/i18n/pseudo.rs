//! The pseudo-locale `en-XA`: English with every ASCII letter accented and every vowel doubled (about a third
//! longer, the growth German and Spanish bring), each message in brackets.
//!
//! Fluent applies [`transform`] to the catalogue's own text only, never to variables, so app ids and node-made
//! words stay readable and anything plain in a pseudo-localised screen is text that escaped the catalogue.

use std::borrow::Cow;

/// The transform hook of the pseudo-locale's bundle.
pub(super) fn transform(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| b.is_ascii_alphabetic()) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        let accented = accent(c);
        out.push(accented);
        // Doubling vowels lengthens words from the inside, so a line that only fits in English wraps or
        // overflows visibly, as it would with a longer translation.
        if "aeiouyAEIOUY".contains(c) {
            out.push(accented);
        }
    }
    Cow::Owned(out)
}

/// A whole formatted message (one with words) in brackets: a cut-off or a string pieced together from parts
/// shows at once.
pub(super) fn bracket(text: &str) -> String {
    format!("[{text}]")
}

fn accent(c: char) -> char {
    const LOWER: [char; 26] = [
        'á', 'ƀ', 'ç', 'ð', 'é', 'ƒ', 'ĝ', 'ĥ', 'í', 'ĵ', 'ķ', 'ļ', 'ɱ', 'ñ', 'ó', 'þ', 'ǫ', 'ŕ', 'š', 'ţ', 'ú', 'ṽ',
        'ŵ', 'ẋ', 'ý', 'ž',
    ];
    const UPPER: [char; 26] = [
        'Å', 'Ɓ', 'Ç', 'Ð', 'É', 'Ƒ', 'Ĝ', 'Ĥ', 'Î', 'Ĵ', 'Ķ', 'Ļ', 'Ṁ', 'Ñ', 'Ö', 'Þ', 'Ǫ', 'Ŕ', 'Š', 'Ţ', 'Û', 'Ṽ',
        'Ŵ', 'Ẋ', 'Ý', 'Ž',
    ];
    match c {
        'a'..='z' => LOWER[c as usize - 'a' as usize],
        'A'..='Z' => UPPER[c as usize - 'A' as usize],
        other => other,
    }
}
