//! Why an execution could not run: a transport operation that failed, a
//! system under test that could not be set up (never a verdict on it).

use crate::model::Conn;

/// Why a transport operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// Nothing listens at the address.
    #[error("connection to {addr} refused: {detail}")]
    Refused {
        /// The address.
        addr: String,
        /// The system's message.
        detail: String,
    },
    /// The server reset the connection.
    #[error("connection {conn} reset by the server: {detail}")]
    Reset {
        /// The connection.
        conn: Conn,
        /// The system's message.
        detail: String,
    },
    /// The server closed the connection.
    #[error("connection {conn} closed by the server")]
    Closed {
        /// The connection.
        conn: Conn,
    },
    /// Another I/O error.
    #[error("I/O error on connection {conn}: {detail}")]
    Io {
        /// The connection.
        conn: Conn,
        /// The system's message.
        detail: String,
    },
    /// The tester's own side failed (a temporary file could not be
    /// written, a request could not be handed over): not a verdict on the
    /// system; the execution ends as a [`SetupError::Harness`].
    #[error("the tester failed: {detail}")]
    Harness {
        /// What failed.
        detail: String,
    },
}

/// The system under test could not be set up, or the tester failed while
/// running it: not a verdict on it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A connection could not be opened.
    #[error("could not connect: {0}")]
    Connect(TransportError),
    /// Resetting the server failed.
    #[error("could not reset the server: {0}")]
    Reset(String),
    /// The tester's own side failed in the middle of an execution.
    #[error("the tester failed during an execution: {0}")]
    Harness(String),
    /// Anything else.
    #[error("{0}")]
    Io(String),
}
