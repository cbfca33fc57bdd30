//! Keys and mouse to actions. Arrows and vim keys move, `1`-`9` and Tab switch
//! tabs, `←`/`→` (`h`/`l`) switch views, `<`/`>` (Shift-←/→) scroll wide tables,
//! `s`/`r` sort, `p` pauses, `q` quits; a
//! click selects a tab, a view, a sort column or a row, and the wheel scrolls.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::state::{Action, App, Mode, Regions};

pub(crate) fn action(event: &Event, app: &App) -> Option<Action> {
    match event {
        // Any key closes the help box.
        Event::Key(key) if key.kind != KeyEventKind::Release && app.mode == Mode::Help => Some(Action::ToggleHelp),
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(key),
        Event::Mouse(mouse) => {
            let at = Position::new(mouse.column, mouse.row);
            match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) => click(&app.regions, at),
                MouseEventKind::ScrollUp => Some(Action::Up),
                MouseEventKind::ScrollDown => Some(Action::Down),
                _ => None,
            }
        }
        _ => None,
    }
}

fn key_action(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c')).then_some(Action::Quit);
    }
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    Some(match key.code {
        KeyCode::Right if shift => Action::ScrollRight,
        KeyCode::Left if shift => Action::ScrollLeft,
        KeyCode::Char('>') | KeyCode::Char('.') => Action::ScrollRight,
        KeyCode::Char('<') | KeyCode::Char(',') => Action::ScrollLeft,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Char('p') | KeyCode::Char(' ') => Action::TogglePause,
        KeyCode::Char('?') => Action::ToggleHelp,
        KeyCode::Tab => Action::NextTab,
        KeyCode::BackTab => Action::PrevTab,
        KeyCode::Char(c @ '1'..='9') => Action::Tab(c as usize - '1' as usize),
        KeyCode::Right | KeyCode::Char('l') => Action::NextView,
        KeyCode::Left | KeyCode::Char('h') => Action::PrevView,
        KeyCode::Up | KeyCode::Char('k') => Action::Up,
        KeyCode::Down | KeyCode::Char('j') => Action::Down,
        KeyCode::Home | KeyCode::Char('g') => Action::Top,
        KeyCode::End | KeyCode::Char('G') => Action::Bottom,
        KeyCode::Char('s') => Action::SortNext,
        KeyCode::Char('r') | KeyCode::Char('S') => Action::SortReverse,
        _ => return None,
    })
}

fn click(regions: &Regions, at: Position) -> Option<Action> {
    let hit = |list: &[(Rect, usize)]| list.iter().find(|(r, _)| r.contains(at)).map(|(_, i)| *i);
    if let Some(i) = hit(&regions.tabs) {
        return Some(Action::Tab(i));
    }
    if let Some(i) = hit(&regions.views) {
        return Some(Action::View(i));
    }
    if let Some(i) = hit(&regions.header) {
        return Some(Action::SortBy(i));
    }
    let (body, offset) = regions.rows?;
    body.contains(at).then(|| Action::Select(offset + usize::from(at.y - body.y)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{MouseEvent, MouseEventKind};

    #[test]
    fn keys_and_clicks() {
        let key = |code| key_action(&KeyEvent::new(code, KeyModifiers::NONE));
        assert_eq!(key(KeyCode::Char('j')), Some(Action::Down));
        assert_eq!(key(KeyCode::Char('3')), Some(Action::Tab(2)));
        assert_eq!(key(KeyCode::Char('p')), Some(Action::TogglePause));
        assert_eq!(key(KeyCode::Char('>')), Some(Action::ScrollRight));
        assert_eq!(key_action(&KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT)), Some(Action::ScrollLeft));
        assert_eq!(key_action(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
        let mut app = App::new("x:1".into(), std::time::Duration::from_secs(1));
        app.regions.tabs = vec![(Rect::new(0, 0, 10, 1), 0), (Rect::new(10, 0, 10, 1), 1)];
        app.regions.rows = Some((Rect::new(0, 5, 80, 10), 3));
        let click = |column, row| {
            let event = MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column,
                row,
                modifiers: KeyModifiers::NONE,
            };
            action(&Event::Mouse(event), &app)
        };
        assert_eq!(click(12, 0), Some(Action::Tab(1)));
        assert_eq!(click(4, 7), Some(Action::Select(5)));
        assert_eq!(click(4, 20), None);
        app.mode = Mode::Help;
        let any = Event::Key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE));
        assert_eq!(action(&any, &app), Some(Action::ToggleHelp), "any key closes help");
    }
}
