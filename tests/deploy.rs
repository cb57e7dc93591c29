//! The documented deploy checked by Debian's own tools and read as a whole: `deploy/nginx/aiui.conf` inside an
//! `http` block beside the node's own server (with the lines the file tells the owner to add to it) parsed by
//! `nginx -t`; each origin under a host name of its own, on the LAN address only, behind TLS 1.2+ and HSTS, with a
//! default server that refuses every other name; no port wanted by nginx and the unit both; the unit passing the
//! host allowlists, `__Host-` cookies and the kiosk socket in its runtime directory; the env example defining
//! what the unit reads (with node.env, which `aiui-cli serve pair` writes); `systemd-analyze verify` on the unit and
//! on the kiosk's (`deploy/aiui-kiosk.service`), and a reading of the kiosk's seat, tty and user.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn repo(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn have(tool: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap().status.success()
}

// ---- nginx: just enough of its grammar to read directives and blocks ----

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Semicolon,
    Open,
    Close,
}

#[derive(Debug)]
enum Item {
    Directive(Vec<String>),
    Block(Vec<String>, Vec<Item>),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' => while chars.next_if(|&n| n != '\n').is_some() {},
            '"' | '\'' => {
                let word: String = chars.by_ref().take_while(|&n| n != c).collect();
                out.push(Token::Word(word));
            }
            ';' => out.push(Token::Semicolon),
            '{' => out.push(Token::Open),
            '}' => out.push(Token::Close),
            c if c.is_whitespace() => {}
            c => {
                let mut word = c.to_string();
                while let Some(n) = chars.next_if(|&n| !n.is_whitespace() && !";{}\"'".contains(n)) {
                    word.push(n);
                }
                out.push(Token::Word(word));
            }
        }
    }
    out
}

fn items(tokens: &mut std::vec::IntoIter<Token>) -> Vec<Item> {
    let mut out = Vec::new();
    let mut words = Vec::new();
    while let Some(token) = tokens.next() {
        match token {
            Token::Word(w) => words.push(w),
            Token::Semicolon => out.push(Item::Directive(std::mem::take(&mut words))),
            Token::Open => {
                let inner = items(tokens);
                out.push(Item::Block(std::mem::take(&mut words), inner));
            }
            Token::Close => break,
        }
    }
    assert!(words.is_empty(), "an nginx directive without `;`: {words:?}");
    out
}

fn parse(text: &str) -> Vec<Item> {
    items(&mut tokens(text).into_iter())
}

/// The arguments of every `name` directive directly in `body` (not in its nested blocks).
fn args<'a>(body: &'a [Item], name: &str) -> Vec<Vec<&'a str>> {
    body.iter()
        .filter_map(|item| match item {
            Item::Directive(words) if words[0] == name => Some(words[1..].iter().map(String::as_str).collect()),
            _ => None,
        })
        .collect()
}

fn blocks<'a>(body: &'a [Item], name: &str) -> Vec<&'a [Item]> {
    body.iter()
        .filter_map(|item| match item {
            Item::Block(words, inner) if words[0] == name => Some(inner.as_slice()),
            _ => None,
        })
        .collect()
}

/// Every directive named `name` anywhere in `body`, nested blocks included.
fn args_deep<'a>(body: &'a [Item], name: &str) -> Vec<Vec<&'a str>> {
    let mut out = args(body, name);
    for item in body {
        if let Item::Block(_, inner) = item {
            out.extend(args_deep(inner, name));
        }
    }
    out
}

/// A `listen` argument's address and port; `None` for a bare port, which is every address.
fn listen_address(listen: &str) -> Option<(String, u16)> {
    let (address, port) = listen.rsplit_once(':')?;
    Some((address.to_owned(), port.parse().unwrap_or_else(|_| panic!("listen {listen}: no port"))))
}

fn is_default(server: &[Item]) -> bool {
    args(server, "listen").iter().any(|a| a.contains(&"default_server"))
}

/// The documented file, cert paths as written.
fn nginx_conf() -> (String, Vec<Item>) {
    let text = repo("deploy/nginx/aiui.conf");
    let parsed = parse(&text);
    (text, parsed)
}

fn servers(conf: &[Item]) -> Vec<&[Item]> {
    let servers = blocks(conf, "server");
    assert_eq!(servers.len(), conf.len(), "the file holds server blocks only (it is included in `http`)");
    servers
}

