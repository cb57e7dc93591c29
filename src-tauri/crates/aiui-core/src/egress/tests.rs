//! Tests of the egress screen: edge cases as tables, and the corpus in `fixtures/egress/` as measurements.

use serde_json::{Value, json};

use super::*;

const XPRV: &str =
    "xprv9tAruaTSUcXaNzTSxGtNUNq5y7wpcputBdFQYQG4xB4KShX8Vu3C2Hq88MPbUXmsQZRPoAdHR1hT9YGLdAZ6avGw3v4iVgA2TMBuBAMh9hF";
const WIF: &str = "5K5JnFWXgdpDaQzJiVNgvuAL4a59mHmvib3mjSs4QdciGYokHLP";
const NSEC: &str = "nsec164dyky7rt3tq4t64zdveqfswdxksf8mch64lhmrwd7j05plqlwjsw09p98";
const ONION_A: &str = "qwb5pdkhx6pygpan2rlykei4iiaannkksumnlmytbx2kjqevtavetwt6.onion";
const ONION_B: &str = "ul66ldqbwzb2xya4clmhp5wwq5gxsc3fnvxjvrftutlfjt6kdfzcpwq5.onion";
const SEED_12: &str = "wish vital sail recipe throw smart arrive knee afford insane river license";
const PASSWORD: &str = "hunter2-archy";

fn screen() -> Screen {
    Screen::new(vec![KnownSecret::new("node-password", PASSWORD)])
}

/// Screens `input` from `origin` with a fresh screen that knows [`PASSWORD`]. `expect` is the text sent, or
/// `blocked: <kinds>` for a blocked owner message.
#[track_caller]
fn check(origin: Origin, input: &str, expect: &str) {
    let got = match screen().screen_text(input, origin) {
        Screened::Clean { text, .. } => text,
        Screened::Blocked(b) => format!("blocked: {}", b.kinds.join(",")),
    };
    assert_eq!(got, expect, "input: {input}");
}

