//! What an account may do on the server, and who may make one.

use std::fmt;
use std::str::FromStr;

/// An account's role.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Role {
    /// Plays, learns, keeps its own data.
    #[default]
    Player,
    /// Also closes rooms and disables accounts.
    Admin,
}

impl Role {
    /// The role as kept and shown: `player` or `admin`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Admin => "admin",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Role, String> {
        match s {
            "player" => Ok(Role::Player),
            "admin" => Ok(Role::Admin),
            _ => Err(format!("{s:?} is not a role (player or admin)")),
        }
    }
}

/// Who may make an account on a hosted server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SignUp {
    /// Anyone.
    #[default]
    Open,
    /// Whoever has an invitation code the host made (`xiangqi users invite`); each code makes
    /// one account.
    Invite,
    /// No one: the host adds accounts (`xiangqi users add`).
    Closed,
}

impl SignUp {
    /// The policy as the command line and the page name it: `open`, `invite` or `closed`.
    pub fn as_str(self) -> &'static str {
        match self {
            SignUp::Open => "open",
            SignUp::Invite => "invite",
            SignUp::Closed => "closed",
        }
    }
}

impl FromStr for SignUp {
    type Err = String;

    fn from_str(s: &str) -> Result<SignUp, String> {
        match s {
            "open" => Ok(SignUp::Open),
            "invite" => Ok(SignUp::Invite),
            "closed" => Ok(SignUp::Closed),
            _ => Err(format!(
                "{s:?} is not a sign-up policy (open, invite or closed)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_and_policies_read_what_they_write() {
        for role in [Role::Player, Role::Admin] {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
        }
        for policy in [SignUp::Open, SignUp::Invite, SignUp::Closed] {
            assert_eq!(policy.as_str().parse::<SignUp>(), Ok(policy));
        }
        assert!(
            "root"
                .parse::<Role>()
                .unwrap_err()
                .contains("player or admin")
        );
        assert!(
            "maybe"
                .parse::<SignUp>()
                .unwrap_err()
                .contains("open, invite")
        );
    }
}
