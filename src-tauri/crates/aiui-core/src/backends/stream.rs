//! Reading a streamed reply (the Ollama and Claude legs): the body's chunks under a total size cap and an idle
//! timeout, framed into lines by tokio-util's `LinesCodec`, parsed as NDJSON or (by `eventsource-stream`) as
//! server-sent events, and fed to the leg's assembler in `format/`. Nothing here knows either wire's fields.

use std::pin::pin;
use std::time::Duration;

use bytes::Bytes;
use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};
use tokio_util::io::StreamReader;

use super::OnDelta;
use super::format::{anthropic, ollama};
use crate::net;

/// No line of either wire comes near this: one carries a few tokens or one tool call. The limit keeps a peer that
/// never sends a newline from growing one line up to the whole reply cap.
const MAX_LINE: usize = 1024 * 1024;

/// What an assembler makes of an event it cannot take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamFault {
    /// The backend reported an error inside the stream; `kind` as its wire names it (`overloaded_error`).
    Reported { kind: String, message: String },
    /// Something that is not the wire format, or a stream that ended before its last event.
    Malformed(String),
}

/// Why the body stopped coming.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("the reply grew past {limit} bytes")]
    TooLarge { limit: usize },
    #[error("the stream went silent for {0:?}")]
    Silent(Duration),
    #[error("the connection broke ({0})")]
    Broken(String),
}

/// What went wrong with a stream: in the transport, or in what it carried.
#[derive(Debug)]
pub enum Fault {
    Read(ReadError),
    Stream(StreamFault),
}

/// A stream that did not give a whole answer, with the text already handed to `on_delta` (empty if none was):
/// the leg decides from it whether the step can still go to the next leg.
#[derive(Debug)]
pub struct Failed {
    pub fault: Fault,
    pub partial: String,
}

/// The response body as chunks, ending in an error as soon as it passes `limit` bytes in all or nothing arrives
/// for `idle`. The client's total timeout still covers the whole body.
pub fn body_chunks(
    response: reqwest::Response,
    limit: usize,
    idle: Duration,
) -> impl Stream<Item = Result<Bytes, ReadError>> + Send {
    // A declared length over the cap is refused before reading, as `net::read_capped` does.
    let declared_too_large = response.content_length().is_some_and(|len| len > limit as u64);
    let start = Some((response, 0usize, declared_too_large));
    futures_util::stream::unfold(start, move |state| async move {
        let (mut response, read, too_large) = state?;
        if too_large {
            return Some((Err(ReadError::TooLarge { limit }), None));
        }
        match tokio::time::timeout(idle, response.chunk()).await {
            Err(_) => Some((Err(ReadError::Silent(idle)), None)),
            Ok(Err(e)) => Some((Err(ReadError::Broken(net::describe(&e))), None)),
            Ok(Ok(None)) => None,
            Ok(Ok(Some(chunk))) => {
                let read = read + chunk.len();
                if read > limit {
                    Some((Err(ReadError::TooLarge { limit }), None))
                } else {
                    Some((Ok(chunk), Some((response, read, false))))
                }
            }
        }
    })
}

/// Reads an NDJSON stream (Ollama) into `assembler` until it is complete or the body ends. Returns the text shown.
pub async fn read_ndjson(
    chunks: impl Stream<Item = Result<Bytes, ReadError>>,
    assembler: &mut ollama::StreamAssembler,
    on_delta: OnDelta<'_>,
) -> Result<String, Failed> {
    let mut shown = Shown { text: String::new(), on_delta };
    let mut lines = pin!(lines(chunks));
    while let Some(line) = lines.next().await {
        let line = line.map_err(|fault| shown.failed(fault))?;
        if line.trim().is_empty() {
            continue;
        }
        let delta = assembler.push(&line).map_err(|fault| shown.failed(Fault::Stream(fault)))?;
        shown.show(delta);
        // Nothing after the last chunk is read: a peer that keeps the connection open must not spoil a whole answer.
        if assembler.is_complete() {
            break;
        }
    }
    Ok(shown.text)
}

