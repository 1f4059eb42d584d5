//! Script failures as the user sees them: `file:line: message` first, then a
//! short Lua traceback, and a kind that decides the exit code.

use std::fmt;
use std::fmt::Display;

use mlua::Lua;

use crate::one_line::one_line;

/// The `file:line` of the nearest Lua frame that called into the host.
pub(crate) fn script_location(lua: &Lua) -> Option<String> {
    let at = |files_only: bool| {
        (0..64).find_map(|level| {
            lua.inspect_stack(level, |d| {
                let line = d.current_line()?;
                let source = d.source();
                // A file's chunk name starts with '@'; the host's own Lua
                // ("=sandbox") and load()ed strings do not.
                if files_only && !source.source?.starts_with('@') {
                    return None;
                }
                Some(format!("{}:{line}", source.short_src?))
            })
            .flatten()
        })
    };
    at(true).or_else(|| at(false))
}

/// A Lua error located at the calling script line.
pub(crate) fn located(lua: &Lua, message: impl Display) -> mlua::Error {
    match script_location(lua) {
        Some(at) => mlua::Error::RuntimeError(format!("{at}: {message}")),
        None => mlua::Error::RuntimeError(message.to_string()),
    }
}

/// What went wrong, coarsely: decides the exit code and, later, how `check`
/// groups failures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The command line asked for something impossible (exit 2).
    Usage,
    /// The script does not compile.
    Syntax,
    /// A Lua error while loading or generating.
    Runtime,
    /// The script broke the contract (no table, no `generate`, no start).
    Contract,
    /// The instruction budget or the memory limit ran out.
    Limit,
    /// The wall-clock deadline (`--timeout`) passed.
    TimedOut,
    /// The run was cancelled from outside (the window starting a newer one).
    Cancelled,
    /// Every attempt was rejected by the script (`reject` or `validate`).
    Rejected,
    /// `generate` set no start, or left it on a cell that is not walkable.
    BadStart,
}

/// A failed run, with everything needed to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub kind: FailureKind,
    /// One line: `scripts/x.lua:12: map:set: ...`.
    pub message: String,
    /// Lua frames, innermost first, already trimmed of host-internal noise.
    pub traceback: Vec<String>,
    /// For [`FailureKind::Rejected`]: the attempts rejected and why (the
    /// first 31 and the last, as [`crate::Generated::rejections`] keeps
    /// them); empty for other failures.
    pub rejections: Vec<(u32, String)>,
}

/// Which limit a [`FailureKind::Limit`] failure ran out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// The instruction budget (`--max-instructions`).
    Instructions,
    /// The memory limit (`--max-memory`).
    Memory,
}

impl ScriptError {
    /// A failure whose message is `message` made one line (see
    /// [`one_line`]).
    pub fn new(kind: FailureKind, message: impl Into<String>) -> ScriptError {
        let message = message.into();
        ScriptError {
            kind,
            message: one_line(&message).into_owned(),
            traceback: Vec::new(),
            rejections: Vec::new(),
        }
    }

    /// Which limit a [`FailureKind::Limit`] failure ran out of; `None` for
    /// other kinds. Bindings use it to raise a budget error and a memory
    /// error as different exceptions.
    pub fn limit(&self) -> Option<LimitKind> {
        if self.kind != FailureKind::Limit {
            return None;
        }
        // Only the budget's messages (host.rs, budget.rs) say this; every
        // other limit failure is the memory limit's.
        if self.message.contains("instruction budget") {
            Some(LimitKind::Instructions)
        } else {
            Some(LimitKind::Memory)
        }
    }

    pub fn usage(message: impl Into<String>) -> ScriptError {
        ScriptError::new(FailureKind::Usage, message)
    }

    pub fn contract(message: impl Into<String>) -> ScriptError {
        ScriptError::new(FailureKind::Contract, message)
    }

    /// The script's `file:line` this failure names: its message's, or its
    /// innermost traceback frame's.
    /// The `file:line` of the innermost traceback frame that has one (past
    /// C functions, tail calls and skipped levels).
    pub fn innermost_located_frame(&self) -> Option<String> {
        self.traceback.iter().find_map(|f| {
            f.split(": in ")
                .next()
                .filter(|at| has_location(&format!("{at}: ")))
                .map(str::to_string)
        })
    }