#[test]
fn tool_results_are_redacted_with_context_kept() {
    use Origin::ToolResult as T;
    check(T, &format!("key {XPRV}/0/*)"), "key [redacted:xprv]/0/*)");
    check(T, &format!("importprivkey {WIF} label"), "importprivkey [redacted:wif] label");
    check(T, &format!("nostr: {}", NSEC.to_uppercase()), "nostr: [redacted:nsec]");
    check(T, "rpcpassword=s3cr3t-Pass\nrpcport=8332", "rpcpassword=[redacted:rpcauth]\nrpcport=8332");
    check(T, "rpcauth=archy:0a1b$2c3d", "rpcauth=[redacted:rpcauth]");
    check(T, r#"{"rpcpassword": "abc123"}"#, r#"{"rpcpassword": "[redacted:rpcauth]"}"#);
    check(T, "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nok", "[redacted:pem]\nok");
    check(T, "cut: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA", "cut: [redacted:pem]");
    check(T, "x-api-key: sk-ant-api03-AAAAbbbbCCCCdddd1234_-xy", "x-api-key: [redacted:api-key]");
    check(T, "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&issuer=A\"", "[redacted:otpauth]\"");
    check(T, &format!("macaroon: {}", "ab".repeat(60)), "macaroon: [redacted:macaroon]");
    check(T, &format!("MAC {}", "0201036c6e64".to_owned() + &"0f".repeat(20)), "MAC [redacted:macaroon]");
    check(T, &format!("pw {PASSWORD}!"), "pw [redacted:known:node-password]!");
    check(T, &format!("{SEED_12}."), "[redacted:bip39].");
    check(T, &format!("[\"{}\"]", SEED_12.replace(' ', "\", \"")), "[\"[redacted:bip39]\"]");
}

/// Found by `scripts/fuzz`: a secret glued to another secret or to an address only shows its edge once its
/// neighbour is gone, so one pass let it through. Screening runs to a fixpoint.
#[test]
fn secrets_glued_together_are_all_redacted_in_one_screening() {
    check(Origin::ToolResult, &format!("{WIF}{XPRV}"), "[redacted:wif][redacted:xprv]");
    check(Origin::ToolResult, &format!("{WIF}otpauth://totp/a?secret=JBSWY3DP"), "[redacted:wif][redacted:otpauth]");
    check(Origin::ToolResult, "fd00::1rpcauth=alice:", "[lan-ip-1]rpcauth=[redacted:rpcauth]");
    check(Origin::Owner, "fd00::1rpcauth=alice:", "blocked: rpcauth");
    // Idempotent: screening the screened text changes nothing more.
    let mut screen = screen();
    let Screened::Clean { text, .. } = screen.screen_text(&format!("{WIF}{XPRV} 192.168.1.7"), Origin::ToolResult)
    else {
        panic!("a tool result is never blocked")
    };
    let Screened::Clean { text: again, report } = screen.screen_text(&text, Origin::ToolResult) else { panic!() };
    assert_eq!((again.as_str(), report.is_clean()), (text.as_str(), true));
}

/// A redaction can uncover a secret far from itself, so a later pass must read the whole text, not the bytes near
/// what the pass before changed. Here a WIF-shaped key ends in `password`: at first that word opens a config value
/// that starts with `$` (a placeholder, let pass) and runs on over `password=<secret>`, hiding it; once the key is
/// redacted, the word is gone and the later `password=` opens a value of its own, a few KB from the redaction.
#[test]
fn a_redaction_can_uncover_a_secret_far_from_it() {
    let key = "5Hx7Kq2mNvB9cZt4RwYe3Ua8SdFg6Jh1Tk5Lp7Qr2Xbpassword";
    let filler = "a".repeat(4000);
    check(
        Origin::ToolResult,
        &format!("{key}=${filler}password=fake-s3cret"),
        &format!("[redacted:wif]=${filler}password=[redacted:password]"),
    );
}

#[test]
fn seed_phrases_need_twelve_list_words_in_list_form() {
    use Origin::ToolResult as T;
    let eleven = SEED_12.rsplit_once(' ').map(|(head, _)| head).unwrap();
    check(T, eleven, eleven);
    // A full stop or a colon is prose, not a list.
    let sentence = SEED_12.replacen(" ", ". ", 1);
    check(T, &sentence, &sentence);
    let numbered: Vec<String> = SEED_12.split(' ').enumerate().map(|(i, w)| format!("{}) {w}", i + 1)).collect();
    check(T, &numbered.join("\n"), "1) [redacted:bip39]");
    // One misspelt word per twelve is still the phrase; two in a row are not.
    check(T, &SEED_12.replace("throw", "thorw"), "[redacted:bip39]");
    let two = SEED_12.replace("throw smart", "thorw smrat");
    check(T, &two, &two);
    let abbreviated: Vec<String> = SEED_12.split(' ').map(|w| w.chars().take(4).collect()).collect();
    check(T, &abbreviated.join(" ").to_uppercase(), "[redacted:bip39]");
    check(T, &format!("{{\"seed\":\"{}\"}}", SEED_12.replace(' ', "\\n")), "{\"seed\":\"[redacted:bip39]\"}");
    // Repetitive or sorted runs of list words are data, not a phrase; a huge one must still scan quickly.
    let flags = format!("[{}]", ["true", "false", "true", "true"].repeat(50_000).join(", "));
    check(T, &flags, &flags);
    let sorted = "able about above absent absorb abstract absurd abuse access accident account accuse";
    check(T, sorted, sorted);
}

/// Found while measuring the screen (issue 13): lines of the benign corpus that each hold fewer than twelve list
/// words, set one after another as a tool result sets them, were joined across their line breaks into runs of
/// twelve and more and redacted (26 runs in the bench's 124 KB body). These are those lines, as they met.
#[test]
fn list_words_on_neighbouring_lines_are_not_joined_into_a_phrase() {
    let texts = [
        // A label line's last eleven words, then a line of ten: 21 in a row.
        "words: today path spare dog hood scheme pave kit perfect small vivid\n\
         catalog, silly, prison, race, blossom, initial, sight, joke, stable, travel\n\
         tags: various season fabric pen chase dumb / deer tumble boat diagram attitude improve",
        // A numbered line of eleven, then a log line that starts with list words.
        "1. manual 2. neck 3. million 4. nephew 5. lunar 6. ability 7. kite 8. biology 9. rose 10. midnight 11. slab\n\
         macaroon check failed for payment 61f6605df7697b9e6ff7ce8b78868a1eb603beec864b3f8bc916f11027dd4d0d",
        // Prose whose lines end and start with list words.
        "please chest sorry among manual column. off exit lawsuit awkward dice filter. easily gown income genuine move cash\n\
         enact attract wild loan donate fly fuel cereal: brisk argue position game fragile barely approve local\n\
         grit near adapt recall myth wing feature and the cluster culture urban pave innocent room assault is the raw \
         leave faculty void huge priority pond",
        // Test data: the tail of an array, a numbered line of eleven, an array of ten, then single words.
        "expected = [true, true, false, true, one, false, zero, true, zero, true, false, true, zero, zero, zero, false, \
         true, true, true, false]\n\
         1. extend 2. boil 3. copy 4. weather 5. orbit 6. private 7. history 8. rather 9. detect 10. better 11. industry\n\
         [\"ability\", \"figure\", \"genius\", \"indicate\", \"abstract\", \"tower\", \"exact\", \"market\", \"scan\", \"fat\"]\n\
         night\nhair",
    ];
    for text in texts {
        check(Origin::ToolResult, text, text);
        check(Origin::Owner, text, text);
        // The same lines inside a JSON string, as a tool that returns JSON carries a file.
        let escaped = text.replace('\n', "\\n");
        check(Origin::ToolResult, &escaped, &escaped);
    }
}

/// A real phrase (valid checksum) of `words` words from fixed entropy, in `language`.
fn real_phrase(language: bip39::Language, words: usize) -> Vec<String> {
    let entropy: Vec<u8> = (0..words / 3 * 4).map(|i| (i as u8).wrapping_mul(97).wrapping_add(13)).collect();
    bip39::Mnemonic::from_entropy_in(language, &entropy).unwrap().words().map(str::to_owned).collect()
}

/// The line rule from the other side: every way a phrase is written in lines is still caught, and a phrase
/// wrapped in the middle of other text is caught by its checksum.
#[test]
fn a_phrase_split_across_lines_is_still_caught() {
    use Origin::ToolResult as T;
    let words = real_phrase(bip39::Language::English, 12);
    check(T, &words.join("\n"), "[redacted:bip39]");
    let numbered: Vec<String> = words.iter().enumerate().map(|(i, w)| format!("{}. {w}", i + 1)).collect();
    check(T, &format!("Backup:\n{}\n", numbered.join("\n")), "Backup:\n1. [redacted:bip39]\n");
    check(T, &format!("mnemonic: {}\nthanks!", words.join("\n")), "mnemonic: [redacted:bip39]\nthanks!");
    check(T, &format!("{{\"seed\": \"{}\"}}", words.join("\\n")), "{\"seed\": \"[redacted:bip39]\"}");
    // Rows of three, numbered like a backup card.
    let rows: Vec<String> = numbered.chunks(3).map(|row| row.join("  ")).collect();
    check(T, &rows.join("\n"), "1. [redacted:bip39]");
    // Hand-copied with a typo, one word per line: no checksum to lean on, the layout is enough.
    let mut typo = words.clone();
    typo[5] = "qqqq".to_owned();
    check(T, &typo.join("\n"), "[redacted:bip39]");
    for length in [12, 15, 18, 21, 24] {
        for language in [bip39::Language::English, bip39::Language::Spanish, bip39::Language::Japanese] {
            let words = real_phrase(language, length);
            let separator = if language == bip39::Language::Japanese { "\u{3000}" } else { " " };
            // Wrapped in the middle of other text: the lines are not list lines, the checksum decides.
            let (head, tail) = words.split_at(length / 2 + 1);
            let wrapped = format!("seed: {}\n{} (written 2024-05-01)", head.join(separator), tail.join(separator));
            check(T, &wrapped, "seed: [redacted:bip39] (written 2024-05-01)");
            // The same words with a last word that breaks the checksum are not a phrase in that layout, as long
            // as neither line holds twelve words (a line of twelve is a phrase by itself).
            if length == 24 {
                continue;
            }
            let mut broken = words.clone();
            let list = language.word_list();
            let last = list.iter().position(|w| *w == broken[length - 1]).unwrap();
            broken[length - 1] = (1..list.len())
                .map(|step| list[(last + step) % list.len()].to_owned())
                .find(|w| {
                    let mut candidate = broken.clone();
                    candidate[length - 1] = w.clone();
                    bip39::Mnemonic::parse_in(language, candidate.join(" ")).is_err()
                })
                .unwrap();
            // No label before them: after `seed:` any five list words are a labelled word list (labelled.rs).
            let (head, tail) = broken.split_at(length / 2 + 1);
            let wrapped = format!("copied: {}\n{} (written 2024-05-01)", head.join(separator), tail.join(separator));
            check(T, &wrapped, &wrapped);
        }
    }
}

/// The shapes an independent corpus got through before the inventory (issue 11), and two traps around them.
#[test]
fn shapes_found_missing_from_outside_are_caught() {
    use Origin::ToolResult as T;
    let spanish = "tilde trepar tigre ganar fruta usuario función charla tener nobleza ebrio centro";
    check(T, &format!("semilla: {spanish}"), "semilla: [redacted:bip39]");
    check(T, &spanish.replace("función", "funcion").to_uppercase(), "[redacted:bip39]");
    let nwc =
        format!("nostr+walletconnect://{}?relay=wss://relay.example.com&secret={}", "ab".repeat(32), "cd".repeat(32));
    check(T, &format!("NWC: {nwc}"), "NWC: [redacted:nwc]");
    check(T, &format!("__cookie__:{}", "e4".repeat(32)), "__cookie__:[redacted:rpcauth]");
    check(T, "http://user:password@host:8332/", "http://user:[redacted:url-password]@host:8332/");
    // Public cousins stay: a pay LNURL, a config path named like a password, a count named like a token.
    let kept = "wallet-unlock-password-file=/root/pw max_tokens=1024 http://archy@127.0.0.1:8332/";
    check(T, kept, kept);
}

#[test]
fn lan_and_onion_become_placeholders_and_public_stays() {
    use Origin::Assistant as A;
    check(A, &format!("http://{ONION_A}:8080/"), "http://[onion-1]:8080/");
    check(A, "v2 expyuzz4wqqyqhjn.onion", "v2 [onion-1]");
    check(A, "ssh admin@192.168.1.20 or 10.0.0.5", "ssh admin@[lan-ip-1] or [lan-ip-2]");
    check(A, "172.16.4.1 172.32.0.1 169.254.10.10 100.101.1.2", "[lan-ip-1] 172.32.0.1 [lan-ip-2] [lan-ip-3]");
    check(A, "link fe80::1ff:fe23:4567:890a%eth0: up", "link [lan-ip-1]: up");
    check(A, "ula [fd12:3456:789a::1]:443", "ula [[lan-ip-1]]:443");
    check(A, "open http://archipelago.local/apps", "open http://[lan-host-1]/apps");
    check(A, "router.home.arpa", "[lan-host-1]");
    // A letter of another script glued to an address does not hide it.
    check(A, "адрес192.168.1.7", "адрес[lan-ip-1]");
    check(A, "nœud.local", "nœ[lan-host-1]");
    let kept = "8.8.8.8 127.0.0.1 ::1 2001:db8::7 10.0.0.1.5 .env.local app.local.yml localhost 12:30:45";
    check(A, kept, kept);
}

#[test]
fn owner_text_with_a_secret_is_blocked() {
    use Origin::Owner as O;
    check(O, &format!("is this my seed? {SEED_12}"), "blocked: bip39");
    check(O, &format!("{XPRV} and {WIF}"), "blocked: wif,xprv");
    check(O, &format!("my password is {PASSWORD}"), "blocked: known:node-password");
    // Identity is not a secret: the owner's LAN address is replaced, not blocked.
    check(O, "why can't I reach 192.168.1.20?", "why can't I reach [lan-ip-1]?");
    let Screened::Blocked(blocked) = screen().screen_text(&format!("{SEED_12} {PASSWORD}"), O) else {
        panic!("owner text with a seed was not blocked");
    };
    assert!(blocked.message.contains("not sent") && blocked.message.contains("seed words"));
    assert!(!blocked.message.contains(PASSWORD) && !blocked.message.contains("wish vital"));
    assert_eq!(blocked.to_string(), blocked.message);
}

#[test]
fn placeholders_are_stable_within_a_screen() {
    let mut s = screen();
    let mut send = |text: &str| match s.screen_text(text, Origin::ToolResult) {
        Screened::Clean { text, .. } => text,
        Screened::Blocked(_) => panic!("tool result blocked"),
    };
    assert_eq!(send(&format!("{ONION_A} {ONION_B}")), "[onion-1] [onion-2]");
    assert_eq!(send(&format!("again {} 192.168.1.9", ONION_A.to_uppercase())), "again [onion-1] [lan-ip-1]");
    assert_eq!(send("fe80:0::1 fe80::1"), "[lan-ip-2] [lan-ip-2]");
    assert_eq!(s.reveal("ssh [lan-ip-1] via [onion-2]"), format!("ssh 192.168.1.9 via {ONION_B}"));
}

#[test]
fn known_secrets_are_caught_raw_and_json_escaped() {
    let mut s = Screen::new(vec![KnownSecret::new("node-password", "pa\"ss\\wörd"), KnownSecret::new("empty", "")]);
    let once = json!({ "password": "pa\"ss\\wörd" }).to_string();
    let twice = json!({ "result": once }).to_string();
    for text in ["pa\"ss\\wörd", &once, &twice, r#"{"password": "pa\"ss\\w\u00f6rd"}"#, "u:pa%22ss%5Cw%C3%B6rd@h"] {
        let Screened::Clean { text: out, report } = s.screen_text(text, Origin::ToolResult) else {
            panic!("tool result blocked");
        };
        let leaked = ["pa\"", "pa\\", "pa%"].iter().any(|p| out.contains(p));
        assert!(out.contains("[redacted:known:node-password]") && !leaked, "{text} -> {out}");
        assert_eq!(report.redactions, vec![("known:node-password".to_owned(), 1)]);
    }
    let debug = format!("{s:?} {:?}", KnownSecret::new("node-password", "pa\"ss"));
    assert!(!debug.contains("pa\\\"ss") && !debug.contains("pa\"ss"), "{debug}");
}

/// The origins in an Anthropic Messages body, read the way the Claude backend would: a block under a
/// `tool_result` is a tool's words, other user content is the owner's.
fn anthropic_origins(body: &Value) -> impl Fn(&str) -> Origin + use<> {
    let body = body.clone();
    move |path: &str| {
        let parts: Vec<&str> = path.split('/').collect();
        match parts.as_slice() {
            ["", "messages", i, "content", j, ..] => {
                let block = body.pointer(&format!("/messages/{i}/content/{j}/type"));
                let role = body.pointer(&format!("/messages/{i}/role"));
                match (block.and_then(Value::as_str), role.and_then(Value::as_str)) {
                    (Some("tool_result"), _) => Origin::ToolResult,
                    (_, Some("assistant")) => Origin::Assistant,
                    _ => Origin::Owner,
                }
            }
            ["", "messages", i, "content"] => match body.pointer(&format!("/messages/{i}/role")) {
                Some(Value::String(role)) if role == "assistant" => Origin::Assistant,
                _ => Origin::Owner,
            },
            _ => Origin::System,
        }
    }
}

#[test]
fn screen_body_redacts_tool_results_and_blocks_owner_secrets() {
    let mut body = json!({
        "model": "claude-sonnet-4-5",
        "system": "You help run the node at archipelago.local.",
        "messages": [
            { "role": "user", "content": "what keys does my wallet have?" },
            { "role": "assistant", "content": [{ "type": "tool_use", "id": "toolu_1", "name": "wallet", "input": {} }] },
            { "role": "user", "content": [
                { "type": "tool_result", "tool_use_id": "toolu_1", "content": format!("key {XPRV} on 10.0.0.2") }
            ]},
        ]
    });
    let origins = anthropic_origins(&body);
    let report = screen().screen_body(&mut body, &origins).unwrap();
    assert_eq!(body["messages"][2]["content"][0]["content"], "key [redacted:xprv] on [lan-ip-1]");
    assert_eq!(body["system"], "You help run the node at [lan-host-1].");
    assert_eq!(body["messages"][0]["content"], "what keys does my wallet have?");
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert_eq!(report.redactions, vec![("xprv".to_owned(), 1)]);
    assert_eq!(report.to_string(), "1 redacted (xprv 1), 2 placeholders");

    let mut body = json!({ "messages": [
        { "role": "user", "content": [{ "type": "text", "text": format!("is this ok? {SEED_12}") }] },
        { "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "t", "content": WIF }] },
    ]});
    let origins = anthropic_origins(&body);
    let blocked = screen().screen_body(&mut body, &origins).unwrap_err();
    assert_eq!(blocked.kinds, vec!["bip39".to_owned()]);
}

/// A secret or an address used as an object key is screened like any string, in place among its neighbours, and
/// the pointers the caller is asked about are RFC 6901's.
#[test]
fn screen_body_screens_object_keys_and_asks_by_exact_pointers() {
    let mut body = json!({
        "a": "first",
        (XPRV): { "10.0.0.2": "behind a secret key", "n": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "ten"] },
        "z/~": "last",
    });
    let asked = std::cell::RefCell::new(Vec::new());
    let origin_of = |pointer: &str| {
        asked.borrow_mut().push(pointer.to_owned());
        Origin::ToolResult
    };
    let report = screen().screen_body(&mut body, &origin_of).unwrap();
    assert_eq!(
        body,
        json!({
            "a": "first",
            "[redacted:xprv]": { "[lan-ip-1]": "behind a secret key", "n": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "ten"] },
            "z/~": "last",
        })
    );
    assert_eq!(report.to_string(), "1 redacted (xprv 1), 1 placeholders");
    // Only strings that hold something are asked about; their pointers escape `~` and `/`.
    assert_eq!(*asked.borrow(), vec![format!("/{XPRV}/10.0.0.2"), format!("/{XPRV}")]);

    let mut path = String::new();
    for index in [0, 7, 10, 12345, usize::MAX] {
        path.clear();
        push_index(&mut path, index);
        assert_eq!(path, format!("/{index}"));
    }
    path.clear();
    push_key(&mut path, "z/~");
    assert_eq!(path, "/z~1~0");
}

