//! The window's timing log, on when `DUNLUA_TIMINGS=1`: a line on stderr
//! for every frame (when it started, the gap since the one before, the
//! work it did, whether it drew, the input it handled, the seed grid's
//! progress), for every map asked of a worker, and for every map swapped
//! in (when its worker finished it and in which frame it went on screen).
//! It is how the window's smoothness on big maps is measured and tested:
//! times are milliseconds since the window opened, read from one clock, so
//! a test compares frames and events rather than wall-clock thresholds.

use std::time::{Duration, Instant};

pub struct Timings {
    on: bool,
    clock: Instant,
    /// The frame being worked on, counted from 1.
    frame: u64,
    frame_start: Instant,
    last_start: Option<Instant>,
    /// Actions handled in this frame.
    actions: usize,
}

/// What a frame did, for its log line.
pub struct FrameReport {
    pub drawn: bool,
    pub sent: bool,
    /// The seed grid's pictures made and how many it has.
    pub grid: Option<(usize, usize)>,
    pub generating: bool,
}

impl Timings {
    pub fn new(on: bool) -> Timings {
        let now = Instant::now();
        Timings {
            on,
            clock: now,
            frame: 0,
            frame_start: now,
            last_start: None,
            actions: 0,
        }
    }

    /// Whether `DUNLUA_TIMINGS` asks for the log.
    pub fn wanted() -> bool {
        std::env::var("DUNLUA_TIMINGS").is_ok_and(|v| v == "1")
    }

    fn ms(&self, t: Instant) -> f64 {
        t.saturating_duration_since(self.clock).as_secs_f64() * 1000.0
    }

    /// A frame starts: its number goes on every line until the next.
    pub fn begin_frame(&mut self) {
        self.last_start = Some(self.frame_start).filter(|_| self.frame > 0);
        self.frame += 1;
        self.frame_start = Instant::now();
        self.actions = 0;
    }

    /// Input handled in this frame: each action, by name.
    pub fn action(&mut self, what: &dyn std::fmt::Debug) {
        self.actions += 1;
        if self.on {
            note!(
                "dunlua: timing input frame={} at={:.1} action={}",
                self.frame,
                self.ms(Instant::now()),
                format!("{what:?}").replace(' ', "")
            );
        }
    }

    /// A new map starts being made on a worker (`why`: reload, seed).
    pub fn generate(&self, why: &str) {
        if self.on {
            note!(
                "dunlua: timing generate frame={} at={:.1} why={why}",
                self.frame,
                self.ms(Instant::now())
            );
        }
    }

    /// A new map goes on screen in this frame: its worker finished it at
    /// `done_at`, after `took`; putting it in place took `swap`.
    pub fn swap(&self, why: &str, done_at: Instant, took: Duration, swap: Duration) {
        if self.on {
            note!(
                "dunlua: timing swap frame={} at={:.1} why={why} done_at={:.1} took={:.1} swap={:.2}",
                self.frame,
                self.ms(self.frame_start),
                self.ms(done_at),
                took.as_secs_f64() * 1000.0,
                swap.as_secs_f64() * 1000.0
            );
        }
    }

    /// The frame's work is done (everything but waiting for the next).
    pub fn end_frame(&self, report: FrameReport) {
        if !self.on {
            return;
        }
        let gap = match self.last_start {
            Some(t) => format!("{:.1}", (self.frame_start - t).as_secs_f64() * 1000.0),
            None => "0".into(),
        };
        let grid = match report.grid {
            Some((done, len)) => format!("{done}/{len}"),
            None => "none".into(),
        };
        note!(
            "dunlua: timing frame frame={} at={:.1} gap={gap} work={:.2} drawn={} sent={} actions={} grid={grid} generating={}",
            self.frame,
            self.ms(self.frame_start),
            self.frame_start.elapsed().as_secs_f64() * 1000.0,
            u8::from(report.drawn),
            u8::from(report.sent),
            self.actions,
            u8::from(report.generating),
        );
    }
}