/// Where a server sends its requests: the address of its `proxy_pass http://…`.
fn upstream(server: &[Item]) -> Option<SocketAddr> {
    let passes = args_deep(server, "proxy_pass");
    let pass = passes.first()?;
    let target = pass[0].strip_prefix("http://").expect("proxy_pass to the unit over loopback http");
    Some(target.trim_end_matches('/').parse().unwrap_or_else(|e| panic!("proxy_pass {target}: {e}")))
}

// ---- the unit and the env file ----

/// The unit's `Key=value` settings in order, continuation lines joined, comments dropped.
fn unit_settings(unit: &str) -> Vec<(String, String)> {
    let joined = unit.replace("\\\n", " ");
    joined
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with(';') && !line.starts_with('['))
        .map(|line| {
            let (key, value) = line.split_once('=').unwrap_or_else(|| panic!("not a setting: {line}"));
            (key.trim().to_owned(), value.trim().to_owned())
        })
        .collect()
}

fn setting<'a>(settings: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    settings.iter().filter(|(k, _)| k == key).map(|(_, v)| v.as_str()).collect()
}

fn exec_start() -> Vec<String> {
    let settings = unit_settings(&repo("deploy/aiui.service"));
    let exec = setting(&settings, "ExecStart");
    assert_eq!(exec.len(), 1, "one ExecStart: {exec:?}");
    exec[0].split_whitespace().map(str::to_owned).collect()
}

/// The values given to `flag` on a command line.
fn values<'a>(words: &'a [String], flag: &str) -> Vec<&'a str> {
    words.windows(2).filter(|w| w[0] == flag).map(|w| w[1].as_str()).collect()
}

fn one_value<'a>(words: &'a [String], flag: &str) -> &'a str {
    match values(words, flag)[..] {
        [value] => value,
        ref other => panic!("ExecStart gives {flag} {} times: {other:?}", other.len()),
    }
}

/// The env example's variables.
fn env_example() -> BTreeMap<String, String> {
    repo("deploy/aiui.env.example")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, value) = line.split_once('=').unwrap_or_else(|| panic!("not NAME=value: {line}"));
            (name.to_owned(), value.to_owned())
        })
        .collect()
}

/// A `${NAME}` the unit's command line reads, e.g. `${AIUI_CHAT_HOST}` → `AIUI_CHAT_HOST`.
fn variable(word: &str) -> &str {
    word.strip_prefix("${").and_then(|w| w.strip_suffix('}')).unwrap_or_else(|| panic!("{word} is not ${{NAME}}"))
}

// ---- the tests ----

#[test]
fn nginx_parses_the_documented_layout_and_no_port_is_wanted_twice() {
    for tool in ["nginx", "openssl"] {
        assert!(have(tool), "{tool} is missing: `bash scripts/setup` installs it (scripts/apt-packages)");
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let cert = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=node"])
        .args(["-keyout", &format!("{d}/test.key"), "-out", &format!("{d}/test.crt")])
        .output()
        .unwrap();
    assert!(cert.status.success(), "{}", String::from_utf8_lossy(&cert.stderr));
    let (text, conf) = nginx_conf();
    // Every certificate the file names, made from the one test pair.
    for (directive, made) in [("ssl_certificate", "test.crt"), ("ssl_certificate_key", "test.key")] {
        for path in args_deep(&conf, directive) {
            let name = path[0].strip_prefix("/etc/nginx/ssl/").expect("certificates under /etc/nginx/ssl/");
            std::fs::copy(dir.path().join(made), dir.path().join(name)).unwrap();
        }
    }
    std::fs::write(dir.path().join("aiui.conf"), text.replace("/etc/nginx/ssl/", &format!("{d}/"))).unwrap();
    // The node's own server as it is (every address), plus the lines the file's header tells the owner to add.
    let added: Vec<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("#     "))
        .map(|line| line.replace("<the node's name>", "node.lan"))
        .collect();
    assert_eq!(added.len(), 2, "the header gives the node's server a listen and a server_name line: {added:?}");
    let wrapper = format!(
        "pid {d}/nginx.pid; error_log {d}/error.log;\nevents {{}}\nhttp {{\n access_log off;\n \
         server {{ listen 443 ssl; ssl_certificate {d}/test.crt; ssl_certificate_key {d}/test.key;\n  {}\n \
         location / {{ return 200; }} }}\n include {d}/aiui.conf;\n}}\n",
        added.join("\n  ")
    );
    std::fs::write(dir.path().join("nginx.conf"), wrapper).unwrap();
    let tested = Command::new("nginx").args(["-t", "-c", &format!("{d}/nginx.conf")]).output().unwrap();
    let said = String::from_utf8_lossy(&tested.stderr);
    assert!(tested.status.success(), "nginx -t: {said}");
    // A name two servers on one address share is only a warning to nginx; here it is a failure.
    assert!(!said.contains("[warn]"), "nginx -t warns: {said}");

    let words = exec_start();
    let unit_listens: Vec<SocketAddr> = ["--listen", "--trusted-listen"]
        .into_iter()
        .map(|flag| one_value(&words, flag).parse().unwrap_or_else(|e| panic!("{flag}: {e}")))
        .collect();
    let nginx_ports: Vec<u16> = args_deep(&conf, "listen")
        .iter()
        .map(|a| listen_address(a[0]).map_or_else(|| a[0].parse().unwrap(), |(_, port)| port))
        .collect();
    for addr in &unit_listens {
        assert!(addr.ip().is_loopback(), "the unit listens on loopback only, behind nginx: {addr}");
        assert!(!nginx_ports.contains(&addr.port()), "nginx and the unit both want port {}", addr.port());
    }
    // And nginx sends each origin to the listener the unit opens, chat first.
    let upstreams: Vec<SocketAddr> = servers(&conf).into_iter().filter_map(upstream).collect();
    assert_eq!(upstreams, unit_listens, "proxy_pass targets vs the unit's listeners");
}

