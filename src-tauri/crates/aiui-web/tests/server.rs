//! The LAN service over real loopback HTTP: a devnode, a replaying Ollama, the agent `build_chain` builds, and both
//! origins. Sign-in, cookies, the rate limit, Origin/CSRF checks, per-session conversations and turns, and the
//! trusted origin's decision rules (delay, passphrase, hash, single use); the wallet routes on a node without a
//! wallet (every refusal comes before "no wallet", and nothing of the seed, restoring or tokens is on the LAN).

mod support;

use std::time::Duration;

use aiui_web::LoginLimits;
use serde_json::{Value, json};
use support::{APPROVAL, Browser, LAN, Replies, fixture, harness, harness_with};

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_sets_a_strict_http_only_cookie_and_the_rate_limit_holds() {
    let limits = LoginLimits { per_address: 3, overall: 100, window: Duration::from_secs(60) };
    let h = harness(Replies::Script(Vec::new()), limits).await;
    let no_origin =
        h.http.post(format!("{}api/login", h.chat)).json(&json!({ "passphrase": LAN })).send().await.unwrap();
    assert_eq!(no_origin.status(), 403, "a sign-in without this origin's Origin header is refused");
    let other = h.login(&h.chat, &h.trusted_origin, LAN).await;
    assert_eq!(other.status(), 403, "a sign-in posted from the other origin is refused");

    let ok = h.login(&h.chat, &h.chat_origin, LAN).await;
    assert_eq!(ok.status(), 200);
    let cookie = ok.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("aiui_lan=") && cookie.contains("; Path=/aiui/; HttpOnly; SameSite=Strict"), "{cookie}");
    assert!(!ok.text().await.unwrap().contains(LAN));

    for _ in 0..3 {
        let wrong = h.login(&h.chat, &h.chat_origin, "not-the-passphrase").await;
        assert_eq!(wrong.status(), 401);
        let body: Value = wrong.json().await.unwrap();
        assert_eq!(body["code"], "wrong_passphrase");
        assert!(body["message"].as_str().unwrap().contains("That LAN passphrase is not right"), "{body}");
    }
    let limited = h.login(&h.chat, &h.chat_origin, LAN).await;
    assert_eq!(limited.status(), 429, "the limit holds even for the right passphrase");
    let wait: u64 = limited.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = limited.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().starts_with("Too many sign-in attempts. Wait"), "{body}");
    // The trusted origin counts its own tries: the chat origin's limit does not lock the owner out.
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, APPROVAL).await.status(), 200);
    assert_eq!(
        h.login(&h.trusted, &h.trusted_origin, LAN).await.status(),
        401,
        "the LAN passphrase is not the owner's"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_call_needs_its_own_origins_session_origin_header_and_csrf_token() {
    let h = harness(Replies::Script(Vec::new()), LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let trusted = h.sign_in(true).await;
    assert_eq!(h.invoke(&chat, "app_info", json!({})).await.0, 200);

    let signed_out = Browser { cookie: "aiui_lan=0000".into(), ..chat.clone() };
    assert_eq!(h.invoke(&signed_out, "app_info", json!({})).await.0, 401);
    let no_csrf = Browser { csrf: String::new(), ..chat.clone() };
    assert_eq!(h.invoke(&no_csrf, "app_info", json!({})).await.1["code"], "bad_origin");
    let other_csrf = Browser { csrf: trusted.csrf.clone(), ..chat.clone() };
    assert_eq!(
        h.invoke(&other_csrf, "app_info", json!({})).await.0,
        403,
        "the trusted origin's token is not the chat's"
    );
    let foreign = Browser { origin: h.trusted_origin.clone(), ..chat.clone() };
    assert_eq!(h.invoke(&foreign, "app_info", json!({})).await.0, 403, "a call from another origin");

    // A chat session is nothing on the trusted origin, and trusted commands do not exist on the chat origin.
    let chat_on_trusted = Browser { base: h.trusted.clone(), origin: h.trusted_origin.clone(), ..chat.clone() };
    assert_eq!(h.invoke(&chat_on_trusted, "trusted_pending", json!({})).await.0, 401);
    let (status, body) = h.invoke(&chat, "trusted_decide", json!({})).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("not_trusted")));
    // A decision posted to the trusted origin from the chat origin, with the owner's cookie and token: refused.
    let from_chat = Browser { origin: h.chat_origin.clone(), ..trusted.clone() };
    assert_eq!(h.invoke(&from_chat, "trusted_pending", json!({})).await.1["code"], "bad_origin");

    // The trusted origin's headers: no framing, no CORS, its own CSP.
    let page = h.http.get(&h.trusted).header("cookie", &trusted.cookie).send().await.unwrap();
    let headers = page.headers().clone();
    assert!(headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers.keys().all(|k| !k.as_str().starts_with("access-control-")), "{headers:?}");
    assert!(page.text().await.unwrap().contains("AIUI confirmation and settings"));
    let preflight = h
        .http
        .request(reqwest::Method::OPTIONS, format!("{}api/invoke/trusted_decide", h.trusted))
        .header("origin", &h.chat_origin)
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(preflight.headers().keys().all(|k| !k.as_str().starts_with("access-control-")));
    // The chat origin does not serve the trusted page, and the trusted origin redirects a stranger to sign-in.
    assert_eq!(h.http.get(format!("{}trusted.html", h.chat)).send().await.unwrap().status(), 404);
    let stranger = h.http.get(&h.trusted).send().await.unwrap();
    assert_eq!((stranger.status().as_u16(), stranger.headers()["location"].to_str().unwrap()), (303, "login.html"));
    assert_eq!(h.http.get(format!("{}../Cargo.toml", h.chat)).send().await.unwrap().status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_decision_needs_the_delay_the_passphrase_and_the_hash_and_is_single_use() {
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness(Replies::Script(replies), LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let (status, started) = h.invoke(&chat, "chat_send", json!({ "conversation": null, "text": "restart lnd" })).await;
    assert_eq!(status, 200, "{started}");
    let turn = started["turn"].as_str().unwrap().to_owned();
    let seen = h.events(&chat, &turn, "awaiting_confirmation").await;
    assert!(seen.contains("Restart app `lnd`"), "{seen}");
    // Another LAN session cannot read this turn's events.
    let other = h.sign_in(false).await;
    let stolen = h.http.get(format!("{}api/turns/{turn}/events", h.chat)).header("cookie", &other.cookie).send().await;
    assert_eq!(stolen.unwrap().status(), 404);
    // A Last-Event-ID no turn reaches asks for nothing more: the service answers, it does not panic.
    let mut beyond = h
        .http
        .get(format!("{}api/turns/{turn}/events", h.chat))
        .header("cookie", &chat.cookie)
        .header("last-event-id", u64::MAX.to_string())
        .send()
        .await
        .expect("the event stream opens");
    assert_eq!(beyond.status(), 200);
    if let Ok(Ok(Some(bytes))) = tokio::time::timeout(std::time::Duration::from_secs(1), beyond.chunk()).await {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("data:"), "no event lies past the end: {text}");
    }
    drop(beyond);
    assert!(h.http.get(format!("{}api/session", h.chat)).send().await.unwrap().status().is_success());

    let owner = h.sign_in(true).await;
    let (_, pending) = h.invoke(&owner, "trusted_pending", json!({})).await;
    let (id, hash) = (pending[0]["id"].as_str().unwrap(), pending[0]["arguments_hash"].as_str().unwrap());
    assert!(!seen.contains(id) && !seen.contains(hash), "the chat origin never sees the id or hash");
    let decide = |hash: &str, secret: Option<&str>| json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": secret });
    let code = |r: (u16, Value)| (r.0, r.1["code"].as_str().unwrap_or_default().to_owned());
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, Some(APPROVAL))).await), (409, "too_soon".into()));
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let other_owner = h.sign_in(true).await;
    assert_eq!(
        code(h.invoke(&other_owner, "trusted_decide", decide(hash, Some(APPROVAL))).await),
        (409, "too_soon".into()),
        "the delay runs from when this session was shown the request"
    );
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, None)).await), (403, "secret_required".into()));
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, Some(LAN))).await), (403, "wrong_secret".into()));
    let wrong_hash = "0".repeat(64);
    assert_eq!(
        code(h.invoke(&owner, "trusted_decide", decide(&wrong_hash, Some(APPROVAL))).await),
        (409, "mismatch".into())
    );
    let (status, verdict) = h.invoke(&owner, "trusted_decide", decide(hash, Some(APPROVAL))).await;
    assert_eq!((status, verdict), (200, json!("allowed")));
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, Some(APPROVAL))).await), (404, "unknown".into()));
    let after = h.events(&chat, &turn, "\"event\":\"done\"").await;
    assert!(after.contains("package.restart lnd") || after.contains("\"surface\""), "{after}");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_session_sees_only_its_own_conversations() {
    let h = harness(Replies::Script(vec![fixture("chat_answer_plain.json")]), LoginLimits::default()).await;
    let alice = h.sign_in(false).await;
    let bob = h.sign_in(false).await;
    let (_, started) = h.invoke(&alice, "chat_send", json!({ "conversation": null, "text": "hello" })).await;
    let conversation = started["conversation"].as_str().unwrap().to_owned();
    h.events(&alice, started["turn"].as_str().unwrap(), "\"event\":\"done\"").await;
    let (_, mine) = h.invoke(&alice, "conversations_list", json!({})).await;
    assert_eq!(mine.as_array().unwrap().len(), 1);
    let (_, theirs) = h.invoke(&bob, "conversations_list", json!({})).await;
    assert_eq!(theirs, json!([]));
    let (status, _) = h.invoke(&bob, "conversation_load", json!({ "id": conversation })).await;
    assert_eq!(status, 404);
    let (status, _) = h.invoke(&bob, "chat_send", json!({ "conversation": conversation, "text": "mine now" })).await;
    assert_eq!(status, 404, "nor continue it");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_wallet_routes_refuse_everyone_but_the_owner_before_saying_there_is_no_wallet() {
    let h = harness(Replies::Script(Vec::new()), LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let owner = h.sign_in(true).await;
    let code = |r: (u16, Value)| (r.0, r.1["code"].as_str().unwrap_or_default().to_owned());
    let body = json!({ "invoice": "lnbc1", "id": "0".repeat(64), "secret": APPROVAL });
    let from_chat = Browser { origin: h.chat_origin.clone(), ..owner.clone() };
    let foreign = Browser { origin: "http://evil.example".into(), ..owner.clone() };
    let no_csrf = Browser { csrf: String::new(), ..owner.clone() };
    let chat_on_trusted = Browser { base: h.trusted.clone(), origin: h.trusted_origin.clone(), ..chat.clone() };
    for path in ["api/wallet", "api/wallet/quote", "api/wallet/withdraw"] {
        for (who, browser) in [("chat origin", &from_chat), ("foreign page", &foreign), ("no CSRF token", &no_csrf)] {
            assert_eq!(code(h.post(browser, path, body.clone()).await), (403, "bad_origin".into()), "{path}: {who}");
        }
        assert_eq!(code(h.post(&chat_on_trusted, path, body.clone()).await), (401, "signed_out".into()), "{path}");
        let (status, _) = h.post(&chat, path, body.clone()).await;
        assert!(matches!(status, 404 | 405), "the chat origin has no {path}: {status}");
    }
    for command in ["trusted_wallet", "trusted_wallet_withdraw", "trusted_wallet_backup", "trusted_wallet_restore"] {
        assert_eq!(code(h.invoke(&chat, command, json!({})).await), (403, "not_trusted".into()), "{command}");
    }
    // The owner: a wrong or missing passphrase is refused before the missing wallet is mentioned.
    let withdraw = |secret: Option<&str>| json!({ "id": "0".repeat(64), "secret": secret });
    let missing = h.post(&owner, "api/wallet/withdraw", withdraw(None)).await;
    assert_eq!(code(missing), (403, "secret_required".into()));
    let wrong = h.post(&owner, "api/wallet/withdraw", withdraw(Some(LAN))).await;
    assert_eq!(code(wrong), (403, "wrong_secret".into()));
    let (status, answer) = h.post(&owner, "api/wallet/withdraw", withdraw(Some(APPROVAL))).await;
    assert_eq!((status, answer["code"].as_str()), (409, Some("no_wallet")), "{answer}");
    assert!(answer["message"].as_str().unwrap().starts_with("There is no wallet on this node"), "{answer}");
    assert_eq!(code(h.post(&owner, "api/wallet", json!({})).await), (409, "no_wallet".into()));
    assert_eq!(code(h.post(&owner, "api/wallet/quote", body.clone()).await), (409, "no_wallet".into()));
    assert_eq!(h.invoke(&owner, "trusted_wallet", json!({})).await.1["opened"], false);
    // The seed, restoring, receiving and sending tokens stay on the node.
    for command in ["trusted_wallet_backup", "trusted_wallet_restore", "trusted_wallet_send", "trusted_wallet_receive"]
    {
        assert_eq!(code(h.invoke(&owner, command, json!({})).await), (501, "not_on_lan".into()), "{command}");
    }
}

/// The one meter on the LAN: the chat origin's read-only view and the trusted origin's overview carry Claude's dollars
/// beside Routstr's sats, and this month's free answers, counted from the service's own store.
#[tokio::test(flavor = "multi_thread")]
async fn both_origins_show_the_one_meter_with_claude_and_the_free_answers() {
    let h = harness(Replies::Script(vec![fixture("chat_answer_plain.json")]), LoginLimits::default()).await;
    aiui_core::budget::ClaudeAllowance::open(&h.data_dir)
        .unwrap()
        .set(aiui_core::budget::ClaudeUpdate {
            allowance_usd_micros: Some(5_000_000),
            period: Some(aiui_core::budget::Period::Monthly),
        })
        .unwrap();
    let chat = h.sign_in(false).await;
    let (_, started) = h.invoke(&chat, "chat_send", json!({ "conversation": null, "text": "hello" })).await;
    let events = h.events(&chat, started["turn"].as_str().unwrap(), "\"event\":\"done\"").await;
    assert!(events.contains("\"event\":\"spent\"") && events.contains("\"label\":\"$0\""), "{events}");
    let (status, meter) = h.invoke(&chat, "allowance_get", json!({})).await;
    assert_eq!(status, 200, "{meter}");
    assert_eq!(meter["claude"]["allowance"], "$5.00", "{meter}");
    assert_eq!(meter["claude"]["period"], "monthly");
    assert_eq!(meter["free_answers"]["local"], 1, "the answer just given, by the local leg: {meter}");
    assert_eq!(meter["allowance_sats"], 0);
    let owner = h.sign_in(true).await;
    let (status, settings) = h.invoke(&owner, "trusted_settings", json!({})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["budget"]["claude"]["remaining"], "$5.00", "{settings}");
    assert_eq!(settings["budget"]["free_answers"]["local"], 1);
    assert!(settings.get("claude_prices").is_none(), "the LAN shows the allowance; it sets neither it nor a price");

    // What any process on the data dir spends of Claude's allowance shows on both origins, each figure formatted by
    // the host, with the 80% notice once settled spend reaches it; the free answers are counted from the 1st, UTC.
    let claude = aiui_core::budget::ClaudeAllowance::open(&h.data_dir).unwrap();
    let held = claude.reserve(&claude.policy(), 4_500_000).unwrap();
    let (_, meter) = h.invoke(&chat, "allowance_get", json!({})).await;
    assert_eq!((&meter["claude"]["reserved"], &meter["claude"]["remaining"]), (&json!("$4.50"), &json!("$0.50")));
    assert_eq!(meter["claude"]["notice_80"], false, "a reservation is not spend: {meter}");
    claude.settle(held, 4_250_000);
    let (status, settings) = h.invoke(&owner, "trusted_settings", json!({})).await;
    for (status, view) in [h.invoke(&chat, "allowance_get", json!({})).await, (status, settings["budget"].clone())] {
        assert_eq!(status, 200, "{view}");
        assert_eq!(view["claude"]["spent"], "$4.25", "{view}");
        assert_eq!(view["claude"]["remaining"], "$0.75", "{view}");
        assert_eq!(view["claude"]["notice_80"], true, "{view}");
        assert_eq!(view["notice_80"], false, "Routstr's notice is its own: {view}");
        assert_eq!(view["free_answers"]["builtin"], 0, "{view}");
        let (since, now) = (view["free_answers"]["since_ms"].as_i64().unwrap(), aiui_core::now_ms());
        assert_eq!(aiui_core::budget::month_start_utc(since), since, "{view}");
        assert!(since <= now && now - since < 31 * 86_400_000, "{view}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pages_words_follow_the_browsers_language_on_both_origins_before_sign_in() {
    let h = harness(Replies::Script(Vec::new()), LoginLimits::default()).await;
    let words = |base: String, language: Option<&'static str>| {
        let mut request = h.http.get(format!("{base}api/ui-text"));
        if let Some(language) = language {
            request = request.header("accept-language", language);
        }
        async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 200, "no session is needed: the sign-in page is translated too");
            response.json::<Value>().await.unwrap()
        }
    };
    for base in [h.chat.clone(), h.trusted.clone()] {
        let english = words(base.clone(), None).await;
        let spanish = words(base.clone(), Some("es-ES,es;q=0.9,en;q=0.5")).await;
        assert_eq!((english["lang"].as_str(), spanish["lang"].as_str()), (Some("en"), Some("es")), "{base}");
        let (en, es) = (english["messages"].as_object().unwrap(), spanish["messages"].as_object().unwrap());
        assert!(en.len() > 50, "{base}: the pages' words are sent ({} of them)", en.len());
        assert_eq!(en.keys().collect::<Vec<_>>(), es.keys().collect::<Vec<_>>(), "every key in both");
        let translated = en.iter().filter(|(key, text)| es[key.as_str()] != **text).count();
        assert!(translated * 10 >= en.len() * 8, "{base}: only {translated} of {} differ from English", en.len());
        assert_eq!(words(base.clone(), Some("de-AT, en;q=0.1")).await["lang"], "de");
        assert_eq!(words(base.clone(), Some("fr-FR")).await["lang"], "en", "a language AIUI lacks is English");
    }
    // A language the node's owner set for the service wins over the browser's.
    let fixed = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), false, |c| {
        c.locale = Some(aiui_core::i18n::Locale::De)
    })
    .await;
    let response = fixed.http.get(format!("{}api/ui-text", fixed.chat)).header("accept-language", "es").send().await;
    assert_eq!(response.unwrap().json::<Value>().await.unwrap()["lang"], "de");
}

