//! Processes for the tests that run the server behind Debian's real nginx: free ports,
//! processes killed when dropped, and nginx itself with the deploy folder's proxy settings
//! (`deploy/xiangqi-proxy.conf`) in front of one or several servers.

// Each test that runs nginx uses a part of these.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Kills a process when dropped.
pub struct Running(pub Child);

impl Running {
    /// Kills the process at once (SIGKILL), as a machine that dies would stop it.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until something listens on `port`.
pub fn wait_listening(port: u16, what: &str) {
    let began = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "{what} did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn nginx_binary() -> PathBuf {
    ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("nginx is needed for this test (Debian's package nginx; scripts/test installs it)")
}

/// nginx on `public_port` (name `club.test`) in front of the servers on `server_ports`, with
/// the deploy folder's proxy settings, its files under `prefix`. Each answer says which
/// server gave it (`X-Upstream`), for the tests that stop one.
pub fn start_nginx(prefix: &Path, public_port: u16, server_ports: &[u16]) -> Running {
    std::fs::create_dir_all(prefix).unwrap();
    let proxy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/xiangqi-proxy.conf");
    let p = prefix.display();
    let servers: String = server_ports
        .iter()
        .map(|port| format!("    server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;\n"))
        .collect();
    let config = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {p}/nginx.pid;\n\
         error_log {p}/error.log;\nevents {{ worker_connections 256; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {p}/body;\n  proxy_temp_path {p}/proxy;\n\
           fastcgi_temp_path {p}/fastcgi;\n  uwsgi_temp_path {p}/uwsgi;\n  scgi_temp_path {p}/scgi;\n\
           map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}\n\
           upstream xiangqi_server {{\n{servers}  }}\n\
           server {{\n    listen 127.0.0.1:{public_port};\n    server_name club.test;\n\
             add_header X-Upstream $upstream_addr always;\n\
             include {};\n  }}\n}}\n",
        proxy.display()
    );
    let file = prefix.join("nginx.conf");
    std::fs::write(&file, config).unwrap();
    let child = Command::new(nginx_binary())
        .arg("-p")
        .arg(prefix)
        .arg("-c")
        .arg(&file)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start nginx");
    let running = Running(child);
    wait_listening(public_port, "nginx");
    running
}
