//! One room: two seats held by secret tokens, the game between them judged by the rules core,
//! the clocks kept from stamped times, the offers (draw, take-back, rematch), resignation,
//! a claim against a player who stays away, and the result.
//!
//! Every change takes the time `now` (milliseconds since 1970) from its caller, so the room
//! itself never reads a clock: the server stamps each message as it arrives, and a restarted
//! server continues the side to move's clock from the stored stamp.

use crate::token;
use serde::{Deserialize, Serialize};
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{Color, Game, GameResult, GameRules, Move, Outcome, Position, RuleSet, Square};

/// How long a player may stay away from a game in play before the opponent may claim it.
pub const AWAY_GRACE_MS: u64 = 60_000;
/// Longest main time a room's clock may have, in minutes.
pub const MAX_MINUTES: u32 = 180;
/// Largest increment per move, in seconds.
pub const MAX_INCREMENT: u32 = 60;
/// Longest player name kept, in characters.
pub const MAX_NAME: usize = 40;

/// A time control: `seconds` of main time for the game and `increment` seconds added after
/// each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Main time in seconds, 1 to [`MAX_MINUTES`] minutes' worth.
    pub seconds: u32,
    /// Seconds added after each move, 0 to [`MAX_INCREMENT`].
    pub increment: u32,
}

impl TimeControl {
    /// The control, when both numbers are in range.
    pub fn new(seconds: u32, increment: u32) -> Result<TimeControl, RoomError> {
        if !(1..=MAX_MINUTES * 60).contains(&seconds) || increment > MAX_INCREMENT {
            return Err(RoomError::BadTimeControl { seconds, increment });
        }
        Ok(TimeControl { seconds, increment })
    }

    /// The control as PGN's `TimeControl` tag writes it: seconds `+` increment, e.g. `600+5`.
    pub fn pgn(self) -> String {
        format!("{}+{}", self.seconds, self.increment)
    }

    fn main_ms(self) -> u64 {
        u64::from(self.seconds) * 1000
    }

    fn increment_ms(self) -> u64 {
        u64::from(self.increment) * 1000
    }
}

/// Which side the creator of a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    /// Red, who moves first.
    Red,
    /// Black.
    Black,
    /// Drawn by lot.
    Random,
}

/// The rule set judging perpetual check and chase and the draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// The Asian (AXF) rules.
    Asian,
    /// The Chinese Xiangqi Association's rules.
    Cxq,
}

impl Rules {
    fn rule_set(self) -> RuleSet {
        match self {
            Rules::Asian => RuleSet::Asian,
            Rules::Cxq => RuleSet::Cxq,
        }
    }
}

/// What a new room is made with.
#[derive(Clone, Debug)]
pub struct RoomSettings {
    /// The creator's side.
    pub side: SideChoice,
    /// The clock, if the game is timed.
    pub clock: Option<TimeControl>,
    /// The rule set.
    pub rules: Rules,
    /// Whether the game counts for the players' ratings: only accounts sit in a rated room.
    pub rated: bool,
}

/// Who sits down.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// The name they gave (an account's own name for an account).
    pub name: String,
    /// Whose archive the room's games go to (the store's owner), if anyone's.
    pub owner: Option<String>,
    /// Their account's name, when they are signed in.
    pub account: Option<String>,
}

impl Player {
    /// Someone known by `name` alone.
    pub fn named(name: &str) -> Player {
        Player {
            name: name.to_string(),
            ..Player::default()
        }
    }
}

/// A seat and who holds it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seat {
    token: String,
    /// The player's name as they gave it.
    pub name: String,
    /// Whose archive the room's games go to (the store's owner), if anyone's.
    #[serde(default)]
    pub owner: Option<String>,
    /// The player's account, when they sat down signed in.
    #[serde(default)]
    pub account: Option<String>,
}

impl Seat {
    /// The secret token that holds the seat: who a server counts as here goes by it, so that
    /// it follows the player when the seats swap at a rematch.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The seat of `player`, holding `token`.
    fn of(token: String, player: Player) -> Seat {
        Seat {
            token,
            name: clean_name(player.account.as_deref().unwrap_or(&player.name), "Player"),
            owner: player.owner,
            account: player.account,
        }
    }
}

/// What can be offered to the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    /// A draw, while the game goes on.
    Draw,
    /// Taking back the offerer's last move (and the reply to it).
    Takeback,
    /// A new game with colours swapped, once this one is over.
    Rematch,
}

impl OfferKind {
    /// The name the wire uses.
    pub const fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
            OfferKind::Rematch => "rematch",
        }
    }
}

/// An offer waiting for the opponent's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// What is offered.
    pub kind: OfferKind,
    /// The side that offered it.
    #[serde(with = "color_name")]
    pub by: Color,
}

