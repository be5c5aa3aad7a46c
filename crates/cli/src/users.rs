//! `xiangqi users`: the host's hand on the accounts of a server hosted for many people — list
//! them, add one (an administrator, say), remove one with all it keeps, reset a password,
//! change a role, disable or enable one, and make invitation codes for `serve --sign-up
//! invite`. It works on the data folder's store (or the PostgreSQL store of `--database`), also while
//! the server runs (the server sees
//! a change within seconds: a closed session at its next look-up).

use crate::play::{SizeArgs, data_folder};
use clap::{Args, Subcommand};
use std::io::BufRead;
use std::path::PathBuf;
use xiangqi_accounts::{AccountName, Role, Secret, hash_password, key_of};
use xiangqi_store::{
    AccountChange, Created, NewAccount, PostgresStore, SqliteStore, Store, shown_url,
};
use xiangqi_web::kit::viewer::now_ms;

/// `xiangqi users`.
#[derive(Args, Debug)]
pub struct UsersArgs {
    /// The server's data folder (as `serve --data`; the same default).
    #[arg(long, value_name = "DIR", global = true)]
    pub data: Option<PathBuf>,
    /// The server's PostgreSQL store (as `serve --database`), in place of the data folder's.
    #[arg(long, value_name = "URL", global = true, conflicts_with = "data")]
    pub database: Option<String>,
    #[command(subcommand)]
    pub command: UsersCommand,
}

/// What to do with the accounts.
#[derive(Subcommand, Debug)]
pub enum UsersCommand {
    /// Every account: name, role, whether it is disabled, when it was made.
    List,
    /// Adds an account; its password is read from the first line of standard input.
    Add {
        /// The account's name.
        name: String,
        /// Make it an administrator (who may close rooms and disable accounts).
        #[arg(long)]
        admin: bool,
    },
    /// Removes an account with everything it keeps (games, trainer cards, progress).
    Remove {
        /// The account's name.
        name: String,
    },
    /// Sets a new password, read from the first line of standard input; the account's
    /// sessions end.
    ResetPassword {
        /// The account's name.
        name: String,
    },
    /// Sets an account's role: `player` or `admin`.
    Role {
        /// The account's name.
        name: String,
        /// `player` or `admin`.
        role: String,
    },
    /// Disables an account: it cannot sign in, and its sessions end.
    Disable {
        /// The account's name.
        name: String,
    },
    /// Enables a disabled account again.
    Enable {
        /// The account's name.
        name: String,
    },
    /// Prints new invitation codes, one a line, each good for one account (for `serve
    /// --sign-up invite`).
    Invite {
        /// How many codes.
        #[arg(default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
        count: u32,
    },
}

/// Runs `xiangqi users`.
pub fn run(args: &UsersArgs) -> Result<(), String> {
    let size = SizeArgs {
        data: args.data.clone(),
        ..SizeArgs::default()
    };
    let (mut store, place): (Box<dyn Store>, String) = match &args.database {
        Some(url) => (
            Box::new(PostgresStore::connect(url).map_err(|e| e.to_string())?),
            shown_url(url),
        ),
        None => {
            let folder = data_folder(&size)
                .ok_or("no data folder: give --data DIR (or set XDG_DATA_HOME or HOME)")?;
            let path = folder.join(xiangqi_web::ARCHIVE_FILE);
            let mut store = SqliteStore::open(&path).map_err(|e| e.to_string())?;
            store.beside_the_writer().map_err(|e| e.to_string())?;
            (Box::new(store), path.display().to_string())
        }
    };
    let now = now_ms();
    match &args.command {
        UsersCommand::List => {
            let accounts = store.accounts().map_err(|e| e.to_string())?;
            if accounts.is_empty() {
                println!("no accounts in {place}");
            }
            for a in accounts {
                println!(
                    "{}\t{}{}\tsince {}",
                    a.name,
                    a.role,
                    if a.disabled { "\tdisabled" } else { "" },
                    date_of_ms(a.created_ms)
                );
            }
        }
        UsersCommand::Add { name, admin } => {
            let name = AccountName::parse(name).map_err(|e| e.to_string())?;
            let password = hash_password(&read_password()?).map_err(|e| e.to_string())?;
            let role = if *admin { Role::Admin } else { Role::Player };
            let new = NewAccount {
                name: name.as_str().to_string(),
                name_key: name.key(),
                password,
                role: role.as_str().to_string(),
                invite: None,
                created_ms: now,
            };
            match store.create_account(&new).map_err(|e| e.to_string())? {
                Created::Made(_) => println!("added {name} ({role})"),
                Created::NameTaken => return Err(format!("the name {name} is taken")),
                Created::InviteUnknown => return Err("no invitation was asked for".into()),
            }
        }
        UsersCommand::Remove { name } => {
            let id = account_id(&*store, name)?;
            store.delete_account(id).map_err(|e| e.to_string())?;
            println!("removed {name} and everything it kept");
        }
        UsersCommand::ResetPassword { name } => {
            let id = account_id(&*store, name)?;
            let password = hash_password(&read_password()?).map_err(|e| e.to_string())?;
            store
                .change_account(id, &AccountChange::Password(password))
                .map_err(|e| e.to_string())?;
            let closed = store.close_sessions(id).map_err(|e| e.to_string())?;
            println!("{name}'s password is reset; {closed} sessions ended");
        }
        UsersCommand::Role { name, role } => {
            let role: Role = role.parse()?;
            let id = account_id(&*store, name)?;
            store
                .change_account(id, &AccountChange::Role(role.as_str().to_string()))
                .map_err(|e| e.to_string())?;
            println!("{name} is now {role}");
        }
        UsersCommand::Disable { name } | UsersCommand::Enable { name } => {
            let disabled = matches!(args.command, UsersCommand::Disable { .. });
            let id = account_id(&*store, name)?;
            store
                .change_account(id, &AccountChange::Disabled(disabled))
                .map_err(|e| e.to_string())?;
            if disabled {
                let closed = store.close_sessions(id).map_err(|e| e.to_string())?;
                println!("{name} is disabled; {closed} sessions ended");
            } else {
                println!("{name} is enabled");
            }
        }
        UsersCommand::Invite { count } => {
            for _ in 0..*count {
                let code = Secret::new().ok_or("the system's random source failed")?;
                store
                    .add_invite(&code.hash(), now)
                    .map_err(|e| e.to_string())?;
                println!("{}", code.as_str());
            }
        }
    }
    Ok(())
}

/// The row of the account named `name`.
fn account_id(store: &dyn Store, name: &str) -> Result<xiangqi_store::AccountId, String> {
    store
        .account_named(&key_of(name))
        .map_err(|e| e.to_string())?
        .map(|a| a.id)
        .ok_or_else(|| format!("there is no account named {name}"))
}

/// The first line of standard input, without its line end.
fn read_password() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
    let password = line.trim_end_matches(['\n', '\r']).to_string();
    if password.is_empty() {
        return Err(
            "give the password on standard input, e.g. `echo '…' | xiangqi users add Ann`".into(),
        );
    }
    Ok(password)
}

/// The date of a time in milliseconds since 1970 (UTC), `YYYY-MM-DD`.
fn date_of_ms(ms: i64) -> String {
    let (y, m, d) = xiangqi_records::date::civil_from_days(ms.div_euclid(86_400_000));
    format!("{y:04}-{m:02}-{d:02}")
}
