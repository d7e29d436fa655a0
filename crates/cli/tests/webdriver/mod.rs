//! Driving headless Chromium over WebDriver (Debian's `chromium` and `chromium-driver`,
//! which the README's test command installs), for the browser tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

pub struct Proc(pub Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<String> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    // chromedriver keeps the connection open: read the headers, then Content-Length bytes.
    let mut r = BufReader::new(s);
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse::<usize>().ok();
            }
        }
    }
    let mut out = Vec::new();
    match len {
        Some(n) => {
            out.resize(n, 0);
            r.read_exact(&mut out)?;
        }
        None => {
            r.read_to_end(&mut out)?;
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Undoes chunked transfer encoding when chromedriver uses it.
fn json_body(raw: &str) -> Value {
    if let Ok(v) = serde_json::from_str(raw) {
        return v;
    }
    let mut out = String::new();
    let mut rest = raw;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("webdriver said {raw:?}: {e}"))
}

/// One browser window driven over WebDriver.
pub struct Browser {
    driver: SocketAddr,
    session: String,
    base: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// A Chromium window.
    pub fn new(driver: SocketAddr, base: &str) -> Browser {
        Browser::of(Engine::Chromium, driver, base)
    }

    pub fn of(engine: Engine, driver: SocketAddr, base: &str) -> Browser {
        let caps = match engine {
            Engine::Chromium => {
                json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,1000"]}}}})
            }
            Engine::Firefox => {
                json!({"capabilities": {"alwaysMatch": {"browserName": "firefox", "moz:firefoxOptions": {
                "binary": FIREFOX, "args": ["-headless", "--width=1100", "--height=1000"]}}}})
            }
        };
        let v = json_body(&request(driver, "POST", "/session", Some(&caps)).unwrap());
        let session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        Browser {
            driver,
            session,
            base: base.to_string(),
        }
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// A call whose error comes back rather than failing the test.
    pub fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, Value> {
        let p = format!("/session/{}{path}", self.session);
        let v = json_body(&request(self.driver, method, &p, body.as_ref()).unwrap());
        if v["value"]["error"].is_string() {
            return Err(v["value"].clone());
        }
        Ok(v["value"].clone())
    }

    /// Clicks what matches `css` if anything does, as a person would; false when nothing
    /// matched or the page redrew it away between finding and clicking (a live table
    /// redraws on every message).
    pub fn click_if(&self, css: &str) -> bool {
        let find = json!({"using": "css selector", "value": css});
        let Ok(e) = self.try_call("POST", "/element", Some(find)) else {
            return false;
        };
        let e = e[ELEMENT].as_str().unwrap_or_default().to_string();
        match self.try_call("POST", &format!("/element/{e}/click"), Some(json!({}))) {
            Ok(_) => true,
            Err(err) if err["error"] == "stale element reference" => false,
            Err(err) if err["error"] == "element not interactable" => false,
            Err(err) => panic!("click {css}: {err}"),
        }
    }

    /// Makes an account called `name` from the lobby's form and waits until signed in.
    pub fn sign_up(&self, name: &str) {
        self.go("/play");
        self.fill("form[action='/play/register'] input[name=name]", name);
        self.fill(
            "form[action='/play/register'] input[name=password]",
            "long enough",
        );
        self.click("form[action='/play/register'] button");
        self.wait(&["id=\"me\""]);
    }

    pub fn go(&self, path: &str) {
        self.call(
            "POST",
            "/url",
            Some(json!({"url": format!("{}{path}", self.base)})),
        );
    }

    pub fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().unwrap().to_string()
    }

    pub fn fill(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.call(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({"text": text})),
        );
    }

    /// Clicks the element `css` finds; a page that redraws (the table does on every
    /// message) may replace it between the finding and the click, so it is found again.
    pub fn click(&self, css: &str) {
        for _ in 0..20 {
            let e = self.find(css);
            match self.try_call("POST", &format!("/element/{e}/click"), Some(json!({}))) {
                Ok(_) => return,
                Err(err) if err["error"] == "stale element reference" => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(err) => panic!("click {css}: {err}"),
            }
        }
        panic!("click {css}: the element was replaced 20 times in a row");
    }

    /// The page source once it contains one of `needles` (a click that submits a form
    /// may return before the next page has loaded).
    pub fn wait(&self, needles: &[&str]) -> String {
        self.wait_for(|s| needles.iter().any(|n| s.contains(n)))
    }

    pub fn wait_for(&self, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.source();
            if ok(&s) || start.elapsed() > Duration::from_secs(15) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn source(&self) -> String {
        self.call("GET", "/source", None)
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.call("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Runs JavaScript in the page and returns its value.
    pub fn exec(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Runs JavaScript that hands its value to the callback it gets as its last argument.
    pub fn exec_async(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Presses keys one after another on whatever has the focus, as a person would
    /// (WebDriver key actions: " " is the space bar, "\u{E012}" the left arrow, "\u{E007}"
    /// Enter).
    pub fn keys(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|k| {
                [
                    json!({"type": "keyDown", "value": k}),
                    json!({"type": "keyUp", "value": k}),
                ]
            })
            .collect();
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// Plays a table as simply as a person can — Hu when offered, else pass, else set a
    /// flower aside, else discard the drawn tile or any tile — until `done` (a CSS
    /// selector) shows; fails after four minutes.
    pub fn play_until(&self, done: &str) {
        const CLICKS: [&str; 6] = [
            "#claim button[data-action=hu]",
            "#claim button[data-action=pass]",
            "#claim button[data-action=bonus]",
            ".my-hand .tile.drawn.playable",
            ".my-hand .tile.playable",
            // Between hands: ready at once rather than waiting out the table's clock.
            "#next-hand",
        ];
        let start = std::time::Instant::now();
        self.wait(&["class=\"my-hand\"", "id=\"result\""]);
        while !self.has(done) {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(240),
                "{done} did not show"
            );
            let clicked = CLICKS.iter().any(|css| self.click_if(css));
            std::thread::sleep(std::time::Duration::from_millis(if clicked {
                120
            } else {
                50
            }));
        }
    }

    /// The viewport's size now: `(innerWidth, innerHeight)`.
    pub fn viewport_now(&self) -> (u64, u64) {
        let v = self.exec("return [window.innerWidth, window.innerHeight]");
        (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0))
    }

    /// Sets the window's size (a phone held upright is about 390 × 844).
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// Sets the size of the page's viewport (the window less its frame), as far as the
    /// browser allows: `(innerWidth, innerHeight)` as it turned out.
    pub fn viewport(&self, width: u32, height: u32) -> (u64, u64) {
        self.resize(width, height);
        let inner = |b: &Browser| {
            let v = b.exec("return [window.innerWidth, window.innerHeight]");
            (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0))
        };
        let (w, h) = inner(self);
        let (dw, dh) = (width as i64 - w as i64, height as i64 - h as i64);
        if dw != 0 || dh != 0 {
            self.resize((width as i64 + dw) as u32, (height as i64 + dh) as u32);
        }
        std::thread::sleep(std::time::Duration::from_millis(150));
        inner(self)
    }

    /// Whether an element matches `css` now.
    pub fn has(&self, css: &str) -> bool {
        self.exec(&format!(
            "return document.querySelector({}) !== null",
            serde_json::to_string(css).unwrap()
        ))
        .as_bool()
        .unwrap_or(false)
    }

    /// The page printed to PDF on A4 with 12 mm margins (as the printables' @page asks),
    /// and its number of pages.
    pub fn print_pages(&self) -> usize {
        let b64 = self.call(
            "POST",
            "/print",
            Some(json!({"page": {"width": 21.0, "height": 29.7},
                "margin": {"top": 1.2, "bottom": 1.2, "left": 1.2, "right": 1.2},
                "background": true})),
        );
        let pdf = base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap();
        assert!(pdf.starts_with(b"%PDF"), "not a PDF");
        let text = String::from_utf8_lossy(&pdf);
        regex::Regex::new(r"/Type\s*/Page[^s]")
            .unwrap()
            .find_iter(&text)
            .count()
    }

    pub fn screenshot(&self, name: &str) {
        let b64 = self.call("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
        // The README's pictures are refreshed on request only: the table codes are random,
        // so every run would otherwise change tracked files.
        let dir = match std::env::var_os("DUPMJ_SCREENSHOTS")
            .filter(|_| !name.starts_with("firefox-"))
        {
            Some(_) => std::path::PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../docs/screenshots"
            )),
            None => std::env::temp_dir().join(format!("dupmj-screenshots-{}", std::process::id())),
        };
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(
            self.driver,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Which browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Chromium,
    Firefox,
}

const FIREFOX: &str = "/usr/bin/firefox-esr";

/// geckodriver, which tools/test.sh builds from crates.io into `target/tools/bin`.
fn geckodriver() -> String {
    std::env::var("DUPMJ_GECKODRIVER").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../target/tools/bin/geckodriver"
        )
        .to_string()
    })
}