/// Why a game ended, beyond the rules' own endings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "how")]
pub enum Ending {
    /// The rules ended it (mate, stalemate, a verdict on perpetual check or chase, a draw
    /// rule): the game's outcome says how.
    Rules,
    /// A flag fell.
    Time {
        /// The side whose time ran out.
        #[serde(with = "color_name")]
        loser: Color,
    },
    /// A player resigned.
    Resignation {
        /// The side that resigned.
        #[serde(with = "color_name")]
        loser: Color,
    },
    /// Both players agreed to a draw.
    Agreement,
    /// A player stayed away past the grace period and the opponent claimed the game.
    Abandoned {
        /// The side that stayed away.
        #[serde(with = "color_name")]
        loser: Color,
    },
    /// An administrator of the server closed the room: the game has no result.
    Closed,
}

impl Ending {
    /// The ending's code: `time`, `resignation`, `agreement` or `abandoned`; `None` for an
    /// ending of the rules, whose outcome has its own.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            Ending::Rules => None,
            Ending::Time { .. } => Some("time"),
            Ending::Resignation { .. } => Some("resignation"),
            Ending::Agreement => Some("agreement"),
            Ending::Abandoned { .. } => Some("abandoned"),
            Ending::Closed => Some("closed"),
        }
    }

    /// The side that lost by it, for an ending one side loses by.
    pub fn loser(&self) -> Option<Color> {
        match self {
            Ending::Time { loser }
            | Ending::Resignation { loser }
            | Ending::Abandoned { loser } => Some(*loser),
            Ending::Rules | Ending::Agreement | Ending::Closed => None,
        }
    }

    /// The result it gives, the rules' `outcome` for an ending of the rules.
    fn result(&self, outcome: Option<&Outcome>) -> Option<GameResult> {
        Some(match self {
            Ending::Rules => outcome?.result,
            Ending::Closed => return None,
            Ending::Agreement => GameResult::Draw,
            Ending::Time { loser }
            | Ending::Resignation { loser }
            | Ending::Abandoned { loser } => GameResult::win_for(loser.opponent()),
        })
    }
}

/// The ending in English words (`red lost on time`); the page words it from its code and
/// the loser in the reader's language.
impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let loser = self.loser().map_or("", side_name);
        match self {
            Ending::Rules => write!(f, "the rules ended the game"),
            Ending::Time { .. } => write!(f, "{loser} lost on time"),
            Ending::Resignation { .. } => write!(f, "{loser} resigned"),
            Ending::Agreement => write!(f, "drawn by agreement"),
            Ending::Abandoned { .. } => write!(f, "{loser} left the game"),
            Ending::Closed => write!(f, "the server's administrator closed the room"),
        }
    }
}

/// How a game ended: the result and its reason's code, for the page to word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomResult {
    /// The result.
    pub result: GameResult,
    /// `time`, `resignation`, `agreement`, `abandoned`, or the rules' reason code
    /// (`checkmate` …).
    pub code: &'static str,
}

/// Where the room's game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// One seat is free: the game starts when it is taken.
    Waiting,
    /// Both seats are taken and the game goes on.
    Playing,
    /// The game is over (a rematch may start the next one).
    Over,
}

impl Status {
    /// `waiting`, `playing` or `over`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }
}

/// Who a connection is in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The holder of a seat.
    Player(Color),
    /// A viewer, who can never move, offer or resign.
    Spectator,
}

/// Why a room refused something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomError {
    /// The seat token is not one of this room's.
    BadToken,
    /// A spectator tried to play, offer, resign or claim.
    NotSeated,
    /// The other seat is still free.
    NoOpponent,
    /// It is the other side's move.
    NotYourTurn,
    /// The game is over.
    GameOver,
    /// The game is not over, so there is no rematch yet.
    NotOver,
    /// The move is illegal, for the rules core's reason.
    Illegal(IllegalMove),
    /// An answer to an offer that was not made (or was made by the one answering).
    NoOffer(OfferKind),
    /// An offer that cannot be made now: a take-back with no move of the offerer's to take
    /// back, or the same offer twice.
    CannotOffer(OfferKind),
    /// A claim against a player who is here, or has not been away long enough: how long
    /// is left, in milliseconds.
    CannotClaim {
        /// Milliseconds until the claim may be made; `None` while the opponent is here.
        wait_ms: Option<u64>,
    },
    /// The spectators' analysis of a rated game cannot be turned on while it is played.
    RatedAnalysis,
    /// A time control out of range.
    BadTimeControl {
        /// The main time asked for, in seconds.
        seconds: u32,
        /// The increment asked for.
        increment: u32,
    },
}

