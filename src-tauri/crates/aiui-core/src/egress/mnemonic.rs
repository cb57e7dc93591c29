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

//!
//! A line break is list punctuation too (one word per line, a numbered column, a grid of rows), but only where
//! the text around it is laid out as a list. Ordinary text often ends a line with a few list words and starts
//! the next with more ("...update the wallet" / "system will restart..."), and joined they make a run of twelve
//! that no one wrote as a phrase. So a run may cross a line break only where each of the two lines is a list
//! line: either a row of at most six words with nothing but list punctuation around them (one word per line,
//! a numbered column, a grid such as aezeed's rows of four, a 12-word phrase in two rows), or a line that lends
//! the run a single word (after a label, `mnemonic: wish`, or before trailing text). Joining two lines of ten
//! list words each, as a log or a data dump can hold, would make a phrase no one wrote; rows of six or fewer
//! are how phrases are written down, and a line of twelve is a phrase on its own. A run that crosses any other
//! line break is a phrase only when its listed words, all of them, are a BIP-39 phrase with a valid checksum:
//! every real BIP-39 phrase is, however it was wrapped, and a chance run passes once in 16 (12 words) to once
//! in 256 (24). Whole-row layouts work without the checksum, so hand-copied phrases with a typo, Electrum seeds
//! and aezeed grids are still found there. An attacker who controls the text can hide a phrase from any word
//! screen (a full stop between words does it), so the rule is tuned for phrases written down by people and
//! programs, and for logs that must reach the model unchanged.
//!
//! The screen runs on every cloud request, so this is a single pass over the bytes that allocates nothing for
//! most words: an ASCII word is read through a byte table, packed into an integer and looked up in a filter built
//! once, and a word outside the lists' lengths is not looked up at all. The gaps between words are read only in a
//! stretch that holds eleven words the filter lets through without two unlisted words in a row ([`find_noting_restarts`]), and only
//! a run of at least eleven listed words joined by list punctuation is examined further.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::sync::LazyLock;

use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

/// The lists: the ten BIP-39 languages in `bip39::Language::ALL` order, then SLIP-39 (Shamir backup shares).
const SLIP39: usize = 10;
const LISTS: usize = 11;

/// SLIP-39's English wordlist (1024 words), as published with the specification.
const SLIP39_WORDS: &str = include_str!("slip39_english.txt");

/// The fewest listed words a phrase holds: twelve words with one typo. A stretch with fewer is not looked at.
const MIN_LISTED: usize = 11;

/// BIP-39 phrase lengths.
const BIP39_LENGTHS: [usize; 5] = [12, 15, 18, 21, 24];

/// The most words a list line holds: a grid row (aezeed prints four, a 12-word phrase wrapped in two lines has
/// six). Longer lines that join make a phrase only with a valid checksum.
const MAX_ROW: usize = 6;

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

/// What the lists know of one folded word.
#[derive(Clone, Copy)]
struct Entry {
    /// A bit per list that holds the word.
    lists: u16,
    /// The word's rank among all folded words in byte order: equal words have equal ids and ids sort as the
    /// words do, so comparing words costs an integer compare.
    id: u32,
}

/// An ASCII word of three to nine letters (every ASCII word of every list), lowercased and packed five bits a
/// letter: hashing it costs one multiplication and no allocation.
fn ascii_key(word: &[u8]) -> Option<u64> {
    if !(3..=9).contains(&word.len()) {
        return None;
    }
    let mut key = 0u64;
    for &b in word {
        let letter = b.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        key = key << 5 | u64::from(letter - b'a' + 1);
    }
    Some(key)
}

/// A multiplicative hash for keys that are already well spread integers; SipHash would cost more than the rest
/// of the word's handling.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

struct Lexicon {
    /// Folded ASCII words by [`ascii_key`].
    ascii: FastMap<u64, Entry>,
    /// A bit per hash of each key in `ascii`: most words of prose are on no list, and this 64 KiB answers "not
    /// listed" for nearly all of them from the cache, where the map's larger table would be read from memory.
    ascii_filter: Box<[u64]>,
    /// Every other folded word (Chinese, Japanese, Korean).
    other: HashMap<String, Entry>,
    /// Per BIP-39 list, each word's index (0 to 2047) by its id, for the checksum. An English four-letter
    /// abbreviation has the index of the word it names.
    indexes: Vec<FastMap<u32, u16>>,
}

/// The size of [`Lexicon::ascii_filter`]: 2^19 bits for some 20 000 keys, so about one unlisted word in 25 gets past
/// it to the map.
const FILTER_BITS: u32 = 19;

fn filter_bit(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - FILTER_BITS)) as usize
}

impl Lexicon {
    /// The lists' entry for a key made by [`ascii_key`].
    fn ascii(&self, key: u64) -> Option<Entry> {
        if !self.may_hold(key) {
            return None;
        }
        self.ascii.get(&key).copied()
    }

    /// False when no list holds the key, from the filter alone; true for every listed key and a few others.
    fn may_hold(&self, key: u64) -> bool {
        let bit = filter_bit(key);
        self.ascii_filter[bit / 64] & (1 << (bit % 64)) != 0
    }
}

