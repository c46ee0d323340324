//! The wire: LSP's base protocol (`Content-Length` headers, a blank line, a JSON body), read
//! and written here rather than by `lsp-server`, whose reader allocates whatever length a
//! header claims before any body byte arrives and ends the session on the first malformed
//! message. Here a frame costs at most the bytes that were sent and [`MAX_BODY`], and
//! anything that is not a message becomes a JSON-RPC error to answer ([`Incoming::Invalid`]),
//! after which reading goes on.

use lsp_server::ErrorCode;
/// The message type [`Incoming::Message`] holds (`lsp-server`'s), for callers that match on
/// it without naming that crate (the fuzz target).
pub use lsp_server::Message;
use serde_json::{Value, json};
use std::io::{self, BufRead, Read, Write};

/// The largest message body read, in bytes: room for a document as large as the loader reads
/// ([`crate::load::fs::MAX_FILE_BYTES`]) whose tabs JSON escapes in two bytes each.
pub const MAX_BODY: u64 = 128 << 20;

/// The longest header line kept, in bytes (LSP's headers are two short lines).
const MAX_HEADER_LINE: usize = 1024;

/// The most header lines one frame may have.
const MAX_HEADERS: usize = 32;

/// What one frame of the input held.
#[derive(Debug)]
pub enum Incoming {
    /// A JSON-RPC message.
    Message(Message),
    /// Bytes that are no message: the error response to send (its `id` is the message's
    /// when it could be read, else `null`).
    Invalid(Value),
}

/// One header line, without its line ending.
enum Line {
    /// The stream ended.
    End,
    /// The line, when it is no longer than [`MAX_HEADER_LINE`].
    Text(Vec<u8>),
    /// A line over the limit (read to its end and dropped).
    TooLong,
}

/// Reads one header line, keeping at most [`MAX_HEADER_LINE`] bytes of it.
fn read_line(r: &mut impl BufRead) -> io::Result<Line> {
    let mut line = Vec::new();
    let limit = u64::try_from(MAX_HEADER_LINE).unwrap_or(u64::MAX);
    let n = r
        .by_ref()
        .take(limit.saturating_add(1))
        .read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if line.last() != Some(&b'\n') && line.len() > MAX_HEADER_LINE {
        // Skip the rest of the line without keeping it.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = r.by_ref().take(limit).read_until(b'\n', &mut rest)?;
            if n == 0 || rest.last() == Some(&b'\n') {
                return Ok(Line::TooLong);
            }
        }
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Line::Text(line))
}

/// The error response to bytes that are not a message.
pub fn error(id: Option<Value>, code: ErrorCode, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": {"code": code as i32, "message": message},
    })
}

/// The headers of one frame: the body's length, or why there is none.
fn read_headers(r: &mut impl BufRead) -> io::Result<Option<Result<u64, String>>> {
    let mut length: Option<Result<u64, String>> = None;
    let mut count = 0usize;
    loop {
        let line = match read_line(r)? {
            Line::End => return Ok(None),
            Line::TooLong => {
                length = Some(Err(format!(
                    "a header line longer than {MAX_HEADER_LINE} bytes"
                )));
                count = count.saturating_add(1);
                continue;
            }
            Line::Text(line) => line,
        };
        if line.is_empty() {
            if count == 0 {
                continue; // blank lines between frames
            }
            break;
        }
        count = count.saturating_add(1);
        if count > MAX_HEADERS {
            length = Some(Err(format!("more than {MAX_HEADERS} header lines")));
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let Some((name, value)) = text.split_once(':') else {
            length = Some(Err("a header line without `:`".to_owned()));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") && length.is_none() {
            length = Some(
                value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| "a Content-Length that is not a number of bytes".to_owned()),
            );
        }
    }
    Ok(Some(length.unwrap_or_else(|| {
        Err("a message without Content-Length".to_owned())
    })))
}

/// Reads one frame: `None` at the end of the stream (also in the middle of a frame).
pub fn read(r: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let Some(length) = read_headers(r)? else {
        return Ok(None);
    };
    let length = match length {
        Ok(n) => n,
        Err(why) => {
            return Ok(Some(Incoming::Invalid(error(
                None,
                ErrorCode::InvalidRequest,
                &why,
            ))));
        }
    };
    if length > MAX_BODY {
        // Read past the body without keeping it: the next frame starts after it.
        io::copy(&mut r.by_ref().take(length), &mut io::sink())?;
        let why = format!("a message of {length} bytes; the limit is {MAX_BODY}");
        return Ok(Some(Incoming::Invalid(error(
            None,
            ErrorCode::InvalidRequest,
            &why,
        ))));
    }
    // Grows with the bytes that arrive, never to the claimed length up front.
    let mut body = Vec::new();
    r.by_ref().take(length).read_to_end(&mut body)?;
    if u64::try_from(body.len()).ok() != Some(length) {
        return Ok(None);
    }
    Ok(Some(parse(&body)))
}