impl std::fmt::Display for RoomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomError::BadToken => f.write_str("that seat token is not one of this room's"),
            RoomError::NotSeated => f.write_str("a spectator cannot move, offer or resign"),
            RoomError::NoOpponent => f.write_str("the other seat is still free"),
            RoomError::RatedAnalysis => {
                f.write_str("a rated game is not analysed for anyone while it is played")
            }
            RoomError::NotYourTurn => f.write_str("it is not your move"),
            RoomError::GameOver => f.write_str("the game is over"),
            RoomError::NotOver => f.write_str("the game is not over yet"),
            RoomError::Illegal(e) => f.write_str(&e.message()),
            RoomError::NoOffer(k) => write!(f, "there is no {} offer to answer", k.name()),
            RoomError::CannotOffer(k) => write!(f, "a {} cannot be offered now", k.name()),
            RoomError::CannotClaim { wait_ms: None } => {
                f.write_str("the opponent is here: there is nothing to claim")
            }
            RoomError::CannotClaim { wait_ms: Some(ms) } => write!(
                f,
                "the opponent has not been away long enough: {} s more",
                ms.div_ceil(1000)
            ),
            RoomError::BadTimeControl { seconds, increment } => write!(
                f,
                "a time control of {seconds} s + {increment} s is out of range: 1 s to \
                 {MAX_MINUTES} minutes and 0 to {MAX_INCREMENT} seconds a move"
            ),
        }
    }
}

impl std::error::Error for RoomError {}

/// The clocks of a timed game: each side's time left at its last stamp, and when the side
/// to move's clock started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Red's and Black's time left, in milliseconds, as of `stamp` for the side to move.
    pub left_ms: [u64; 2],
    /// When the side to move's clock started (ms since 1970); `None` while it stands.
    pub stamp: Option<u64>,
}

/// What is kept of a room: everything but the rules' game, which is replayed from the moves.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Stored {
    id: String,
    code: String,
    created_ms: u64,
    clock: Option<TimeControl>,
    rules: Rules,
    /// Red's seat, then Black's.
    seats: [Option<Seat>; 2],
    /// Whether the games count for the players' ratings.
    #[serde(default)]
    rated: bool,
    /// Whether an administrator closed the room (no rematch then).
    #[serde(default)]
    closed: bool,
    /// The game's number in the room (1 for the first, one more for each rematch).
    number: u32,
    /// The moves (ICCS) from the start position.
    moves: Vec<String>,
    clocks: Option<Clocks>,
    offer: Option<Offer>,
    ending: Option<Ending>,
    /// When the game ended.
    ended_ms: Option<u64>,
    /// Whether spectators are shown the analysis.
    analysis: bool,
    updated_ms: u64,
}

/// A room and its game.
#[derive(Clone, Debug)]
pub struct Room {
    s: Stored,
    game: Game,
}

fn index(side: Color) -> usize {
    match side {
        Color::Red => 0,
        Color::Black => 1,
    }
}

/// A side as the wire writes it.
pub const fn side_name(side: Color) -> &'static str {
    match side {
        Color::Red => "red",
        Color::Black => "black",
    }
}

mod color_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use xiangqi_rules::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::side_name(*c))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "red" => Ok(Color::Red),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!("no side `{other}`"))),
        }
    }
}

fn clean_name(name: &str, fallback: &str) -> String {
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME)
        .collect();
    let name = name.trim();
    if name.is_empty() {
        fallback.to_string()
    } else {
        name.to_string()
    }
}

impl Room {
    /// A new room with id `id` and short code `code`; its creator `player` holds `token` and
    /// sits on the side the settings choose (by lot when random). Returns the room and the
    /// creator's side.
    pub fn create(
        id: String,
        code: String,
        settings: &RoomSettings,
        token: String,
        player: Player,
        now: u64,
    ) -> (Room, Color) {
        let side = match settings.side {
            SideChoice::Red => Color::Red,
            SideChoice::Black => Color::Black,
            SideChoice::Random => {
                if token::random_u64() & 1 == 0 {
                    Color::Red
                } else {
                    Color::Black
                }
            }
        };
        let mut seats = [None, None];
        seats[index(side)] = Some(Seat::of(token, player));
        let s = Stored {
            id,
            code,
            created_ms: now,
            clock: settings.clock,
            rules: settings.rules,
            seats,
            rated: settings.rated,
            closed: false,
            number: 1,
            moves: Vec::new(),
            clocks: settings.clock.map(|tc| Clocks {
                left_ms: [tc.main_ms(); 2],
                stamp: None,
            }),
            offer: None,
            ending: None,
            ended_ms: None,
            // Off until a player allows it: a player's second browser must not read it.
            analysis: false,
            updated_ms: now,
        };
        let game = Game::with_rules(
            Position::startpos(),
            GameRules::new(settings.rules.rule_set()),
        );
        (Room { s, game }, side)
    }