#[test]
fn each_origin_has_its_own_host_name_and_listens_on_the_lan_address_only() {
    let (_, conf) = nginx_conf();
    let servers = servers(&conf);
    let (defaults, named): (Vec<_>, Vec<_>) = servers.iter().partition(|s| is_default(s));
    assert_eq!(defaults.len(), 1, "one default server refuses unknown names");
    let default = defaults[0];
    let refusal = args(default, "return");
    assert!(
        refusal == [["444"]] || refusal == [["421"]],
        "the default server answers every other Host with 444 or 421: {refusal:?}"
    );
    assert!(args_deep(default, "proxy_pass").is_empty(), "the default server proxies nothing");

    let mut owner: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, server) in named.iter().enumerate() {
        let names: Vec<&str> = args(server, "server_name").concat();
        assert!(!names.is_empty(), "server {i} has no server_name");
        for name in names {
            // A catch-all, wildcard or regex name would let a rebound name in again.
            assert!(
                name != "_" && !name.contains('*') && !name.starts_with('~') && !name.starts_with('.'),
                "server {i}: {name} is not one exact host name"
            );
            if let Some(other) = owner.insert(name, i) {
                panic!("servers {other} and {i} both answer to {name}");
            }
        }
    }
    assert_eq!(owner.len(), 2, "the chat and the trusted origin, each under its own name: {owner:?}");

    let default_at: Vec<(String, u16)> = args(default, "listen").iter().filter_map(|a| listen_address(a[0])).collect();
    for (i, server) in servers.iter().enumerate() {
        for listen in args(server, "listen") {
            let (address, port) = listen_address(listen[0])
                .unwrap_or_else(|| panic!("server {i}: `listen {}` is every address", listen[0]));
            assert!(
                !["0.0.0.0", "*", "[::]", "[::0]"].contains(&address.as_str()),
                "server {i}: `listen {}` is every address",
                listen[0]
            );
            assert!(
                default_at.contains(&(address.clone(), port)),
                "server {i} listens on {address}:{port}, where no default server refuses unknown names"
            );
        }
    }
}

#[test]
fn every_tls_server_has_tls12_or_later_and_hsts() {
    let (_, conf) = nginx_conf();
    for (i, server) in servers(&conf).iter().enumerate() {
        if !args(server, "listen").iter().any(|a| a.contains(&"ssl")) {
            continue;
        }
        let protocols = args(server, "ssl_protocols");
        assert!(protocols == [["TLSv1.2", "TLSv1.3"]], "server {i}: ssl_protocols TLSv1.2 TLSv1.3, got {protocols:?}");
        let hsts = args(server, "add_header")
            .into_iter()
            .find(|a| a[0].eq_ignore_ascii_case("Strict-Transport-Security"))
            .unwrap_or_else(|| panic!("server {i} sends no Strict-Transport-Security"));
        assert!(hsts.len() == 3 && hsts[1].starts_with("max-age=") && hsts[2] == "always", "server {i}: {hsts:?}");
    }
}

