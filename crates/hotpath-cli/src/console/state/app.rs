//! The console's state and the two things that change it: user actions and polls.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use ratatui::layout::Rect;
use serde_json::Value;

use super::build;
use super::history::History;
use super::logs::TrackerLogs;
use super::table::Table;
use super::tabs::{SubView, Tab, TabViews};
use crate::console::client::Update;

/// What the event loop is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Normal,
    Help,
    Quit,
}

/// The connection to the server, as the last poll left it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Link {
    Connecting,
    Up,
    Down(String),
}

/// What a key press or click asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Quit,
    TogglePause,
    ToggleHelp,
    NextTab,
    PrevTab,
    Tab(usize),
    NextView,
    PrevView,
    View(usize),
    Up,
    Down,
    Top,
    Bottom,
    SortNext,
    SortReverse,
    SortBy(usize),
    Select(usize),
    /// Shows the table's columns from one further right or left (the name stays).
    ScrollRight,
    ScrollLeft,
}

/// Where the last frame drew the clickable things, for mouse input.
#[derive(Clone, Debug, Default)]
pub(crate) struct Regions {
    pub(crate) tabs: Vec<(Rect, usize)>,
    pub(crate) views: Vec<(Rect, usize)>,
    pub(crate) header: Vec<(Rect, usize)>,
    /// The table's body and the index of its first visible row.
    pub(crate) rows: Option<(Rect, usize)>,
}

/// The last data the server sent.
pub(crate) struct Data {
    pub(crate) status: Value,
    pub(crate) report: Value,
}

pub(crate) struct App {
    pub(crate) mode: Mode,
    pub(crate) tab: Tab,
    /// The selected view of each tab.
    view: [usize; Tab::ALL.len()],
    pub(crate) paused: bool,
    pub(crate) link: Link,
    pub(crate) address: String,
    pub(crate) refresh: Duration,
    pub(crate) data: Option<Data>,
    pub(crate) received: Option<Instant>,
    pub(crate) history: History,
    /// The selected debug tracker's log records.
    pub(crate) logs: TrackerLogs,
    /// Per view key: sort column and whether descending.
    sort: HashMap<String, (usize, bool)>,
    /// Per view key: the selected row's identity (stable while rows move).
    selected: HashMap<String, String>,
    /// Per view key: the first column shown after the name, for wide tables.
    scroll: HashMap<String, usize>,
    pub(crate) regions: Regions,
}

impl App {
    pub(crate) fn new(address: String, refresh: Duration) -> Self {
        Self {
            mode: Mode::Normal,
            tab: Tab::Functions,
            view: [0; Tab::ALL.len()],
            paused: false,
            link: Link::Connecting,
            address,
            refresh,
            data: None,
            received: None,
            history: History::default(),
            logs: TrackerLogs::default(),
            sort: HashMap::new(),
            selected: HashMap::new(),
            scroll: HashMap::new(),
            regions: Regions::default(),
        }
    }

    /// Takes in one poll. While paused only the link status changes.
    pub(crate) fn apply(&mut self, update: Update, now: Instant) {
        match update {
            Update::Failed(error) => self.link = Link::Down(error),
            Update::Logs { path, logs } => {
                if !self.paused {
                    self.logs.received(path, logs);
                }
            }
            Update::Data { status, report } => {
                self.link = Link::Up;
                if self.paused {
                    return;
                }
                let pid = |d: &Data| d.status["pid"].clone();
                if self.data.as_ref().is_some_and(|d| pid(d) != status["pid"]) {
                    // Another process (the program restarted): old rates mean nothing.
                    self.history.clear();
                }
                self.history.record(&report, now);
                self.data = Some(Data { status, report });
                self.received = Some(now);
            }
        }
    }

    pub(crate) fn report(&self) -> Option<&Value> {
        self.data.as_ref().map(|d| &d.report)
    }

    pub(crate) fn views(&self) -> Vec<SubView> {
        self.tab.views(self.report())
    }

    pub(crate) fn view_index(&self) -> usize {
        self.view[self.tab.index()].min(self.views().len().saturating_sub(1))
    }

    pub(crate) fn current_view(&self) -> SubView {
        let views = self.views();
        views[self.view_index().min(views.len() - 1)].clone()
    }

    /// Why the current view has no table: the server's reason, or the connection.
    pub(crate) fn missing_reason(&self, view: &SubView) -> String {
        match &self.data {
            None => match &self.link {
                Link::Down(e) => format!("waiting for the server ({e})"),
                _ => format!("waiting for the server at {}", self.address),
            },
            Some(d) => d.status["unavailable"][view.section.key()]
                .as_str()
                .map_or_else(|| format!("the server does not serve {}", view.section.key()), str::to_string),
        }
    }

