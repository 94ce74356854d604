//! Two systems with bugs behind nested conditions on their input, and a
//! property of each. Random generation does not reach them (the
//! properties' `#[test]`s pass, and are ignored so that a failure the
//! fuzzer saved does not fail the workspace's tests); the same properties
//! as `cargo fuzz` targets (`fuzz/`) find them in seconds:
//!
//! * [`frame::parse`]: a frame needs a magic header, a length that agrees
//!   with its payload and a checksum that agrees with its bytes before the
//!   payload is read, and one kind of payload (`!`, then an index) is read
//!   past its end;
//! * [`vault::Vault`]: a state machine that opens on a two-number code,
//!   entered in order, and then lets a withdrawal overdraw.

use speccheck::property;

/// A framed message: `SPCK`, the payload's length (`u32`,
/// little-endian), the header's checksum (`u32`), the payload.
pub mod frame {
    /// The magic header.
    pub const MAGIC: [u8; 4] = *b"SPCK";

    /// A parsed frame.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Frame {
        /// A payload of data.
        Data(Vec<u8>),
        /// A reference into the payload (`!`, an index, bytes).
        Pointer {
            /// The byte the index points at.
            target: u8,
        },
    }

    /// Why a frame was not parsed.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Error {
        /// Not a frame: no magic header.
        Magic,
        /// The length disagrees with the frame's size.
        Length,
        /// The checksum disagrees with the header.
        Checksum,
    }

    /// The checksum of a header (FNV-1a, 32 bits, of its bytes).
    pub fn checksum(header: &[u8]) -> u32 {
        header.iter().fold(0x811c_9dc5, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
    }

    fn word(bytes: &[u8]) -> u32 {
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    }

    /// The frame of `payload`.
    pub fn encode(payload: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&checksum(&out).to_le_bytes());
        out.extend_from_slice(payload);
        out
    }

    /// Parses one frame.
    pub fn parse(data: &[u8]) -> Result<Frame, Error> {
        if data.len() < 12 || data[..4] != MAGIC {
            return Err(Error::Magic);
        }
        let len = word(&data[4..]);
        if len != (data.len() - 12) as u32 {
            return Err(Error::Length);
        }
        if checksum(&data[..8]) != word(&data[8..]) {
            return Err(Error::Checksum);
        }
        let payload = &data[12..];
        match payload {
            // The planted bug: the index is not checked against the payload.
            [b'!', index, ..] => Ok(Frame::Pointer { target: payload[usize::from(*index)] }),
            _ => Ok(Frame::Data(payload.to_vec())),
        }
    }
}

/// A vault: a code of two numbers opens it, then money can be taken out.
pub mod vault {
    use std::borrow::Borrow;

    use speccheck::Arbitrary;

    /// The code, entered one number at a time.
    pub const CODE: [u32; 2] = [0x5EC0_4D11, 0x0C0F_FEE0];

    /// One command to the vault.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Arbitrary)]
    pub enum Command {
        /// Enters the next number of the code.
        Enter(u32),
        /// Puts money in.
        Deposit(u16),
        /// Takes money out.
        Withdraw(u16),
        /// Locks the vault again.
        Lock,
    }

    /// How far the code has been entered.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum State {
        Locked,
        Half,
        Open,
    }

    /// The vault: its state and balance.
    #[derive(Debug)]
    pub struct Vault {
        state: State,
        balance: u32,
    }

    impl Default for Vault {
        fn default() -> Self {
            Vault { state: State::Locked, balance: 0 }
        }
    }

    impl Vault {
        /// Runs one command; returns the money taken out.
        pub fn run(&mut self, command: &Command) -> u32 {
            match (*command, self.state) {
                (Command::Enter(n), State::Locked) if n == CODE[0] => self.state = State::Half,
                (Command::Enter(n), State::Half) if n == CODE[1] => self.state = State::Open,
                (Command::Enter(_), State::Open) => {}
                (Command::Enter(_), _) => self.state = State::Locked,
                (Command::Deposit(n), _) => self.balance += u32::from(n),
                // The planted bug: an open vault does not check the balance.
                (Command::Withdraw(n), State::Open) => {
                    self.balance = self.balance.wrapping_sub(u32::from(n));
                    return u32::from(n);
                }
                (Command::Withdraw(n), _) if u32::from(n) <= self.balance => {
                    self.balance -= u32::from(n);
                    return u32::from(n);
                }
                (Command::Withdraw(_), _) => {}
                (Command::Lock, _) => self.state = State::Locked,
            }
            0
        }

        /// The money in the vault.
        pub fn balance(&self) -> u32 {
            self.balance
        }
    }

    /// The first time `commands`, run on a new vault, pay out more than
    /// was paid in: `(paid out, paid in)` then.
    pub fn overdraft(commands: impl IntoIterator<Item = impl Borrow<Command>>) -> Option<(u64, u64)> {
        let mut v = Vault::default();
        let (mut paid_in, mut paid_out) = (0u64, 0u64);
        for c in commands {
            let c = c.borrow();
            if let Command::Deposit(n) = c {
                paid_in += u64::from(*n);
            }
            paid_out += u64::from(v.run(c));
            if paid_out > paid_in {
                return Some((paid_out, paid_in));
            }
        }
        None
    }

    /// The first command of `commands`, run on a new vault, that pays out
    /// more than it asks for (a withdrawal its amount, anything else
    /// nothing): the command and what it paid. Stops at an overdraft (the
    /// planted bug): the balance has wrapped there, and a deposit after it
    /// would overflow.
    pub fn overpayment(commands: impl IntoIterator<Item = impl Borrow<Command>>) -> Option<(Command, u32)> {
        let mut v = Vault::default();
        let (mut paid_in, mut paid_out) = (0u64, 0u64);
        for c in commands {
            let c = *c.borrow();
            let asked = match c {
                Command::Deposit(n) => {
                    paid_in += u64::from(n);
                    0
                }
                Command::Withdraw(n) => u32::from(n),
                _ => 0,
            };
            let paid = v.run(&c);
            if paid > asked {
                return Some((c, paid));
            }
            paid_out += u64::from(paid);
            if paid_out > paid_in {
                return None;
            }
        }
        None
    }
}

/// Whatever the bytes, parsing returns (a frame or an error), and never
/// panics.
#[property]
#[ignore = "a planted bug that random generation does not reach: `cargo fuzz run parse` finds it (see fuzz/)"]
pub fn parse_never_panics(data: Vec<u8>) {
    let _ = frame::parse(&data);
}

/// Whatever the commands, the vault never pays out more than was put in.
#[property]
#[ignore = "a planted bug that random generation does not reach: `cargo fuzz run vault` finds it (see fuzz/)"]
pub fn vault_never_overdraws(commands: Vec<vault::Command>) {
    if let Some((paid_out, paid_in)) = vault::overdraft(&commands) {
        panic!("paid out {paid_out}, more than the {paid_in} paid in");
    }
}

/// Whatever the commands, the vault pays out at most what a withdrawal asks
/// for, and nothing for any other command ([`vault::overpayment`]). It
/// holds, planted bug or not, so a fuzzing run of it never stops early: the
/// benchmark's throughput targets run it (`fuzz/fuzz_targets/vault_pays.rs`
/// and `vault_pays_arbitrary.rs`).
#[property]
pub fn vault_pays_what_is_asked(commands: Vec<vault::Command>) {
    if let Some((c, paid)) = vault::overpayment(&commands) {
        panic!("{c:?} paid {paid}");
    }
}
