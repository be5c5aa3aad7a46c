//! The lobby's open challenges: a [`Seek`] is one player's offer of a game (a time control,
//! rated or casual, a side, the rules) that anyone else may accept; accepting it makes a room
//! with both players seated ([`Seek::accept`]).

use crate::room::{Player, Room, RoomSettings, Rules, SideChoice, TimeControl};
use crate::token;
use xiangqi_rules::Color;

/// An open challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks a game.
    pub by: Player,
    /// The clock; none for an untimed game.
    pub clock: Option<TimeControl>,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// The seeker's side.
    pub side: SideChoice,
    /// The rules.
    pub rules: Rules,
    /// When it was posted (milliseconds since 1970).
    pub created_ms: u64,
}

/// Why a seek cannot be posted or accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeekError {
    /// A rated seek needs an account (to post it, and to accept it).
    RatedNeedsAccount,
    /// A player cannot accept their own seek.
    OwnSeek,
    /// The seek is no longer open.
    Gone,
}

impl std::fmt::Display for SeekError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SeekError::RatedNeedsAccount => "a rated game is played between signed-in players",
            SeekError::OwnSeek => "that challenge is your own",
            SeekError::Gone => "that challenge is no longer open",
        })
    }
}

impl std::error::Error for SeekError {}

/// A room just made from an accepted seek: the room, and each player's seat token and side.
pub struct Matched {
    /// The room, both seats taken.
    pub room: Room,
    /// The seeker's seat token and side.
    pub seeker: (String, Color),
    /// The accepter's seat token and side.
    pub accepter: (String, Color),
}

impl Seek {
    /// A new seek by `by`, or why it cannot be posted.
    pub fn new(
        by: Player,
        clock: Option<TimeControl>,
        rated: bool,
        side: SideChoice,
        rules: Rules,
        now: u64,
    ) -> Result<Seek, SeekError> {
        if rated && by.account.is_none() {
            return Err(SeekError::RatedNeedsAccount);
        }
        Ok(Seek {
            id: token::room_id(),
            by,
            clock,
            rated,
            side,
            rules,
            created_ms: now,
        })
    }

    /// Whether `player` is the one who posted it (the same owner, or the same account).
    pub fn is_by(&self, player: &Player) -> bool {
        (self.by.owner.is_some() && self.by.owner == player.owner)
            || (self.by.account.is_some() && self.by.account == player.account)
    }

    /// The room `accepter` and the seeker play in, both seated: or why `accepter` cannot
    /// accept it.
    pub fn accept(&self, accepter: Player, now: u64) -> Result<Matched, SeekError> {
        if self.is_by(&accepter) {
            return Err(SeekError::OwnSeek);
        }
        if self.rated && accepter.account.is_none() {
            return Err(SeekError::RatedNeedsAccount);
        }
        let settings = RoomSettings {
            side: self.side,
            clock: self.clock,
            rules: self.rules,
            rated: self.rated,
        };
        let seeker_token = token::seat_token();
        let (mut room, side) = Room::create(
            token::room_id(),
            token::short_code(),
            &settings,
            seeker_token.clone(),
            self.by.clone(),
            now,
        );
        let accepter_token = token::seat_token();
        match room.join(None, accepter_token.clone(), accepter, now) {
            Ok((crate::room::Role::Player(theirs), true)) => Ok(Matched {
                room,
                seeker: (seeker_token, side),
                accepter: (accepter_token, theirs),
            }),
            // The checks above leave a seat to take; anything else is no game.
            _ => Err(SeekError::Gone),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::Status;

    fn account(name: &str) -> Player {
        Player {
            name: name.into(),
            owner: Some(format!("account:{name}")),
            account: Some(name.into()),
        }
    }

    fn guest(n: u32) -> Player {
        Player {
            name: format!("Guest {n}"),
            owner: Some(format!("guest:{n}")),
            account: None,
        }
    }

    #[test]
    fn an_accepted_seek_seats_both_players_on_the_sides_it_asked_for() {
        let clock = TimeControl::new(300, 3).ok();
        let seek = Seek::new(
            account("Ann"),
            clock,
            true,
            SideChoice::Black,
            Rules::Asian,
            5,
        )
        .unwrap();
        let matched = seek.accept(account("Bob"), 10).unwrap();
        assert_eq!(matched.seeker.1, Color::Black);
        assert_eq!(matched.accepter.1, Color::Red);
        let room = &matched.room;
        assert_eq!(room.status(), Status::Playing);
        assert!(room.rated());
        assert_eq!(room.clock(), clock);
        assert_eq!(room.seat(Color::Black).unwrap().name, "Ann");
        assert_eq!(room.seat(Color::Red).unwrap().name, "Bob");
        assert_eq!(room.seat(Color::Black).unwrap().token(), matched.seeker.0);
        assert_ne!(matched.seeker.0, matched.accepter.0);
    }

    #[test]
    fn rated_seeks_are_between_accounts_and_no_one_accepts_their_own() {
        assert_eq!(
            Seek::new(guest(1), None, true, SideChoice::Random, Rules::Asian, 0),
            Err(SeekError::RatedNeedsAccount)
        );
        let rated = Seek::new(
            account("Ann"),
            None,
            true,
            SideChoice::Random,
            Rules::Asian,
            0,
        )
        .unwrap();
        assert_eq!(
            rated.accept(guest(2), 1).err(),
            Some(SeekError::RatedNeedsAccount)
        );
        assert_eq!(
            rated.accept(account("Ann"), 1).err(),
            Some(SeekError::OwnSeek)
        );
        let casual = Seek::new(guest(1), None, false, SideChoice::Red, Rules::Cxq, 0).unwrap();
        assert_eq!(casual.accept(guest(1), 1).err(), Some(SeekError::OwnSeek));
        let matched = casual.accept(guest(2), 1).unwrap();
        assert!(!matched.room.rated());
        assert_eq!(matched.room.rules(), Rules::Cxq);
    }
}