    pub fn location(&self) -> Option<String> {
        let from_message = self
            .message
            .split_once(": ")
            .map(|(at, _)| at)
            .filter(|at| has_location(&format!("{at}: ")));
        let from_frame = || {
            self.traceback
                .first()
                .and_then(|f| f.split(": in ").next())
                .filter(|at| has_location(&format!("{at}: ")))
        };
        from_message.or_else(from_frame).map(str::to_string)
    }

    /// The process exit code for this failure: 2 bad usage, 1 the script failed.
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            FailureKind::Usage => 2,
            _ => 1,
        }
    }

    /// Converts an mlua error, keeping the innermost message (whole, made
    /// one line) and the traceback's Lua frames.
    pub(crate) fn from_lua(err: &mlua::Error) -> ScriptError {
        let (text, traceback) = innermost(err);
        // Lua's traceback follows the message after a line of its own; the
        // message itself may hold newlines (`error("a\nb")`).
        let (raw, own_frames) = match text.rfind(TRACEBACK) {
            Some(at) => (&text[..at], &text[at..]),
            None => (text.as_str(), ""),
        };
        let mut frames: Vec<String> = Vec::new();
        // Each frame starts a line with a tab, so a file name with a
        // newline in it stays one frame.
        for frame in own_frames.split("\n\t").chain(traceback.split("\n\t")) {
            let frame = frame.trim();
            // Lua's C functions, the host's own Lua ("=sandbox") and mlua's
            // helper chunks (`__mlua_index`) are not the script's lines.
            if frame.is_empty()
                || frame.starts_with(TRACEBACK.trim())
                || frame.starts_with("[C]")
                || frame.starts_with("sandbox:")
                || frame.starts_with("__mlua")
            {
                continue;
            }
            // `...\t(skipping N levels)`: a tab is no frame's business.
            let frame = one_line(&frame.replace('\t', " ")).into_owned();
            if !frames.contains(&frame) {
                frames.push(frame);
            }
        }
        frames.truncate(8);
        let mut message = super::suggest::with_suggestion(api_words(&error_object(raw)));
        if message.len() > MAX_MESSAGE {
            message = cut_message(&message);
        }
        let mut message = one_line(&message).into_owned();
        // Located in the host's own Lua (a `__tostring` that calls
        // `tostring` on itself overflows inside the sandbox's wrapper): the
        // script's frame below is the place to name.
        if let Some(rest) = message.strip_prefix("sandbox:") {
            if let Some((line, text)) = rest.split_once(": ") {
                if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) {
                    message = text.to_string();
                }
            }
        }
        if !has_location(&message) {
            // error("...", 0), error(nil), error({}) and friends: point at
            // the frame that raised it, so every script error names a line.
            if let Some(at) = frames.first().and_then(|f| f.split(": in ").next()) {
                if has_location(&format!("{at}: ")) {
                    message = format!("{at}: {message}");
                }
            }
        }
        let kind = match err_root(err) {
            mlua::Error::SyntaxError { .. } => FailureKind::Syntax,
            mlua::Error::MemoryError(_) => FailureKind::Limit,
            _ => FailureKind::Runtime,
        };
        ScriptError {
            kind,
            message,
            traceback: frames,
            rejections: Vec::new(),
        }
    }
}

/// The longest first line shown (a script may raise a huge string).
const MAX_MESSAGE: usize = 2000;

/// `message` cut to [`MAX_MESSAGE`] bytes (at a character boundary) with
/// how long it was. A message cut before it got here (the sandbox's
/// `error` and `assert` cut a string past 2000 bytes, `luaL_traceback` one
/// past 4096, each ending it with `... (N bytes)` or `... (N bytes in
/// all)`) keeps that ending and its N, the size of what the script raised:
/// counting the already cut text said "(2036 bytes in all)" of a 5000-byte
/// message.
fn cut_message(message: &str) -> String {
    let (body, ending) = match earlier_cut(message) {
        Some(at) => (&message[..at], message[at..].to_string()),
        None => (message, format!("... ({} bytes in all)", message.len())),
    };
    format!("{}{ending}", crate::one_line::head(body, MAX_MESSAGE))
}