/// What the service refuses is said in the browser's language: a wrong sign-in, a tool switch with a wrong
/// approval secret (a refusal on the trusted origin that guards the owner's approvals), and a sign-in past the rate
/// limit with its plural. English stays as it was.
#[tokio::test(flavor = "multi_thread")]
async fn refusals_are_said_in_the_browsers_language() {
    let limits = LoginLimits { per_address: 2, overall: 100, window: Duration::from_secs(60) };
    let h = harness(Replies::Script(Vec::new()), limits).await;
    let login = |language: &'static str| {
        let request = h
            .http
            .post(format!("{}api/login", h.chat))
            .header("origin", &h.chat_origin)
            .header("accept-language", language)
            .json(&json!({ "passphrase": "not-the-passphrase" }));
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap())
        }
    };
    let (status, spanish) = login("es-ES,es;q=0.9").await;
    assert_eq!((status, spanish["code"].as_str()), (401, Some("wrong_passphrase")), "{spanish}");
    assert_eq!(
        spanish["message"],
        "Esa frase de contraseña de la LAN no es correcta. Compruébela con el propietario del nodo y vuelva a intentarlo."
    );
    let (_, english) = login("en-GB").await;
    assert_eq!(english["message"], "That LAN passphrase is not right. Check it with the node's owner and try again.");
    let (status, limited) = login("de-DE").await;
    assert_eq!(status, 429, "{limited}");
    let message = limited["message"].as_str().unwrap();
    assert!(message.starts_with("Zu viele Anmeldeversuche. Warten Sie "), "{message}");

    let owner = h.sign_in(true).await;
    let grant = json!({ "tool": "package_restart", "enabled": false, "secret": "a wrong passphrase" });
    let (status, body) = h.post_in(&owner, Some("de"), "api/invoke/trusted_set_grant", grant).await;
    assert_eq!(status, 403);
    assert_eq!(body["code"], "wrong_secret", "the code the page acts on stays as it is");
    assert_eq!(
        body["message"],
        "Das ist nicht die Freigabe-Passphrase (oder ein aktueller TOTP-Code). Nichts wurde geändert."
    );
}