#[test]
fn nginx_sends_each_name_to_the_origin_the_env_file_names_it_for() {
    let (_, conf) = nginx_conf();
    let env = env_example();
    let words = exec_start();
    for (flag, host_flag) in [("--listen", "--allowed-host"), ("--trusted-listen", "--trusted-host")] {
        let listener: SocketAddr = one_value(&words, flag).parse().unwrap();
        let host = &env[variable(one_value(&words, host_flag))];
        let server = servers(&conf)
            .into_iter()
            .find(|s| upstream(s) == Some(listener))
            .unwrap_or_else(|| panic!("no server proxies to {listener}"));
        let names = args(server, "server_name");
        assert!(names == [[host.as_str()]], "the server for {listener} answers to {names:?}, not {host}");
        assert!(!args_deep(server, "client_max_body_size").is_empty(), "the server for {listener} limits bodies");
    }
    let chat: SocketAddr = one_value(&words, "--listen").parse().unwrap();
    let chat = servers(&conf).into_iter().find(|s| upstream(s) == Some(chat)).unwrap();
    assert!(args_deep(chat, "proxy_buffering") == [["off"]], "SSE through the chat is not buffered");
    assert!(!args_deep(chat, "proxy_read_timeout").is_empty(), "a turn's events outlive nginx's default 60 s");

    // The chat page's approval link goes to the trusted origin's own name, over https, under the root.
    let url = &env[variable(one_value(&words, "--trusted-url"))];
    assert_eq!(url, &format!("https://{}/", env[variable(one_value(&words, "--trusted-host"))]));
    assert_ne!(
        env[variable(one_value(&words, "--allowed-host"))],
        env[variable(one_value(&words, "--trusted-host"))],
        "the two origins share a host name"
    );
}

#[test]
fn the_unit_passes_the_host_allowlists_host_only_cookies_and_the_kiosk_socket() {
    let words = exec_start();
    assert_eq!(words[0], "/usr/bin/aiui-cli", "where the aiui-node package installs it");
    assert_eq!(words[1], "serve");
    for flag in ["--secure-cookies", "--trust-proxy"] {
        assert!(words.iter().any(|w| w == flag), "ExecStart lacks {flag}");
    }
    // The names come from the env file (one place to replace them), never written into the unit.
    for flag in ["--allowed-host", "--trusted-host", "--trusted-url", "--lan-approver"] {
        variable(one_value(&words, flag));
    }
    assert_eq!(one_value(&words, "--base-path"), "/", "each origin has its own host, so it is served at the root");

    let settings = unit_settings(&repo("deploy/aiui.service"));
    let socket = Path::new(one_value(&words, "--kiosk-socket"));
    let runtime = setting(&settings, "RuntimeDirectory");
    assert_eq!(runtime.len(), 1, "RuntimeDirectory: {runtime:?}");
    assert_eq!(
        socket.parent(),
        Some(Path::new("/run").join(runtime[0]).as_path()),
        "the socket is not in /run/{}",
        runtime[0]
    );
    // The kiosk's user (group aiui) may enter the runtime directory; the data dir stays the service's alone.
    assert_eq!(setting(&settings, "RuntimeDirectoryMode"), ["0750"]);
    assert_eq!(setting(&settings, "StateDirectoryMode"), ["0700"]);
    assert_eq!(setting(&settings, "Group"), ["aiui"]);
    let families = setting(&settings, "RestrictAddressFamilies").join(" ");
    assert!(families.split_whitespace().any(|f| f == "AF_UNIX"), "the kiosk socket needs AF_UNIX: {families}");
}

/// What `aiui-cli serve pair` writes to /etc/aiui/node.env (aiui-cli's tests/pair.rs checks the file itself).
const PAIRED: [&str; 2] = ["AIUI_NODE_URL", "AIUI_NODE_FINGERPRINT"];

