//! The command line, in three steps: [`flags`] (what clap parses) are
//! resolved once by [`options`] into a [`crate::script::Request`] and export
//! options, then a command runs ([`one_map`] for `dunlua SCRIPT`,
//! [`commands`] for check, bench and new). Errors come back as one
//! `dunlua: ...` line (plus a Lua traceback for script failures) and an
//! exit code.

mod color;
mod commands;
pub mod flags;
mod one_map;
mod options;
mod sheet;

use std::io::Write;

use clap::Parser;

use crate::script::{self, ScriptError};
pub use flags::Cli;
use flags::{Command, RunArgs};
pub use one_map::report_rejections;

/// Exit codes: 0 ok, 1 the script failed, 2 bad usage.
pub const EXIT_OK: i32 = 0;
pub const EXIT_SCRIPT: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// A failure to report: the text after `dunlua: ` (printed as one line,
/// see [`report`]), a script error's traceback, and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub message: String,
    /// A script error's Lua frames, innermost first (printed under the
    /// message).
    pub traceback: Vec<String>,
}

impl Failure {
    /// A failure with no traceback.
    pub(crate) fn new(code: i32, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            traceback: Vec::new(),
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure::new(EXIT_USAGE, message)
    }

    /// A failure of the run itself (exit 1), with the whole error chain.
    pub(crate) fn run(err: impl Into<anyhow::Error>) -> Failure {
        Failure::new(EXIT_SCRIPT, format!("{:#}", err.into()))
    }

    /// A failure of the run, unless what failed is something the user
    /// asked for that cannot be done (an [`export::Refused`] output, found
    /// only once the run knows its files): then bad usage.
    ///
    /// [`export::Refused`]: crate::export::Refused
    pub(crate) fn run_or_usage(err: anyhow::Error) -> Failure {
        match err.downcast::<crate::export::Refused>() {
            Ok(refused) => Failure::usage(refused.0),
            Err(err) => Failure::run(err),
        }
    }
}

impl From<ScriptError> for Failure {
    fn from(err: ScriptError) -> Failure {
        Failure {
            code: err.exit_code(),
            message: err.message,
            traceback: err.traceback,
        }
    }
}