/// Every folded word of every list, built once.
static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let mut words: BTreeMap<String, u16> = BTreeMap::new();
    let mut positions: Vec<(String, usize, u16)> = Vec::new();
    for (i, language) in bip39::Language::ALL.iter().enumerate() {
        for (index, word) in (0u16..).zip(language.word_list()) {
            let folded = fold(word);
            *words.entry(folded.clone()).or_default() |= 1 << i;
            positions.push((folded, i, index));
        }
        if *language == bip39::Language::English {
            for (index, word) in (0u16..).zip(language.word_list()).filter(|(_, w)| w.len() > 4) {
                *words.entry(word[..4].to_owned()).or_default() |= 1 << i;
                positions.push((word[..4].to_owned(), i, index));
            }
        }
    }
    for word in SLIP39_WORDS.split_whitespace() {
        *words.entry(fold(word)).or_default() |= 1 << SLIP39;
    }
    let mut lexicon = Lexicon {
        ascii: FastMap::default(),
        ascii_filter: vec![0; 1 << (FILTER_BITS - 6)].into_boxed_slice(),
        other: HashMap::new(),
        indexes: (0..SLIP39).map(|_| FastMap::default()).collect(),
    };
    let mut ids: HashMap<String, u32> = HashMap::new();
    for (id, (word, lists)) in (0u32..).zip(words) {
        let entry = Entry { lists, id };
        match ascii_key(word.as_bytes()) {
            Some(key) if word.is_ascii() => {
                let bit = filter_bit(key);
                lexicon.ascii_filter[bit / 64] |= 1 << (bit % 64);
                lexicon.ascii.insert(key, entry)
            }
            _ => lexicon.other.insert(word.clone(), entry),
        };
        ids.insert(word, id);
    }
    for (word, list, index) in positions {
        lexicon.indexes[list].insert(ids[&word], index);
    }
    lexicon
});

/// The bits of the Latin-script lists, where a hand-copied phrase may hold a typo. Computed once: which BIP-39
/// languages these are depends on the crate's order, so it is looked up rather than written down.
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

/// The lists' entry for a word that is not all ASCII (an ASCII one goes straight to [`ascii_key`]).
fn lookup_unicode(raw: &str) -> Option<Entry> {
    let word = fold(raw);
    if word.is_ascii() {
        ascii_key(word.as_bytes()).and_then(|key| LEXICON.ascii(key))
    } else {
        LEXICON.other.get(&word).copied()
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
    /// The folded word's id when a list holds it.
    id: u32,
    /// A lowercase word of wordlist length, which may be a typo in a Latin-script list.
    typo_shaped: bool,
    /// A line break (a JSON `\n` escape too) lies between this token and the one before it.
    new_line: bool,
    /// Only list punctuation lies between the start of this token's line and the token.
    opens_line: bool,
    /// Only list punctuation lies between the token and the end of its line.
    closes_line: bool,
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
    if gap == " " || gap == ", " {
        return true;
    }
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

/// Where the line breaks of `gap` are: the start of the first and the end of the last, or `None`. A JSON `\n`
/// or `\r` escape is a line break: a tool result often carries a file inside a JSON string.
fn line_breaks(gap: &str) -> Option<(usize, usize)> {
    let bytes = gap.as_bytes();
    let mut first = None;
    let mut last_end = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' | b'\r' => {
                first.get_or_insert(i);
                i += 1;
                last_end = i;
            }
            b'\\' if matches!(bytes.get(i + 1), Some(b'n' | b'r')) => {
                first.get_or_insert(i);
                i += 2;
                last_end = i;
            }
            _ => i += 1,
        }
    }
    first.map(|first| (first, last_end))
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

/// The end of the word that starts at `start` with `first`, and whether it is all ASCII. A Han character is a
/// word of its own.
fn word_end(text: &str, start: usize, first: char) -> (usize, bool) {
    let bytes = text.as_bytes();
    let mut end = start + first.len_utf8();
    let mut ascii = first.is_ascii();
    if is_han(first) {
        return (end, false);
    }
    while end < bytes.len() {
        if bytes[end].is_ascii_alphabetic() {
            end += 1;
            continue;
        }
        if bytes[end].is_ascii() {
            break;
        }
        match text[end..].chars().next() {
            Some(c) if is_word_char(c) && !is_han(c) => {
                end += c.len_utf8();
                ascii = false;
            }
            _ => break,
        }
    }
    (end, ascii)
}

/// Per byte: an ASCII letter's number in the alphabet (1 to 26), with [`UPPER`] set for a capital; 0 for any other
/// ASCII byte; [`NON_ASCII`] for a byte of a longer char. Words are most of a text's bytes, so they are read from
/// this table rather than by a chain of comparisons.
static LETTERS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            c @ b'a'..=b'z' => c - b'a' + 1,
            c @ b'A'..=b'Z' => (c - b'A' + 1) | UPPER,
            0x80.. => NON_ASCII,
            _ => 0,
        };
        b += 1;
    }
    table
};
const UPPER: u8 = 0x20;
const NON_ASCII: u8 = 0xff;

