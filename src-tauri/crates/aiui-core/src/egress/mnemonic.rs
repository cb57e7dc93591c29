//! Finds seed phrases: runs of at least twelve words of one BIP-39 wordlist (any of the ten official languages,
//! with or without accents), or of twenty SLIP-39 words, however they were written down.
//!
//! Many wordlist words are everyday words ("you", "can", "use", "this", "all", "process"; "casa", "agua"), so a
//! run is only a phrase when nothing but list punctuation separates its words: whitespace, commas, quotes,
//! bullets and item numbers such as `1.` or `2)`. A sentence's full stop, a colon or any word off the list ends
//! the run. Over 400 MB of documentation and source code, the only runs of twelve these rules found were real
//! test-vector phrases, while ordinary prose has runs of eight; so twelve, the shortest phrase, is also the
//! threshold. Each list is looked at on its own: a real phrase never mixes languages.
//!
//! Words are compared the way BIP-39 normalises them (NFKD), lowercased, and with Latin accents dropped, so
//! `ábaco`, `abaco` and `ÁBACO` are one word; people type Spanish and French phrases without accents. Chinese
//! and Japanese words must be separated (by a space, an ideographic space or a comma): unseparated, a run of
//! the 2048 most common characters is simply Chinese prose, so an unspaced Chinese phrase is not caught.
//!
//! A phrase written down by hand may have typos or be cut to its first four letters (the English list is built
//! so that four letters name a word, and steel backup plates use that), so an English run may hold four-letter
//! abbreviations, and a run in a Latin-script list one misspelt word per twelve between two listed words.
//! Electrum seeds and LND's aezeed use the English BIP-39 list, so they are found as English runs.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;

/// The lists: the ten BIP-39 languages in `bip39::Language::ALL` order, then SLIP-39 (Shamir backup shares).
const SLIP39: usize = 10;
const LISTS: usize = 11;

/// SLIP-39's English wordlist (1024 words), as published with the specification.
const SLIP39_WORDS: &str = include_str!("slip39_english.txt");

struct List {
    kind: &'static str,
    /// The shortest phrase: 12 BIP-39 words, 20 for a SLIP-39 share.
    min_words: usize,
    /// The longest window looked at: the longest phrase with its typos. Longer runs are covered by overlapping
    /// windows, and the cap keeps a huge list (a JSON array of booleans) linear to scan.
    max_tokens: usize,
}

fn list(index: usize) -> List {
    if index == SLIP39 {
        List { kind: "slip39", min_words: 20, max_tokens: 36 }
    } else {
        List { kind: "bip39", min_words: 12, max_tokens: 26 }
    }
}

/// Every folded word of every list, with a bit per list that holds it.
static WORDS: LazyLock<HashMap<String, u16>> = LazyLock::new(|| {
    let mut words: HashMap<String, u16> = HashMap::new();
    for (i, language) in bip39::Language::ALL.iter().enumerate() {
        for word in language.word_list() {
            *words.entry(fold(word)).or_default() |= 1 << i;
        }
        if *language == bip39::Language::English {
            for word in language.word_list().iter().filter(|w| w.len() > 4) {
                *words.entry(word[..4].to_owned()).or_default() |= 1 << i;
            }
        }
    }
    for word in SLIP39_WORDS.split_whitespace() {
        *words.entry(fold(word)).or_default() |= 1 << SLIP39;
    }
    words
});

/// The bits of the Latin-script lists, where a hand-copied phrase may hold a typo. Computed once: which BIP-39 languages these are depends on the crate's
/// order, so it is looked up rather than written down.
static LATIN_LISTS: LazyLock<u16> = LazyLock::new(|| {
    use bip39::Language::*;
    let mut mask = 1 << SLIP39;
    for (i, language) in bip39::Language::ALL.iter().enumerate() {
        if matches!(language, English | Spanish | French | Italian | Portuguese | Czech) {
            mask |= 1 << i;
        }
    }
    mask
});

/// The word as lists are compared: NFKD, lowercase, Latin combining accents dropped.
fn fold(word: &str) -> String {
    if word.is_ascii() {
        return word.to_ascii_lowercase();
    }
    word.nfkd().filter(|c| !('\u{300}'..='\u{36f}').contains(c)).flat_map(char::to_lowercase).collect()
}

