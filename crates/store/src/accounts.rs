//! The accounts of a server hosted for many people, their sessions and the host's invitation
//! codes. The store keeps what the accounts crate makes (a name and its key, a password's
//! hash, a secret's hash) and decides nothing about them.

use crate::error::StoreError;
use crate::sqlite::SqliteStore;
use rusqlite::{OptionalExtension, Row, TransactionBehavior, params};

/// An account's row.
pub type AccountId = i64;

/// The owner of what an account keeps (its games, trainer cards, progress), as the store's
/// `owner` columns name it.
pub fn account_owner(id: AccountId) -> String {
    format!("account:{id}")
}

/// An account as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its row.
    pub id: AccountId,
    /// Its name as written.
    pub name: String,
    /// Its password's hash (Argon2id, PHC string).
    pub password: String,
    /// Its role: `player` or `admin`.
    pub role: String,
    /// Whether the host has disabled it (it cannot sign in, its sessions are closed).
    pub disabled: bool,
    /// When it was made (milliseconds since 1970, UTC).
    pub created_ms: i64,
}

impl Account {
    /// The owner of what it keeps.
    pub fn owner(&self) -> String {
        account_owner(self.id)
    }
}

/// An account to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAccount {
    /// Its name as written.
    pub name: String,
    /// The name as accounts are told apart (lower case): no two accounts share it.
    pub name_key: String,
    /// Its password's hash.
    pub password: String,
    /// Its role.
    pub role: String,
    /// The hash of the invitation code it was made with, which is used up with it.
    pub invite: Option<String>,
    /// Now.
    pub created_ms: i64,
}

/// What making an account came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Created {
    /// It was made.
    Made(Account),
    /// Another account has the name (in any case).
    NameTaken,
    /// The invitation code is not one the host made, or was used.
    InviteUnknown,
}

/// A change to an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountChange {
    /// A new password's hash.
    Password(String),
    /// Disabled or enabled again.
    Disabled(bool),
    /// A new role.
    Role(String),
}

const ACCOUNT_COLUMNS: &str = "id, name, password, role, disabled, created_ms";

fn account_of(r: &Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        password: r.get(2)?,
        role: r.get(3)?,
        disabled: r.get(4)?,
        created_ms: r.get(5)?,
    })
}

pub(crate) fn create_account(
    store: &mut SqliteStore,
    new: &NewAccount,
) -> Result<Created, StoreError> {
    let tx = store
        .connection_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)?;
    let taken: Option<i64> = tx
        .query_row(
            "SELECT id FROM accounts WHERE name_key = ?1",
            [&new.name_key],
            |r| r.get(0),
        )
        .optional()?;
    if taken.is_some() {
        return Ok(Created::NameTaken);
    }
    let account = tx.query_row(
        &format!(
            "INSERT INTO accounts (name, name_key, password, role, created_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5) RETURNING {ACCOUNT_COLUMNS}"
        ),
        params![
            new.name,
            new.name_key,
            new.password,
            new.role,
            new.created_ms
        ],
        account_of,
    )?;
    if let Some(invite) = &new.invite {
        let used = tx.execute(
            "UPDATE invites SET used_by = ?2 WHERE code_hash = ?1 AND used_by IS NULL",
            params![invite, account.id],
        )?;
        if used == 0 {
            // Dropping the transaction takes the account back.
            return Ok(Created::InviteUnknown);
        }
    }
    tx.commit()?;
    Ok(Created::Made(account))
}

pub(crate) fn account_named(
    store: &SqliteStore,
    name_key: &str,
) -> Result<Option<Account>, StoreError> {
    Ok(store
        .connection()
        .query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?1"),
            [name_key],
            account_of,
        )
        .optional()?)
}

pub(crate) fn account(store: &SqliteStore, id: AccountId) -> Result<Option<Account>, StoreError> {
    Ok(store
        .connection()
        .query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"),
            [id],
            account_of,
        )
        .optional()?)
}