/// The end of the ASCII word at `start`, with its [`ascii_key`] and whether it is all lowercase, read in the one
/// pass over its letters that most words of a text take; `None` when a non-ASCII char follows its letters, which
/// [`word_end`] reads.
fn ascii_word(bytes: &[u8], start: usize) -> Option<(usize, (Option<u64>, bool))> {
    let mut end = start;
    let mut key = 0u64;
    let mut seen = 0u8;
    while let Some(&b) = bytes.get(end) {
        let letter = LETTERS[usize::from(b)];
        if letter == 0 {
            break;
        }
        if letter == NON_ASCII {
            return None;
        }
        seen |= letter;
        key = key << 5 | u64::from(letter & !UPPER);
        end += 1;
    }
    let key = (3..=9).contains(&(end - start)).then_some(key);
    Some((end, (key, seen & UPPER == 0)))
}

/// The stretch of candidate words being read: listed in some list, or shaped like a typo of one, each joined to
/// the one before by list punctuation. Only a stretch with enough listed words is examined.
#[derive(Default)]
struct Run {
    tokens: Vec<Token>,
    listed: usize,
    /// Look at every window of a chain, also those that can only join a phrase already found (the tests'
    /// reference; [`phrases`] skips them).
    every_window: bool,
}

impl Run {
    fn push(&mut self, token: Token) {
        self.listed += usize::from(token.lists != 0);
        self.tokens.push(token);
    }

    fn flush(&mut self, found: &mut Vec<(Range<usize>, &'static str)>) {
        if self.listed >= MIN_LISTED {
            examine(&self.tokens, found, self.every_window);
        }
        self.tokens.clear();
        self.listed = 0;
    }
}

/// One word of a text as the scan reads it (a Han character is a word of its own).
struct Word {
    range: Range<usize>,
    entry: Option<Entry>,
    /// A lowercase word of wordlist length, which may be a typo in a Latin-script list.
    typo_shaped: bool,
    cjk: bool,
}

impl Word {
    fn lists(&self) -> u16 {
        self.entry.map_or(0, |e| e.lists)
    }

    fn candidate(&self) -> bool {
        self.entry.is_some() || self.typo_shaped
    }
}

/// Where one word of a text lies, as [`next_span`] reads it: the char it starts with, whether it is all ASCII,
/// and for an ASCII word read in one pass, its [`ascii_key`] and whether it is all lowercase.
struct Span {
    range: Range<usize>,
    first: char,
    ascii: bool,
    packed: Option<(Option<u64>, bool)>,
}

/// The next word of `text` at or after `at`, which moves past it. The bytes between words (and a JSON `\n`,
/// `\r` or `\t` escape, whose letter is no word) are skipped.
fn next_span(text: &str, at: &mut usize) -> Option<Span> {
    let bytes = text.as_bytes();
    while *at < bytes.len() {
        // Most bytes between words are ASCII punctuation, digits and spaces: skip them in a tight loop.
        while bytes.get(*at).is_some_and(|&b| LETTERS[usize::from(b)] == 0 && b != b'\\') {
            *at += 1;
        }
        let Some(&b) = bytes.get(*at) else { break };
        let first = if b.is_ascii_alphabetic() {
            char::from(b)
        } else if b.is_ascii() {
            let escape = b == b'\\' && matches!(bytes.get(*at + 1), Some(b'n' | b'r' | b't'));
            *at += if escape { 2 } else { 1 };
            continue;
        } else {
            let c = text[*at..].chars().next()?;
            if !is_word_char(c) {
                *at += c.len_utf8();
                continue;
            }
            c
        };
        let start = *at;
        let (end, ascii, packed) = match ascii_word(bytes, start) {
            Some((end, packed)) => (end, true, Some(packed)),
            None => {
                let (end, ascii) = word_end(text, start, first);
                (end, ascii, None)
            }
        };
        *at = end;
        return Some(Span { range: start..end, first, ascii, packed });
    }
    None
}

impl Span {
    /// For an all-ASCII word, its [`ascii_key`] (`None` inside when no list can hold it); `None` for any other word.
    fn ascii_key(&self, text: &str) -> Option<Option<u64>> {
        match self.packed {
            Some((key, _)) => Some(key),
            None if self.ascii => Some(ascii_key(text[self.range.clone()].as_bytes())),
            None => None,
        }
    }
}

/// The next word of `text` at or after `at`, which moves past it, with what the lists know of it.
fn next_word(text: &str, at: &mut usize) -> Option<Word> {
    let span = next_span(text, at)?;
    let raw = &text[span.range.clone()];
    let entry = match span.ascii_key(text) {
        Some(key) => key.and_then(|key| LEXICON.ascii(key)),
        None => lookup_unicode(raw),
    };
    let typo_shaped = match span.packed {
        Some((_, lowercase)) => (3..=8).contains(&raw.len()) && lowercase,
        None if span.ascii => (3..=8).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_lowercase()),
        None => {
            let lowercase = raw.chars().all(|c| c.is_lowercase() || !c.is_alphabetic());
            (3..=8).contains(&raw.chars().count()) && lowercase
        }
    };
    Some(Word { range: span.range, entry, typo_shaped, cjk: !span.ascii && is_cjk(span.first) })
}

/// Whether a list may hold the word at `span`: true for every listed word, and for about one unlisted ASCII word in
/// 25, which the filter lets through ([`Lexicon::ascii_filter`]) and only the map would tell apart.
fn maybe_listed(text: &str, span: &Span) -> bool {
    match span.ascii_key(text) {
        Some(key) => key.is_some_and(|key| LEXICON.may_hold(key)),
        None => lookup_unicode(&text[span.range.clone()]).is_some(),
    }
}