/// The corpus lines of `name`, comments and blank lines dropped, not yet unescaped. A missing file fails.
fn corpus(name: &str) -> Vec<String> {
    let path = format!("{}/../../../fixtures/egress/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus {path} is missing: {e}"));
    text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_owned).collect()
}

/// Decodes the corpus escapes: `\n` a newline, `\t` a tab, `\\` a backslash.
fn unescape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The corpus secret lines: (inventory id or `known:<label>`, secret, text), unescaped.
fn secret_lines() -> Vec<(String, String, String)> {
    // Fields are split before unescaping, so a tab inside a text (written `\t`) stays in the text.
    corpus("secrets.txt")
        .iter()
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let mut next = || unescape(f.next().unwrap_or_else(|| panic!("secrets.txt: not 3 fields: {l}")));
            (next(), next(), next())
        })
        .collect()
}

/// The redaction kind a corpus line must be reported as.
fn expected_kind(id: &str) -> String {
    if id.starts_with("known:") {
        return id.to_owned();
    }
    inventory::find(id)
        .unwrap_or_else(|| panic!("secrets.txt names {id:?}, which is not in the inventory"))
        .kind
        .to_owned()
}

/// The second pass reads seed phrases and trigger words only near the first pass's redactions, and looks for
/// addresses only when it found a secret; it finds what a second pass over the whole text finds. Texts: corpus
/// lines (secrets, phrases, benign text) and fragments (halves of a phrase, secrets, LAN addresses) glued by list
/// punctuation or nothing, so that redacting one can join or part the phrases around it.
#[test]
fn a_second_pass_near_the_redactions_finds_what_a_whole_second_pass_finds() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let lines: Vec<String> = secret_lines()
        .into_iter()
        .map(|(_, _, text)| text)
        .chain(corpus("benign.txt").iter().map(|l| unescape(l)))
        .collect();
    // Halves of a phrase, and secrets whose redaction names a list word (`[redacted:token]`) or not, so that a
    // redaction between two halves can make a phrase.
    let words: Vec<&str> = SEED_12.split(' ').collect();
    let fragments = [
        words[..6].join(" "),
        words[6..].join(" "),
        words[..5].join(" "),
        "Bearer abcdefghij0123456789klmnop".to_owned(),
        WIF.to_owned(),
        PASSWORD.to_owned(),
        "10.0.0.2".to_owned(),
        "archy.local".to_owned(),
    ];
    let glue = ["", " ", "\n", ", ", " 7. ", "="];
    let mut rng = StdRng::seed_from_u64(2);
    let (mut compared, mut passes_changed) = (0, 0);
    for _ in 0..7_000 {
        let mut text = String::new();
        for _ in 0..rng.random_range(2..6) {
            if rng.random_bool(0.7) {
                text.push_str(&fragments[rng.random_range(0..fragments.len())]);
            } else {
                text.push_str(&lines[rng.random_range(0..lines.len())]);
            }
            text.push_str(glue[rng.random_range(0..glue.len())]);
        }
        let (mut near, mut whole) = (screen(), screen());
        let origin = || LazyOrigin::known(Origin::ToolResult);
        let once = whole.screen_once(&text, &mut origin(), None).map(|(s, _)| s);
        let expected = whole.screen_passes(&text, &mut origin(), false);
        assert_eq!(near.screen_passes(&text, &mut origin(), true), expected, "text: {text:?}");
        compared += 1;
        passes_changed += usize::from(once.is_some() && once != expected);
    }
    eprintln!("second pass near redactions: {compared} texts, {passes_changed} changed again after the first pass");
    assert!(passes_changed > 100, "the texts must need a second pass: {passes_changed}");
}