    /// The room read back from [`Room::to_json`]: its moves replayed by the rules core.
    pub fn from_json(json: &str) -> Result<Room, String> {
        let s: Stored = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let mut game = Game::with_rules(Position::startpos(), GameRules::new(s.rules.rule_set()));
        for text in &s.moves {
            let m: Move = text.parse().map_err(|e| format!("move {text}: {e}"))?;
            game.play(m)
                .map_err(|e| format!("move {text}: {}", e.message()))?;
        }
        Ok(Room { s, game })
    }

    /// The room as the store keeps it (JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.s).unwrap_or_default()
    }

    /// The room's id.
    pub fn id(&self) -> &str {
        &self.s.id
    }

    /// The room's short code.
    pub fn code(&self) -> &str {
        &self.s.code
    }

    /// When the room last changed.
    pub fn updated_ms(&self) -> u64 {
        self.s.updated_ms
    }

    /// When the room was made.
    pub fn created_ms(&self) -> u64 {
        self.s.created_ms
    }

    /// The time control, if timed.
    pub fn clock(&self) -> Option<TimeControl> {
        self.s.clock
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.s.rules
    }

    /// Whether the room's games count for the players' ratings.
    pub fn rated(&self) -> bool {
        self.s.rated
    }

    /// The game being played (or last played).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's number in the room.
    pub fn number(&self) -> u32 {
        self.s.number
    }

    /// The seat of `side`.
    pub fn seat(&self, side: Color) -> Option<&Seat> {
        self.s.seats[index(side)].as_ref()
    }

    /// The offer waiting for an answer.
    pub fn pending_offer(&self) -> Option<Offer> {
        self.s.offer
    }

    /// Whether spectators are shown the analysis.
    pub fn analysis(&self) -> bool {
        self.s.analysis
    }

    /// The clocks as stored (time left as of the stamp).
    pub fn clocks(&self) -> Option<Clocks> {
        self.s.clocks
    }

    /// When the game ended.
    pub fn ended_ms(&self) -> Option<u64> {
        self.s.ended_ms
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        if self.s.ending.is_some() {
            Status::Over
        } else if self.s.seats.iter().any(Option::is_none) {
            Status::Waiting
        } else {
            Status::Playing
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// The seat a token holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        [Color::Red, Color::Black].into_iter().find(|&side| {
            self.seat(side)
                .is_some_and(|seat| token::same(&seat.token, token))
        })
    }

    /// Who a visitor is: with a token, the seat it holds (refused when it holds none: a
    /// forged token, or one of another room); without, the free seat, which `player` takes
    /// with `new_token` (the game starts then; the clocks start with Red's first move), or a
    /// spectator's place when both are taken, or when the room is rated and `player` has no
    /// account, or is the account that holds the other seat. The role, and whether the
    /// visitor took a seat.
    pub fn join(
        &mut self,
        token: Option<&str>,
        new_token: String,
        player: Player,
        now: u64,
    ) -> Result<(Role, bool), RoomError> {
        if let Some(token) = token {
            return self
                .seat_of(token)
                .map(|side| (Role::Player(side), false))
                .ok_or(RoomError::BadToken);
        }
        let free = [Color::Red, Color::Black]
            .into_iter()
            .find(|&side| self.seat(side).is_none());
        let Some(side) = free else {
            return Ok((Role::Spectator, false));
        };
        if self.s.ending.is_some() {
            return Ok((Role::Spectator, false));
        }
        if self.s.rated {
            let other = self
                .seat(side.opponent())
                .and_then(|s| s.account.as_deref());
            match player.account.as_deref() {
                None => return Ok((Role::Spectator, false)),
                Some(account) if Some(account) == other => return Ok((Role::Spectator, false)),
                Some(_) => {}
            }
        }
        self.s.seats[index(side)] = Some(Seat::of(new_token, player));
        self.s.updated_ms = now;
        Ok((Role::Player(side), true))
    }

    /// Each side's time left at `now` (Red's, then Black's), when the game is timed.
    pub fn time_left(&self, now: u64) -> Option<[u64; 2]> {
        let c = self.s.clocks?;
        let mut left = c.left_ms;
        if let Some(stamp) = c.stamp
            && self.s.ending.is_none()
        {
            let i = index(self.turn());
            left[i] = left[i].saturating_sub(now.saturating_sub(stamp));
        }
        Some(left)
    }

    /// When the side to move's flag falls (ms since 1970), while its clock runs.
    pub fn deadline(&self) -> Option<u64> {
        let c = self.s.clocks?;
        if self.s.ending.is_some() {
            return None;
        }
        Some(c.stamp? + c.left_ms[index(self.turn())])
    }

    /// Ends the game on time when the side to move's flag has fallen by `now`; whether it
    /// did.
    pub fn tick(&mut self, now: u64) -> bool {
        match self.deadline() {
            Some(at) if now >= at => {
                let loser = self.turn();
                self.end(Ending::Time { loser }, now);
                if let Some(c) = &mut self.s.clocks {
                    c.left_ms[index(loser)] = 0;
                }
                true
            }
            _ => false,
        }
    }

    fn end(&mut self, ending: Ending, now: u64) {
        if let Some(c) = &mut self.s.clocks
            && let Some(stamp) = c.stamp.take()
        {
            let i = index(self.game.position().side_to_move());
            c.left_ms[i] = c.left_ms[i].saturating_sub(now.saturating_sub(stamp));
        }
        self.s.ending = Some(ending);
        self.s.ended_ms = Some(now);
        self.s.offer = None;
        self.s.updated_ms = now;
    }

    /// How the game ended, once it is over.
    pub fn ending(&self) -> Option<&Ending> {
        self.s.ending.as_ref()
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<RoomResult> {
        let ending = self.s.ending.as_ref()?;
        let outcome = self.game.outcome();
        Some(RoomResult {
            result: ending.result(outcome)?,
            code: match ending.code() {
                Some(code) => code,
                None => outcome?.reason.code(),
            },
        })
    }

    /// The rules' outcome, when the rules ended the game.
    pub fn rules_outcome(&self) -> Option<&Outcome> {
        matches!(self.s.ending, Some(Ending::Rules))
            .then(|| self.game.outcome())
            .flatten()
    }

    fn player(&self, role: Role) -> Result<Color, RoomError> {
        match role {
            Role::Player(side) => Ok(side),
            Role::Spectator => Err(RoomError::NotSeated),
        }
    }

    fn in_play(&self) -> Result<(), RoomError> {
        match self.status() {
            Status::Over => Err(RoomError::GameOver),
            Status::Waiting => Err(RoomError::NoOpponent),
            Status::Playing => Ok(()),
        }
    }

    /// Plays `from`–`to` for `role` at `now`: refused for a spectator, out of turn, after
    /// the game (or the flag of the side to move, which then ends it), or when the rules
    /// core finds it illegal. The clock of the mover stops with the increment added, the
    /// other's starts; an offer waiting is withdrawn (a move declines a draw).
    pub fn play(
        &mut self,
        role: Role,
        from: Square,
        to: Square,
        now: u64,
    ) -> Result<(), RoomError> {
        let side = self.player(role)?;
        self.in_play()?;
        if self.tick(now) {
            return Err(RoomError::GameOver);
        }
        if side != self.turn() {
            return Err(RoomError::NotYourTurn);
        }
        let m = self
            .game
            .position()
            .check_move(from, to)
            .map_err(RoomError::Illegal)?;
        self.game.play(m).map_err(RoomError::Illegal)?;
        self.s.moves.push(m.to_string());
        if let (Some(c), Some(tc)) = (&mut self.s.clocks, self.s.clock) {
            let i = index(side);
            let used = c.stamp.map_or(0, |stamp| now.saturating_sub(stamp));
            c.left_ms[i] = c.left_ms[i].saturating_sub(used) + tc.increment_ms();
            c.stamp = Some(now);
        }
        self.s.offer = None;
        self.s.updated_ms = now;
        if self.game.outcome().is_some() {
            self.end(Ending::Rules, now);
        }
        Ok(())
    }

    /// Makes an offer for `role`: a draw or a take-back while the game goes on (a take-back
    /// needs a move of the offerer's), a rematch once it is over. The opponent's offer of the
    /// same kind is accepted by it.
    pub fn offer(&mut self, role: Role, kind: OfferKind, now: u64) -> Result<(), RoomError> {
        let side = self.player(role)?;
        match kind {
            OfferKind::Draw | OfferKind::Takeback => {
                self.in_play()?;
                if self.tick(now) {
                    return Err(RoomError::GameOver);
                }
            }
            OfferKind::Rematch => {
                if self.status() != Status::Over {
                    return Err(RoomError::NotOver);
                }
                if self.s.closed {
                    return Err(RoomError::GameOver);
                }
            }
        }
        if kind == OfferKind::Takeback && self.plies_to_take_back(side) == 0 {
            return Err(RoomError::CannotOffer(kind));
        }
        match self.s.offer {
            Some(o) if o.kind == kind && o.by != side => {
                return self.answer(role, kind, true, now);
            }
            Some(o) if o.kind == kind => return Err(RoomError::CannotOffer(kind)),
            _ => {}
        }
        self.s.offer = Some(Offer { kind, by: side });
        self.s.updated_ms = now;
        Ok(())
    }

    /// How many plies a take-back for `side` undoes: back to `side`'s last move played.
    fn plies_to_take_back(&self, side: Color) -> usize {
        let n = self.game.moves().len();
        // The side that made ply k (0-based) is Red for even k from the start position.
        let mover = |k: usize| {
            if k.is_multiple_of(2) == (self.game.start().side_to_move() == Color::Red) {
                Color::Red
            } else {
                Color::Black
            }
        };
        (0..n)
            .rev()
            .find(|&k| mover(k) == side)
            .map_or(0, |k| n - k)
    }

    /// Answers the opponent's offer of `kind` for `role`: accepted, a draw ends the game, a
    /// take-back undoes the offerer's last move (and the reply), a rematch starts the next
    /// game with colours swapped; declined, the offer is gone.
    pub fn answer(
        &mut self,
        role: Role,
        kind: OfferKind,
        accept: bool,
        now: u64,
    ) -> Result<(), RoomError> {
        let side = self.player(role)?;
        let offer = match self.s.offer {
            Some(o) if o.kind == kind && o.by != side => o,
            _ => return Err(RoomError::NoOffer(kind)),
        };
        if kind != OfferKind::Rematch && self.tick(now) {
            return Err(RoomError::GameOver);
        }
        self.s.offer = None;
        self.s.updated_ms = now;
        if !accept {
            return Ok(());
        }
        match kind {
            OfferKind::Draw => self.end(Ending::Agreement, now),
            OfferKind::Takeback => {
                // The side to move's thinking time so far is spent; then the clock of the
                // side to move after the take-back starts.
                if let Some(c) = &mut self.s.clocks
                    && let Some(stamp) = c.stamp
                {
                    let i = index(self.game.position().side_to_move());
                    c.left_ms[i] = c.left_ms[i].saturating_sub(now.saturating_sub(stamp));
                    c.stamp = Some(now);
                }
                for _ in 0..self.plies_to_take_back(offer.by) {
                    self.game.undo();
                    self.s.moves.pop();
                }
            }
            OfferKind::Rematch => self.rematch(),
        }
        Ok(())
    }

    fn rematch(&mut self) {
        self.s.seats.swap(0, 1);
        self.s.number += 1;
        self.s.moves.clear();
        self.s.ending = None;
        self.s.ended_ms = None;
        self.s.offer = None;
        // As in the first game, no clock runs until Red's first move.
        self.s.clocks = self.s.clock.map(|tc| Clocks {
            left_ms: [tc.main_ms(); 2],
            stamp: None,
        });
        self.game = Game::with_rules(
            Position::startpos(),
            GameRules::new(self.s.rules.rule_set()),
        );
    }

    /// Resigns the game for `role`.
    pub fn resign(&mut self, role: Role, now: u64) -> Result<(), RoomError> {
        let side = self.player(role)?;
        self.in_play()?;
        if self.tick(now) {
            return Err(RoomError::GameOver);
        }
        self.end(Ending::Resignation { loser: side }, now);
        Ok(())
    }

    /// Claims the game for `role` against an opponent away since `opponent_away_since`
    /// (`None` while connected): allowed after [`AWAY_GRACE_MS`].
    pub fn claim(
        &mut self,
        role: Role,
        opponent_away_since: Option<u64>,
        now: u64,
    ) -> Result<(), RoomError> {
        let side = self.player(role)?;
        self.in_play()?;
        if self.tick(now) {
            return Err(RoomError::GameOver);
        }
        let Some(since) = opponent_away_since else {
            return Err(RoomError::CannotClaim { wait_ms: None });
        };
        let away = now.saturating_sub(since);
        if away < AWAY_GRACE_MS {
            return Err(RoomError::CannotClaim {
                wait_ms: Some(AWAY_GRACE_MS - away),
            });
        }
        self.end(
            Ending::Abandoned {
                loser: side.opponent(),
            },
            now,
        );
        Ok(())
    }

    /// Closes the room, for an administrator of the server: a game going on ends with no
    /// result (nothing is kept of it, nothing rated), and no game follows.
    pub fn close(&mut self, now: u64) {
        if self.s.ending.is_none() {
            self.end(Ending::Closed, now);
        }
        self.s.closed = true;
        self.s.offer = None;
        self.s.updated_ms = now;
    }

    /// Whether an administrator closed the room.
    pub fn is_closed(&self) -> bool {
        self.s.closed
    }

    /// Turns the spectators' analysis on or off, for a player; in a rated room it stays off
    /// while a game is played (a player's second browser must not read it).
    pub fn set_analysis(&mut self, role: Role, on: bool, now: u64) -> Result<(), RoomError> {
        self.player(role)?;
        if on && self.s.rated && self.status() == Status::Playing {
            return Err(RoomError::RatedAnalysis);
        }
        self.s.analysis = on;
        self.s.updated_ms = now;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn room(clock: Option<TimeControl>) -> Room {
        let settings = RoomSettings {
            side: SideChoice::Red,
            clock,
            rules: Rules::Asian,
            rated: false,
        };
        let (mut room, side) = Room::create(
            "r".into(),
            "C".into(),
            &settings,
            "tok-red".into(),
            Player::named("Ann"),
            0,
        );
        assert_eq!(side, Color::Red);
        assert_eq!(room.status(), Status::Waiting);
        let (role, took) = room
            .join(None, "tok-black".into(), Player::named("Bo"), 1000)
            .unwrap();
        assert_eq!((role, took), (Role::Player(Color::Black), true));
        room
    }

    const RED: Role = Role::Player(Color::Red);
    const BLACK: Role = Role::Player(Color::Black);

    #[test]
    fn a_rated_room_seats_only_another_account_and_names_seats_by_their_accounts() {
        let settings = RoomSettings {
            side: SideChoice::Red,
            clock: None,
            rules: Rules::Asian,
            rated: true,
        };
        let account = |name: &str| Player {
            name: "what they typed".into(),
            owner: Some(format!("account:{name}")),
            account: Some(name.into()),
        };
        let (mut room, _) = Room::create(
            "r".into(),
            "C".into(),
            &settings,
            "t1".into(),
            account("Ann"),
            0,
        );
        assert!(room.rated());
        let red = room.seat(Color::Red).unwrap();
        assert_eq!(red.name, "Ann", "an account sits under its own name");
        assert_eq!(red.owner.as_deref(), Some("account:Ann"));
        let guest = Player {
            name: "Guest 4821".into(),
            owner: Some("guest:x".into()),
            account: None,
        };
        assert_eq!(
            room.join(None, "t2".into(), guest, 1),
            Ok((Role::Spectator, false)),
            "a guest watches a rated game"
        );
        assert_eq!(
            room.join(None, "t3".into(), account("Ann"), 1),
            Ok((Role::Spectator, false)),
            "an account does not play itself"
        );
        assert_eq!(
            room.join(None, "t4".into(), account("Bo"), 1),
            Ok((BLACK, true))
        );
        assert_eq!(
            room.seat(Color::Black).unwrap().account.as_deref(),
            Some("Bo")
        );
    }

    #[test]
    fn a_closed_room_ends_its_game_with_no_result_and_no_rematch() {
        let mut room = room(None);
        room.play(RED, sq("h2"), sq("e2"), 5).unwrap();
        room.close(6);
        assert!(room.is_closed());
        assert_eq!(room.status(), Status::Over);
        assert!(
            room.result().is_none(),
            "no result, nothing to keep or rate"
        );
        assert_eq!(
            room.play(BLACK, sq("h9"), sq("g7"), 7),
            Err(RoomError::GameOver)
        );
        assert_eq!(
            room.offer(RED, OfferKind::Rematch, 8),
            Err(RoomError::GameOver)
        );
        let back = Room::from_json(&room.to_json()).unwrap();
        assert!(back.is_closed() && back.status() == Status::Over);
    }

    #[test]
    fn seats_are_held_by_their_tokens_and_later_visitors_watch() {
        let mut room = room(None);
        assert_eq!(
            room.join(Some("tok-red"), "x".into(), Player::default(), 0),
            Ok((RED, false))
        );
        assert_eq!(
            room.join(Some("forged"), "x".into(), Player::default(), 0),
            Err(RoomError::BadToken)
        );
        assert_eq!(
            room.join(None, "x".into(), Player::default(), 0),
            Ok((Role::Spectator, false))
        );
    }

    #[test]
    fn moves_are_refused_out_of_turn_and_for_spectators() {
        let mut room = room(None);
        assert_eq!(
            room.play(BLACK, sq("h7"), sq("e7"), 1),
            Err(RoomError::NotYourTurn)
        );
        assert_eq!(
            room.play(Role::Spectator, sq("h2"), sq("e2"), 1),
            Err(RoomError::NotSeated)
        );
        assert!(matches!(
            room.play(RED, sq("b0"), sq("d1"), 1),
            Err(RoomError::Illegal(_))
        ));
        room.play(RED, sq("h2"), sq("e2"), 1).unwrap();
        assert_eq!(room.game().moves().len(), 1);
    }

    #[test]
    fn clocks_run_from_stamps_add_the_increment_and_the_flag_falls() {
        let mut room = room(Some(TimeControl::new(60, 2).unwrap()));
        // Black sat down at 1000; no clock runs before Red's first move.
        assert_eq!(room.time_left(11_000), Some([60_000, 60_000]));
        assert_eq!(room.deadline(), None);
        room.play(RED, sq("h2"), sq("e2"), 11_000).unwrap();
        assert_eq!(room.time_left(11_000), Some([62_000, 60_000]));
        assert_eq!(room.time_left(21_000), Some([62_000, 50_000]));
        assert_eq!(room.deadline(), Some(71_000));
        room.play(BLACK, sq("h9"), sq("g7"), 21_000).unwrap();
        assert_eq!(room.time_left(31_000), Some([52_000, 52_000]));
        assert_eq!(room.deadline(), Some(83_000));
        assert!(!room.tick(82_999));
        assert!(room.tick(83_000));
        assert_eq!(room.status(), Status::Over);
        let r = room.result().unwrap();
        assert_eq!((r.result, r.code), (GameResult::BlackWins, "time"));
        assert_eq!(room.time_left(99_000), Some([0, 52_000]));
    }

    #[test]
    fn a_stored_room_continues_its_clock_from_the_stamp() {
        let mut room = room(Some(TimeControl::new(60, 0).unwrap()));
        room.play(RED, sq("h2"), sq("e2"), 5_000).unwrap();
        let back = Room::from_json(&room.to_json()).unwrap();
        assert_eq!(back.game().moves(), room.game().moves());
        // Red's first move took none of its time; Black's clock runs from it.
        assert_eq!(back.time_left(15_000), Some([60_000, 50_000]));
    }

    #[test]
    fn takeback_draw_resignation_and_rematch() {
        let mut room = room(None);
        room.play(RED, sq("h2"), sq("e2"), 1).unwrap();
        room.play(BLACK, sq("h7"), sq("e7"), 2).unwrap();
        assert_eq!(
            room.answer(RED, OfferKind::Takeback, true, 3),
            Err(RoomError::NoOffer(OfferKind::Takeback))
        );
        room.offer(RED, OfferKind::Takeback, 3).unwrap();
        room.answer(BLACK, OfferKind::Takeback, true, 4).unwrap();
        assert!(room.game().moves().is_empty());
        room.offer(BLACK, OfferKind::Draw, 5).unwrap();
        room.answer(RED, OfferKind::Draw, false, 6).unwrap();
        assert_eq!(room.status(), Status::Playing);
        room.offer(BLACK, OfferKind::Draw, 7).unwrap();
        room.offer(RED, OfferKind::Draw, 8).unwrap();
        assert_eq!(room.result().unwrap().code, "agreement");
        room.offer(RED, OfferKind::Rematch, 9).unwrap();
        room.answer(BLACK, OfferKind::Rematch, true, 10).unwrap();
        assert_eq!(room.number(), 2);
        assert_eq!(room.seat_of("tok-black"), Some(Color::Red));
        room.resign(RED, 11).unwrap();
        assert_eq!(room.result().unwrap().result, GameResult::BlackWins);
        assert_eq!(room.resign(RED, 12), Err(RoomError::GameOver));
    }

    #[test]
    fn a_claim_waits_for_the_grace_period() {
        let mut room = room(None);
        assert_eq!(
            room.claim(RED, None, 5),
            Err(RoomError::CannotClaim { wait_ms: None })
        );
        assert_eq!(
            room.claim(RED, Some(0), 1000),
            Err(RoomError::CannotClaim {
                wait_ms: Some(AWAY_GRACE_MS - 1000)
            })
        );
        room.claim(RED, Some(0), AWAY_GRACE_MS).unwrap();
        assert_eq!(room.result().unwrap().code, "abandoned");
    }

    #[test]
    fn mate_ends_the_game_by_the_rules() {
        let mut room = room(None);
        // The cannon takes the horse on c9 with the chariot on e8 blocking the general.
        for (i, (from, to)) in [
            ("b2", "b4"),
            ("a9", "a8"),
            ("b4", "c4"),
            ("a8", "e8"),
            ("c4", "c9"),
        ]
        .iter()
        .enumerate()
        {
            let side = if i % 2 == 0 { RED } else { BLACK };
            room.play(side, sq(from), sq(to), i as u64).unwrap();
        }
        let result = room.result().expect("mate");
        assert_eq!(
            (result.result, result.code),
            (GameResult::RedWins, "checkmate")
        );
    }
}
