//! The main window's commands: the conversation list, a turn streamed over a channel, node state and the allowance
//! to read, and a request for the trusted window. None of them approves, spends, changes settings or reads a secret.

use aiui_core::gate::Requester;
use aiui_core::store::ConversationId;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use super::CommandError;
use crate::Shell;
use crate::ipc::{AllowanceView, AppInfo, ChatEvent, ConversationDetail, ConversationView, NodeView, PackageView};

/// The longest title taken from a first message.
const TITLE_CHARS: usize = 60;

#[tauri::command]
pub fn app_info(shell: State<'_, Shell>) -> AppInfo {
    let node = shell.node();
    AppInfo {
        version: env!("CARGO_PKG_VERSION"),
        demo: shell.mode.demo,
        kiosk: shell.mode.kiosk,
        unpaired: shell.agent().is_none().then(|| shell.unpaired_reason()),
        node: node.map(|n| NodeView { url: n.url, demo: n.demo }),
    }
}

#[tauri::command]
pub async fn conversations_list(shell: State<'_, Shell>) -> Result<Vec<ConversationView>, CommandError> {
    let store = shell.store.clone();
    let list = tokio::task::spawn_blocking(move || store.list_conversations())
        .await
        .map_err(|e| CommandError::new("internal", e.to_string()))?
        .map_err(|e| CommandError::new("store", e.to_string()))?;
    Ok(list.into_iter().map(ConversationView::from).collect())
}

#[tauri::command]
pub async fn conversation_load(shell: State<'_, Shell>, id: String) -> Result<ConversationDetail, CommandError> {
    let store = shell.store.clone();
    let conversation = tokio::task::spawn_blocking(move || store.load(&ConversationId(id)))
        .await
        .map_err(|e| CommandError::new("internal", e.to_string()))?
        .map_err(|e| CommandError::new("store", e.to_string()))?;
    Ok(conversation.into())
}

/// Starts a turn and returns the conversation's id at once; the turn's events arrive on `on_event`, which only
/// the calling window can read.
#[tauri::command]
pub async fn chat_send(
    shell: State<'_, Shell>,
    conversation: Option<String>,
    text: String,
    on_event: Channel<ChatEvent>,
) -> Result<String, CommandError> {
    let text = text.trim().to_owned();
    if text.is_empty() {
        return Err(CommandError::said("empty", shell.locale(), "error-empty-message", &[]));
    }
    let Some(agent) = shell.agent() else {
        return Err(CommandError::new("not_paired", shell.unpaired_reason()));
    };
    let Some(slot) = shell.begin_turn() else {
        return Err(CommandError::said("busy", shell.locale(), "error-busy-answering", &[]));
    };
    let id = match conversation {
        Some(id) => ConversationId(id),
        None => {
            let title: String = text.chars().take(TITLE_CHARS).collect();
            shell.store.create_conversation(&title).map_err(|e| CommandError::new("store", e.to_string()))?
        }
    };
    let reply = id.0.clone();
    let kiosk = shell.mode.kiosk;
    tauri::async_runtime::spawn(async move {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let turn = {
            let (agent, id, stop) = (agent.clone(), id.clone(), slot.stop.clone());
            // The confirmations this turn opens name where it was asked: the node's own screen or this desktop.
            let requester = if kiosk { Requester::Kiosk } else { Requester::ThisDesktop };
            tauri::async_runtime::spawn(async move { agent.turn_stoppable(&id, &text, &tx, &requester, &stop).await })
        };
        while let Some(event) = rx.recv().await {
            // A window that went away no longer listens; the turn still finishes and is stored.
            let _ = on_event.send(ChatEvent::from(event));
        }
        let failure = match turn.await {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(e.to_string()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(message) = failure {
            tracing::error!(%message, "a turn failed");
            let _ = on_event.send(ChatEvent::Failed { message });
        }
        drop(slot);
    });
    Ok(reply)
}

/// Stops the running turn (the chat's Stop button, or Escape): the answer so far is kept, marked stopped. Nothing
/// runs: no approval, no setting; a turn that already ended is left as it is.
#[tauri::command]
pub fn chat_stop(shell: State<'_, Shell>) -> bool {
    shell.stop_turn()
}

/// The node's apps and their states, for the chat window's status list.
#[tauri::command]
pub async fn node_packages(shell: State<'_, Shell>) -> Result<Vec<PackageView>, CommandError> {
    let Some(agent) = shell.agent() else {
        return Err(CommandError::new("not_paired", shell.unpaired_reason()));
    };
    let packages = agent.node.list_packages().await.map_err(|e| CommandError::new("node", e.to_string()))?;
    Ok(packages.into_iter().map(PackageView::from).collect())
}

/// One-tap questions built from the node's state now (the touch kiosk shows them above the message box).
#[tauri::command]
pub async fn chat_suggestions(shell: State<'_, Shell>) -> Result<Vec<String>, CommandError> {
    let Some(agent) = shell.agent() else {
        return Err(CommandError::new("not_paired", shell.unpaired_reason()));
    };
    aiui_core::suggest::suggested_questions(&agent.node, shell.locale())
        .await
        .map_err(|e| CommandError::new("node", e.to_string()))
}

/// Asks for the trusted window (settings, or a pending confirmation). It carries nothing: the chat window cannot
/// fill in or submit anything there. Async, so that it runs off the main thread: the window may have to be made,
/// and making a window waits for the main thread.
#[tauri::command]
pub async fn request_trusted_window<R: Runtime>(app: AppHandle<R>) -> Result<(), CommandError> {
    crate::windows::show_trusted(&app, false).map_err(|e| CommandError::new("window", e.to_string()))
}

/// The meter, read only: Routstr's sats, Claude's dollars and this month's free answers, each in its own unit.
/// Nothing here changes either allowance; that is the trusted window's.
#[tauri::command]
pub fn allowance_get(shell: State<'_, Shell>) -> AllowanceView {
    let mints = shell.agent().and_then(|agent| agent.node_mints());
    aiui_core::view::meter(&shell.budget().get(), &shell.claude_allowance().get(), &shell.store, shell.notices())
        .with_node_mints(mints)
}