#[test]
fn the_env_example_defines_every_variable_the_unit_uses_and_no_secret() {
    let settings = unit_settings(&repo("deploy/aiui.service"));
    assert_eq!(setting(&settings, "EnvironmentFile"), ["/etc/aiui/aiui.env", "/etc/aiui/node.env"]);
    let env = env_example();
    let used: Vec<&str> = settings
        .iter()
        .flat_map(|(_, value)| value.split_whitespace())
        .filter(|word| word.starts_with('$'))
        .map(variable)
        .collect();
    assert!(used.len() >= 6, "the node, its fingerprint, both hosts, the trusted URL, the approver: {used:?}");
    for name in used {
        if PAIRED.contains(&name) {
            assert!(!env.contains_key(name), "{name} is written by `serve pair`; the conffile must not set it too");
            continue;
        }
        assert!(env.get(name).is_some_and(|v| !v.is_empty()), "deploy/aiui.env.example does not define {name}");
    }
    for name in env.keys() {
        for word in ["PASSWORD", "SECRET", "TOKEN", "KEY", "TOTP"] {
            assert!(!name.contains(word), "{name} looks like a secret; secrets go in credentials, not the env file");
        }
    }
}

/// `systemd-analyze verify` on a copy of `unit` whose ExecStart binaries are stubs, so the test needs neither the
/// package installed nor the kiosk's compositor and app; warnings about the unit fail too.
fn verify(unit_name: &str, binaries: &[&str]) {
    if !have("systemd-analyze") {
        // Straight to the file descriptor, past the test harness's capture, so the skip shows in every run.
        let reason = format!(
            "SKIPPED systemd-analyze verify {unit_name}: systemd-analyze is not on this machine (package systemd)\n"
        );
        std::io::Write::write_all(&mut std::io::stderr(), reason.as_bytes()).unwrap();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut unit = repo(&format!("deploy/{unit_name}"));
    for binary in binaries {
        let stub = dir.path().join(Path::new(binary).file_name().unwrap());
        std::fs::write(&stub, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
        let exec = format!("ExecStart={binary} ");
        assert!(unit.contains(&exec), "{unit_name} has no {exec}");
        unit = unit.replace(&exec, &format!("ExecStart={} ", stub.display()));
    }
    let copy = dir.path().join(unit_name);
    std::fs::write(&copy, unit).unwrap();
    let verified = Command::new("systemd-analyze").args(["verify", "--man=no"]).arg(&copy).output().unwrap();
    let said = String::from_utf8_lossy(&verified.stderr);
    assert!(verified.status.success(), "systemd-analyze verify {unit_name}: {said}");
    // An unknown key or a bad value is only a warning to systemd (exit 0); here it is a failure.
    let about_the_unit: Vec<&str> = said.lines().filter(|l| l.contains(unit_name)).collect();
    assert!(about_the_unit.is_empty(), "systemd-analyze verify {unit_name}: {}", about_the_unit.join("\n"));
}

#[test]
fn systemd_analyze_verifies_the_unit() {
    verify("aiui.service", &["/usr/bin/aiui-cli"]);
}

#[test]
fn systemd_analyze_verifies_the_kiosk_unit() {
    verify("aiui-kiosk.service", &["/usr/bin/cage"]);
}

#[test]
fn the_kiosk_runs_the_app_under_cage_on_tty1_as_its_own_user() {
    let settings = unit_settings(&repo("deploy/aiui-kiosk.service"));
    let exec = setting(&settings, "ExecStart");
    assert_eq!(exec, ["/usr/bin/cage -- /usr/bin/aiui --kiosk"], "cage runs the desktop app's kiosk layout");
    // Skipped, not failed, on a node without the desktop app or the compositor (aiui-node only suggests them).
    let conditions = setting(&settings, "ConditionPathExists");
    for path in ["/usr/bin/aiui", "/usr/bin/cage"] {
        assert!(conditions.contains(&path), "no ConditionPathExists={path}: {conditions:?}");
    }
    assert_eq!(setting(&settings, "TTYPath"), ["/dev/tty1"]);
    assert_eq!(setting(&settings, "Conflicts"), ["getty@tty1.service"], "tty1 is the kiosk's, not a getty's");
    assert_eq!(setting(&settings, "PAMName"), ["login"], "a logind session gives cage its seat");
    let user = setting(&settings, "User");
    assert!(user.len() == 1 && !["root", "aiui"].contains(&user[0]), "its own user, not root's or the service's");
    // The service's runtime directory is group aiui's, so the kiosk user reaches the socket as its member (the
    // package's postinst adds it) and nothing else of the service's.
    let service = unit_settings(&repo("deploy/aiui.service"));
    assert_eq!(setting(&service, "Group"), ["aiui"]);
    assert_eq!(setting(&service, "RuntimeDirectoryMode"), ["0750"]);
    // Installed, never enabled by the package: `WantedBy` is only where `systemctl enable` puts it.
    assert_eq!(setting(&settings, "WantedBy"), ["graphical.target"]);
}
