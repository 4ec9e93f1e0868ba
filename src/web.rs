//! The browser build's own parts: saves in `localStorage`, and a small read-only hook for the
//! browser test (attributes on `<body>`: ready, move count, where a click makes a move).
//! Reached through `js_sys` reflection, so no extra `web-sys` features (and no rebuild of the
//! crates that use it) are needed.
use std::io;

use bevy::prelude::*;
use js_sys::wasm_bindgen::{JsCast, JsValue};

use arachne_engine::Move;

use crate::core::persist::Storage;
use crate::spider::layout::{Layout, PileId};
use crate::spider::piles::{CardView, Piles};
use crate::spider::table::Table;

fn js_error(e: JsValue) -> io::Error {
    // A full storage is told apart: the oldest kept games make room (`persist::is_full`).
    let name = js_sys::Reflect::get(&e, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string());
    let kind = match name.as_deref() {
        Some("QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED") => io::ErrorKind::QuotaExceeded,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(
        kind,
        e.as_string()
            .or_else(|| {
                js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                    .ok()
                    .and_then(|m| m.as_string())
            })
            .unwrap_or_else(|| format!("{e:?}")),
    )
}

/// `target.name(args...)`.
fn call(target: &JsValue, name: &str, args: &[JsValue]) -> io::Result<JsValue> {
    let f: js_sys::Function = js_sys::Reflect::get(target, &JsValue::from_str(name))
        .map_err(js_error)?
        .dyn_into()
        .map_err(|_| io::Error::other(format!("`{name}` is not a function")))?;
    let list = js_sys::Array::new();
    for a in args {
        list.push(a);
    }
    js_sys::Reflect::apply(&f, target, &list).map_err(js_error)
}

fn global(name: &str) -> io::Result<JsValue> {
    let v = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(name)).map_err(js_error)?;
    if v.is_null_or_undefined() {
        return Err(io::Error::other(format!("no `{name}` in this page")));
    }
    Ok(v)
}

/// Saves `text` as the file `name` through the browser's download (a player in the browser
/// has no data directory to take a kept game or a theme from).
pub fn download(name: &str, text: &str) -> io::Result<()> {
    let document = global("document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = js_sys::Object::new();
    js_sys::Reflect::set(
        &options,
        &JsValue::from_str("type"),
        &JsValue::from_str("text/plain;charset=utf-8"),
    )
    .map_err(js_error)?;
    let blob = js_sys::Reflect::construct(
        global("Blob")?.unchecked_ref::<js_sys::Function>(),
        &js_sys::Array::of2(&parts, &options),
    )
    .map_err(js_error)?;
    let urls = global("URL")?;
    let url = call(&urls, "createObjectURL", &[blob])?;
    let link = call(&document, "createElement", &[JsValue::from_str("a")])?;
    js_sys::Reflect::set(&link, &JsValue::from_str("href"), &url).map_err(js_error)?;
    js_sys::Reflect::set(
        &link,
        &JsValue::from_str("download"),
        &JsValue::from_str(name),
    )
    .map_err(js_error)?;
    call(&link, "click", &[])?;
    // The download has its own copy of the text once it started.
    let revoke =
        js_sys::Function::new_with_args("u", "setTimeout(() => URL.revokeObjectURL(u), 60000)");
    revoke.call1(&JsValue::NULL, &url).map_err(js_error)?;
    Ok(())
}

/// What a page call answered later (its promise settled), by its purpose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The text is on the clipboard (`Ok`), or why not (empty: the page may not write it).
    Copied(Result<(), String>),
    /// A file the player opened: its name and its text, or why it could not be read.
    Opened(Result<(String, String), String>),
}

/// Where the page's later answers wait for the frame that takes them.
const ANSWERS: &str = "__arachneAnswers";

/// A function of the page's, made once (`js_sys::Function::new_with_args`).
fn page_function(
    slot: &'static std::thread::LocalKey<std::cell::OnceCell<js_sys::Function>>,
    args: &str,
    body: &str,
) -> js_sys::Function {
    slot.with(|f| {
        f.get_or_init(|| js_sys::Function::new_with_args(args, body))
            .clone()
    })
}