#[test]
fn corpus_every_secret_is_caught() {
    let lines = secret_lines();
    let known: Vec<KnownSecret> = lines
        .iter()
        .filter_map(|(id, secret, _)| Some(KnownSecret::new(id.strip_prefix("known:")?, secret.as_str())))
        .collect();
    let mut missed = Vec::new();
    for (id, secret, text) in &lines {
        let kind = expected_kind(id);
        let mut s = Screen::new(known.clone());
        let escaped = json_escaped(secret);
        let tool_ok = match s.screen_text(text, Origin::ToolResult) {
            Screened::Clean { text: out, report } => {
                // Screening the screened text again finds nothing more.
                let again = matches!(s.screen_text(&out, Origin::ToolResult),
                    Screened::Clean { text: again, report } if again == out && report.is_clean());
                out.contains(&format!("[redacted:{kind}]"))
                    && !out.contains(secret.as_str())
                    && !out.contains(&escaped)
                    && report.redactions.iter().any(|(k, _)| *k == kind)
                    && again
            }
            Screened::Blocked(_) => false,
        };
        let owner_ok = matches!(s.screen_text(text, Origin::Owner), Screened::Blocked(b) if b.kinds.contains(&kind));
        if !tool_ok || !owner_ok {
            missed.push(format!("{id} as {kind} (tool result ok: {tool_ok}, owner blocked: {owner_ok}): {text}"));
        }
    }
    let ids: std::collections::BTreeSet<&str> = lines.iter().map(|(id, ..)| id.as_str()).collect();
    let without: Vec<&str> = inventory::INVENTORY.iter().map(|e| e.id).filter(|id| !ids.contains(id)).collect();
    eprintln!(
        "egress inventory: {} kinds ({} redaction kinds), {}/{} secret samples caught",
        inventory::INVENTORY.len(),
        inventory::REDACTION_KINDS.len(),
        lines.len() - missed.len(),
        lines.len()
    );
    assert!(without.is_empty(), "inventory entries with no sample in secrets.txt: {without:?}");
    assert!(missed.is_empty(), "{} of {} secrets missed:\n{}", missed.len(), lines.len(), missed.join("\n"));
}

