//! Finds BIP-39 seed phrases: runs of at least twelve English wordlist words, however they were written down.
//!
//! Many wordlist words are everyday English ("you", "can", "use", "this", "all", "process"), so a run is only a
//! phrase when nothing but list punctuation separates its words: whitespace, commas, quotes, bullets and item
//! numbers such as `1.` or `2)`. A sentence's full stop, a colon or any word off the list ends the run. Over
//! 400 MB of documentation and source code, the only runs of twelve these rules found were real test-vector
//! phrases, while ordinary prose has runs of eight; so twelve, the shortest phrase, is also the threshold.
//!
//! A phrase written down by hand may have typos or be cut to its first four letters (the BIP-39 list is built
//! so that four letters name a word, and steel backup plates use that), so a run may hold four-letter
//! abbreviations, and one misspelt word per twelve between two listed words.

use std::collections::HashSet;
use std::ops::Range;

/// The shortest phrase BIP-39 defines.
const MIN_WORDS: usize = 12;

/// The longest window looked at: the longest phrase (24 words) with its two allowed typos. Longer runs are
/// covered by overlapping windows, and the cap keeps a huge list (a JSON array of booleans) linear to scan.
const MAX_TOKENS: usize = 26;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A wordlist word, or the four-letter abbreviation of one.
    Listed,
    /// A lowercase word of wordlist length that is not on the list: possibly a typo.
    Typo,
    Other,
}

struct Token {
    range: Range<usize>,
    class: Class,
    /// Whether only list punctuation separates this token from the one before it.
    joined: bool,
}

fn classify(word: &str) -> Class {
    let list = bip39::Language::English.word_list();
    let lower = word.to_ascii_lowercase();
    // The English list is sorted, so both the word and its four-letter prefix can be found by bisection.
    let at = list.partition_point(|w| *w < lower.as_str());
    let listed = list.get(at).is_some_and(|w| *w == lower || (lower.len() == 4 && w.starts_with(&lower)));
    if listed {
        Class::Listed
    } else if (3..=8).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_lowercase()) {
        Class::Typo
    } else {
        Class::Other
    }
}

/// Whether `gap` is only what people put between the words of a written-down phrase. A JSON escape such as
/// `\n` counts, because tool results often carry JSON inside a JSON string.
fn is_list_gap(gap: &str) -> bool {
    let mut chars = gap.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            ',' | ';' | '"' | '\'' | '`' | '|' | '*' | '-' | '[' | ']' | '(' | ')' | '{' | '}' | '#' | '•' | '·' => {
            }
            '\\' => {
                if !matches!(chars.next(), Some('n' | 'r' | 't' | '"')) {
                    return false;
                }
            }
            '0'..='9' => {
                // An item number has one or two digits, then maybe `.`, `)` or `:`.
                if chars.next_if(char::is_ascii_digit).is_some() && chars.peek().is_some_and(char::is_ascii_digit) {
                    return false;
                }
                chars.next_if(|c| matches!(c, '.' | ')' | ':'));
            }
            _ => return false,
        }
    }
    true
}

fn tokenize(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut prev_end: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1).is_some_and(|b| b"nrt".contains(b)) {
            i += 2;
            continue;
        }
        if !bytes[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        let joined = prev_end.is_some_and(|end| is_list_gap(&text[end..start]));
        tokens.push(Token { range: start..i, class: classify(&text[start..i]), joined });
        prev_end = Some(i);
    }
    tokens
}

/// The byte ranges of the seed phrases in `text`, each from its first word to its last.
pub(super) fn find(text: &str) -> Vec<Range<usize>> {
    let tokens = tokenize(text);
    let mut found = Vec::new();
    let mut start = 0;
    while start < tokens.len() {
        // A chain is a stretch of listed and typo tokens with list punctuation between them.
        let mut end = start + 1;
        if tokens[start].class != Class::Other {
            while end < tokens.len() && tokens[end].joined && tokens[end].class != Class::Other {
                end += 1;
            }
            found.extend(phrases(text, &tokens[start..end]));
        }
        start = end;
    }
    found
}

/// The phrases within one chain: windows that open and close on a listed word, hold at least twelve words and
/// at most one typo per twelve, never two typos in a row. Overlapping windows join.
///
/// A phrase is random, so a window that repeats many words (code such as `true, false, true`) or runs in
/// alphabetical order (a dictionary excerpt) is not one: a real 24-word phrase repeats at most a word or two,
/// and twelve random words come out sorted once in 479 million.
fn phrases(text: &str, chain: &[Token]) -> Vec<Range<usize>> {
    if chain.len() < MIN_WORDS {
        return Vec::new();
    }
    let words: Vec<String> = chain.iter().map(|t| text[t.range.clone()].to_ascii_lowercase()).collect();
    let mut spans: Vec<Range<usize>> = Vec::new();
    for first in 0..chain.len() {
        if chain[first].class != Class::Listed {
            continue;
        }
        let mut typos = 0;
        let mut seen: HashSet<&str> = HashSet::new();
        let mut listed = 0;
        let mut sorted = true;
        let mut previous: Option<&str> = None;
        let mut last = None;
        for (j, token) in chain.iter().enumerate().skip(first).take(MAX_TOKENS) {
            if token.class == Class::Typo {
                if chain[j - 1].class == Class::Typo {
                    break;
                }
                typos += 1;
                continue;
            }
            let word = words[j].as_str();
            listed += 1;
            seen.insert(word);
            sorted &= previous.is_none_or(|p| p <= word);
            previous = Some(word);
            let len = j - first + 1;
            let random_looking = seen.len() * 4 >= listed * 3 && !sorted;
            if len >= MIN_WORDS && typos * MIN_WORDS <= len && random_looking {
                last = Some(j);
            }
        }
        if let Some(last) = last {
            let span = chain[first].range.start..chain[last].range.end;
            match spans.last_mut() {
                Some(prev) if span.start <= prev.end => prev.end = prev.end.max(span.end),
                _ => spans.push(span),
            }
        }
    }
    spans
}