thread_local! {
    static COPY: std::cell::OnceCell<js_sys::Function> = const { std::cell::OnceCell::new() };
    static OPEN: std::cell::OnceCell<js_sys::Function> = const { std::cell::OnceCell::new() };
    /// Files opened that the window which asked has not taken yet, with their age in frames.
    static OPENED: std::cell::RefCell<Vec<(String, (String, String), u8)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Puts `text` on the clipboard; `purpose` comes back with the answer ([`take_answers`]), which
/// says whether it is there. Through the clipboard API where the page may use it (a secure
/// page); else, or when it refuses (no focus, no permission), by selecting the text in a box of
/// its own and the browser's copy command, as pages did before that API. (egui's own copy
/// uses only the API and says nothing when it fails: on a page served over plain http the
/// player was told "copied" and nothing was.)
pub fn copy_text(purpose: &str, text: &str) -> io::Result<()> {
    let f = page_function(
        &COPY,
        "purpose, text, slot",
        r#"
        const answer = (a) => (window[slot] ??= []).push({ purpose, kind: "copy", ...a });
        const bySelection = () => {
          const box = document.createElement("textarea");
          box.value = text;
          box.readOnly = true;
          box.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;opacity:0";
          // The overlay's text boxes take the page's copy events: this one is not theirs.
          box.addEventListener("copy", (e) => e.stopPropagation());
          const had = document.activeElement;
          document.body.appendChild(box);
          box.select();
          // (iOS selects nothing in a read-only box with select() alone.)
          box.setSelectionRange(0, box.value.length);
          let done = false;
          try { done = document.execCommand("copy"); } catch (e) {}
          box.remove();
          had?.focus?.();
          return done;
        };
        if (window.isSecureContext && navigator.clipboard?.writeText) {
          navigator.clipboard.writeText(text).then(
            () => answer({ ok: true }),
            (e) => answer(bySelection() ? { ok: true } : { ok: false, why: String(e?.message ?? e) }),
          );
        } else {
          answer(bySelection() ? { ok: true } : { ok: false, why: "" });
        }
        "#,
    );
    f.call3(
        &JsValue::NULL,
        &JsValue::from_str(purpose),
        &JsValue::from_str(text),
        &JsValue::from_str(ANSWERS),
    )
    .map(|_| ())
    .map_err(js_error)
}

/// Asks the player for a file to open (the browser's file chooser); its text comes back with
/// `purpose` ([`take_answers`], then [`take_opened`]). Phones cannot paste into the overlay's
/// text boxes, and a file saved with Download comes back this way.
pub fn open_file(purpose: &str) -> io::Result<()> {
    let f = page_function(
        &OPEN,
        "purpose, slot, limit",
        r#"
        const answer = (a) => (window[slot] ??= []).push({ purpose, kind: "open", ...a });
        const input = document.createElement("input");
        input.type = "file";
        input.style.display = "none";
        input.addEventListener("change", () => {
          const file = input.files?.[0];
          input.remove();
          document.getElementById("bevy")?.focus();
          if (!file) return;
          if (file.size > limit) {
            answer({ ok: false, name: file.name, why: "size" });
            return;
          }
          file.text().then(
            (text) => answer({ ok: true, name: file.name, text }),
            (e) => answer({ ok: false, name: file.name, why: String(e?.message ?? e) }),
          );
        });
        input.addEventListener("cancel", () => {
          input.remove();
          document.getElementById("bevy")?.focus();
        });
        // A file chooser opens only at a tap, click or key (the page's "user activation", which
        // the frame after it still has): without one the click below does nothing, silently.
        if (navigator.userActivation && !navigator.userActivation.isActive) {
          answer({ ok: false, name: "", why: "activation" });
          return;
        }
        // Inputs of choosers closed in browsers without the cancel event (Safari before 16.4)
        // go now; there, the page getting the focus back gives the keyboard to the game.
        for (const old of document.querySelectorAll("input[data-arachne-open]")) old.remove();
        input.dataset.arachneOpen = "";
        if (!("oncancel" in input)) {
          window.addEventListener("focus", () => document.getElementById("bevy")?.focus(), { once: true });
        }
        document.body.appendChild(input);
        input.click();
        "#,
    );
    f.call3(
        &JsValue::NULL,
        &JsValue::from_str(purpose),
        &JsValue::from_str(ANSWERS),
        &JsValue::from(crate::shell::widgets::OPEN_LIMIT as f64),
    )
    .map(|_| ())
    .map_err(js_error)
}

/// The page's answers that came since the last call, each with its purpose.
pub fn take_answers() -> Vec<(String, Answer)> {
    let global: JsValue = js_sys::global().into();
    let Ok(list) = js_sys::Reflect::get(&global, &JsValue::from_str(ANSWERS)) else {
        return Vec::new();
    };
    if list.is_null_or_undefined() {
        return Vec::new();
    }
    let _ = js_sys::Reflect::set(&global, &JsValue::from_str(ANSWERS), &JsValue::UNDEFINED);
    let field = |a: &JsValue, name: &str| {
        js_sys::Reflect::get(a, &JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    js_sys::Array::from(&list)
        .iter()
        .filter_map(|a| {
            let ok = js_sys::Reflect::get(&a, &JsValue::from_str("ok"))
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            // (A browser's message ends with a full stop; ours put it in brackets.)
            let why = field(&a, "why").trim_end_matches('.').to_string();
            let answer = match field(&a, "kind").as_str() {
                "copy" => Answer::Copied(if ok { Ok(()) } else { Err(why) }),
                "open" => {
                    let name = field(&a, "name");
                    Answer::Opened(if ok {
                        Ok((name, field(&a, "text")))
                    } else if why == "activation" {
                        Err(crate::core::i18n::t("web.open_no_gesture").to_string())
                    } else if why == "size" {
                        Err(crate::core::i18n::tf(
                            "web.open_too_large",
                            &[("name", &name)],
                        ))
                    } else {
                        Err(crate::core::i18n::tf(
                            "web.open_failed",
                            &[("name", &name), ("why", &why)],
                        ))
                    })
                }
                _ => return None,
            };
            Some((field(&a, "purpose"), answer))
        })
        .collect()
}

/// The file opened for `purpose` (its name and text), once: the window that asked takes it.
pub fn take_opened(purpose: &str) -> Option<(String, String)> {
    OPENED.with(|o| {
        let mut o = o.borrow_mut();
        let at = o.iter().position(|(p, _, _)| p == purpose)?;
        Some(o.remove(at).1)
    })
}

/// Each frame: the clipboard's answers become notices, and so do files that could not be
/// read; a file read waits a few frames for the window that asked for it (`take_opened`),
/// and is dropped if that window was closed meanwhile.
fn answers(mut notices: ResMut<crate::core::focus::Notices>) {
    use crate::core::i18n::{t, tf};
    for (purpose, answer) in take_answers() {
        match answer {
            Answer::Copied(Ok(())) => notices.push(crate::shell::widgets::copied_notice(&purpose)),
            Answer::Copied(Err(why)) if why.is_empty() => {
                notices.push(t("web.copy_refused").to_string())
            }
            Answer::Copied(Err(why)) => notices.push(tf("web.copy_refused_why", &[("why", &why)])),
            Answer::Opened(Err(why)) => notices.push(why),
            Answer::Opened(Ok(file)) => {
                OPENED.with(|o| o.borrow_mut().push((purpose, file, 0)));
            }
        }
    }
    OPENED.with(|o| {
        o.borrow_mut().retain_mut(|(purpose, _, age)| {
            *age += 1;
            let keep = *age <= 3;
            if !keep {
                tracing::info!("a file opened for {purpose} was left: its window closed");
            }
            keep
        })
    });
}

/// Log lines go to the page's console (`console.error`, `.warn`, `.info`, `.debug`), in place
/// of Bevy's log plugin (see [`crate::lines`]). Call once, first thing.
pub fn log_to_console() {
    fn sink(level: tracing::Level, line: &str) {
        let method = match level {
            tracing::Level::ERROR => "error",
            tracing::Level::WARN => "warn",
            tracing::Level::INFO => "info",
            _ => "debug",
        };
        if let Ok(console) = global("console") {
            let _ = call(&console, method, &[JsValue::from_str(line)]);
        }
    }
    crate::core::lines::Lines::new(sink).install();
}

/// The page's query string as command-line arguments, for the options a link may choose:
/// `?game=pro-spider-10&players=3&ai=petra&seed=5` is `--game pro-spider-10 --players 3 ...`
/// ([`crate::cli::args_from_query`]), or why they cannot be read (an option's `%` escape that
/// does not decode); apart, the keys it names that are no such option (a page's query is not a
/// command line: the player is told they were left out). The query is
/// then taken out of the page's address (`history.replaceState`): a reload resumes the game in
/// progress instead of leaving it for the link's game again, a loss each time.
pub fn args_from_page() -> (Result<Vec<String>, String>, Vec<String>) {
    let search = global("location")
        .and_then(|l| js_sys::Reflect::get(&l, &JsValue::from_str("search")).map_err(js_error))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    let decoded = crate::cli::args_from_query(&search, |v| {
        js_sys::decode_uri_component(v)
            .ok()
            .and_then(|v| v.as_string())
    });
    if !search.trim_start_matches('?').is_empty() {
        forget_query();
    }
    decoded
}

/// Replaces the page's address by itself without its query (the path and the fragment stay).
fn forget_query() {
    let part = |name: &str| {
        global("location")
            .ok()
            .and_then(|l| js_sys::Reflect::get(&l, &JsValue::from_str(name)).ok())
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let address = format!("{}{}", part("pathname"), part("hash"));
    if let Ok(history) = global("history")
        && let Err(e) = call(
            &history,
            "replaceState",
            &[
                JsValue::NULL,
                JsValue::from_str(""),
                JsValue::from_str(&address),
            ],
        )
    {
        tracing::warn!("the link's options stay in the address: {e}");
    }
}

/// The browser's language tag (`navigator.language`, such as `de-DE`).
pub fn browser_language() -> Option<String> {
    global("navigator")
        .ok()
        .and_then(|n| js_sys::Reflect::get(&n, &JsValue::from_str("language")).ok())
        .and_then(|l| l.as_string())
}

/// Whether a sound started now is heard now: the page's audio runs (or a click has just
/// asked it to). While the browser keeps the audio waiting for the player, sounds sent to it
/// pile up and all play at the first click. True on a page without the game's own
/// `arachneAudioRuns` (index.html).
pub fn audio_runs() -> bool {
    global("window")
        .and_then(|page| call(&page, "arachneAudioRuns", &[]))
        .map_or(true, |runs| runs.is_truthy())
}

/// Entries in the page's `localStorage`, each under `arachne/KEY`.
#[derive(Debug, Default)]
pub struct LocalStorage;

const PREFIX: &str = "arachne/";

/// Copies set aside of one entry that are kept (the newest).
const KEEP_BAD: usize = 3;

impl LocalStorage {
    fn store() -> io::Result<JsValue> {
        global("localStorage")
    }

    /// Whether the page's storage can be read: a browser set to keep no site data (cookies
    /// blocked) refuses it, and then nothing the game saves is kept. (Writing is not tried: a
    /// full storage still gives back what it holds.)
    pub fn works() -> Result<(), String> {
        LocalStorage
            .read(crate::core::settings::SETTINGS_KEY)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Every key of the page's storage (with the prefix).
    fn raw_keys() -> io::Result<Vec<String>> {
        let store = Self::store()?;
        let len = js_sys::Reflect::get(&store, &JsValue::from_str("length"))
            .map_err(js_error)?
            .as_f64()
            .unwrap_or(0.0) as u32;
        let mut keys = Vec::new();
        for i in 0..len {
            if let Some(k) = call(&store, "key", &[JsValue::from(i)])?.as_string() {
                keys.push(k);
            }
        }
        Ok(keys)
    }

    /// The numbers of the copies of `key` set aside (`KEY.bad-N`), lowest first.
    fn bad_copies(&self, key: &str) -> io::Result<Vec<u32>> {
        let mut copies = bad_numbers(&format!("{PREFIX}{key}.bad-"), &Self::raw_keys()?);
        copies.sort_unstable();
        Ok(copies)
    }
}

/// The numbers `N` of the keys that are `prefix` followed by `N`.
fn bad_numbers(prefix: &str, keys: &[String]) -> Vec<u32> {
    keys.iter()
        .filter_map(|k| k.strip_prefix(prefix)?.parse().ok())
        .collect()
}

impl Storage for LocalStorage {
    fn read(&self, key: &str) -> io::Result<Option<String>> {
        let v = call(
            &Self::store()?,
            "getItem",
            &[JsValue::from_str(&format!("{PREFIX}{key}"))],
        )?;
        Ok(v.as_string())
    }

    fn write(&self, key: &str, text: &str) -> io::Result<()> {
        crate::core::persist::refuse_held(&self.identity(), key)?;
        // One setItem call replaces the entry whole (or throws, e.g. over quota).
        call(
            &Self::store()?,
            "setItem",
            &[
                JsValue::from_str(&format!("{PREFIX}{key}")),
                JsValue::from_str(text),
            ],
        )
        .map(|_| ())
    }

    fn set_aside(&self, key: &str) -> io::Result<Option<String>> {
        let Some(text) = self.read(key)? else {
            return Ok(None);
        };
        // The page's storage is small (about 5 MB): only the newest few copies set aside of
        // each entry are kept, so damaged saves cannot fill it up over the months. The new copy
        // is written first: older copies make room for it only when the storage is full, and
        // none is dropped for a copy that cannot be written after all.
        let mut copies = self.bad_copies(key)?;
        let n = copies.last().map_or(1, |&n| n + 1);
        let backup = format!("{key}.bad-{n}");
        while let Err(e) = self.write(&backup, &text) {
            if copies.is_empty() || !crate::core::persist::is_full(&e) {
                return Err(e);
            }
            let oldest = copies.remove(0);
            self.remove(&format!("{key}.bad-{oldest}"))?;
        }
        while copies.len() >= KEEP_BAD {
            let oldest = copies.remove(0);
            self.remove(&format!("{key}.bad-{oldest}"))?;
        }
        self.remove(key)?;
        Ok(Some(format!("localStorage {PREFIX}{backup}")))
    }

    fn keys(&self) -> io::Result<Vec<String>> {
        let mut keys: Vec<String> = Self::raw_keys()?
            .into_iter()
            .filter_map(|k| Some(k.strip_prefix(PREFIX)?.to_string()))
            .filter(|k| !k.contains(".bad-"))
            .collect();
        keys.sort_unstable();
        Ok(keys)
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        crate::core::persist::refuse_held(&self.identity(), key)?;
        call(
            &Self::store()?,
            "removeItem",
            &[JsValue::from_str(&format!("{PREFIX}{key}"))],
        )
        .map(|_| ())
    }

    /// The page's one storage.
    fn identity(&self) -> String {
        "localStorage".into()
    }
}

/// Calls `handle(event's type, whether the page is visible, whether it has the focus)` for
/// each of the page's events
/// `events` (of the document or the window, as named); `what` says what would be missing if
/// they cannot be listened to. The page keeps the handler for its whole life.
fn on_page_events(
    events: &[(&str, &str)],
    what: &str,
    mut handle: impl FnMut(&str, bool, bool) + 'static,
) {
    use js_sys::wasm_bindgen::closure::Closure;
    let Ok(document) = global("document") else {
        return;
    };
    let doc = document.clone();
    let handler = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let kind = js_sys::Reflect::get(&event, &JsValue::from_str("type"))
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default();
        let visible = js_sys::Reflect::get(&doc, &JsValue::from_str("visibilityState"))
            .ok()
            .and_then(|v| v.as_string())
            .is_none_or(|v| v != "hidden");
        let focused = call(&doc, "hasFocus", &[])
            .ok()
            .and_then(|f| f.as_bool())
            .unwrap_or(true);
        handle(&kind, visible, focused);
    });
    let f: &JsValue = handler.as_ref();
    let window: JsValue = js_sys::global().into();
    for &(on, event) in events {
        let target = if on == "document" { &document } else { &window };
        if let Err(e) = call(
            target,
            "addEventListener",
            &[JsValue::from_str(event), f.clone()],
        ) {
            tracing::warn!("cannot {what}: {e}");
        }
    }
    handler.forget();
}

/// Settings still waiting for a moment of calm are saved when the page is hidden or closed:
/// a hidden page draws no more frames, and a closed one never will
/// (`persist::UnsavedSettings`), into the storage the game saves to. So are they when its
/// window loses the focus: a window beside it that the player clicks into takes them up at
/// once (`persist::Refocused`), and would otherwise save its own over them later.
fn save_when_hidden(
    unsaved: crate::core::persist::UnsavedSettings,
    storage: std::sync::Arc<dyn Storage>,
) {
    on_page_events(
        &[
            ("document", "visibilitychange"),
            ("window", "pagehide"),
            ("window", "blur"),
        ],
        "save the settings when the page closes",
        move |kind, visible, _| {
            if kind == "pagehide" || kind == "blur" || !visible {
                unsaved.save_now(storage.as_ref());
            }
        },
    );
}

/// Settings another tab or window of the page writes are taken up here at once
/// (`persist::SettingsWrittenElsewhere`; the browser sends a `storage` event to every other
/// page of the site).
fn take_up_settings_written_elsewhere(written: crate::core::persist::SettingsWrittenElsewhere) {
    use js_sys::wasm_bindgen::closure::Closure;
    let settings_key = format!("{PREFIX}{}", crate::core::settings::SETTINGS_KEY);
    let handler = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let key = js_sys::Reflect::get(&event, &JsValue::from_str("key"))
            .ok()
            .and_then(|k| k.as_string());
        // (No key: the whole storage was cleared; nothing to take up.)
        if key.as_deref() == Some(settings_key.as_str()) {
            written.set();
        }
    });
    let window: JsValue = js_sys::global().into();
    if let Err(e) = call(
        &window,
        "addEventListener",
        &[JsValue::from_str("storage"), handler.as_ref().clone()],
    ) {
        tracing::warn!("cannot take up settings another tab changes: {e}");
    }
    handler.forget();
}

/// When the page's tab is shown again or its window takes the focus, each game looks for a
/// game another tab saved meanwhile and takes it up (`persist::Refocused`); while it is hidden
/// or its window has lost the focus, it waits once the player is at another tab or another tab
/// saves (`persist::StandBy`).
fn look_again_when_shown() {
    on_page_events(
        &[
            ("document", "visibilitychange"),
            ("window", "focus"),
            ("window", "blur"),
        ],
        "look for another tab's game when this one comes back",
        |kind, visible, focused| {
            if kind == "blur" || !visible {
                crate::core::persist::unfocused();
            } else if kind == "focus" || focused {
                // (A tab shown again in a window without the focus, say one uncovered by
                // another window, is not where the player is: its focus will say so.)
                crate::core::persist::refocused();
            }
        },
    );
}

/// Each frame's gap to the workers' pacer (`core::worker::frame`).
fn pace_workers(time: Res<Time<Real>>) {
    crate::core::worker::frame(time.delta());
}

/// Publishes the test hook on `<body>` and logs "arachne: ready" once the first deal is at rest.
/// `data-arachne-ready` is 1 while the table is at rest (after the first deal) and 0 while
/// anything moves. Also hands each frame's gap to the workers' pacer.
pub fn plugin(app: &mut App) {
    let world = app.world();
    if let (Some(pending), Some(saves), Some(written)) = (
        world.get_resource::<crate::core::persist::SaveSettings>(),
        world.get_resource::<crate::core::persist::Saves>(),
        world.get_resource::<crate::core::persist::SettingsWrittenElsewhere>(),
    ) {
        save_when_hidden(pending.unsaved(), saves.0.clone());
        look_again_when_shown();
        take_up_settings_written_elsewhere(written.clone());
    }
    app.add_systems(Update, answers)
        .add_systems(
            Last,
            (publish, publish_studio, publish_notices, pace_workers),
        )
        .add_systems(
            Last,
            publish_search.run_if(in_state(crate::GameKind::Spider)),
        )
        .add_systems(
            Last,
            publish_phase10.run_if(in_state(crate::GameKind::ProSpider10)),
        );
}

/// Pro Spider 10's part of the hook: `data-p10-ready` (1 at rest on the player's decision),
/// `data-p10-stage` (`draw`, `play`, `other`), `data-p10-round`, `data-p10-hand` (cards in the
/// player's hand), `data-p10-turns` (turns the player has ended), and where (CSS pixels) to click
/// the stock (`data-p10-stock`), to choose the card to discard (`data-p10-discard`: the player's
/// highest card that is not a skip) and the discard pile (`data-p10-pile`, its spot when it is
/// empty); `data-p10-chosen`
/// counts the chosen cards.
fn publish_phase10(
    table: Res<crate::phase10::round::P10Table>,
    piles: Res<crate::phase10::view::P10Piles>,
    layout: Option<Res<crate::phase10::layout::P10Layout>>,
    anims: Query<(), With<bevy_tweening::TweenAnim>>,
    poses: Query<&crate::cards::motion::CardPose>,
    selection: Res<crate::phase10::view::Selection>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut turns: Local<(usize, bool)>,
) {
    use crate::phase10::round::PLAYER;
    use arachne_engine::phase10::Stage;
    let game = &table.game;
    let mine = table.players_turn();
    // A turn of the player's ended when the decision passed on from a play.
    if turns.1 && !mine {
        turns.0 += 1;
    }
    turns.1 = mine && game.stage() == Stage::Play;
    let (Some(layout), Ok(window)) = (layout, window.single()) else {
        return;
    };
    let ready = mine && anims.is_empty() && !piles.hands.is_empty();
    let css_at = |p: Vec2| {
        let x = p.x - layout.card.x * 0.3 + window.width() / 2.0;
        let y = window.height() / 2.0 - p.y;
        format!("{x:.0},{y:.0}")
    };
    let css = |e: Entity| poses.get(e).ok().map(|p| css_at(p.translation.truncate()));
    let stock = piles.stock.last().and_then(|&e| css(e));
    let discard = piles.hands.get(PLAYER).and_then(|hand| {
        hand.iter()
            .filter(|e| piles.cards.get(e).is_some_and(|c| !c.is_skip()))
            .max_by_key(|e| piles.cards[e].value().unwrap_or(0))
            .and_then(|&e| css(e))
    });
    // The pile's spot when it holds no card (a click there discards too).
    let pile = piles
        .discard
        .last()
        .map_or(Some(css_at(layout.discard)), |&e| css(e));
    let stage = match game.stage() {
        Stage::Draw => "draw",
        Stage::Play => "play",
        _ => "other",
    };
    let attrs = [
        (
            "data-p10-ready",
            Some(if ready { "1" } else { "0" }.to_string()),
        ),
        ("data-p10-stage", Some(stage.to_string())),
        ("data-p10-round", Some(game.round().to_string())),
        (
            "data-p10-hand",
            Some(piles.hands.get(PLAYER).map_or(0, Vec::len).to_string()),
        ),
        ("data-p10-turns", Some(turns.0.to_string())),
        ("data-p10-stock", stock),
        ("data-p10-discard", discard),
        ("data-p10-pile", pile),
        ("data-p10-chosen", Some(selection.0.len().to_string())),
    ];
    write_changed(attrs);
}

/// Sets each attribute of `<body>` whose value changed (`None` removes it).
/// The studio's part of the hook: `data-arachne-theme` is the id of the theme shown (`draft`
/// while the editor changes one), `data-arachne-themes` the ids in the theme list, and
/// `data-arachne-windows` the studio windows open (`themes`, `tuner`).
fn publish_studio(
    theme: Res<crate::core::theme::Theme>,
    themes: Res<crate::core::theme::Themes>,
    draft: Res<crate::core::theme::ThemeDraft>,
    windows: Res<crate::shell::Windows>,
) {
    if !(theme.is_changed() || themes.is_changed() || draft.is_changed() || windows.is_changed()) {
        return;
    }
    let shown = if draft.0.is_some() {
        "draft".to_string()
    } else {
        theme.id.clone()
    };
    let ids: Vec<&str> = themes.0.iter().map(|e| e.theme.id.as_str()).collect();
    let open: Vec<&str> = [("themes", windows.themes), ("tuner", windows.tuner)]
        .into_iter()
        .filter_map(|(n, o)| o.then_some(n))
        .collect();
    write_changed([
        ("data-arachne-theme", Some(shown)),
        ("data-arachne-themes", Some(ids.join(","))),
        ("data-arachne-windows", Some(open.join(","))),
    ]);
}

/// The notices showing, one a line, in `data-arachne-notices` (none: no attribute).
/// (Their time left changes every frame; the page is written only when the texts change.)
fn publish_notices(notices: Res<crate::core::focus::Notices>, mut shown: Local<String>) {
    let text: Vec<&str> = notices.0.iter().map(|(n, _)| n.as_str()).collect();
    let text = text.join("\n");
    if *shown == text {
        return;
    }
    write_changed([(
        "data-arachne-notices",
        (!text.is_empty()).then(|| text.clone()),
    )]);
    *shown = text;
}

fn write_changed<'a>(attrs: impl IntoIterator<Item = (&'a str, Option<String>)>) {
    let Ok(body) = global("document")
        .and_then(|d| js_sys::Reflect::get(&d, &JsValue::from_str("body")).map_err(js_error))
    else {
        return;
    };
    for (name, value) in attrs {
        let current = call(&body, "getAttribute", &[JsValue::from_str(name)])
            .ok()
            .and_then(|v| v.as_string());
        if current == value {
            continue;
        }
        let _ = match value {
            Some(v) => call(
                &body,
                "setAttribute",
                &[JsValue::from_str(name), JsValue::from_str(&v)],
            ),
            None => call(&body, "removeAttribute", &[JsValue::from_str(name)]),
        };
    }
}

