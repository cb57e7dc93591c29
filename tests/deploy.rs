//! The documented deploy checked by Debian's own tools: `deploy/nginx/aiui.conf` in the layout the README gives
//! (the location block inside the node's HTTPS server, the trusted origin's server block beside it) parsed by
//! `nginx -t`, and no port that nginx listens on wanted by the unit's listeners as well.

use std::process::Command;

fn repo(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The ports after `marker` in `text` (e.g. `listen 5181` or `--listen 127.0.0.1:5180`).
fn ports_after(text: &str, marker: &str) -> Vec<u16> {
    text.match_indices(marker)
        .filter_map(|(at, _)| {
            let rest = &text[at + marker.len()..];
            let digits: String = rest
                .trim_start()
                .trim_start_matches("[::]:")
                .trim_start_matches("127.0.0.1:")
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn nginx_parses_the_documented_layout_and_no_port_is_wanted_twice() {
    for tool in ["nginx", "openssl"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
        assert!(found.status.success(), "{tool} is missing: `bash scripts/setup` installs it (scripts/apt-packages)");
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let cert = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=node"])
        .args(["-keyout", &format!("{d}/node.key"), "-out", &format!("{d}/node.crt")])
        .output()
        .unwrap();
    assert!(cert.status.success(), "{}", String::from_utf8_lossy(&cert.stderr));
    let conf = repo("deploy/nginx/aiui.conf").replace("/etc/nginx/ssl/", &format!("{d}/"));
    let location = &conf[conf.find("\nlocation /aiui/ {").unwrap()..conf.find("# ---- 2.").unwrap()];
    let trusted = &conf[conf.find("\nserver {").unwrap()..];
    let wrapper = format!(
        "pid {d}/nginx.pid; error_log {d}/error.log;\nevents {{}}\nhttp {{\n access_log off;\n \
         server {{ listen 443 ssl; ssl_certificate {d}/node.crt; ssl_certificate_key {d}/node.key; {location} }}\n\
         {trusted}\n}}\n"
    );
    std::fs::write(dir.path().join("nginx.conf"), wrapper).unwrap();
    let tested = Command::new("nginx").args(["-t", "-c", &format!("{d}/nginx.conf")]).output().unwrap();
    assert!(tested.status.success(), "nginx -t: {}", String::from_utf8_lossy(&tested.stderr));

    let unit = repo("deploy/aiui.service");
    let nginx_listens: Vec<u16> = [443].into_iter().chain(ports_after(&conf, "listen ")).collect();
    let unit_listens = [ports_after(&unit, "--listen "), ports_after(&unit, "--trusted-listen ")].concat();
    assert_eq!(unit_listens.len(), 2, "the unit names both listeners: {unit_listens:?}");
    for port in &unit_listens {
        assert!(!nginx_listens.contains(port), "nginx and the unit both want port {port}: {nginx_listens:?}");
    }
    // And nginx sends each origin to the listener the unit opens.
    let upstreams = ports_after(&conf, "proxy_pass http://");
    assert_eq!(upstreams, unit_listens, "proxy_pass targets: {upstreams:?} vs the unit's {unit_listens:?}");
    assert!(conf.contains("ssl_protocols") && conf.contains("Strict-Transport-Security"));
}
