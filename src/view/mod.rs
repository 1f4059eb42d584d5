//! The window: walk the dungeon, change seeds, replay the generation and
//! see the script reload on save. This file is the only one that talks to
//! minifb; what the keys do lives in [`state`], what is drawn in [`draw`],
//! the command line and the saved files in [`reproduce`].

pub mod camera;
pub mod draw;
pub mod grid;
pub mod input;
pub mod inspect;
pub mod keys;
pub mod overlay;
pub mod reproduce;
pub mod state;
pub mod timing;
pub mod tuning;
mod workers;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use minifb::{Key, MouseButton, MouseMode, Window, WindowOptions};

use crate::export::Options;
use crate::generated::Generated;
use crate::render::Frame;
use crate::script::{self, Request};
use crate::watch::FileWatch;
use input::{char_action, key_action, Action, Repeater};
use reproduce::{command_line, save};
use state::{Effect, ViewState};
use timing::{FrameReport, Timings};
use tuning::Tuning;
use workers::{Generator, GridWork, Why};

/// Everything the window needs besides the first map.
pub struct ViewConfig {
    /// The request that made the first map; reloads and seeds reuse it.
    pub request: Request,
    pub export: Options,
    /// Where Ctrl+S saves (`--save-dir`; the working folder by default).
    pub save_dir: PathBuf,
    /// Appends a `key=value` state line whenever the state changes (tests).
    pub state_file: Option<PathBuf>,
    /// Logs every frame's and every swap's timing on stderr
    /// (`DUNLUA_TIMINGS=1`; see [`timing`]).
    pub timings: bool,
}

/// Why the window could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error("{0}")]
    NoWindow(String),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// Whether a display is there to open a window on, without trying.
pub fn display_available() -> bool {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd"
    )) {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        set("DISPLAY") || set("WAYLAND_DISPLAY")
    } else {
        true
    }
}

/// A press, release or typed character, queued by minifb's input callback
/// so that no tap shorter than a frame is lost.
#[derive(Clone, Copy, Debug)]
enum Input {
    Down(Key),
    Up(Key),
    Char(char),
}

struct Queue(Rc<RefCell<VecDeque<Input>>>);

impl minifb::InputCallback for Queue {
    fn add_char(&mut self, uni_char: u32) {
        if let Some(c) = char::from_u32(uni_char) {
            self.0.borrow_mut().push_back(Input::Char(c));
        }
    }

    fn set_key_state(&mut self, key: Key, down: bool) {
        self.0.borrow_mut().push_back(if down {
            Input::Down(key)
        } else {
            Input::Up(key)
        });
    }
}

/// Frames a second while something happens, and when nothing has for
/// [`IDLE_AFTER`]: keys are still read within 1/30 s (and a click, which
/// is polled, is not missed), and an idle window costs little CPU.
const ACTIVE_FPS: usize = 60;
const IDLE_FPS: usize = 30;
const IDLE_AFTER: Duration = Duration::from_secs(1);
/// How often an unchanged frame is sent again anyway.
const RESEND: Duration = Duration::from_millis(500);

/// How long the files must be quiet after a change before reloading, so an
/// editor's several writes make one reload (well inside 100 ms).
const SETTLE: Duration = Duration::from_millis(25);

/// Opens the window on the first of `levels` and runs until it is closed.
/// After the window was resized: a frame of its new size, and the map's
/// view in it (the status line below). Whether it changed.
fn fit_to_window(window: &Window, frame: &mut Frame, state: &mut ViewState) -> bool {
    let (w, h) = window.get_size();
    if (w, h) == (frame.width, frame.height) || w == 0 || h == 0 {
        return false;
    }
    *frame = Frame::new(w, h, crate::map::Rgb(0, 0, 0));
    state.view = (w, h.saturating_sub(draw::status_height(w)));
    true
}

