//! A real `xiangqi play` server for the tests that run it as a process: started on a free
//! port, spoken to over HTTP/1.1 on plain sockets, signalled and waited for.

// Each test that runs the server uses a part of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// One HTTP/1.1 request on a connection of its own: the status and the body, or `None` when
/// the connection failed or was cut (the server went away).
pub fn request(port: u16, method: &str, path: &str, body: Option<&str>) -> Option<(u16, String)> {
    let host = format!("127.0.0.1:{port}");
    request_with(port, method, path, body, &[("Host", &host)])
        .map(|(status, _, body)| (status, body))
}

/// One HTTP/1.1 request on a connection of its own with `headers` (a `Host` among them): the
/// status, the head (status line and headers) and the body; `None` as for [`request`].
pub fn request_with(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Option<(u16, String, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    let body = body.unwrap_or("");
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n")?;
    let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        unchunk(rest)?
    } else {
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().to_string())
            })
            .and_then(|v| v.parse().ok())
            // A 204 answer has no body and need not say so.
            .or((status == 204).then_some(0))?;
        // A body cut short is no answer.
        (rest.len() >= length).then(|| rest[..length].to_string())?
    };
    Some((status, head.to_string(), body))
}

/// A chunked body put together; `None` when it was cut before its last chunk.
pub fn unchunk(mut rest: &str) -> Option<String> {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n")?;
        let size = usize::from_str_radix(size.trim(), 16).ok()?;
        if size == 0 {
            return Some(body);
        }
        body.push_str(after.get(..size)?);
        rest = after.get(size + 2..)?;
    }
}

pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// Starts `xiangqi play` on a free port with its archive in `data`, SIGINT ignored as in a
/// background job of a shell; the process and its port.
pub fn start_server(data: &Path) -> (Child, u16) {
    let binary = env!("CARGO_BIN_EXE_xiangqi");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' INT; exec '{binary}' play --port 0 --searchers 2 --data '{}'",
            data.display()
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start xiangqi play");
    let stdout = child.stdout.take().expect("the server's output");
    let mut lines = BufReader::new(stdout).lines();
    let mut said = Vec::new();
    let port = loop {
        let Some(line) = lines.next().and_then(Result::ok) else {
            panic!("the server said no address: {said:?}");
        };
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok());
        match port {
            Some(port) => break port,
            None => said.push(line),
        }
    };
    // Keep reading, so that the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, port)
}

/// The moves of a game view, in ICCS.
pub fn moves_of(view: &serde_json::Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .filter_map(|m| m["iccs"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
