//! What the trick games' table models (越式13张 and 打儲) share: who may act now on an
//! offer. Each game's `view(seat)`, `offers(seat)` and `suggest(seat)` live in the game's
//! own module; this is the one definition of how a seat may act, so that every surface
//! (Python, the CLI, gRPC) says it alike.

/// How a seat may act on one of its offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Acting {
    /// It is this seat's turn: the table waits for it to send one of its `Turn` offers.
    Turn,
    /// The seat may act now, beside the seat whose turn it is and other seats (a
    /// declaration in the 打儲 deal, a chop by a seat that passed): whoever acts first is
    /// applied; not acting lets the chance go, and the table does not wait for it.
    MayAct,
}

impl Acting {
    /// The name the docs and the wire use: `turn`, `may_act`.
    pub fn as_str(self) -> &'static str {
        match self {
            Acting::Turn => "turn",
            Acting::MayAct => "may_act",
        }
    }
}

/// One action a seat may send now, ready to send back as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer<A> {
    pub seat: usize,
    pub action: A,
    pub acting: Acting,
}