    /// The current view's table, sorted as chosen; `None` when the section is absent.
    pub(crate) fn table(&self, view: &SubView) -> Option<Table> {
        let data = self.data.as_ref()?;
        let section = data.report.get(view.section.key())?;
        let mut table = build::table(view.section, section, view.list.as_deref(), &data.report["meta"], &self.history)?;
        if let Some(&(col, descending)) = self.sort.get(&view.key()) {
            table.sort(col, descending);
        }
        Some(table)
    }

    pub(crate) fn sort_of(&self, view: &SubView) -> Option<(usize, bool)> {
        self.sort.get(&view.key()).copied()
    }

    /// How many columns after the name the table is scrolled right.
    pub(crate) fn scroll_of(&self, view: &SubView) -> usize {
        self.scroll.get(&view.key()).copied().unwrap_or(0)
    }

    /// Keeps the scroll within the columns the last drawing could scroll to.
    pub(crate) fn clamp_scroll(&mut self, view: &SubView, max: usize) {
        if let Some(s) = self.scroll.get_mut(&view.key()) {
            *s = (*s).min(max);
        }
    }

    /// Index of the selected row in `table` (the first row when none is chosen).
    pub(crate) fn selected_index(&self, view: &SubView, table: &Table) -> Option<usize> {
        if table.rows.is_empty() {
            return None;
        }
        Some(self.selected.get(&view.key()).and_then(|n| table.position(n)).unwrap_or(0))
    }

    pub(crate) fn handle(&mut self, action: Action) {
        if self.mode == Mode::Help && !matches!(action, Action::Quit) {
            self.mode = Mode::Normal;
            if action == Action::ToggleHelp {
                return;
            }
        }
        let tab = self.tab.index();
        match action {
            Action::Quit => self.mode = Mode::Quit,
            Action::TogglePause => self.paused = !self.paused,
            Action::ToggleHelp => self.mode = Mode::Help,
            Action::NextTab => self.tab = Tab::ALL[(tab + 1) % Tab::ALL.len()],
            Action::PrevTab => self.tab = Tab::ALL[(tab + Tab::ALL.len() - 1) % Tab::ALL.len()],
            Action::Tab(i) => self.tab = Tab::ALL[i.min(Tab::ALL.len() - 1)],
            Action::NextView => self.view[tab] = (self.view_index() + 1) % self.views().len(),
            Action::PrevView => {
                let n = self.views().len();
                self.view[tab] = (self.view_index() + n - 1) % n;
            }
            Action::View(i) => self.view[tab] = i.min(self.views().len() - 1),
            Action::SortNext | Action::SortReverse | Action::SortBy(_) => self.sort_action(action),
            Action::Up | Action::Down | Action::Top | Action::Bottom | Action::Select(_) => self.move_selection(action),
            Action::ScrollRight | Action::ScrollLeft => {
                let key = self.current_view().key();
                let s = self.scroll.entry(key).or_default();
                *s = if action == Action::ScrollRight { *s + 1 } else { s.saturating_sub(1) };
            }
        }
    }

    fn sort_action(&mut self, action: Action) {
        let view = self.current_view();
        let columns = self.table(&view).map_or(0, |t| t.columns.len());
        if columns == 0 {
            return;
        }
        let current = self.sort.get(&view.key()).copied();
        // Numbers read best largest first; a new column starts descending.
        let next = match (action, current) {
            (Action::SortReverse, Some((col, desc))) => (col, !desc),
            (Action::SortReverse, None) => (0, false),
            (Action::SortNext, Some((col, _))) => ((col + 1) % columns, true),
            (Action::SortNext, None) => (1.min(columns - 1), true),
            (Action::SortBy(col), Some((c, desc))) if c == col => (col, !desc),
            (Action::SortBy(col), _) => (col.min(columns - 1), true),
            _ => return,
        };
        self.sort.insert(view.key(), next);
    }

    fn move_selection(&mut self, action: Action) {
        let view = self.current_view();
        let Some(table) = self.table(&view) else { return };
        let Some(current) = self.selected_index(&view, &table) else { return };
        let last = table.rows.len() - 1;
        let next = match action {
            Action::Up => current.saturating_sub(1),
            Action::Down => (current + 1).min(last),
            Action::Top => 0,
            Action::Bottom => last,
            Action::Select(i) => i.min(last),
            _ => current,
        };
        self.selected.insert(view.key(), table.rows[next].key.clone());
    }
}