/// The run scan's state between two words: the run being read, and the word before (its end, whether it was CJK
/// and whether it was a candidate, so the last token of the run).
struct Scan {
    run: Run,
    prev: Option<(usize, bool)>,
    prev_candidate: bool,
}

impl Scan {
    /// The state at the start of a text, or where the word before ended at `prev`.
    fn after(prev: Option<&Word>) -> Self {
        Self {
            run: Run::default(),
            prev: prev.map(|w| (w.range.end, w.cjk)),
            prev_candidate: prev.is_some_and(Word::candidate),
        }
    }

    /// Reads one word: it joins the run, starts a new one, or ends it (and the run is examined).
    fn word(&mut self, text: &str, word: &Word, found: &mut Vec<(Range<usize>, &'static str)>) {
        let candidate = word.candidate();
        let start = word.range.start;
        if candidate || self.prev_candidate {
            let gap_start = self.prev.map_or(0, |(end, _)| end);
            let gap = &text[gap_start..start];
            let breaks = line_breaks(gap);
            if self.prev_candidate
                && let Some(last) = self.run.tokens.last_mut()
            {
                last.closes_line = breaks.is_some_and(|(first, _)| is_list_gap(&gap[..first]));
            }
            if candidate {
                let prev_cjk = self.prev.is_some_and(|(_, cjk)| cjk);
                let joined = self.prev.is_some() && is_list_gap(gap) && (!(word.cjk || prev_cjk) || !gap.is_empty());
                let opens_line = match breaks {
                    Some((_, last)) => is_list_gap(&gap[last..]),
                    None => self.prev.is_none() && is_list_gap(gap),
                };
                let lists = word.lists();
                // Two words in a row that no list holds end every window (see `phrases`), so they end the run.
                let continues = self.prev_candidate
                    && joined
                    && (lists != 0 || self.run.tokens.last().is_some_and(|t| t.lists != 0));
                if !continues {
                    self.run.flush(found);
                }
                self.run.push(Token {
                    range: word.range.clone(),
                    lists,
                    id: word.entry.map_or(0, |e| e.id),
                    typo_shaped: word.typo_shaped,
                    new_line: breaks.is_some(),
                    opens_line,
                    closes_line: false,
                });
            } else {
                self.run.flush(found);
            }
        }
        self.prev = Some((word.range.end, word.cjk));
        self.prev_candidate = candidate;
    }

    /// Ends the text: the last run is examined.
    fn finish(mut self, text: &str, found: &mut Vec<(Range<usize>, &'static str)>) {
        if self.prev_candidate
            && let (Some(last), Some((end, _))) = (self.run.tokens.last_mut(), self.prev)
        {
            let rest = &text[end..];
            let line_rest = line_breaks(rest).map_or(rest, |(first, _)| &rest[..first]);
            last.closes_line = is_list_gap(line_rest);
        }
        self.run.flush(found);
    }
}

/// The byte ranges of the seed phrases in `text`, each from its first word to its last, with the kind to name
/// (`bip39` or `slip39`).
///
/// Most words of most texts are listed or typo-shaped, so the run scan would read the gap before nearly every word
/// of them. It only needs to where it can find something: a run holds no two unlisted words in a row (they end
/// it) and is examined only with [`MIN_LISTED`] listed words. So words are first only looked up, counting the
/// listed ones since the last two unlisted words in a row; the scan reads a stretch only when that count reaches
/// [`MIN_LISTED`], starting from those two words, and stops at the next two. After two unlisted words in a row its
/// state depends on nothing before them ([`Scan::after`]), so it finds what a scan of every word finds
/// ([`find_scanning_every_word`], which the tests hold it to).
///
/// Every place where the scan starts afresh is noted in `restarts`, for [`find_near_changes`] to start from in
/// the text as a pass changed it.
pub(super) fn find_noting_restarts(text: &str, restarts: &mut Vec<Restart>) -> Vec<(Range<usize>, &'static str)> {
    find_noting_restarts_apart(text, restarts, RESTART_SPACING)
}

/// [`find_noting_restarts`], noting restarts at least `spacing` bytes apart.
fn find_noting_restarts_apart(
    text: &str,
    restarts: &mut Vec<Restart>,
    spacing: usize,
) -> Vec<(Range<usize>, &'static str)> {
    let mut found = Vec::new();
    // Most texts are never changed, and most pairs of words are restarts: one every few dozen bytes is as good a
    // place to start from and costs far less to note.
    let mut next_noted = 0;
    read_from(text, None, &mut found, |restart| {
        if restart.first >= next_noted {
            next_noted = restart.first + spacing;
            restarts.push(restart.clone());
        }
        false
    });
    found
}

/// The bytes at least between two restarts [`find_noting_restarts`] notes: a read near a change starts at most
/// about this far before it.
const RESTART_SPACING: usize = 64;

/// [`find_noting_restarts`] for a text that will not be changed.
#[cfg(test)]
pub(super) fn find(text: &str) -> Vec<(Range<usize>, &'static str)> {
    find_noting_restarts(text, &mut Vec::new())
}

/// Two unlisted words in a row: the scan's state after them depends on nothing before them ([`Scan::after`]), and
/// no phrase runs through them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Restart {
    first: usize,
    second: Range<usize>,
}

impl Restart {
    /// The bytes the scan's state after this restart depends on: both words, the gap between them, and the byte
    /// on each side, which says where each word starts and ends (an escape's backslash, another letter).
    fn reads(&self) -> Range<usize> {
        self.first.saturating_sub(1)..self.second.end + 1
    }
}

/// The restarts of a text noted by [`find_noting_restarts`], moved to where they sit after `edits` (each a range of
/// the text, sorted and apart, and the length of what replaced it); those whose bytes an edit touched are dropped.
/// Also the edits' ranges in the edited text.
pub(super) fn carry_restarts(
    restarts: &[Restart],
    edits: &[(Range<usize>, usize)],
) -> (Vec<Restart>, Vec<Range<usize>>) {
    let mut changes = Vec::with_capacity(edits.len());
    let mut delta: isize = 0;
    for (range, len) in edits {
        let start = range.start.checked_add_signed(delta).expect("edits are sorted");
        changes.push(start..start + len);
        delta += *len as isize - range.len() as isize;
    }
    let mut carried = Vec::with_capacity(restarts.len());
    let mut edit = 0;
    let mut delta: isize = 0;
    for restart in restarts {
        let reads = restart.reads();
        while edit < edits.len() && edits[edit].0.end <= reads.start {
            delta += edits[edit].1 as isize - edits[edit].0.len() as isize;
            edit += 1;
        }
        if edits.get(edit).is_some_and(|(range, _)| range.start < reads.end) {
            continue;
        }
        let moved = |at: usize| at.checked_add_signed(delta).expect("an edit before a restart ends before it");
        carried.push(Restart {
            first: moved(restart.first),
            second: moved(restart.second.start)..moved(restart.second.end),
        });
    }
    (carried, changes)
}

/// What [`find_noting_restarts`] finds in a text that a pass changed only at `changes` (sorted and apart), where the text before
/// those changes had no phrase outside them, with `restarts` that text's restarts as [`carry_restarts`] carried
/// them. Only the words near each change are read: from the last restart before it to the first one after it. A
/// phrase cannot run through a restart, and after one the scan reads what it read in the text before the changes,
/// which held no phrase there.
pub(super) fn find_near_changes(
    text: &str,
    changes: &[Range<usize>],
    restarts: &[Restart],
) -> Vec<(Range<usize>, &'static str)> {
    let mut found = Vec::new();
    // The first change no read has passed yet, and where the last read stopped (a restart of this text).
    let mut next = 0;
    let mut stopped: Option<Restart> = None;
    while let Some(change) = changes.get(next) {
        let before = restarts.partition_point(|r| r.reads().end <= change.start);
        let start = match (before.checked_sub(1).map(|i| &restarts[i]), stopped.take()) {
            (Some(carried), Some(last)) if carried.first > last.first => Some(carried.clone()),
            (carried, last) => last.or_else(|| carried.cloned()),
        };
        let first = next;
        read_from(text, start.as_ref(), &mut found, |restart| {
            // The read stops once it has passed `change`, and every change that starts before this restart's bytes
            // end lies before them.
            let reads = restart.reads();
            while changes.get(next).is_some_and(|c| c.start < reads.end) {
                next += 1;
            }
            let passed = next > first && changes[next - 1].end <= reads.start;
            if passed {
                stopped = Some(restart.clone());
            }
            passed
        });
        if stopped.is_none() {
            // The read reached the text's end.
            break;
        }
    }
    found
}

/// The light loop of [`find_noting_restarts`] from `start` (the text's start when `None`): words are looked up in the filter, and
/// a stretch is scanned when it holds enough listed words. `restarted` hears of every restart the loop passes; it
/// stops the loop by returning `true`.
fn read_from(
    text: &str,
    start: Option<&Restart>,
    found: &mut Vec<(Range<usize>, &'static str)>,
    mut restarted: impl FnMut(&Restart) -> bool,
) {
    // Where a scan would start afresh: at `from`, after the word at `before` (none at the start of the text). Two
    // words the filter rules out are unlisted; a word it lets through counts as listed, which may only start a
    // scan that finds nothing.
    let (mut at, mut from, mut before): (usize, usize, Option<usize>) = match start {
        None => (0, 0, None),
        Some(r) => (r.second.end, r.second.start, Some(r.first)),
    };
    // The word before and whether the filter let it through.
    let mut last: Option<(Range<usize>, bool)> = start.map(|r| (r.second.clone(), false));
    let mut listed = 0;
    while let Some(span) = next_span(text, &mut at) {
        let maybe = maybe_listed(text, &span);
        if maybe {
            listed += 1;
            if listed >= MIN_LISTED {
                let word_before = before.and_then(|mut start| next_word(text, &mut start));
                let Some((first, second, end)) = scan_stretch(text, from, word_before.as_ref(), found) else {
                    return;
                };
                let restart = Restart { first: first.range.start, second: second.range };
                (at, from, before, listed) = (end, restart.second.start, Some(restart.first), 0);
                last = Some((restart.second.clone(), false));
                if restarted(&restart) {
                    return;
                }
                continue;
            }
        } else if let Some((range, false)) = &last {
            let restart = Restart { first: range.start, second: span.range };
            (from, before, listed) = (restart.second.start, Some(restart.first), 0);
            last = Some((restart.second.clone(), false));
            if restarted(&restart) {
                return;
            }
            continue;
        }
        last = Some((span.range, maybe));
    }
}

/// Scans every word from `from` (after the word `before`) to the next two unlisted words in a row, which end every
/// run; returns those two and where the second ends. `None` when the text ends first.
fn scan_stretch(
    text: &str,
    from: usize,
    before: Option<&Word>,
    found: &mut Vec<(Range<usize>, &'static str)>,
) -> Option<(Word, Word, usize)> {
    let mut at = from;
    let mut scan = Scan::after(before);
    // The stretch's first word may be unlisted after an unlisted `before`: that pair started it, so it ends nothing.
    let mut last: Option<Word> = None;
    while let Some(word) = next_word(text, &mut at) {
        scan.word(text, &word, found);
        if word.lists() == 0 && last.as_ref().is_some_and(|l| l.lists() == 0) {
            return Some((last.take()?, word, at));
        }
        last = Some(word);
    }
    scan.finish(text, found);
    None
}

/// [`find_noting_restarts`] reading the gaps around every word and every window of a chain: the reference its stretches and
/// [`phrases`]' shortcut are held to.
#[cfg(test)]
fn find_scanning_every_word(text: &str) -> Vec<(Range<usize>, &'static str)> {
    let mut found = Vec::new();
    let mut scan = Scan::after(None);
    scan.run.every_window = true;
    let mut at = 0;
    while let Some(word) = next_word(text, &mut at) {
        scan.word(text, &word, &mut found);
    }
    scan.finish(text, &mut found);
    found
}

/// Looks for phrases in one run, list by list. Each list is looked at on its own: a real phrase never mixes
/// languages.
fn examine(run: &[Token], found: &mut Vec<(Range<usize>, &'static str)>, every_window: bool) {
    for index in 0..LISTS {
        let list = list(index);
        let listed = run.iter().filter(|t| t.lists & (1 << index) != 0).count();
        if listed + 1 < list.min_words {
            continue;
        }
        // A chain is a stretch of listed and typo tokens (in a run, list punctuation joins them all).
        let mut start = 0;
        while start < run.len() {
            let mut end = start + 1;
            if run[start].class(index) != Class::Other {
                while end < run.len() && run[end].class(index) != Class::Other {
                    end += 1;
                }
                found.extend(
                    chain_phrases(&run[start..end], index, &list, every_window).into_iter().map(|r| (r, list.kind)),
                );
            }
            start = end;
        }
    }
}

/// The phrases of one chain, with the line rule of the module comment: a window may cross a line break only
/// where both lines are list lines, unless its words carry a valid BIP-39 checksum.
fn chain_phrases(chain: &[Token], index: usize, list: &List, every_window: bool) -> Vec<Range<usize>> {
    let spans = phrases(chain, index, list, every_window);
    // Where the chain's lines start: a token after a line break.
    let starts: Vec<usize> = (1..chain.len()).filter(|&i| chain[i].new_line).collect();
    if spans.is_empty() || starts.is_empty() {
        return spans;
    }
    let bounds: Vec<usize> = std::iter::once(0).chain(starts.iter().copied()).chain([chain.len()]).collect();
    let list_line: Vec<bool> = bounds
        .windows(2)
        .map(|w| {
            let (first, end) = (w[0], w[1]);
            let whole = (first > 0 || chain[0].opens_line) && (end < chain.len() || chain[end - 1].closes_line);
            let no_two_typos =
                chain[first..end].windows(2).all(|pair| pair.iter().any(|t| t.class(index) != Class::Typo));
            end - first == 1 || (whole && end - first <= MAX_ROW && no_two_typos)
        })
        .collect();
    // The token indexes where a line break may not join the lines.
    let weak: Vec<usize> =
        (1..list_line.len()).filter(|&i| !(list_line[i - 1] && list_line[i])).map(|i| bounds[i]).collect();
    if weak.is_empty() {
        return spans;
    }
    let mut confirmed: Vec<Range<usize>> = Vec::new();
    let mut from = 0;
    for &to in weak.iter().chain([&chain.len()]) {
        confirmed.extend(phrases(&chain[from..to], index, list, every_window));
        from = to;
    }
    let mut checksummed = Vec::new();
    if index < SLIP39 {
        let mut first = 0;
        while first < chain.len() {
            let mut end = first;
            while end < chain.len() && chain[end].class(index) == Class::Listed {
                end += 1;
            }
            // The whole stretch of listed words, not a window of it: a long benign stretch holds many windows,
            // and each would pass the checksum once in 16.
            let stretch = &chain[first..end];
            let crosses = weak.iter().any(|&w| w > first && w < end);
            if crosses && BIP39_LENGTHS.contains(&stretch.len()) && valid_checksum(stretch, index) {
                checksummed.push(stretch[0].range.start..stretch[stretch.len() - 1].range.end);
            }
            first = end + 1;
        }
    }
    confirmed.extend(checksummed.iter().cloned());
    // A phrase found within list lines, or by its checksum, takes its whole window: a label line's first word
    // or a last line's final one belong to it.
    let mut out: Vec<Range<usize>> =
        spans.into_iter().filter(|s| confirmed.iter().any(|c| c.start < s.end && s.start < c.end)).collect();
    out.extend(checksummed);
    out
}

/// Whether `words` (12 to 24 words of BIP-39 list `index`) carry the checksum BIP-39 ends a phrase with: the
/// first bits of the SHA-256 of the entropy the words spell.
fn valid_checksum(words: &[Token], index: usize) -> bool {
    let mut bytes = [0u8; 33];
    let (mut acc, mut bits, mut at) = (0u32, 0u32, 0);
    for word in words {
        let Some(&value) = LEXICON.indexes[index].get(&word.id) else { return false };
        acc = acc << 11 | u32::from(value);
        bits += 11;
        while bits >= 8 {
            bits -= 8;
            bytes[at] = (acc >> bits) as u8;
            at += 1;
            acc &= (1 << bits) - 1;
        }
    }
    if bits > 0 {
        bytes[at] = (acc << (8 - bits)) as u8;
    }
    let checksum_bits = words.len() * 11 / 33;
    let entropy = (words.len() * 11 - checksum_bits) / 8;
    let hash = Sha256::digest(&bytes[..entropy]);
    hash[0] >> (8 - checksum_bits) == bytes[entropy] >> (8 - checksum_bits)
}

/// The phrases within one chain: windows that open and close on a listed word, hold at least `min_words` words
/// and at most one typo per twelve, never two typos in a row. Overlapping windows join.
///
/// A phrase is random, so a window that repeats many words (code such as `true, false, true`) or runs in
/// alphabetical order (a dictionary excerpt) is not one: a real 24-word phrase repeats at most a word or two,
/// and twelve random words come out sorted once in 479 million.
fn phrases(chain: &[Token], index: usize, list: &List, every_window: bool) -> Vec<Range<usize>> {
    if chain.len() < list.min_words {
        return Vec::new();
    }
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut seen: Vec<u32> = Vec::with_capacity(list.max_tokens);
    for first in 0..chain.len() {
        if chain[first].class(index) != Class::Listed {
            continue;
        }
        let mut typos = 0;
        seen.clear();
        let mut distinct = 0;
        let mut listed = 0;
        let mut sorted = true;
        let mut previous: Option<u32> = None;
        let mut last = None;
        for (j, token) in chain.iter().enumerate().skip(first).take(list.max_tokens) {
            if token.class(index) == Class::Typo {
                if chain[j - 1].class(index) == Class::Typo {
                    break;
                }
                typos += 1;
                continue;
            }
            let word = token.id;
            listed += 1;
            if !seen.contains(&word) {
                seen.push(word);
                distinct += 1;
            }
            sorted &= previous.is_none_or(|p| p <= word);
            previous = Some(word);
            let len = j - first + 1;
            let random_looking = distinct * 4 >= listed * 3 && !sorted;
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
            // Every later window starts inside this span and ends by the chain's end: it would join it unchanged.
            if last == chain.len() - 1 && !every_window {
                break;
            }
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Every line of the corpus files, alone, with its escapes undone, and glued to the next two lines.
    fn corpus() -> Vec<String> {
        let mut texts = Vec::new();
        for name in ["benign.txt", "secrets.txt"] {
            let path = format!("{}/../../../fixtures/egress/{name}", env!("CARGO_MANIFEST_DIR"));
            let file = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus {path} is missing: {e}"));
            let lines: Vec<String> = file
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| l.replace("\\n", "\n").replace("\\t", "\t"))
                .collect();
            texts.extend(lines.iter().cloned());
            texts.extend(lines.windows(3).map(|w| w.join("\n")));
        }
        texts
    }

    /// Texts made to sit at the edges of the stretches: list words of several lists, typo-shaped and other words,
    /// and the gaps that join or part them (line breaks, numbers, JSON escapes, full stops), in random order.
    fn generated(rng: &mut StdRng) -> String {
        let english = bip39::Language::English.word_list();
        let spanish = bip39::Language::Spanish.word_list();
        let others = ["zzqx", "qwrtp", "INFO", "Lnd", "x", "abcdefghijk", "的", "ábaco", "ありがとう", "WALLET"];
        let gaps = [" ", " ", " ", ", ", "\n", "\n", "\\n", ". ", ": ", " 3. ", "\n12) ", "\n\n", " - ", "", "\t"];
        // Half the texts are mostly list words joined by spaces and line breaks, so they hold phrases.
        let (listed, joining) = if rng.random_bool(0.5) { (18, 5) } else { (12, gaps.len()) };
        let mut text = String::new();
        for _ in 0..rng.random_range(1..80) {
            let word = match rng.random_range(0..20) {
                n if n < listed => english[rng.random_range(0..2048)],
                n if n < listed + 1 => spanish[rng.random_range(0..2048)],
                _ => others[rng.random_range(0..others.len())],
            };
            text.push_str(word);
            text.push_str(gaps[rng.random_range(0..gaps.len().min(joining))]);
        }
        text
    }

    /// Scanning only the stretches with enough listed words, and only the windows that can change a phrase, finds
    /// what scanning every word and every window finds, on the corpus and on texts made to cross the stretches'
    /// edges (the generator finds phrases in many of them).
    #[test]
    fn scanning_stretches_finds_what_scanning_every_word_finds() {
        let mut rng = StdRng::seed_from_u64(0x5eed);
        let texts = corpus().into_iter().chain((0..20_000).map(|_| generated(&mut rng)));
        let (mut compared, mut with_phrases) = (0, 0);
        for text in texts {
            let every = find_scanning_every_word(&text);
            assert_eq!(find(&text), every, "text: {text:?}");
            compared += 1;
            with_phrases += usize::from(!every.is_empty());
        }
        eprintln!("seed-word stretches: {compared} texts compared, {with_phrases} with a phrase");
        assert!(with_phrases > 1000, "the texts must hold phrases to compare: {with_phrases}");
    }

    /// A change right after a restart's second word can make it part of a longer word (`ab` and `.andon` become
    /// `abandon`), so a restart is not started from when a change touches the byte after it.
    #[test]
    fn a_restart_beside_a_change_is_not_started_from() {
        let text = "zzqx qq ab.andon wish vital sail recipe throw smart arrive knee afford insane river";
        let mut restarts = Vec::new();
        assert_eq!(find_noting_restarts_apart(text, &mut restarts, 0), []);
        let dot = text.find('.').unwrap();
        let (carried, changes) = carry_restarts(&restarts, &[(dot..dot + 1, 0)]);
        let changed = text.replacen('.', "", 1);
        let phrase = changed.find("abandon").unwrap()..changed.len();
        assert_eq!(find(&changed), [(phrase, "bip39")]);
        assert_eq!(find_near_changes(&changed, &changes, &carried), find(&changed));
    }

    /// After a pass redacted its phrases (and other secrets) from a text, reading only near the changes finds what
    /// reading the whole changed text finds: on the corpus and generated texts, each with its phrases and random
    /// other stretches replaced by redaction marks, list words or nothing.
    #[test]
    fn reading_near_the_changes_finds_what_reading_the_whole_changed_text_finds() {
        let mut texts_rng = StdRng::seed_from_u64(0xc4a9);
        let mut rng = StdRng::seed_from_u64(0xed17);
        let replacements =
            ["[redacted:bip39]", "[redacted:token]", "wish vital sail recipe throw smart", "", " ", "zoo\n", "x", "的"];
        let texts = corpus().into_iter().chain((0..20_000).map(|_| generated(&mut texts_rng)));
        let (mut compared, mut found_again, mut unread) = (0, 0, 0usize);
        for text in texts {
            // Every restart noted, or as the screen notes them.
            let mut restarts = Vec::new();
            let spacing = if rng.random_bool(0.5) { 0 } else { RESTART_SPACING };
            let found = find_noting_restarts_apart(&text, &mut restarts, spacing);
            assert_eq!(found, find(&text));
            // The pass's changes: every phrase, and up to five other stretches on char boundaries, most of them a
            // few bytes long (a word between two runs).
            let mut ranges: Vec<Range<usize>> = found.iter().map(|(r, _)| r.clone()).collect();
            // And what ends a run (a full stop, an unlisted word), so that the changed text has new phrases.
            for breaker in [". ", ": ", "zzqx", "INFO", "WALLET", "abcdefghijk", "\n\n"] {
                ranges.extend(
                    text.match_indices(breaker).filter(|_| rng.random_bool(0.8)).map(|(at, b)| at..at + b.len()),
                );
            }
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            for _ in 0..rng.random_range(0..6) {
                let a = rng.random_range(0..bounds.len());
                let b = if rng.random_bool(0.7) {
                    (a + rng.random_range(0..8)).min(bounds.len() - 1)
                } else {
                    rng.random_range(0..bounds.len())
                };
                ranges.push(bounds[a.min(b)]..bounds[a.max(b)]);
            }
            ranges.sort_by_key(|r| (r.start, r.end));
            let mut merged: Vec<Range<usize>> = Vec::new();
            for r in ranges {
                match merged.last_mut() {
                    Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                    _ => merged.push(r),
                }
            }
            let edits: Vec<(Range<usize>, &str)> = merged
                .into_iter()
                .map(|r| {
                    (r, if rng.random_bool(0.5) { " " } else { replacements[rng.random_range(0..replacements.len())] })
                })
                .collect();
            let mut changed = String::new();
            let mut at = 0;
            for (range, with) in &edits {
                changed.push_str(&text[at..range.start]);
                changed.push_str(with);
                at = range.end;
            }
            changed.push_str(&text[at..]);
            let lengths: Vec<(Range<usize>, usize)> = edits.iter().map(|(r, with)| (r.clone(), with.len())).collect();
            let (carried, changes) = carry_restarts(&restarts, &lengths);
            for (change, (_, with)) in changes.iter().zip(&edits) {
                assert_eq!(&changed[change.clone()], *with);
            }
            let whole = find(&changed);
            assert_eq!(find_near_changes(&changed, &changes, &carried), whole, "text: {text:?}\nchanged: {changed:?}");
            compared += 1;
            found_again += usize::from(!whole.is_empty());
            unread += usize::from(!carried.is_empty() && !changes.is_empty());
        }
        eprintln!(
            "reading near changes: {compared} texts compared, {found_again} with a phrase after the changes, {unread} with a restart to start from"
        );
        assert!(found_again > 300, "the changed texts must hold phrases to compare: {found_again}");
        assert!(unread > 1000, "the texts must have restarts to start from: {unread}");
    }
}