/// Reads a server-sent event stream (Anthropic) into `assembler` until it is complete or the body ends. Returns
/// the text shown.
pub async fn read_sse(
    chunks: impl Stream<Item = Result<Bytes, ReadError>>,
    assembler: &mut anthropic::StreamAssembler,
    on_delta: OnDelta<'_>,
) -> Result<String, Failed> {
    let mut shown = Shown { text: String::new(), on_delta };
    // The event parser gets one whole line at a time: it re-scans and copies its buffer per line, so bounded,
    // already-split lines keep it linear whatever the chunking.
    let lines = lines(chunks).map(|line| {
        line.map(|mut line| {
            line.push('\n');
            line
        })
    });
    let mut events = pin!(lines.eventsource());
    while let Some(event) = events.next().await {
        let event = event.map_err(|e| {
            shown.failed(match e {
                EventStreamError::Transport(fault) => fault,
                EventStreamError::Utf8(e) => Fault::Stream(StreamFault::Malformed(format!("not UTF-8 ({e})"))),
                EventStreamError::Parser(e) => {
                    Fault::Stream(StreamFault::Malformed(format!("not a server-sent event ({e})")))
                }
            })
        })?;
        let delta = assembler.push(&event.event, &event.data).map_err(|fault| shown.failed(Fault::Stream(fault)))?;
        shown.show(delta);
        if assembler.is_complete() {
            break;
        }
    }
    Ok(shown.text)
}

/// The body's lines, without their line ends.
fn lines(chunks: impl Stream<Item = Result<Bytes, ReadError>>) -> impl Stream<Item = Result<String, Fault>> {
    let reader = StreamReader::new(chunks.map(|chunk| chunk.map_err(std::io::Error::other)));
    FramedRead::new(reader, LinesCodec::new_with_max_length(MAX_LINE)).map(|line| line.map_err(line_fault))
}

fn line_fault(error: LinesCodecError) -> Fault {
    match error {
        LinesCodecError::MaxLineLengthExceeded => {
            Fault::Stream(StreamFault::Malformed(format!("a line longer than {MAX_LINE} bytes")))
        }
        LinesCodecError::Io(e) => {
            let (kind, message) = (e.kind(), e.to_string());
            match e.into_inner().map(|inner| inner.downcast::<ReadError>()) {
                Some(Ok(read)) => Fault::Read(*read),
                _ if kind == std::io::ErrorKind::InvalidData => {
                    Fault::Stream(StreamFault::Malformed(format!("a line is not UTF-8 ({message})")))
                }
                _ => Fault::Read(ReadError::Broken(message)),
            }
        }
    }
}

/// The text handed to `on_delta` so far.
struct Shown<'a> {
    text: String,
    on_delta: OnDelta<'a>,
}

