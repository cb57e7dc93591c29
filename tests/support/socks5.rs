//! A tiny SOCKS5 proxy on loopback (RFC 1928, CONNECT without authentication), standing in for Tor: it counts the
//! connections it relays, records the target of each (a name when the client let the proxy resolve it), resolves
//! names from its own table as an exit would, and connects out from 127.0.0.2 so a server can tell proxied
//! connections from direct ones.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

/// Where the proxy's outgoing connections come from.
pub const PROXY_SOURCE: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// What the client asked the proxy to connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Name(String, u16),
    Address(SocketAddr),
}

#[derive(Default)]
struct Seen {
    targets: Mutex<Vec<Target>>,
}

/// A running proxy. Dropping it stops accepting.
pub struct Socks5 {
    addr: SocketAddr,
    seen: Arc<Seen>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for Socks5 {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Socks5 {
    /// A proxy that resolves the names in `names` (and nothing else, like an exit that cannot see the LAN).
    pub async fn start(names: &[(&str, IpAddr)]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port for the proxy");
        let addr = listener.local_addr().expect("the proxy's address");
        let names: Arc<HashMap<String, IpAddr>> =
            Arc::new(names.iter().map(|(name, ip)| ((*name).to_owned(), *ip)).collect());
        let seen = Arc::new(Seen::default());
        let server = tokio::spawn({
            let seen = seen.clone();
            async move {
                while let Ok((client, _)) = listener.accept().await {
                    let (seen, names) = (seen.clone(), names.clone());
                    tokio::spawn(async move {
                        let _ = relay(client, &seen, &names).await;
                    });
                }
            }
        });
        Self { addr, seen, server }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections the proxy was asked to make.
    pub fn connections(&self) -> usize {
        self.targets().len()
    }

    pub fn targets(&self) -> Vec<Target> {
        self.seen.targets.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

async fn relay(mut client: TcpStream, seen: &Seen, names: &HashMap<String, IpAddr>) -> std::io::Result<()> {
    // Greeting: version 5, the methods offered; we take "no authentication".
    let mut head = [0u8; 2];
    client.read_exact(&mut head).await?;
    let mut methods = vec![0u8; usize::from(head[1])];
    client.read_exact(&mut methods).await?;
    if head[0] != 5 || !methods.contains(&0) {
        client.write_all(&[5, 0xff]).await?;
        return Ok(());
    }
    client.write_all(&[5, 0]).await?;
    // Request: version, command (1 = CONNECT), reserved, address type.
    let mut request = [0u8; 4];
    client.read_exact(&mut request).await?;
    let target = match request[3] {
        1 => {
            let mut ip = [0u8; 4];
            client.read_exact(&mut ip).await?;
            Target::Address(SocketAddr::new(IpAddr::from(ip), client.read_u16().await?))
        }
        4 => {
            let mut ip = [0u8; 16];
            client.read_exact(&mut ip).await?;
            Target::Address(SocketAddr::new(IpAddr::V6(Ipv6Addr::from(ip)), client.read_u16().await?))
        }
        3 => {
            let len = client.read_u8().await?;
            let mut name = vec![0u8; usize::from(len)];
            client.read_exact(&mut name).await?;
            Target::Name(String::from_utf8_lossy(&name).into_owned(), client.read_u16().await?)
        }
        _ => return Ok(()),
    };
    seen.targets.lock().unwrap_or_else(|p| p.into_inner()).push(target.clone());
    let destination = match &target {
        Target::Address(addr) => Some(*addr),
        Target::Name(name, port) => names.get(name).map(|ip| SocketAddr::new(*ip, *port)),
    };
    let upstream = match destination {
        Some(addr) if request[1] == 1 => connect_from_proxy(addr).await.ok(),
        _ => None,
    };
    let Some(mut upstream) = upstream else {
        // 4: host unreachable.
        client.write_all(&[5, 4, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
        return Ok(());
    };
    client.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
    tokio::io::copy_bidirectional(&mut client, &mut upstream).await?;
    Ok(())
}

async fn connect_from_proxy(addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(PROXY_SOURCE, 0))?;
    socket.connect(addr).await
}
