//! Views of a replay: the board as text, a terminal animation, fumen pages and a
//! self-contained HTML replay page. Each view draws from one [`frames::Replay`], the replay of
//! either family kept lock by lock, so none of them re-implements the rules.

/// Terminal animation of a replay.
pub mod animate;
/// A filled cell as the views draw it: a piece's, or the starting board's.
pub mod block;
/// A replay of either family as plain data, frame by frame, for the views.
pub mod frames;
/// A replay as fumen pages.
pub mod fumen_pages;
/// A replay kept lock by lock, with colours.
pub mod game;
/// A guideline game's board after some locks as text, with hold, next pieces and chains.
pub mod guideline_text;
/// The HTML replay page.
pub mod html;
/// A game replayed on TETR.IO's own engine, as the views' replay.
pub mod tetrio_frames;
/// The board after some pieces as text.
pub mod text;
/// A round of a versus replay (`.ttrm`) as two replays, side by side.
pub mod versus;
