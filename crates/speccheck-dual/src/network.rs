//! The network model (thesis §4.3): external nondeterminism.
//!
//! Between the tester's connections and the server lies a network that
//! never loses a message, keeps the order of the messages of one
//! connection in each direction (TCP), and may interleave different
//! connections arbitrarily. The model is a pair of buffers per connection:
//! requests the tester sent that the server has not received yet, and
//! responses the server sent that the tester has not received yet. They
//! are the thesis's wire buffer and the incoming/outgoing buffers of its
//! composition (Figure 4.10) in one: with TCP's per-connection order, the
//! only freedom left is *which connection* the server reads next and
//! *when* — which the composition in [`crate::dual`] explores.

use std::collections::VecDeque;

use crate::model::Conn;

/// In-flight messages, per connection and direction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Network<Q, R> {
    to_server: Vec<VecDeque<Q>>,
    to_client: Vec<VecDeque<R>>,
    /// Connections the server closed: what it still sends on them is lost.
    closed: Vec<bool>,
}

impl<Q, R> Default for Network<Q, R> {
    fn default() -> Self {
        Network { to_server: Vec::new(), to_client: Vec::new(), closed: Vec::new() }
    }
}

impl<Q, R> Network<Q, R> {
    /// An empty network.
    pub fn new() -> Self {
        Self::default()
    }

    fn grow(&mut self, conn: Conn) {
        while self.to_server.len() <= conn {
            self.to_server.push(VecDeque::new());
            self.to_client.push(VecDeque::new());
            self.closed.push(false);
        }
    }

    /// The tester sent `q` on `conn` (the network absorbs it).
    pub fn absorb_request(&mut self, conn: Conn, q: Q) {
        self.grow(conn);
        self.to_server[conn].push_back(q);
    }

    /// Connections whose oldest in-flight request the server could receive
    /// next.
    pub fn deliverable(&self) -> impl Iterator<Item = Conn> + '_ {
        self.to_server.iter().enumerate().filter(|(_, q)| !q.is_empty()).map(|(c, _)| c)
    }

    /// The server receives the oldest request of `conn`.
    pub fn deliver(&mut self, conn: Conn) -> Option<Q> {
        self.to_server.get_mut(conn)?.pop_front()
    }

    /// The server sent `r` on `conn` (lost if the server closed `conn`).
    pub fn absorb_response(&mut self, conn: Conn, r: R) {
        self.grow(conn);
        if !self.closed[conn] {
            self.to_client[conn].push_back(r);
        }
    }

    /// The server closed `conn`: responses in flight on it are lost, and so
    /// is anything it sends there later. Requests in flight stay
    /// deliverable: the server may have read them before it closed.
    pub fn close(&mut self, conn: Conn) {
        self.grow(conn);
        self.closed[conn] = true;
        self.to_client[conn].clear();
    }

    /// Forgets the requests in flight on `conn` that `forget` selects.
    pub fn forget_requests(&mut self, conn: Conn, forget: impl Fn(&Q) -> bool) {
        if let Some(q) = self.to_server.get_mut(conn) {
            q.retain(|x| !forget(x));
        }
    }

    /// Whether the server closed `conn`.
    pub fn is_closed(&self, conn: Conn) -> bool {
        self.closed.get(conn).copied().unwrap_or(false)
    }

    /// The tester receives the oldest response of `conn`, if the server has
    /// sent one.
    pub fn emit_response(&mut self, conn: Conn) -> Option<R> {
        self.to_client.get_mut(conn)?.pop_front()
    }

    /// Requests in flight towards the server.
    pub fn requests_in_flight(&self) -> usize {
        self.to_server.iter().map(VecDeque::len).sum()
    }

    /// Responses in flight towards the tester.
    pub fn responses_in_flight(&self) -> usize {
        self.to_client.iter().map(VecDeque::len).sum()
    }

    /// The responses in flight, mutably (to substitute or rename variables).
    pub fn responses_mut(&mut self) -> impl Iterator<Item = &mut R> + '_ {
        self.to_client.iter_mut().flat_map(|q| q.iter_mut())
    }

    /// The requests in flight on each connection (oldest first).
    pub fn pending_requests(&self) -> impl Iterator<Item = (Conn, &Q)> + '_ {
        self.to_server.iter().enumerate().flat_map(|(c, q)| q.iter().map(move |x| (c, x)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_kept_per_connection_only() {
        let mut n: Network<u8, u8> = Network::new();
        n.absorb_request(1, 10);
        n.absorb_request(0, 20);
        n.absorb_request(1, 11);
        assert_eq!(n.deliverable().collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(n.deliver(1), Some(10));
        assert_eq!(n.deliver(1), Some(11));
        assert_eq!(n.deliver(1), None);
        assert_eq!(n.requests_in_flight(), 1);
        n.absorb_response(2, 7);
        assert_eq!(n.emit_response(0), None);
        assert_eq!(n.emit_response(2), Some(7));
    }

    #[test]
    fn a_closed_connection_loses_responses_but_not_requests() {
        let mut n: Network<u8, u8> = Network::new();
        n.absorb_request(0, 1);
        n.absorb_response(0, 9);
        n.close(0);
        assert!(n.is_closed(0));
        assert_eq!(n.emit_response(0), None, "the response in flight is lost");
        assert_eq!(n.deliver(0), Some(1), "the server may still have read the request");
        n.absorb_response(0, 10);
        assert_eq!(n.responses_in_flight(), 0, "nothing sent after the close arrives");
    }
}
