//! The server over real sockets: idle and half-sent connections are closed after the header
//! read time, more connections than the cap wait their turn, and play goes on meanwhile.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use xiangqi_web::{ServerOptions, bind, serve};

/// Starts a server on a free port with `options`; its port and the sender that stops it.
async fn start(options: ServerOptions) -> (u16, tokio::sync::mpsc::UnboundedSender<()>) {
    let listener = bind("127.0.0.1", 0).await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (stop, stops) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move { serve(listener, "127.0.0.1", &options, stops).await });
    (port, stop)
}

/// The status line of a `GET path` on a new connection.
fn get(port: u16, path: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_string()
}

/// Whether the server closed `socket` (a read gives end of file or an error) within `wait`.
fn closed_within(socket: &mut TcpStream, wait: Duration) -> bool {
    socket.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 256];
    loop {
        match socket.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_half_sent_connections_are_closed_and_play_goes_on() {
    let (port, stop) = start(ServerOptions {
        header_read_time: Duration::from_millis(800),
        max_connections: 64,
        ..ServerOptions::default()
    })
    .await;
    let result = tokio::task::spawn_blocking(move || {
        // Twice the cap of idle sockets, and half-sent requests that trickle a byte now
        // and then, as a slow client does.
        let mut idle: Vec<TcpStream> = (0..128)
            .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
            .collect();
        let mut half: Vec<TcpStream> = (0..8)
            .map(|_| {
                let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
                write!(
                    s,
                    "GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: "
                )
                .unwrap();
                s
            })
            .collect();
        let start = Instant::now();
        for s in &mut half {
            s.write_all(b"a").unwrap();
        }
        // While they are held, a request is answered once the first ones are closed.
        let status = get(port, "/api/levels");
        assert!(status.contains("200"), "{status}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        for (i, s) in idle.iter_mut().take(64).enumerate() {
            assert!(
                closed_within(s, Duration::from_secs(3)),
                "idle socket {i} stays open"
            );
        }
        for (i, s) in half.iter_mut().enumerate() {
            assert!(
                closed_within(s, Duration::from_secs(3)),
                "half-sent request {i} stays open"
            );
        }
        // A connection that keeps asking stays open longer than the header read time.
        let mut kept = TcpStream::connect(("127.0.0.1", port)).unwrap();
        for last in [false, false, true] {
            let close = if last { "Connection: close\r\n" } else { "" };
            write!(
                kept,
                "GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{close}\r\n"
            )
            .unwrap();
            std::thread::sleep(Duration::from_millis(500));
        }
        kept.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut answers = String::new();
        let _ = kept.read_to_string(&mut answers);
        assert_eq!(answers.matches("HTTP/1.1 200").count(), 3, "{answers}");
    })
    .await;
    let _ = stop.send(());
    result.unwrap();
}