impl Shown<'_> {
    fn show(&mut self, delta: Option<String>) {
        if let Some(delta) = delta.filter(|d| !d.is_empty()) {
            (self.on_delta)(&delta);
            self.text.push_str(&delta);
        }
    }

    fn failed(&mut self, fault: Fault) -> Failed {
        Failed { fault, partial: std::mem::take(&mut self.text) }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::task::{Context, Poll, Waker};

    use proptest::prelude::*;
    use serde_json::Value;

    use super::*;
    use crate::backends::Turn;

    const OLLAMA_MODEL: &str = "qwen2.5:7b";
    const CLAUDE_MODEL: &str = "claude-sonnet-4-5";

    #[derive(Debug, Clone, Copy)]
    enum Wire {
        Ollama,
        Anthropic,
    }

    /// Every streamed fixture with its non-streamed twin: the same answer as one JSON reply.
    const TWINS: &[(Wire, &str, &str)] = &[
        (Wire::Ollama, "ollama/stream_text.ndjson", "ollama/chat_answer_packages.json"),
        (Wire::Ollama, "ollama/stream_tool_call.ndjson", "ollama/chat_call_restart_lnd.json"),
        (Wire::Anthropic, "anthropic/stream_text.sse", "anthropic/answer_packages.json"),
        (Wire::Anthropic, "anthropic/stream_tool_use.sse", "anthropic/stream_tool_use.json"),
    ];

    const ERROR_FIXTURE: &str = "anthropic/stream_error.sse";
    const ERROR_PARTIAL: &str = "Five apps are running; electrs";

    fn fixture(path: &str) -> Vec<u8> {
        let full = format!("{}/../../../fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&full).unwrap_or_else(|e| panic!("fixture {full}: {e}"))
    }

    fn twin(wire: Wire, path: &str) -> Turn {
        let reply: Value = serde_json::from_slice(&fixture(path)).unwrap();
        match wire {
            Wire::Ollama => ollama::response(&reply, OLLAMA_MODEL),
            Wire::Anthropic => anthropic::response(&reply, CLAUDE_MODEL),
        }
        .unwrap()
    }

    /// Ollama's id-less tool calls get a fresh random id on either path; everything else must be equal.
    fn comparable(mut turn: Turn) -> Turn {
        for call in &mut turn.tool_calls {
            if call.id.starts_with("call_") {
                call.id = "call_(assigned)".into();
            }
        }
        turn
    }

    /// `body` cut at `cuts` (sorted, within the body) into chunks, some of them empty.
    fn chunks(body: &[u8], cuts: &[usize]) -> Vec<Result<Bytes, ReadError>> {
        let mut out = Vec::new();
        let mut from = 0;
        for &cut in cuts.iter().chain([body.len()].iter()) {
            out.push(Ok(Bytes::copy_from_slice(&body[from..cut])));
            from = cut;
        }
        out
    }

    /// The readers over in-memory chunks never wait, so one poll finishes them.
    fn now<T>(future: impl Future<Output = T>) -> T {
        match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(value) => value,
            Poll::Pending => panic!("a reader over in-memory chunks waited"),
        }
    }

    /// Reads the chunks as the leg does: the Turn or the failure, and every delta shown.
    fn read(wire: Wire, chunks: Vec<Result<Bytes, ReadError>>) -> (Result<Turn, Failed>, Vec<String>) {
        let deltas = Mutex::new(Vec::new());
        let on_delta = |delta: &str| deltas.lock().unwrap().push(delta.to_owned());
        let chunks = futures_util::stream::iter(chunks);
        let ended =
            |partial: String| move |detail| Failed { fault: Fault::Stream(StreamFault::Malformed(detail)), partial };
        let result = match wire {
            Wire::Ollama => {
                let mut assembler = ollama::StreamAssembler::default();
                now(read_ndjson(chunks, &mut assembler, &on_delta))
                    .and_then(|partial| assembler.finish(OLLAMA_MODEL).map_err(ended(partial)))
            }
            Wire::Anthropic => {
                let mut assembler = anthropic::StreamAssembler::default();
                now(read_sse(chunks, &mut assembler, &on_delta))
                    .and_then(|partial| assembler.finish(CLAUDE_MODEL).map_err(ended(partial)))
            }
        };
        (result, deltas.into_inner().unwrap())
    }

    #[track_caller]
    fn check_twin(wire: Wire, stream: &str, expected: &Turn, cuts: &[usize]) {
        let (turn, deltas) = read(wire, chunks(&fixture(stream), cuts));
        let turn = turn.unwrap_or_else(|f| panic!("{stream} cut at {cuts:?}: {f:?}"));
        assert_eq!(comparable(turn.clone()), comparable(expected.clone()), "{stream} cut at {cuts:?}");
        assert_eq!(deltas.concat(), turn.text, "{stream} cut at {cuts:?}");
    }

    #[track_caller]
    fn check_error(cuts: &[usize]) {
        let (result, deltas) = read(Wire::Anthropic, chunks(&fixture(ERROR_FIXTURE), cuts));
        let Err(Failed { fault: Fault::Stream(StreamFault::Reported { kind, message }), partial }) = result else {
            panic!("cut at {cuts:?}: {result:?}")
        };
        assert_eq!(
            (kind.as_str(), message.as_str(), partial.as_str()),
            ("overloaded_error", "Overloaded", ERROR_PARTIAL)
        );
        assert_eq!(deltas.concat(), ERROR_PARTIAL, "cut at {cuts:?}");
    }

    #[test]
    fn every_twin_is_the_same_turn_at_every_split_into_two() {
        for &(wire, stream, json) in TWINS {
            let expected = twin(wire, json);
            let (turn, deltas) = read(wire, chunks(&fixture(stream), &[]));
            assert_eq!(comparable(turn.unwrap()), comparable(expected.clone()), "{stream} whole");
            assert!(deltas.len() > 1 || expected.text.is_empty(), "{stream} arrives in pieces: {deltas:?}");
            for cut in 0..=fixture(stream).len() {
                check_twin(wire, stream, &expected, &[cut]);
            }
        }
    }

    #[test]
    fn the_error_event_after_text_fails_with_that_text_at_every_split() {
        for cut in 0..=fixture(ERROR_FIXTURE).len() {
            check_error(&[cut]);
        }
    }

    #[test]
    fn one_byte_at_a_time_is_the_same_turn() {
        for &(wire, stream, json) in TWINS {
            let cuts: Vec<usize> = (1..fixture(stream).len()).collect();
            check_twin(wire, stream, &twin(wire, json), &cuts);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn any_split_into_many_is_the_same_turn(
            case in 0..=TWINS.len(),
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..40),
        ) {
            let path = TWINS.get(case).map_or(ERROR_FIXTURE, |t| t.1);
            let len = fixture(path).len();
            let mut cuts: Vec<usize> = picks.iter().map(|p| p.index(len + 1)).collect();
            cuts.sort_unstable();
            match TWINS.get(case) {
                Some(&(wire, stream, json)) => check_twin(wire, stream, &twin(wire, json), &cuts),
                None => check_error(&cuts),
            }
        }
    }

    fn ollama_lines(lines: &[&str]) -> Vec<u8> {
        lines.iter().map(|l| format!("{l}\n")).collect::<String>().into_bytes()
    }

    #[test]
    fn text_split_inside_a_character_is_shown_whole() {
        let body = ollama_lines(&[
            r#"{"message":{"role":"assistant","content":"₿ 0.5 — "},"done":false}"#,
            r#"{"message":{"role":"assistant","content":"sent"},"done":false}"#,
            r#"{"message":{"role":"assistant","content":""},"done":true,"prompt_eval_count":5,"eval_count":2}"#,
        ]);
        let euro = body.windows(3).position(|w| w == "₿".as_bytes()).unwrap();
        for cut in euro..euro + 4 {
            let (turn, deltas) = read(Wire::Ollama, chunks(&body, &[cut]));
            assert_eq!(turn.unwrap().text, "₿ 0.5 — sent");
            assert_eq!(deltas, ["₿ 0.5 — ", "sent"]);
        }
    }

    #[test]
    fn an_ollama_error_line_after_text_keeps_the_text() {
        let body = ollama_lines(&[
            r#"{"message":{"role":"assistant","content":"Five apps"},"done":false}"#,
            r#"{"error":"llama runner process has terminated: signal: killed"}"#,
        ]);
        let (result, deltas) = read(Wire::Ollama, chunks(&body, &[]));
        let Err(Failed { fault: Fault::Stream(StreamFault::Reported { message, .. }), partial }) = result else {
            panic!("{result:?}")
        };
        assert!(message.contains("terminated"));
        assert_eq!((partial.as_str(), deltas.concat().as_str()), ("Five apps", "Five apps"));
    }

    #[test]
    fn a_stream_that_ends_early_is_a_failure_with_what_was_shown() {
        let whole = fixture("anthropic/stream_tool_use.sse");
        let text = String::from_utf8(whole.clone()).unwrap();
        // Ends inside the tool block's pieces: the text is kept, the tool call is not made up.
        let cut = text.find("\"0}\"").unwrap();
        let (result, _) = read(Wire::Anthropic, chunks(&whole[..cut], &[]));
        let Err(Failed { fault: Fault::Stream(StreamFault::Malformed(detail)), partial }) = result else {
            panic!("{result:?}")
        };
        assert!(detail.contains("package_logs"), "{detail}");
        assert_eq!(partial, "Let me read lnd’s last 50 log lines — and the app list beside them.");
        // Ollama without its `done` line.
        let body = fixture("ollama/stream_text.ndjson");
        let last = body[..body.len() - 1].iter().rposition(|b| *b == b'\n').unwrap();
        let (result, deltas) = read(Wire::Ollama, chunks(&body[..=last], &[]));
        let Err(Failed { fault: Fault::Stream(StreamFault::Malformed(detail)), partial }) = result else {
            panic!("{result:?}")
        };
        assert!(detail.contains("done"), "{detail}");
        assert_eq!(partial, deltas.concat());
        assert!(partial.ends_with("(exit code 137)."));
    }

    #[test]
    fn a_broken_body_keeps_the_text_already_shown() {
        let body = fixture("anthropic/stream_text.sse");
        let text = String::from_utf8(body.clone()).unwrap();
        let cut = text.find(" was killed").unwrap();
        let mut parts = chunks(&body[..cut], &[]);
        parts.push(Err(ReadError::Silent(Duration::from_secs(60))));
        let (result, _) = read(Wire::Anthropic, parts);
        let Err(Failed { fault: Fault::Read(ReadError::Silent(_)), partial }) = result else { panic!("{result:?}") };
        assert_eq!(partial, "Five apps are running; electrs");
        // Before any text, the same failure has nothing to keep.
        let (result, deltas) = read(Wire::Ollama, vec![Err(ReadError::Broken("reset".into()))]);
        assert!(
            matches!(result, Err(Failed { fault: Fault::Read(ReadError::Broken(_)), ref partial }) if partial.is_empty())
        );
        assert!(deltas.is_empty());
    }

    #[test]
    fn an_endless_line_or_bytes_that_are_not_text_are_refused() {
        let long = vec![b'x'; MAX_LINE + 10];
        for wire in [Wire::Ollama, Wire::Anthropic] {
            let (result, _) = read(wire, chunks(&long, &[MAX_LINE / 2]));
            assert!(
                matches!(&result, Err(Failed { fault: Fault::Stream(StreamFault::Malformed(d)), .. }) if d.contains("longer than")),
                "{wire:?}: {result:?}"
            );
            let (result, _) = read(wire, chunks(b"\xff\xfe{}\n\n", &[]));
            assert!(
                matches!(&result, Err(Failed { fault: Fault::Stream(StreamFault::Malformed(d)), .. }) if d.contains("UTF-8")),
                "{wire:?}: {result:?}"
            );
        }
    }

    #[test]
    fn what_follows_the_last_event_is_not_read() {
        let mut body = fixture("ollama/stream_text.ndjson");
        body.extend_from_slice(b"not json at all\n");
        let (turn, _) = read(Wire::Ollama, chunks(&body, &[]));
        assert_eq!(turn.unwrap().usage.output_tokens, 31);
        let mut body = fixture("anthropic/stream_text.sse");
        body.extend_from_slice(b"event: content_block_delta\ndata: {oops\n\n");
        let (turn, _) = read(Wire::Anthropic, chunks(&body, &[]));
        assert_eq!(
            turn.unwrap().usage,
            crate::backends::Usage { input_tokens: 1804, output_tokens: 22, ..Default::default() }
        );
    }
}