pub fn run(
    levels: Vec<Generated>,
    gen_time: Duration,
    mut config: ViewConfig,
) -> Result<(), ViewError> {
    let status_h = draw::status_height(camera::MAX_WINDOW.0);
    let first = levels
        .first()
        .ok_or_else(|| ViewError::Other(anyhow::anyhow!("no level to show")))?;
    let (mw, mh) = (first.map.width() as usize, first.map.height() as usize);
    let cell = camera::fit_cell(mw, mh, camera::MAX_WINDOW, status_h, &state::CELL_SIZES);
    let (w, h) = camera::window_size(mw, mh, cell, camera::MAX_WINDOW, status_h);
    // The script's own defaults, to tell tuned parameters from them.
    let defaults = script::inspect(&config.request)
        .map(|info| info.params)
        .unwrap_or_default();
    let values = first.provenance.params.clone();
    let mut state = ViewState::new(levels, gen_time, cell);
    state.tuning = Some(Tuning::new(defaults, values));
    state.view = (w, h.saturating_sub(draw::status_height(w)));
    // Resizable, drawn at one pixel per pixel from the top left: a window
    // made for 1280x960 did not fit a 1366x768 screen and could not be
    // made smaller (see `fit_to_window`).
    let options = WindowOptions {
        resize: true,
        scale_mode: minifb::ScaleMode::UpperLeft,
        ..WindowOptions::default()
    };
    let mut window = Window::new(&state.title(), w, h, options)
        .map_err(|e| ViewError::NoWindow(e.to_string()))?;
    window.set_target_fps(ACTIVE_FPS);
    let queue = Rc::new(RefCell::new(VecDeque::new()));
    window.set_input_callback(Box::new(Queue(queue.clone())));

    let mut watch = FileWatch::new()?;
    watch_files(&mut watch, &config.request, state.levels_made())?;
    let mut generator = Generator::new();
    let mut state_file = match &config.state_file {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(anyhow::Error::from)?,
        ),
        None => None,
    };
    let mut frame = Frame::new(w, h, crate::map::Rgb(0, 0, 0));
    let mut repeater = Repeater::default();
    let mut ctrl = false;
    let mut pending_reload: Option<Instant> = None;
    let mut last_state = String::new();
    let mut title = String::new();
    let mut drawn = String::new();
    let clock = Instant::now();
    let mut mouse_was_down = false;
    let mut last_pixel = None;
    let mut grid_work: Option<GridWork> = None;
    let mut last_input = Instant::now();
    let mut last_sent = Instant::now();
    let mut current_fps = ACTIVE_FPS;
    let mut timings = Timings::new(config.timings);

    while window.is_open() {
        timings.begin_frame();
        let now = clock.elapsed();
        let mut actions = Vec::new();
        for input in queue.borrow_mut().drain(..) {
            match input {
                Input::Down(Key::LeftCtrl | Key::RightCtrl) => ctrl = true,
                Input::Up(Key::LeftCtrl | Key::RightCtrl) => ctrl = false,
                Input::Down(key) => {
                    if repeater.press(key, now) {
                        actions.extend(key_action(key, ctrl));
                    }
                }
                Input::Up(key) => repeater.release(key),
                Input::Char(c) => actions.extend(char_action(c)),
            }
        }
        actions.extend(
            repeater
                .due(now)
                .into_iter()
                .filter_map(|k| key_action(k, false)),
        );

        // The mouse: what it is over, and a click (on the press); over the
        // seed grid, which picture.
        let pixel = window.get_mouse_pos(MouseMode::Discard);
        let pressed = window.get_mouse_down(MouseButton::Left);
        let click = pressed && !mouse_was_down;
        mouse_was_down = pressed;
        match &state.grid {
            Some(grid) => {
                let over = pixel.and_then(|(x, y)| grid.index_at(x as usize, y as usize));
                if let Some(i) = over {
                    if i != grid.selected && pixel != last_pixel {
                        actions.push(Action::GridSelect(i));
                    }
                    if click {
                        actions.push(Action::GridOpen(i));
                    }
                }
            }
            None => {
                let mouse =
                    pixel.and_then(|(x, y)| draw::cell_at(&state, &frame, x as usize, y as usize));
                if mouse != state.hover {
                    actions.push(Action::Hover(mouse));
                }
                if click {
                    actions.extend(mouse.map(|(x, y)| Action::Click(x, y)));
                }
            }
        }
        last_pixel = pixel;
        if !actions.is_empty() {
            last_input = Instant::now();
        }

        for action in actions {
            timings.action(&action);
            match state.apply(action) {
                Effect::Nothing => {}
                Effect::Quit => return Ok(()),
                Effect::Generate(seed) => {
                    config.request.seed = seed;
                    note!("dunlua: {}", command_line(&config.request));
                    generator.start(config.request.clone(), Why::Seed);
                    timings.generate("seed");
                }
                Effect::RandomSeed => {
                    config.request.seed = rand::random::<u32>() as u64;
                    note!("dunlua: {}", command_line(&config.request));
                    generator.start(config.request.clone(), Why::Seed);
                    timings.generate("seed");
                }
                Effect::Regenerate => {
                    config.request.params = state.changed_params();
                    config.request.seed = state.seed();
                    note!("dunlua: {}", command_line(&config.request));
                    generator.start(config.request.clone(), Why::Seed);
                    timings.generate("seed");
                }
                Effect::StartGrid => {
                    if let Some(grid) = &state.grid {
                        grid_work = Some(GridWork::start(&config.request, grid, state.level().0));
                    }
                }
                Effect::Save => {
                    state.notice = Some(save(
                        &state,
                        &config.request,
                        &config.save_dir,
                        &config.export,
                    ))
                }
            }
        }

        state.tick();
        // The grid's pictures as workers finish them; none once it closes.
        match (&mut state.grid, &grid_work) {
            (Some(grid), Some(work)) => work.collect(grid),
            (None, Some(_)) => grid_work = None,
            _ => {}
        }

        if watch.changed() {
            pending_reload = Some(Instant::now());
        }
        if pending_reload.is_some_and(|t| t.elapsed() >= SETTLE) {
            pending_reload = None;
            state.generating = true;
            generator.start(config.request.clone(), Why::Reload);
            timings.generate("reload");
            // The grid's pictures are of the script before the save: the
            // workers making them stop, and new ones picture the saved one.
            let level = state.level().0;
            if let Some(grid) = &mut state.grid {
                grid.restart();
                grid_work = Some(GridWork::start(&config.request, grid, level));
            }
        }
        // A reload that finished after its files changed again read a
        // version already replaced (an editor's save may even have been
        // caught between emptying the file and writing it): the reload
        // waiting to settle takes its place, so it is not shown.
        let finished = generator
            .poll()
            .filter(|(why, ..)| !(matches!(why, Why::Reload) && pending_reload.is_some()));
        if let Some((why, result, done_at)) = finished {
            let shown = config.request.script.display().to_string();
            match result {
                Ok((generated, inspections, took)) => {
                    let swap_started = Instant::now();
                    note!(
                        "dunlua: {} {shown} (seed {}, {:.1} ms)",
                        if why == Why::Reload {
                            "reloaded"
                        } else {
                            "generated"
                        },
                        generated[0].provenance.seed,
                        took.as_secs_f64() * 1000.0
                    );
                    if let Err(e) = watch_files(&mut watch, &config.request, &generated) {
                        note!("dunlua: {e:#}");
                    }
                    let old = state.replace_inspected(generated, inspections, took);
                    // Freeing the old map's memory costs milliseconds.
                    std::thread::spawn(move || drop(old));
                    if why == Why::Reload {
                        state.reloads += 1;
                    }
                    last_input = Instant::now();
                    let why = if why == Why::Reload { "reload" } else { "seed" };
                    timings.swap(why, done_at, took, swap_started.elapsed());
                }
                Err(err) => {
                    crate::cli::report(
                        &format!("reload failed, keeping the last good map: {}", err.message),
                        &err.traceback,
                    );
                    // A module it looked for and did not find reloads
                    // the script once it is made.
                    let missing =
                        crate::watch::modules_not_found(&config.request.script, &err.message);
                    if let Err(e) = watch.set_missing(&missing) {
                        note!("dunlua: {e:#}");
                    }
                    state.notice = None;
                    state.generating = false;
                    state.error = Some(err.to_string());
                    // Keep the seed of the map on screen for the next reload.
                    config.request.seed = state.seed();
                }
            }
        }

        let new_title = state.title();
        if new_title != title {
            window.set_title(&new_title);
            title = new_title;
        }
        if fit_to_window(&window, &mut frame, &mut state) {
            drawn.clear();
        }
        // Drawing a big map costs; do it only when something on screen changed.
        let fingerprint = format!(
            "{}|{}|{}|{}|{:?}",
            state.state_line(),
            state.status(),
            state.help,
            state.playing,
            state.error
        );
        // Redraw and send the frame only when something on screen changed
        // (and now and then, should the window have been covered); an idle
        // window only polls its events, at a lower rate after a second.
        let changed = fingerprint != drawn;
        if changed {
            draw::draw(&state, &mut frame);
            drawn = fingerprint;
        }
        let sent = changed || last_sent.elapsed() >= RESEND;
        timings.end_frame(FrameReport {
            drawn: changed,
            sent,
            grid: state.grid.as_ref().map(|g| (g.done(), g.len())),
            generating: state.generating,
        });
        if sent {
            window
                .update_with_buffer(&frame.pixels, frame.width, frame.height)
                .map_err(|e| ViewError::Other(anyhow::anyhow!("cannot draw the window: {e}")))?;
            last_sent = Instant::now();
        } else {
            window.update();
        }
        let busy = changed
            || state.playing
            || grid_work.is_some()
            || state.generating
            || pending_reload.is_some()
            || last_input.elapsed() < IDLE_AFTER;
        let fps = if busy { ACTIVE_FPS } else { IDLE_FPS };
        if fps != current_fps {
            window.set_target_fps(fps);
            current_fps = fps;
        }

        if let Some(file) = &mut state_file {
            let line = format!(
                "{} workers={} cancelled={}",
                state.state_line(),
                generator.running(),
                generator.cancelled
            );
            if line != last_state {
                writeln!(file, "{line}")
                    .and_then(|()| file.flush())
                    .map_err(anyhow::Error::from)?;
                last_state = line;
            }
        }
    }
    Ok(())
}

fn watch_files(
    watch: &mut FileWatch,
    request: &Request,
    levels: &[Generated],
) -> anyhow::Result<()> {
    let mut files = vec![request.script.clone()];
    for generated in levels {
        for module in &generated.modules {
            if !files.contains(module) {
                files.push(module.clone());
            }
        }
    }
    watch.set_files(&files)
}