/// Where a message's `... (N bytes)` or `... (N bytes in all)` ending
/// starts, if it has one that an earlier cut can have made: N more than
/// what comes before it (a script can write such an ending itself, and
/// "... (5 bytes)" after 3000 bytes is not a size to repeat).
fn earlier_cut(message: &str) -> Option<usize> {
    let rest = message
        .strip_suffix(" bytes)")
        .or_else(|| message.strip_suffix(" bytes in all)"))?;
    let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let start = rest.len() - digits;
    let at = start.checked_sub("... (".len())?;
    let size: usize = rest[start..].parse().ok()?;
    (digits > 0 && rest[..start].ends_with("... (") && size > at).then_some(at)
}

/// What Lua's `luaL_traceback` puts between a message and its frames.
const TRACEBACK: &str = "\nstack traceback:";

/// The message of an error raised with a value that is not a string, as
/// Lua's own `lua` prints it: a table, function, coroutine or userdata
/// with no `__tostring` becomes `(error object is a table value)` (Lua
/// would name it by its address, which differs every run); any other
/// message is kept. Such a value never has a location (`error` adds one
/// to strings only): the caller adds the raising frame's.
fn error_object(raw: &str) -> String {
    match super::object_names::without_address(raw.as_bytes()) {
        Some(name) if !name.is_empty() && !has_location(raw) => {
            format!(
                "(error object is a {} value)",
                String::from_utf8_lossy(name)
            )
        }
        _ => raw.to_string(),
    }
}