pub(crate) fn accounts(store: &SqliteStore) -> Result<Vec<Account>, StoreError> {
    let mut statement = store.connection().prepare(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY name_key"
    ))?;
    let rows = statement.query_map([], account_of)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn change_account(
    store: &mut SqliteStore,
    id: AccountId,
    change: &AccountChange,
) -> Result<bool, StoreError> {
    let conn = store.connection();
    let changed = match change {
        AccountChange::Password(hash) => conn.execute(
            "UPDATE accounts SET password = ?2 WHERE id = ?1",
            params![id, hash],
        )?,
        AccountChange::Disabled(disabled) => conn.execute(
            "UPDATE accounts SET disabled = ?2 WHERE id = ?1",
            params![id, disabled],
        )?,
        AccountChange::Role(role) => conn.execute(
            "UPDATE accounts SET role = ?2 WHERE id = ?1",
            params![id, role],
        )?,
    };
    Ok(changed > 0)
}

/// Deletes account `id` with everything it owns, in one transaction; whether it existed.
pub(crate) fn delete_account(store: &mut SqliteStore, id: AccountId) -> Result<bool, StoreError> {
    let owner = account_owner(id);
    let tx = store
        .connection_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)?;
    // The games' keys are kept as deleted, so that a board still open never saves one again.
    tx.execute(
        "INSERT OR REPLACE INTO deleted_games (key, deleted_ms) \
         SELECT key, ?2 FROM games WHERE owner = ?1",
        params![owner, crate::game_row::now_ms()],
    )?;
    tx.execute("DELETE FROM games WHERE owner = ?1", [&owner])?;
    tx.execute("DELETE FROM trainer_cards WHERE owner = ?1", [&owner])?;
    tx.execute("DELETE FROM progress WHERE owner = ?1", [&owner])?;
    tx.execute("DELETE FROM sessions WHERE account = ?1", [id])?;
    tx.execute("DELETE FROM ratings WHERE account = ?1", [id])?;
    let deleted = tx.execute("DELETE FROM accounts WHERE id = ?1", [id])? > 0;
    tx.commit()?;
    Ok(deleted)
}

pub(crate) fn open_session(
    store: &mut SqliteStore,
    token_hash: &str,
    id: AccountId,
    now_ms: i64,
) -> Result<(), StoreError> {
    store.connection().execute(
        "INSERT INTO sessions (token_hash, account, created_ms, seen_ms) VALUES (?1, ?2, ?3, ?3)",
        params![token_hash, id, now_ms],
    )?;
    Ok(())
}

pub(crate) fn session(
    store: &SqliteStore,
    token_hash: &str,
) -> Result<Option<(Account, i64)>, StoreError> {
    Ok(store
        .connection()
        .query_row(
            "SELECT a.id, a.name, a.password, a.role, a.disabled, a.created_ms, s.created_ms \
             FROM sessions s JOIN accounts a ON a.id = s.account WHERE s.token_hash = ?1",
            [token_hash],
            |r| Ok((account_of(r)?, r.get(6)?)),
        )
        .optional()?)
}

pub(crate) fn close_session(store: &mut SqliteStore, token_hash: &str) -> Result<bool, StoreError> {
    Ok(store
        .connection()
        .execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?
        > 0)
}

pub(crate) fn close_sessions(store: &mut SqliteStore, id: AccountId) -> Result<usize, StoreError> {
    Ok(store
        .connection()
        .execute("DELETE FROM sessions WHERE account = ?1", [id])?)
}

pub(crate) fn add_invite(
    store: &mut SqliteStore,
    code_hash: &str,
    now_ms: i64,
) -> Result<(), StoreError> {
    store.connection().execute(
        "INSERT INTO invites (code_hash, created_ms) VALUES (?1, ?2)",
        params![code_hash, now_ms],
    )?;
    Ok(())
}

/// Gives everything `from` owns to `to` (a guest who makes an account keeps what they did),
/// in one transaction; how many things moved.
pub(crate) fn reown(store: &mut SqliteStore, from: &str, to: &str) -> Result<usize, StoreError> {
    let tx = store
        .connection_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut moved = tx.execute(
        "UPDATE games SET owner = ?2 WHERE owner = ?1",
        params![from, to],
    )?;
    // What the new owner already has wins over the guest's.
    moved += tx.execute(
        "UPDATE OR IGNORE trainer_cards SET owner = ?2 WHERE owner = ?1",
        params![from, to],
    )?;
    moved += tx.execute(
        "UPDATE OR IGNORE progress SET owner = ?2 WHERE owner = ?1",
        params![from, to],
    )?;
    tx.execute("DELETE FROM trainer_cards WHERE owner = ?1", [from])?;
    tx.execute("DELETE FROM progress WHERE owner = ?1", [from])?;
    tx.commit()?;
    Ok(moved)
}