/// Spider's searches in the hook: `data-arachne-search` lists those running (`hint`,
/// `autocomplete`, `demo`, `winnable`, `outlook`), `data-arachne-workers` the solver workers
/// busy, `data-arachne-outlook` the "still winnable?" answer (`off`, `checking`, `winnable`,
/// `lost`, `unknown`), `data-arachne-tried` the deals tried by "winnable deals only",
/// `data-arachne-hint` the move a hint shows, `data-arachne-playback` what the viewer plays.
fn publish_search(
    hint: Option<Res<crate::spider::hint::HintTask>>,
    thinking: Option<Res<crate::spider::assist::Thinking>>,
    outlook: Res<crate::spider::assist::Outlook>,
    search: Res<crate::spider::assist::OutlookSearch>,
    highlights: Res<crate::spider::highlights::Highlights>,
    playback: Option<Res<crate::spider::playback::Playback>>,
) {
    use crate::spider::assist::{Job, Outlook};
    use crate::spider::playback::Kind;
    let mut running = Vec::new();
    if hint.is_some() {
        running.push("hint");
    }
    if let Some(t) = &thinking {
        running.push(match t.job {
            Job::AutoComplete => "autocomplete",
            Job::Demo => "demo",
            Job::WinnableDeal => "winnable",
        });
    }
    if search.is_running() {
        running.push("outlook");
    }
    let outlook = match *outlook {
        Outlook::Off => "off",
        Outlook::Checking => "checking",
        Outlook::Winnable(_) => "winnable",
        Outlook::Lost => "lost",
        Outlook::Unknown => "unknown",
        Outlook::Failed(_) => "failed",
    };
    write_changed([
        ("data-arachne-search", Some(running.join(","))),
        (
            "data-arachne-workers",
            Some(crate::core::worker::running().to_string()),
        ),
        ("data-arachne-outlook", Some(outlook.to_string())),
        (
            "data-arachne-tried",
            thinking.as_ref().map(|t| t.tried.to_string()),
        ),
        (
            "data-arachne-hint",
            highlights.hint.map(|(mv, _)| mv.to_string()),
        ),
        (
            "data-arachne-playback",
            playback.map(|p| {
                match p.kind {
                    Kind::AutoComplete => "autocomplete",
                    Kind::Demo => "demo",
                    _ => "replay",
                }
                .to_string()
            }),
        ),
    ]);
}