#[test]
fn inventory_is_complete_and_consistent() {
    use std::collections::BTreeSet;
    let kinds: BTreeSet<&str> = inventory::REDACTION_KINDS.iter().map(|(k, _)| *k).collect();
    let used: BTreeSet<&str> = inventory::INVENTORY.iter().map(|e| e.kind).collect();
    let ids: BTreeSet<&str> = inventory::INVENTORY.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), inventory::INVENTORY.len(), "an inventory id is used twice");
    assert_eq!(used, kinds, "every redaction kind names inventory entries, and only those");
    for e in inventory::INVENTORY {
        assert!(!e.why.is_empty() && !e.detector.is_empty() && !e.samples.is_empty(), "{e:?}");
        // A blocked message names the kind in plain words, not as a code.
        assert!(!describe(Locale::En, e.kind).starts_with("a secret ("), "{} has no owner wording", e.kind);
    }
    // Every generator the inventory names exists in the corpus generator.
    let generator =
        std::fs::read_to_string(format!("{}/../../../fixtures/egress/gen_secrets.py", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    for e in inventory::INVENTORY {
        assert!(generator.contains(&format!("def {}(", e.samples)), "gen_secrets.py has no {}()", e.samples);
    }
}

/// `value` as it sits inside a JSON string, so the corpus test also sees a leak in escaped form.
fn json_escaped(value: &str) -> String {
    let quoted = serde_json::Value::String(value.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

#[test]
fn corpus_benign_text_passes_unchanged() {
    let lines: Vec<String> = corpus("benign.txt").iter().map(|l| unescape(l)).collect();
    let mut touched = Vec::new();
    for line in &lines {
        let mut s = screen();
        let tool = match s.screen_text(line, Origin::ToolResult) {
            Screened::Clean { text, .. } => text == *line,
            Screened::Blocked(_) => false,
        };
        let owner = matches!(s.screen_text(line, Origin::Owner), Screened::Clean { text, .. } if text == *line);
        if !tool || !owner {
            touched.push(line.as_str());
        }
    }
    eprintln!("egress corpus: {}/{} benign lines unchanged", lines.len() - touched.len(), lines.len());
    assert!(lines.len() >= 300, "benign.txt has {} lines, want at least 300", lines.len());
    assert!(touched.is_empty(), "{} benign lines changed:\n{}", touched.len(), touched.join("\n"));
}

/// A text screened again (a turn re-sends its history) comes from memory with the first outcome, report
/// included, for every origin on its own: owner text is still blocked where a tool result is redacted.
#[test]
fn a_text_screened_again_gets_the_same_outcome() {
    let mut screen = screen();
    let text = format!("lnd at 192.168.1.20 uses {PASSWORD} and {XPRV}");
    let first = screen.screen_text(&text, Origin::ToolResult);
    let Screened::Clean { text: sent, report } = &first else { panic!("a tool result is redacted: {first:?}") };
    assert_eq!(sent, "lnd at [lan-ip-1] uses [redacted:known:node-password] and [redacted:xprv]");
    assert_eq!(report.placeholders, 1);
    assert_eq!(screen.screen_text(&text, Origin::ToolResult), first);
    let Screened::Blocked(blocked) = screen.screen_text(&text, Origin::Owner) else { panic!("owner text is blocked") };
    assert_eq!(blocked.kinds, ["known:node-password", "xprv"]);
    assert!(matches!(screen.screen_text(&text, Origin::Owner), Screened::Blocked(_)));
    assert_eq!(screen.screen_text(&text, Origin::ToolResult), first);
    // The owner's blocked words are not kept: only the tool result's outcome is remembered.
    assert_eq!(screen.changed.outcomes.get(text.as_str()).map(Vec::len), Some(1));

    let plain = "lnd is running, 12 channels open";
    for _ in 0..2 {
        assert_eq!(
            screen.screen_text(plain, Origin::Owner),
            Screened::Clean { text: plain.into(), report: Report::default() }
        );
    }
}

/// Another conversation's screen shares the known secrets and the texts found clean, never the placeholder
/// table: its first LAN address is its own `[lan-ip-1]`.
#[test]
fn another_conversation_keeps_its_own_placeholders() {
    let mut first = screen();
    let clean = "bitcoind synced to block 870000";
    first.screen_text(clean, Origin::ToolResult);
    first.screen_text("peer 10.0.0.5 connected", Origin::ToolResult);
    let mut second = first.for_another_conversation();
    assert!(second.clean.lock().unwrap().texts.contains(clean));
    let Screened::Clean { text, .. } = second.screen_text("peer 10.0.0.9 connected", Origin::ToolResult) else {
        panic!("a tool result is never blocked")
    };
    assert_eq!(text, "peer [lan-ip-1] connected");
    assert_eq!(second.reveal("[lan-ip-1]"), "10.0.0.9");
    assert_eq!(first.reveal("[lan-ip-1]"), "10.0.0.5");
    let Screened::Clean { text, .. } = second.screen_text(&format!("login {PASSWORD}"), Origin::ToolResult) else {
        panic!("a tool result is never blocked")
    };
    assert_eq!(text, "login [redacted:known:node-password]");
}

/// What a screen remembers is bounded: past the limit it starts over instead of growing.
#[test]
fn remembered_texts_are_bounded() {
    let mut clean = CleanTexts::default();
    let chunk = "a".repeat(1 << 20);
    for i in 0..(CleanTexts::LIMIT >> 20) + 3 {
        clean.insert(&format!("{i}{chunk}"));
        assert!(clean.bytes <= CleanTexts::LIMIT);
    }
    assert!(clean.texts.len() < (CleanTexts::LIMIT >> 20));
    let mut changed = ChangedTexts::default();
    let outcome = Screened::Clean { text: chunk.clone(), report: Report::default() };
    for i in 0..(ChangedTexts::LIMIT >> 20) + 3 {
        changed.insert(Origin::ToolResult, &format!("{i}{chunk}"), &outcome);
        assert!(changed.bytes <= ChangedTexts::LIMIT);
    }
}

/// Secrets known by their label (labelled.rs): the value goes, the label and the text around it stay.
#[test]
fn labelled_secrets_are_redacted_with_their_label_kept() {
    use Origin::ToolResult as T;
    check(T, "Backup codes: 8f3k-2j9d 7h2k-4m1x 9q8w-1e2r", "Backup codes: [redacted:backup-code]");
    check(
        T,
        "Recovery codes:\n1. a1b2c-3d4e5\n2. f6g7h-8i9j0\nUse each once.",
        "Recovery codes:\n1. [redacted:backup-code]\nUse each once.",
    );
    check(T, "backup codes\n1234 5678\n2345 6789", "backup codes\n[redacted:backup-code]");
    check(T, "recovery key: ABCD-EFGH-IJKL-MNOP", "recovery key: [redacted:backup-code]");
    check(T, "Secret key: JBSW Y3DP EHPK 3PXP", "Secret key: [redacted:totp-key]");
    check(T, "2FA setup key: jbsw y3dp ehpk 3pxp", "2FA setup key: [redacted:totp-key]");
    check(T, "TOTP secret = JBSWY3DPEHPK3PXP", "TOTP secret = [redacted:totp-key]");
    check(
        T,
        "headers={X-Goog-Api-Key: AIzb9f8e7d6c5b4a3210xyz, Accept: */*}",
        "headers={X-Goog-Api-Key: [redacted:password], Accept: */*}",
    );
    check(T, "sent X-Auth-Token: 9f8e7d6c5b4a3210abcd upstream", "sent X-Auth-Token: [redacted:password] upstream");
    check(
        T,
        "GET /search?q=btc&key=9f8e7d6c5b4a3210abcdEF HTTP/1.1",
        "GET /search?q=btc&key=[redacted:password] HTTP/1.1",
    );
    check(T, "my API key is 9f8e7d6c5b4a3210abcd", "my API key is [redacted:password]");
    let lnc = "pairing phrase: ability absorb cactus dawn eager fabric galaxy habit icon jacket";
    check(T, lnc, "pairing phrase: [redacted:pairing-phrase]");
    let ten = "recovery phrase: ability absorb cactus dawn eager fabric galaxy habit icon jacket. Thanks";
    check(T, ten, "recovery phrase: [redacted:bip39]. Thanks");
    check(T, &format!("seedqr: {}", seedqr_digits(12)), "seedqr: [redacted:seedqr]");
    check(T, &format!("scanned {} ok", seedqr_digits(24)), "scanned [redacted:seedqr] ok");
    check(T, &format!("CompactSeedQR: {}", "ab".repeat(16)), "CompactSeedQR: [redacted:seedqr]");
    let words = real_phrase(bip39::Language::English, 12);
    let rows: Vec<String> =
        (0..6).map(|i| format!("{}. {:<10} {}. {}", i + 1, words[i], i + 7, words[i + 6])).collect();
    // Not list words around it (`card`, `end` are: the run finder would take them in).
    check(T, &format!("Written down:\n{}\n(done)", rows.join("\n")), "Written down:\n1. [redacted:bip39]\n(done)");
    let bars: Vec<String> = (0..6).map(|i| format!("{} {} | {} {}", i + 1, words[i], i + 7, words[i + 6])).collect();
    check(T, &bars.join("\n"), "1 [redacted:bip39]");
    // Eight columns numbered down each column: rows longer than a list line, read across they fail the checksum,
    // so only the table finder sees a phrase.
    let words = real_phrase(bip39::Language::English, 24);
    let wide: Vec<String> = (0..3)
        .map(|r| (0..8).map(|c| format!("{}. {}", c * 3 + r + 1, words[c * 3 + r])).collect::<Vec<_>>().join("  "))
        .collect();
    check(T, &wide.join("\n"), "1. [redacted:bip39]");
}

/// The Standard SeedQR digits of [`real_phrase`]: each word's BIP-39 index as four digits.
fn seedqr_digits(words: usize) -> String {
    let list = bip39::Language::English.word_list();
    real_phrase(bip39::Language::English, words)
        .iter()
        .map(|w| format!("{:04}", list.iter().position(|l| *l == w.as_str()).unwrap_or_default()))
        .collect()
}

#[test]
fn labelled_secrets_in_owner_text_are_blocked() {
    use Origin::Owner as O;
    check(O, "my backup codes: 8f3k-2j9d 7h2k-4m1x", "blocked: backup-code");
    check(O, "is this right? Secret key: JBSW Y3DP EHPK 3PXP", "blocked: totp-key");
    check(
        O,
        "pairing phrase: ability absorb cactus dawn eager fabric galaxy habit icon jacket",
        "blocked: pairing-phrase",
    );
    check(O, &format!("SeedQR {}", seedqr_digits(12)), "blocked: seedqr");
    check(O, "X-Emby-Token: 9f8e7d6c5b4a3210abcd", "blocked: password");
    let Screened::Blocked(blocked) = screen().screen_text("Secret key: JBSW Y3DP EHPK 3PXP", O) else {
        panic!("owner text with a setup key was not blocked");
    };
    assert!(
        blocked.message.contains("two-factor setup key") && !blocked.message.contains("JBSW"),
        "{}",
        blocked.message
    );
}

/// The labels' public neighbours: a setting, a count, an id, a public key, or words that are not a seed.
#[test]
fn label_neighbours_pass_unchanged() {
    let words = real_phrase(bip39::Language::English, 12);
    let eleven_rows: Vec<String> = (0..5).map(|i| format!("{}  {}", words[2 * i], words[2 * i + 1])).collect();
    let kept = [
        "Backup: enabled",
        "2FA: on",
        "Backup codes: 10 remaining, generated 2024-05-01",
        "Recovery key: saved to the password manager",
        "recovery email: alice@example.com",
        "Secret key: stored in the keyring",
        "API key id: 4821",
        "api_key_id=76783408",
        "X-Api-Key: <your key here>",
        "Idempotency-Key: c428ac55-26c6-4d1a-7a80-c4be4cf109da",
        "seed words: keep them offline",
        "recovery phrase: 12 words, stamped on steel",
        "hash 000000000000000000000000000000000000000000000000",
        "invoice id 091644894911133467565731707171925578700304325346",
        "1. milk      4. coffee\n2. eggs      5. sugar\n3. bread     6. flour",
        &eleven_rows.join("\n"),
    ];
    for text in kept {
        check(Origin::ToolResult, text, text);
        check(Origin::Owner, text, text);
    }
}

/// The corpus as measured for labelled.rs: per new inventory entry, its samples caught, and the benign lines that
/// hold a label, a long digit run or a table-shaped block, all unchanged.
#[test]
fn corpus_labelled_kinds_report() {
    const LABELLED: [&str; 9] = [
        "backup-codes",
        "recovery-codes",
        "totp-setup-key",
        "api-key-by-name",
        "pairing-phrase",
        "labelled-seed-words",
        "seedqr-standard",
        "seedqr-compact",
        "seed-table-columns",
    ];
    let lines = secret_lines();
    let mut missed = Vec::new();
    for id in LABELLED {
        let kind = expected_kind(id);
        let samples: Vec<&(String, String, String)> = lines.iter().filter(|(i, ..)| i == id).collect();
        let caught = samples
            .iter()
            .filter(|(_, secret, text)| {
                let tool = matches!(screen().screen_text(text, Origin::ToolResult),
                    Screened::Clean { text: out, .. } if out.contains(&format!("[redacted:{kind}]")) && !out.contains(secret.as_str()));
                let owner = matches!(screen().screen_text(text, Origin::Owner), Screened::Blocked(b) if b.kinds.contains(&kind));
                tool && owner
            })
            .count();
        eprintln!("egress labelled: {id} ({kind}): {caught}/{} caught", samples.len());
        assert!(!samples.is_empty(), "{id} has no sample in secrets.txt");
        if caught < samples.len() {
            missed.push(id);
        }
    }
    let near: Vec<String> =
        corpus("benign.txt").iter().map(|l| unescape(l)).filter(|l| labelled::near_a_label(l)).collect();
    let unchanged = near
        .iter()
        .filter(|l| matches!(screen().screen_text(l, Origin::ToolResult), Screened::Clean { text, .. } if text == **l))
        .count();
    eprintln!(
        "egress labelled: {unchanged}/{} benign lines near a label, a digit run or a table unchanged",
        near.len()
    );
    assert!(missed.is_empty(), "labelled kinds with missed samples: {missed:?}");
    assert_eq!(unchanged, near.len());
    assert!(near.len() >= 30, "only {} benign lines test the labels", near.len());
}

/// The stop an owner meets when their message holds a secret: English as it always read, every kind named in German
/// and Spanish, two and three kinds joined with the language's own "and", and never the secret itself.
#[test]
fn the_blocked_message_reads_as_before_in_english_and_in_the_owners_language() {
    use crate::i18n::Locale;
    let english = |what: &str| {
        format!(
            "Your message was not sent: it contains {what}. Nothing left this device. The assistant's cloud models \
             must never see secrets like this, so remove it and send your message again; you can describe the \
             problem without pasting the secret itself."
        )
    };
    let blocked = |kinds: &[&str]| Blocked::new(kinds.iter().map(|k| (*k).to_owned()));
    for (kind, words) in inventory::REDACTION_KINDS {
        let one = blocked(&[kind]);
        assert_eq!(one.message, english(words), "kind {kind}");
        assert_eq!(one.text(Locale::En), one.message);
        for (locale, sentence) in [(Locale::De, "nicht gesendet"), (Locale::Es, "no se envió")] {
            let text = one.text(locale);
            assert!(text.contains(sentence), "{kind} in {locale:?}: {text}");
            assert!(!text.contains(words), "{kind} is named in English in {locale:?}: {text}");
        }
    }
    let known = blocked(&["known:node-password"]);
    assert_eq!(known.message, english("a secret this app keeps (node-password)"));
    assert!(known.text(Locale::De).contains("ein Geheimnis, das diese App verwahrt (node-password)"));
    let three = blocked(&["xprv", "wif", "bip39"]);
    assert!(three.message.contains("seed words), a Bitcoin private key (WIF) and an extended private key"));
    assert!(three.text(Locale::De).contains("(Seed-Wörter), einen privaten Bitcoin-Schlüssel (WIF) und einen"));
    assert!(three.text(Locale::Es).contains("(palabras semilla), una clave privada de Bitcoin (WIF) y una clave"));
    let Screened::Blocked(seed) = screen().screen_text(&format!("{SEED_12} {PASSWORD}"), Origin::Owner) else {
        panic!("owner text with a seed was not blocked");
    };
    for locale in [Locale::En, Locale::De, Locale::Es, Locale::Pseudo] {
        let text = seed.text(locale);
        assert!(!text.contains(PASSWORD) && !text.contains("wish vital"), "{locale:?}: {text}");
    }
}