/// The lists that hold `raw`, and its folded form when any does. An ASCII word outside every list's lengths
/// (3 to 9 letters) is not looked up, and one that is looked up is lowercased on the stack: most of a text's
/// words are neither, and this runs once per word.
fn lookup(raw: &str) -> (u16, String) {
    if raw.is_ascii() {
        if !(3..=9).contains(&raw.len()) {
            return (0, String::new());
        }
        let mut buf = [0u8; 9];
        buf[..raw.len()].copy_from_slice(raw.as_bytes());
        buf.make_ascii_lowercase();
        let word = std::str::from_utf8(&buf[..raw.len()]).unwrap_or_default();
        return match WORDS.get(word) {
            Some(&lists) => (lists, word.to_owned()),
            None => (0, String::new()),
        };
    }
    let word = fold(raw);
    match WORDS.get(&word) {
        Some(&lists) => (lists, word),
        None => (0, String::new()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A word of the list, or (English) the four-letter abbreviation of one.
    Listed,
    /// A lowercase word of wordlist length that is not on the list: possibly a typo.
    Typo,
    Other,
}

struct Token {
    range: Range<usize>,
    /// The lists that hold this word.
    lists: u16,
    /// A lowercase word of wordlist length, which may be a typo in a Latin-script list.
    typo_shaped: bool,
    /// Whether only list punctuation separates this token from the one before it.
    joined: bool,
    /// The folded word when a list holds it, else empty: only listed words are compared.
    word: String,
}

impl Token {
    fn class(&self, list: usize) -> Class {
        if self.lists & (1 << list) != 0 {
            Class::Listed
        } else if self.typo_shaped && *LATIN_LISTS & (1 << list) != 0 {
            Class::Typo
        } else {
            Class::Other
        }
    }
}

/// Whether `gap` is only what people put between the words of a written-down phrase. A JSON escape such as
/// `\n` counts, because tool results often carry JSON inside a JSON string.
fn is_list_gap(gap: &str) -> bool {
    let mut chars = gap.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            ',' | ';' | '"' | '\'' | '`' | '|' | '*' | '-' | '[' | ']' | '(' | ')' | '{' | '}' | '#' | '•' | '·'
            | '、' | '，' => {}
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

/// Han characters are one word each in the Chinese lists; kana and Han words need a separator to count.
fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}')
}

fn is_cjk(c: char) -> bool {
    is_han(c) || matches!(c, '\u{3040}'..='\u{30ff}')
}

fn is_word_char(c: char) -> bool {
    c.is_alphabetic() || matches!(c, '\u{300}'..='\u{36f}' | '\u{3099}'..='\u{309a}')
}

fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut prev: Option<(usize, bool)> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|(_, n)| matches!(n, 'n' | 'r' | 't')) {
            chars.next();
            continue;
        }
        if !is_word_char(c) {
            continue;
        }
        let mut end = start + c.len_utf8();
        if !is_han(c) {
            while let Some(&(i, n)) = chars.peek() {
                if !is_word_char(n) || is_han(n) {
                    break;
                }
                end = i + n.len_utf8();
                chars.next();
            }
        }
        let raw = &text[start..end];
        let cjk = raw.chars().next().is_some_and(is_cjk);
        let joined = prev.is_some_and(|(prev_end, prev_cjk)| {
            let gap = &text[prev_end..start];
            is_list_gap(gap) && (!(cjk || prev_cjk) || !gap.is_empty())
        });
        let (lists, word) = lookup(raw);
        let length = raw.chars().count();
        let typo_shaped = (3..=8).contains(&length) && raw.chars().all(|c| c.is_lowercase() || !c.is_alphabetic());
        tokens.push(Token { range: start..end, lists, typo_shaped, joined, word });
        prev = Some((end, cjk));
    }
    tokens
}

/// The byte ranges of the seed phrases in `text`, each from its first word to its last, with the kind to name
/// (`bip39` or `slip39`).
pub(super) fn find(text: &str) -> Vec<(Range<usize>, &'static str)> {
    let tokens = tokenize(text);
    let mut found = Vec::new();
    for index in 0..LISTS {
        let list = list(index);
        // Most lists hold none of a text's words: skip them without walking the chains.
        let listed = tokens.iter().filter(|t| t.lists & (1 << index) != 0).count();
        if listed + 1 < list.min_words {
            continue;
        }
        let mut start = 0;
        while start < tokens.len() {
            // A chain is a stretch of listed and typo tokens with list punctuation between them.
            let mut end = start + 1;
            if tokens[start].class(index) != Class::Other {
                while end < tokens.len() && tokens[end].joined && tokens[end].class(index) != Class::Other {
                    end += 1;
                }
                found.extend(phrases(&tokens[start..end], index, &list).into_iter().map(|r| (r, list.kind)));
            }
            start = end;
        }
    }
    found
}

/// The phrases within one chain: windows that open and close on a listed word, hold at least `min_words` words
/// and at most one typo per twelve, never two typos in a row. Overlapping windows join.
///
/// A phrase is random, so a window that repeats many words (code such as `true, false, true`) or runs in
/// alphabetical order (a dictionary excerpt) is not one: a real 24-word phrase repeats at most a word or two,
/// and twelve random words come out sorted once in 479 million.
fn phrases(chain: &[Token], index: usize, list: &List) -> Vec<Range<usize>> {
    if chain.len() < list.min_words {
        return Vec::new();
    }
    let mut spans: Vec<Range<usize>> = Vec::new();
    for first in 0..chain.len() {
        if chain[first].class(index) != Class::Listed {
            continue;
        }
        let mut typos = 0;
        let mut seen: HashSet<&str> = HashSet::new();
        let mut listed = 0;
        let mut sorted = true;
        let mut previous: Option<&str> = None;
        let mut last = None;
        for (j, token) in chain.iter().enumerate().skip(first).take(list.max_tokens) {
            if token.class(index) == Class::Typo {
                if chain[j - 1].class(index) == Class::Typo {
                    break;
                }
                typos += 1;
                continue;
            }
            let word = token.word.as_str();
            listed += 1;
            seen.insert(word);
            sorted &= previous.is_none_or(|p| p <= word);
            previous = Some(word);
            let len = j - first + 1;
            let random_looking = seen.len() * 4 >= listed * 3 && !sorted;
            if len >= list.min_words && typos * 12 <= len && random_looking {
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
