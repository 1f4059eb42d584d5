//! Keys to actions, and key repeat. Pure: the window loop feeds it the
//! presses and releases minifb's input callback queued, and the time.

use std::time::Duration;

use minifb::Key;

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Step the player by (dx, dy).
    Move(i32, i32),
    ZoomIn,
    ZoomOut,
    /// Zoom so the whole map fits in the window.
    FitMap,
    ToggleFov,
    /// Buried rock drawn dark, or every wall drawn.
    ToggleRock,
    /// The next overlay: none, rooms, regions, distance, markers.
    CycleOverlay,
    ToggleHelp,
    /// Esc: close the key list, else the seed grid, else the overlay, else
    /// quit.
    Back,
    Quit,
    NextSeed,
    PrevSeed,
    RandomSeed,
    Save,
    StepBack,
    StepForward,
    FirstStep,
    LastStep,
    PlayReplay,
    /// Replay playback slower / faster.
    ReplaySlower,
    ReplayFaster,
    NextParam,
    ParamDown,
    ParamUp,
    ResetParams,
    /// Take the stairs down (`>` on a `stairs_down`) or up (`<`).
    Descend,
    Ascend,
    /// The mouse is over this map cell (or off the map: `None`).
    Hover(Option<(i32, i32)>),
    /// A click on this map cell: walk there if it can be reached.
    Click(i32, i32),
    /// The seed grid on / off.
    ToggleGrid,
    /// The mouse over / a click on the grid's picture at this index.
    GridSelect(usize),
    GridOpen(usize),
}

/// One line of the key help: the keys, what they do, and the actions they
/// give (so a test can check every action has its line).
pub struct Binding {
    pub keys: &'static str,
    pub does: &'static str,
    pub actions: &'static [Action],
}

/// Every key and mouse binding; the `?` help is made from it.
pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: "arrows hjkl yubn numpad",
        does: "walk (held keys repeat)",
        actions: &[Action::Move(0, 0)],
    },
    Binding {
        keys: "mouse",
        does: "hover: what a cell is; click: walk there",
        actions: &[Action::Hover(None), Action::Click(0, 0)],
    },
    Binding {
        keys: "> <",
        does: "stairs down / up (multi-level scripts)",
        actions: &[Action::Descend, Action::Ascend],
    },
    Binding {
        keys: "+ -  0",
        does: "zoom in / out, fit the whole map",
        actions: &[Action::ZoomIn, Action::ZoomOut, Action::FitMap],
    },
    Binding {
        keys: "F",
        does: "field of view",
        actions: &[Action::ToggleFov],
    },
    Binding {
        keys: "W",
        does: "walls: buried rock dark / every wall",
        actions: &[Action::ToggleRock],
    },
    Binding {
        keys: "M",
        does: "overlay: rooms, regions, distance, markers",
        actions: &[Action::CycleOverlay],
    },
    Binding {
        keys: "G",
        does: "seed grid: pick with arrows or mouse, Enter or click opens",
        actions: &[
            Action::ToggleGrid,
            Action::GridSelect(0),
            Action::GridOpen(0),
        ],
    },
    Binding {
        keys: "PageDown PageUp r",
        does: "next / previous / random seed",
        actions: &[Action::NextSeed, Action::PrevSeed, Action::RandomSeed],
    },
    Binding {
        keys: "[ ]  Home End",
        does: "replay step back / forward, first / last",
        actions: &[
            Action::StepBack,
            Action::StepForward,
            Action::FirstStep,
            Action::LastStep,
        ],
    },
    Binding {
        keys: "Enter  { }",
        does: "play the generation, slower / faster",
        actions: &[
            Action::PlayReplay,
            Action::ReplaySlower,
            Action::ReplayFaster,
        ],
    },
    Binding {
        keys: "Tab  , .",
        does: "pick a parameter, lower / raise it",
        actions: &[Action::NextParam, Action::ParamDown, Action::ParamUp],
    },
    Binding {
        keys: "Ctrl+R",
        does: "parameters back to defaults",
        actions: &[Action::ResetParams],
    },
    Binding {
        keys: "Ctrl+S",
        does: "save PNG and JSON",
        actions: &[Action::Save],
    },
    Binding {
        keys: "?",
        does: "this key list (? or Esc closes it)",
        actions: &[Action::ToggleHelp],
    },
    Binding {
        keys: "Esc",
        does: "close this list, the grid or the overlay; else quit",
        actions: &[Action::Back],
    },
    Binding {
        keys: "q",
        does: "quit",
        actions: &[Action::Quit],
    },
];

/// The help overlay's lines, from [`BINDINGS`].
pub fn help_lines() -> Vec<String> {
    BINDINGS
        .iter()
        .map(|b| format!("{:<24} {}", b.keys, b.does))
        .collect()
}