/// A body as a message, or the error to answer it with. The error never quotes the body.
pub fn parse(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            let why = format!(
                "not JSON ({:?} at line {} column {})",
                e.classify(),
                e.line(),
                e.column()
            );
            return Incoming::Invalid(error(None, ErrorCode::ParseError, &why));
        }
    };
    // Echoed only when it is one JSON-RPC allows (a number or a string).
    let id = value
        .get("id")
        .filter(|i| i.is_number() || i.is_string())
        .cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(m) => Incoming::Message(m),
        Err(_) => Incoming::Invalid(error(
            id,
            ErrorCode::InvalidRequest,
            "not a JSON-RPC request, response or notification",
        )),
    }
}

/// A message as the JSON object sent on the wire.
pub fn to_value(message: &Message) -> Value {
    let mut v = serde_json::to_value(message).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("jsonrpc".to_owned(), Value::from("2.0"));
    }
    v
}

/// Writes one frame.
pub fn write(w: &mut impl Write, value: &Value) -> io::Result<()> {
    let body = serde_json::to_vec(value)?;
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(&body)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(bytes: &[u8]) -> Vec<Incoming> {
        let mut r = io::BufReader::new(bytes);
        std::iter::from_fn(|| read(&mut r).ok().flatten()).collect()
    }

    fn is_message(i: &Incoming) -> bool {
        matches!(i, Incoming::Message(_))
    }

    fn error_code(i: &Incoming) -> Option<i64> {
        match i {
            Incoming::Invalid(v) => v["error"]["code"].as_i64(),
            Incoming::Message(_) => None,
        }
    }

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    }

    const PING: &[u8] = br#"{"jsonrpc":"2.0","method":"x"}"#;

    #[test]
    fn a_well_formed_frame_is_a_message() {
        let got = frames(&frame(PING));
        assert_eq!(got.len(), 1);
        assert!(is_message(&got[0]));
    }

    #[test]
    fn a_length_over_the_limit_is_skipped_not_allocated() {
        let mut bytes = format!("Content-Length: {}\r\n\r\n", MAX_BODY + 1).into_bytes();
        bytes.extend_from_slice(&frame(PING));
        let got = frames(&bytes);
        // The body (and all that follows, here) is consumed: an error, then the end.
        assert_eq!(got.len(), 1);
        assert_eq!(error_code(&got[0]), Some(ErrorCode::InvalidRequest as i64));
        let huge = b"Content-Length: 18446744073709551615\r\n\r\n{}";
        assert_eq!(frames(huge).len(), 1);
        let beyond = b"Content-Length: 18446744073709551616\r\n\r\n";
        assert_eq!(error_code(&frames(beyond)[0]), Some(-32600));
    }

    #[test]
    fn malformed_bodies_are_errors_and_reading_goes_on() {
        let mut bytes = frame(br#"{"a"#);
        bytes.extend(frame(br#"{"id":"\ud800","method":"x"}"#));
        bytes.extend(frame(br#"{"id":true}"#));
        bytes.extend(frame(PING));
        let got = frames(&bytes);
        assert_eq!(got.len(), 4);
        assert_eq!(error_code(&got[0]), Some(-32700));
        assert_eq!(error_code(&got[1]), Some(-32700));
        assert_eq!(error_code(&got[2]), Some(-32600));
        assert!(is_message(&got[3]));
    }

    #[test]
    fn bad_headers_are_errors_and_a_long_line_is_not_kept() {
        let mut bytes = b"Content-Type: x\r\n\r\n".to_vec();
        bytes.extend_from_slice(b"Content-Length: ten\r\n\r\n");
        bytes.extend(std::iter::repeat_n(b'x', 10 * MAX_HEADER_LINE));
        bytes.extend_from_slice(b"\r\n\r\n");
        bytes.extend(frame(PING));
        let got = frames(&bytes);
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(got[..3].iter().all(|g| error_code(g) == Some(-32600)));
        assert!(is_message(&got[3]));
    }
}