/// Whether a message starts with `file:line: `.
pub(crate) fn has_location(message: &str) -> bool {
    let Some((head, _)) = message.split_once(": ") else {
        return false;
    };
    match head.rsplit_once(':') {
        Some((file, line)) => {
            !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

fn err_root(err: &mlua::Error) -> &mlua::Error {
    match err {
        mlua::Error::CallbackError { cause, .. } => err_root(cause),
        mlua::Error::WithContext { cause, .. } => err_root(cause),
        other => other,
    }
}

/// The innermost error's text and the outermost traceback (which has the
/// most frames).
fn innermost(err: &mlua::Error) -> (String, String) {
    let mut traceback = String::new();
    let mut current = err;
    loop {
        match current {
            mlua::Error::CallbackError {
                cause,
                traceback: tb,
            } => {
                if traceback.is_empty() {
                    traceback = tb.clone();
                }
                current = cause;
            }
            mlua::Error::WithContext { cause, .. } => current = cause,
            mlua::Error::RuntimeError(text) => return (text.clone(), traceback),
            mlua::Error::SyntaxError { message, .. } => return (message.clone(), traceback),
            mlua::Error::MemoryError(text) => return (text.clone(), traceback),
            mlua::Error::ExternalError(e) => return (e.to_string(), traceback),
            mlua::Error::BadArgument {
                to, name, cause, ..
            } => {
                return (
                    bad_argument(to.as_deref(), name.as_deref(), cause),
                    traceback,
                )
            }
            other => return (other.to_string(), traceback),
        }
    }
}

/// What the script's type names are called in the API.
const TYPE_NAMES: [(&str, &str); 7] = [
    ("LuaMap", "map"),
    ("LevelView", "ctx.above"),
    ("LuaRng", "rng"),
    ("LuaSelection", "selection"),
    ("LuaDistance", "distance"),
    ("LuaGraph", "graph"),
    ("LuaNoise", "noise"),
];

/// The API's name for a type Lua or mlua calls by its Rust name.
pub(crate) fn api_type_name(rust: &str) -> &str {
    TYPE_NAMES
        .iter()
        .find(|(r, _)| *r == rust)
        .map_or(rust, |(_, lua)| lua)
}

/// Rewrites Rust type names in a Lua message ("attempt to index a LuaMap
/// value") to the API's ("a map value").
fn api_words(message: &str) -> String {
    let mut out = message.to_string();
    for (rust, lua) in TYPE_NAMES {
        out = out.replace(rust, lua);
    }
    out
}

/// mlua's "bad argument `self` to `LuaMap.fill`" (a method called with `.`
/// or on the wrong object) in the API's own words.
fn bad_argument(to: Option<&str>, name: Option<&str>, cause: &mlua::Error) -> String {
    let to = to.unwrap_or("?");
    let (owner, method) = to.split_once('.').unwrap_or((to, ""));
    let owner = api_type_name(owner);
    let api = format!("{owner}:{method}");
    match name {
        Some("self") => format!(
            "{api}: call it on a {owner} with a colon, as {api}(...); it was called on something else"
        ),
        Some(arg) => format!("{api}: bad argument {arg}: {}", innermost(cause).0),
        None => format!("{api}: bad argument: {}", innermost(cause).0),
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.traceback.is_empty() {
            f.write_str("\nstack traceback:")?;
            for frame in &self.traceback {
                write!(f, "\n\t{frame}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_recognised() {
        assert!(has_location("scripts/x.lua:12: boom"));
        assert!(!has_location("boom"));
        assert!(!has_location("nil"));
        assert!(!has_location("a: b"));
    }

    #[test]
    fn messages_without_a_location_borrow_the_raising_frame() {
        let err = mlua::Error::RuntimeError(
            "plain\nstack traceback:\n\t[C]: in function 'error'\n\tx.lua:2: in function <x.lua:1>"
                .into(),
        );
        let failure = ScriptError::from_lua(&err);
        assert_eq!(failure.message, "x.lua:2: plain");
        assert_eq!(failure.traceback, ["x.lua:2: in function <x.lua:1>"]);
        let table = mlua::Error::RuntimeError(
            "table: 0x55d1\nstack traceback:\n\tx.lua:3: in main chunk".into(),
        );
        assert_eq!(
            ScriptError::from_lua(&table).message,
            "x.lua:3: (error object is a table value)"
        );
    }

    #[test]
    fn a_message_and_its_frames_are_one_line_each() {
        let err = mlua::Error::RuntimeError(
            "x.lua:2: two\nlines\x1b[0m\nstack traceback:\n\t[C]: in function 'error'\n\tx\ny.lua:2: in function <x\ny.lua:1>\n\t...\t(skipping 3 levels)"
                .into(),
        );
        let failure = ScriptError::from_lua(&err);
        assert_eq!(failure.message, "x.lua:2: two\\nlines\\x1b[0m");
        assert_eq!(
            failure.traceback,
            [
                "x\\ny.lua:2: in function <x\\ny.lua:1>",
                "... (skipping 3 levels)"
            ]
        );
        assert_eq!(
            ScriptError::usage("cannot read script a\nb.lua").message,
            "cannot read script a\\nb.lua"
        );
    }

    #[test]
    fn a_message_cut_before_keeps_the_size_it_had() {
        let raised = format!("s.lua:1: {}... (5000 bytes)", "y".repeat(2000));
        let cut = cut_message(&raised);
        assert_eq!(
            cut,
            format!("s.lua:1: {}... (5000 bytes)", "y".repeat(1991))
        );
        let long = "é".repeat(1500);
        let cut = cut_message(&long);
        assert!(cut.ends_with("... (3000 bytes in all)"), "{cut}");
        assert_eq!(cut.len(), 2000 + "... (3000 bytes in all)".len());
        assert_eq!(earlier_cut("x... (12 bytes in all)"), Some(1));
        assert_eq!(earlier_cut("x (12 bytes)"), None);
        let forged = format!("{}... (5 bytes)", "q".repeat(3000));
        assert_eq!(earlier_cut(&forged), None, "not a size it can have had");
        assert!(cut_message(&forged).ends_with("... (3013 bytes in all)"));
        assert_eq!(earlier_cut("x... ( bytes)"), None);
    }

    #[test]
    fn error_objects_are_named_without_their_address() {
        assert_eq!(
            error_object("table: 0x55d1"),
            "(error object is a table value)"
        );
        assert_eq!(
            error_object("thread: 0xabc"),
            "(error object is a thread value)"
        );
        assert_eq!(
            error_object("x.lua:1: function: 0x55d1"),
            "x.lua:1: function: 0x55d1",
            "a string the script raised is its own"
        );
        assert_eq!(error_object("x.lua:1: room: big"), "x.lua:1: room: big");
        assert_eq!(error_object("12"), "12");
    }
}