/// The action of a key pressed (with Ctrl held or not). Letters are read
/// as keys, punctuation as characters (see [`char_action`]) so that `?`,
/// `+` and `[` work whatever the keyboard layout.
pub fn key_action(key: Key, ctrl: bool) -> Option<Action> {
    use Action::*;
    if ctrl {
        return match key {
            Key::S => Some(Save),
            Key::Q => Some(Quit),
            Key::R => Some(ResetParams),
            _ => None,
        };
    }
    Some(match key {
        Key::Left | Key::H | Key::NumPad4 => Move(-1, 0),
        Key::Right | Key::L | Key::NumPad6 => Move(1, 0),
        Key::Up | Key::K | Key::NumPad8 => Move(0, -1),
        Key::Down | Key::J | Key::NumPad2 => Move(0, 1),
        Key::Y | Key::NumPad7 => Move(-1, -1),
        Key::U | Key::NumPad9 => Move(1, -1),
        Key::B | Key::NumPad1 => Move(-1, 1),
        Key::N | Key::NumPad3 => Move(1, 1),
        Key::F => ToggleFov,
        Key::W => ToggleRock,
        Key::M => CycleOverlay,
        Key::G => ToggleGrid,
        Key::Escape => Back,
        Key::Q => Quit,
        Key::PageDown => NextSeed,
        Key::PageUp => PrevSeed,
        Key::R => RandomSeed,
        Key::Home => FirstStep,
        Key::End => LastStep,
        Key::Enter | Key::NumPadEnter => PlayReplay,
        Key::Tab => NextParam,
        _ => return None,
    })
}

/// The action of a typed character.
pub fn char_action(c: char) -> Option<Action> {
    use Action::*;
    Some(match c {
        '+' | '=' => ZoomIn,
        '-' | '_' => ZoomOut,
        '0' => FitMap,
        '[' => StepBack,
        ']' => StepForward,
        '{' => ReplaySlower,
        '}' => ReplayFaster,
        '?' => ToggleHelp,
        ',' => ParamDown,
        '.' => ParamUp,
        '>' => Descend,
        '<' => Ascend,
        _ => return None,
    })
}

/// Whether a key moves the player (and so repeats while held).
pub fn repeats(key: Key) -> bool {
    matches!(key_action(key, false), Some(Action::Move(..)))
}

/// How long a key must be held before it repeats, and how often then.
pub const REPEAT_DELAY: Duration = Duration::from_millis(250);
pub const REPEAT_EVERY: Duration = Duration::from_millis(70);

/// Key repeat under our control: the X server's autorepeat varies by
/// machine, so a held movement key repeats here at a fixed pace, and the
/// last key pressed is the one that repeats (as in a terminal).
#[derive(Debug, Default)]
pub struct Repeater {
    held: Option<(Key, Duration)>,
}

impl Repeater {
    /// A key went down at `now`; returns false for an autorepeat press of a
    /// key already held (which the repeater handles itself).
    pub fn press(&mut self, key: Key, now: Duration) -> bool {
        if matches!(self.held, Some((k, _)) if k == key) {
            return false;
        }
        if repeats(key) {
            self.held = Some((key, now + REPEAT_DELAY));
        }
        true
    }

    pub fn release(&mut self, key: Key) {
        if matches!(self.held, Some((k, _)) if k == key) {
            self.held = None;
        }
    }