/// Starts chromedriver on a free port; the process ends when the returned guard drops.
pub fn start_driver() -> (Proc, SocketAddr) {
    start(Engine::Chromium)
}

/// A browser window with a driver of its own (geckodriver drives one window at a time).
/// The fields drop in order: the window is closed while its driver still runs, so no
/// browser outlives its test (a driver killed first leaves its browser running).
pub struct Window {
    browser: Browser,
    _driver: Proc,
}

impl std::ops::Deref for Window {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.browser
    }
}

/// Opens a window of `engine` on `base`.
pub fn open(engine: Engine, base: &str) -> Window {
    let (driver, addr) = start(engine);
    Window {
        browser: Browser::of(engine, addr, base),
        _driver: driver,
    }
}

/// Starts the engine's WebDriver server on a free port.
pub fn start(engine: Engine) -> (Proc, SocketAddr) {
    let (tools, driver_path) = match engine {
        Engine::Chromium => (
            vec![
                "/usr/bin/chromium".to_string(),
                "/usr/bin/chromedriver".to_string(),
            ],
            "/usr/bin/chromedriver".to_string(),
        ),
        Engine::Firefox => (vec![FIREFOX.to_string(), geckodriver()], geckodriver()),
    };
    for tool in &tools {
        assert!(
            std::path::Path::new(tool).exists(),
            "{tool} is missing: run the README's test command (tools/test.sh), which installs chromium, chromium-driver, firefox-esr and geckodriver"
        );
    }
    let port = free_port();
    let driver = Proc(
        Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let start = Instant::now();
    while request(addr, "GET", "/status", None).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{driver_path} did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, addr)
}

/// A browser signed in as guest `name`, on the page of the challenge the server scheduled
/// when it started (waited for, at most 20 s).
pub fn into_the_challenge(base: &str, name: &str) -> Window {
    let b = open(Engine::Chromium, base);
    b.go("/play");
    b.fill("form[action='/play/guest'] input[name=name]", name);
    b.click("form[action='/play/guest'] button");
    b.wait(&["id=\"me\""]);
    let start = Instant::now();
    loop {
        b.go("/play/c");
        if b.has("#challenges a") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no scheduled challenge"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    b.click("#challenges a");
    b
}
