//! Small scripted relays on loopback for what real relays do only when broken or hostile: serve events whatever
//! the filter, accept a REQ and never answer, close every subscription with a reason; and an address that refuses.

use std::net::SocketAddr;

use async_wsocket::futures_util::{SinkExt, StreamExt};
use async_wsocket::native::{self, Message};
use nostr_sdk::prelude::{ClientMessage, Event, JsonUtil, RelayMessage};

/// What the stub answers to every REQ.
#[derive(Debug, Clone)]
pub enum Script {
    /// These events, whatever the filter asked for, then EOSE.
    Serve(Vec<Event>),
    /// Nothing, ever: the connection stays open.
    Silent,
    /// `CLOSED` with this message.
    Close(String),
}

pub struct StubRelay {
    pub url: String,
    accept_loop: tokio::task::JoinHandle<()>,
}

impl Drop for StubRelay {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}

impl StubRelay {
    pub async fn start(script: Script) -> Self {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
        let url = format!("ws://{}", listener.local_addr().unwrap());
        let accept_loop = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                tokio::spawn(answer(tcp, script.clone()));
            }
        });
        Self { url, accept_loop }
    }
}

async fn answer(tcp: tokio::net::TcpStream, script: Script) {
    let Ok(mut ws) = native::accept(tcp).await else { return };
    while let Some(Ok(message)) = ws.next().await {
        let Ok(text) = message.to_text() else { continue };
        let Ok(ClientMessage::Req { subscription_id, .. }) = ClientMessage::from_json(text) else { continue };
        let id = subscription_id.into_owned();
        let replies = match &script {
            Script::Serve(events) => {
                let mut replies: Vec<RelayMessage> =
                    events.iter().map(|e| RelayMessage::event(id.clone(), e.clone())).collect();
                replies.push(RelayMessage::eose(id));
                replies
            }
            Script::Silent => Vec::new(),
            Script::Close(reason) => vec![RelayMessage::closed(id, reason.clone())],
        };
        for reply in replies {
            if ws.send(Message::text(reply.as_json())).await.is_err() {
                return;
            }
        }
    }
}

/// A loopback address nothing listens on: connecting to it is refused at once.
pub fn refused_url() -> String {
    let listener = std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("ws://{addr}")
}