#[derive(Default)]
struct Published {
    quiet: u32,
    ready: bool,
    at_rest: bool,
    /// The first deal has been drawn at rest (its time is published).
    dealt: bool,
}

fn publish(
    mut state: Local<Published>,
    table: Res<Table>,
    layout: Option<Res<Layout>>,
    piles: Res<Piles>,
    cards: Query<(), With<CardView>>,
    anims: Query<(), With<bevy_tweening::TweenAnim>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
) {
    // A change of the table counts as motion even when its animation ended within the frame
    // (a slow frame in a loaded browser can be longer than a move's whole glide): "ready"
    // always drops after a move.
    if anims.is_empty() && !cards.is_empty() && !table.is_changed() {
        state.quiet += 1;
    } else {
        state.quiet = 0;
    }
    // The first frame with every card of the first deal in place: the page's clock then is
    // the time from navigation to the drawn deal (`data-arachne-dealt-ms`).
    let mut dealt_ms = None;
    if state.quiet == 1 && !state.dealt {
        state.dealt = true;
        dealt_ms = global("performance")
            .and_then(|p| call(&p, "now", &[]))
            .ok()
            .and_then(|t| t.as_f64());
    }
    let at_rest = state.quiet >= 10;
    let settled = at_rest != state.at_rest;
    state.at_rest = at_rest;
    // The hook changes only with the table, its layout, or the table coming to rest: nothing
    // is computed or written to the page on the other frames.
    if !(settled
        || dealt_ms.is_some()
        || table.is_changed()
        || layout.as_ref().is_some_and(|l| l.is_changed()))
    {
        return;
    }
    if at_rest && !state.ready {
        state.ready = true;
        tracing::info!("arachne: ready");
    }
    // Where (in CSS pixels) a click plays a move, at rest: the top card of the first column
    // that has one, or else the stock's top card (some deals start with no column move).
    let click = match (&layout, window.single()) {
        (Some(layout), Ok(window)) if at_rest => {
            let position = table.game.position();
            let shape = piles.shape();
            let spot = |pile, index, mv: Move| {
                // A top card is whole: its centre.
                let at = layout.position(&shape, pile, index);
                let (x, y) = (at.x + window.width() / 2.0, window.height() / 2.0 - at.y);
                format!("{x:.0},{y:.0} {mv}")
            };
            (0..position.columns().len() as u8)
                .find_map(|c| {
                    let len = position.columns()[c as usize].len();
                    let mv = crate::spider::input::click_move(position, c, len.checked_sub(1)?)?;
                    Some(spot(PileId::Column(c), len - 1, mv))
                })
                .or_else(|| {
                    let top = position.stock_len().checked_sub(1)?;
                    position.check(Move::Deal).ok()?;
                    Some(spot(PileId::Stock, top, Move::Deal))
                })
        }
        _ => None,
    };
    // Ready means at rest now: it drops while anything moves, so a test waiting for the
    // table to settle after a move waits for that move.
    let ready = state.ready && at_rest;
    let attrs = [
        (
            "data-arachne-ready",
            Some(if ready { "1" } else { "0" }.to_string()),
        ),
        (
            "data-arachne-moves",
            Some(table.game.move_count().to_string()),
        ),
        ("data-arachne-variant", Some(table.spec.variant.id.clone())),
        ("data-arachne-seed", Some(table.spec.seed.to_string())),
        ("data-arachne-click", click),
    ];
    let dealt = dealt_ms.map(|t| ("data-arachne-dealt-ms", Some(format!("{t:.0}"))));
    let Ok(body) = global("document")
        .and_then(|d| js_sys::Reflect::get(&d, &JsValue::from_str("body")).map_err(js_error))
    else {
        return;
    };
    for (name, value) in attrs.into_iter().chain(dealt) {
        let _ = match value {
            Some(v) => call(
                &body,
                "setAttribute",
                &[JsValue::from_str(name), JsValue::from_str(&v)],
            ),
            // No move to click while the cards move: the old spot is gone.
            None => call(&body, "removeAttribute", &[JsValue::from_str(name)]),
        };
    }
}