    /// The repeats due by `now`.
    pub fn due(&mut self, now: Duration) -> Vec<Key> {
        let mut out = Vec::new();
        if let Some((key, next)) = &mut self.held {
            while *next <= now {
                out.push(*key);
                *next += REPEAT_EVERY;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movement_keys_in_three_layouts() {
        for (keys, step) in [
            ([Key::Left, Key::H, Key::NumPad4], (-1, 0)),
            ([Key::Right, Key::L, Key::NumPad6], (1, 0)),
            ([Key::Up, Key::K, Key::NumPad8], (0, -1)),
            ([Key::Down, Key::J, Key::NumPad2], (0, 1)),
        ] {
            for key in keys {
                assert_eq!(
                    key_action(key, false),
                    Some(Action::Move(step.0, step.1)),
                    "{key:?}"
                );
            }
        }
        assert_eq!(key_action(Key::Y, false), Some(Action::Move(-1, -1)));
        assert_eq!(key_action(Key::U, false), Some(Action::Move(1, -1)));
        assert_eq!(key_action(Key::B, false), Some(Action::Move(-1, 1)));
        assert_eq!(key_action(Key::N, false), Some(Action::Move(1, 1)));
        assert_eq!(key_action(Key::NumPad7, false), Some(Action::Move(-1, -1)));
        assert_eq!(key_action(Key::NumPad3, false), Some(Action::Move(1, 1)));
    }

    #[test]
    fn commands() {
        assert_eq!(key_action(Key::S, true), Some(Action::Save));
        assert_eq!(key_action(Key::S, false), None);
        assert_eq!(key_action(Key::Escape, false), Some(Action::Back));
        assert_eq!(key_action(Key::Q, false), Some(Action::Quit));
        assert_eq!(key_action(Key::F, false), Some(Action::ToggleFov));
        assert_eq!(key_action(Key::PageDown, false), Some(Action::NextSeed));
        assert_eq!(key_action(Key::PageUp, false), Some(Action::PrevSeed));
        assert_eq!(key_action(Key::R, false), Some(Action::RandomSeed));
        assert_eq!(key_action(Key::Home, false), Some(Action::FirstStep));
        assert_eq!(key_action(Key::End, false), Some(Action::LastStep));
        assert_eq!(key_action(Key::Enter, false), Some(Action::PlayReplay));
        assert_eq!(char_action('['), Some(Action::StepBack));
        assert_eq!(char_action(']'), Some(Action::StepForward));
        assert_eq!(char_action('+'), Some(Action::ZoomIn));
        assert_eq!(char_action('-'), Some(Action::ZoomOut));
        assert_eq!(char_action('?'), Some(Action::ToggleHelp));
        assert_eq!(key_action(Key::Tab, false), Some(Action::NextParam));
        assert_eq!(key_action(Key::R, true), Some(Action::ResetParams));
        assert_eq!(char_action(','), Some(Action::ParamDown));
        assert_eq!(char_action('.'), Some(Action::ParamUp));
        assert_eq!(char_action('>'), Some(Action::Descend));
        assert_eq!(char_action('<'), Some(Action::Ascend));
        assert_eq!(char_action('h'), None, "letters are handled as keys");
    }

    /// Every action, by a match that fails to compile when one is added
    /// and not listed here.
    fn every_action() -> Vec<Action> {
        use Action::*;
        let all = vec![
            Move(0, 0),
            ZoomIn,
            ZoomOut,
            FitMap,
            ToggleFov,
            ToggleRock,
            CycleOverlay,
            ToggleHelp,
            Quit,
            NextSeed,
            PrevSeed,
            RandomSeed,
            Save,
            StepBack,
            StepForward,
            FirstStep,
            LastStep,
            PlayReplay,
            ReplaySlower,
            ReplayFaster,
            NextParam,
            ParamDown,
            ParamUp,
            ResetParams,
            Descend,
            Ascend,
            Hover(None),
            Click(0, 0),
            Back,
            ToggleGrid,
            GridSelect(0),
            GridOpen(0),
        ];
        for a in &all {
            match a {
                Move(..) | ZoomIn | ZoomOut | FitMap | ToggleFov | ToggleRock | CycleOverlay
                | ToggleHelp | Back | Quit | NextSeed | PrevSeed | RandomSeed | Save | StepBack
                | StepForward | FirstStep | LastStep | PlayReplay | ReplaySlower | ReplayFaster
                | NextParam | ParamDown | ParamUp | ResetParams | Descend | Ascend | Hover(_)
                | Click(..) | ToggleGrid | GridSelect(_) | GridOpen(_) => {}
            }
        }
        all
    }

    fn has_help(action: Action) -> bool {
        let kind = std::mem::discriminant(&action);
        BINDINGS
            .iter()
            .any(|b| b.actions.iter().any(|a| std::mem::discriminant(a) == kind))
    }

    #[test]
    fn every_action_has_a_help_line_and_every_key_a_listed_action() {
        for action in every_action() {
            assert!(has_help(action), "{action:?} has no line in BINDINGS");
        }
        let chars = (' '..='~').filter_map(char_action);
        // Every letter and every other key the window reads (G had no
        // line: the list named only a few letters).
        use Key::*;
        let keys = [
            A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z, Left,
            Right, Up, Down, Home, End, PageUp, PageDown, Tab, Enter, Escape, NumPad1, NumPad2,
            NumPad3, NumPad4, NumPad6, NumPad7, NumPad8, NumPad9,
        ]
        .into_iter()
        .flat_map(|k| [key_action(k, false), key_action(k, true)])
        .flatten();
        for action in chars.chain(keys) {
            assert!(has_help(action), "{action:?} is bound but not in the help");
        }
        let help = help_lines();
        assert_eq!(help.len(), BINDINGS.len());
        assert!(help
            .iter()
            .any(|l| l.starts_with("W ") && l.contains("buried rock")));
    }

    #[test]
    fn held_keys_repeat_after_a_delay() {
        let ms = Duration::from_millis;
        let mut r = Repeater::default();
        assert!(r.press(Key::Right, ms(0)));
        assert!(r.due(ms(100)).is_empty(), "a tap does not repeat");
        assert!(
            !r.press(Key::Right, ms(120)),
            "autorepeat presses are ignored"
        );
        assert_eq!(r.due(ms(250)), [Key::Right]);
        assert_eq!(r.due(ms(400)), [Key::Right, Key::Right]);
        r.release(Key::Right);
        assert!(r.due(ms(2000)).is_empty());
    }

    #[test]
    fn the_last_key_pressed_repeats_and_commands_never_do() {
        let ms = Duration::from_millis;
        let mut r = Repeater::default();
        r.press(Key::Right, ms(0));
        r.press(Key::Down, ms(10));
        r.release(Key::Right);
        assert_eq!(r.due(ms(260)), [Key::Down]);
        let mut c = Repeater::default();
        assert!(c.press(Key::PageDown, ms(0)));
        assert!(c.due(ms(5000)).is_empty());
    }
}