/// Prints `dunlua: MESSAGE` on stderr as one line (a newline or other
/// control character in it is escaped), then a script error's traceback
/// under it, a frame a line, as Lua prints one.
pub fn report(message: &str, traceback: &[String]) {
    note!("dunlua: {message}");
    if traceback.is_empty() {
        return;
    }
    let mut text = String::from("stack traceback:\n");
    for frame in traceback {
        text.push('\t');
        text.push_str(&crate::one_line::one_line(frame));
        text.push('\n');
    }
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// Runs the parsed command line.
pub fn run(cli: &Cli) -> Result<(), Failure> {
    match &cli.command {
        Some(Command::Check(args)) => commands::check(args),
        Some(Command::Bench(args)) => commands::bench(args),
        Some(Command::Sheet(args)) => sheet::sheet_command(args),
        Some(Command::Api(args)) => print_stdout(&if args.luals {
            script::api_doc::luals()
        } else {
            script::api_doc::reference()
        }),
        Some(Command::New(args)) => commands::new(args),
        None => one_map::run(&cli.run),
    }
}

pub(crate) fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`dunlua ... | head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::new(
            EXIT_SCRIPT,
            format!("cannot write to stdout: {e}"),
        )),
    }
}

/// A clap usage error as one line: clap's first line (continued on the
/// next when it ends with a colon; the rest of its text is tips and a
/// usage reminder), then its "did you mean" suggestions, which clap prints
/// as tips below it.
fn usage_error(err: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let text = err.render().to_string();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("bad usage");
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if message.ends_with(':') {
        if let Some(next) = lines.next() {
            message = format!("{message} {}", next.trim());
        }
    }
    let mut similar: Vec<String> = Vec::new();
    for kind in [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ] {
        match err.get(kind) {
            Some(ContextValue::String(s)) => similar.push(format!("'{s}'")),
            Some(ContextValue::Strings(list)) => {
                similar.extend(list.iter().map(|s| format!("'{s}'")))
            }
            _ => {}
        }
    }
    if !similar.is_empty() {
        message = format!("{message}; did you mean {}?", similar.join(" or "));
    }
    // clap lists a flag's values on a line of their own ("[possible
    // values: ...]"), which the one-line message dropped.
    if let Some(ContextValue::Strings(values)) = err.get(ContextKind::ValidValue) {
        if !values.is_empty() {
            message = format!("{message} (one of: {})", values.join(", "));
        }
    }
    message
}

/// What was wrong with a first argument that is no file and no command:
/// clap read it as the script and then what followed as a command it could
/// not place ("the subcommand 'x.lua' cannot be used with '<SCRIPT>'"), or
/// tried to read a script named `chek`. Close to a command (`dunlua chek
/// x.lua`), it names that command; a bare word with nothing close (`dunlua
/// exprot x`) lists the commands. A name that looks like a script file
/// (`maze.lua`, `lib/x`) is left to the "cannot read script" message.
fn mistyped_command(first: Option<std::ffi::OsString>) -> Option<String> {
    use clap::CommandFactory;
    let first = first?.into_string().ok()?;
    if first.starts_with('-') || std::path::Path::new(&first).exists() {
        return None;
    }
    let command = Cli::command();
    let names: Vec<&str> = command
        .get_subcommands()
        .map(|c| c.get_name())
        .filter(|name| *name != "help")
        .collect();
    if names.contains(&first.as_str()) || first == "help" {
        return None;
    }
    if let Some(meant) = crate::closest::closest(&first, names.iter().copied()) {
        return Some(format!(
            "no command or script '{first}'; did you mean '{meant}'?"
        ));
    }
    let looks_like_a_file = first.contains(['.', '/', std::path::MAIN_SEPARATOR]);
    (!looks_like_a_file).then(|| {
        format!(
            "no command or script '{first}' (the commands: {}; or a script file)",
            names.join(", ")
        )
    })
}

/// The command the arguments name, as its help is asked for: `dunlua
/// check` when the first argument is a command, else `dunlua`.
fn command_named() -> String {
    use clap::CommandFactory;
    let first = std::env::args_os().nth(1);
    let first = first.as_ref().and_then(|f| f.to_str()).unwrap_or("");
    let is_command = Cli::command()
        .get_subcommands()
        .any(|c| c.get_name() == first && first != "help");
    if is_command {
        format!("dunlua {first}")
    } else {
        "dunlua".to_string()
    }
}

/// A second script-like word after the script (`dunlua ok.lua --ascii
/// extra.lua`), which clap calls a subcommand that "cannot be used with
/// <SCRIPT>": said as the stray argument it is, naming the script the run
/// took (found by parsing the arguments without the stray one). When those
/// do not parse either, their error is the one to fix first (`--size
/// --seed 1` took `--seed` for the size, and left `1` over).
fn stray_script(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(stray)) = err.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    if err.kind() != clap::error::ErrorKind::ArgumentConflict {
        return None;
    }
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let at = args
        .iter()
        .rposition(|a| a.to_str() == Some(stray.as_str()))?;
    args.remove(at);
    Some(match Cli::try_parse_from(args) {
        Ok(Cli {
            run: RunArgs {
                script: Some(script),
                ..
            },
            ..
        }) => format!(
            "unexpected argument '{stray}' (one script a run: {})",
            script.display()
        ),
        Ok(_) => format!("unexpected argument '{stray}'"),
        Err(first) => usage_error(&first),
    })
}

/// Parses the process arguments, runs, reports; returns the exit code.
pub fn main() -> i32 {
    // The command line's own process: a signal that ends it removes the
    // files a write was staging (the library leaves a game's signals alone).
    crate::export::temp_files::sweep_on_signals();
    if let Some(message) = mistyped_command(std::env::args_os().nth(1)) {
        note!("dunlua: {message} (see dunlua --help)");
        return EXIT_USAGE;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                let _ = err.print();
                return EXIT_OK;
            }
            let message = stray_script(&err).unwrap_or_else(|| usage_error(&err));
            note!("dunlua: {message} (see {} --help)", command_named());
            return EXIT_USAGE;
        }
    };
    match run(&cli) {
        Ok(()) => EXIT_OK,
        Err(failure) => {
            report(&failure.message, &failure.traceback);
            failure.code
        }
    }
}
