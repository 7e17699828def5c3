//! Cards (RULES §0): one 52-card deck, no jokers, game-neutral.
//!
//! A [`Card`] is one byte, `rank * 4 + suit`, with rank 0..=12 for `2..A` and suit
//! 0..=3 for `s h d c`. Each game imposes its own rank and suit *order* on top of this;
//! the numbering here is only an identity. A [`CardSet`] is a 52-bit mask.

use crate::error::{Error, Reason, Result};
use std::fmt;

pub const RANK_CHARS: [char; 13] = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
pub const SUIT_CHARS: [char; 4] = ['s', 'h', 'd', 'c'];

/// Rank indices (0 = `2`, 12 = `A`).
pub mod rank {
    pub const TWO: u8 = 0;
    pub const THREE: u8 = 1;
    pub const FOUR: u8 = 2;
    pub const FIVE: u8 = 3;
    pub const EIGHT: u8 = 6;
    pub const TEN: u8 = 8;
    pub const JACK: u8 = 9;
    pub const QUEEN: u8 = 10;
    pub const KING: u8 = 11;
    pub const ACE: u8 = 12;
}

/// Suit indices in the neutral numbering.
pub mod suit {
    pub const SPADES: u8 = 0;
    pub const HEARTS: u8 = 1;
    pub const DIAMONDS: u8 = 2;
    pub const CLUBS: u8 = 3;
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Card(pub u8);

impl Card {
    #[inline]
    pub const fn new(rank: u8, suit: u8) -> Card {
        Card(rank * 4 + suit)
    }
    /// 0 = `2` … 12 = `A`.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }
    /// 0 = ♠, 1 = ♥, 2 = ♦, 3 = ♣.
    #[inline]
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }
    #[inline]
    pub const fn is_red(self) -> bool {
        matches!(self.suit(), suit::HEARTS | suit::DIAMONDS)
    }
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
    /// Card from its id; ids above 51 are an error.
    pub fn from_id(id: u8) -> Result<Card> {
        if id < 52 {
            Ok(Card(id))
        } else {
            Err(Error::new(format!("card id {id} is out of range 0..51")).because(Reason::BadCard))
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", RANK_CHARS[self.rank() as usize], SUIT_CHARS[self.suit() as usize])
    }
}

/// A set of distinct cards as a 52-bit mask.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const FULL_DECK: CardSet = CardSet((1u64 << 52) - 1);

    pub fn from_cards(cards: &[Card]) -> CardSet {
        CardSet(cards.iter().fold(0, |m, c| m | c.bit()))
    }
    #[inline]
    pub fn contains(self, c: Card) -> bool {
        self.0 & c.bit() != 0
    }
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Cards in id order.
    pub fn cards(self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len() as usize);
        let mut m = self.0;
        while m != 0 {
            out.push(Card(m.trailing_zeros() as u8));
            m &= m - 1;
        }
        out
    }
}

fn parse_rank(s: &str) -> Option<u8> {
    if s == "10" {
        return Some(rank::TEN);
    }
    let mut it = s.chars();
    let c = it.next()?;
    if it.next().is_some() {
        return None;
    }
    RANK_CHARS.iter().position(|&r| r == c.to_ascii_uppercase()).map(|i| i as u8)
}

fn parse_suit(s: &str) -> Option<u8> {
    let mut it = s.chars();
    let c = it.next()?;
    if it.next().is_some() {
        return None;
    }
    match c {
        's' | 'S' | '♠' | '♤' => Some(suit::SPADES),
        'h' | 'H' | '♥' | '♡' => Some(suit::HEARTS),
        'd' | 'D' | '♦' | '♢' => Some(suit::DIAMONDS),
        'c' | 'C' | '♣' | '♧' => Some(suit::CLUBS),
        _ => None,
    }
}

/// Parse one card token: rank then suit (`As`, `10d`, `7♣`), or a suit symbol/letter
/// first (`♥3`). Ranks and suits use disjoint characters, so either order is unambiguous.
pub fn parse_card(token: &str) -> Result<Card> {
    // The common form first (`As`, `td`: two ASCII characters, rank then suit), without
    // the general loop's allocation; anything else (and every error) goes the long way.
    if let [r, s] = token.as_bytes() {
        if let Some(r) = RANK_CHARS.iter().position(|&c| c as u8 == r.to_ascii_uppercase()) {
            let s = match s {
                b's' | b'S' => Some(suit::SPADES),
                b'h' | b'H' => Some(suit::HEARTS),
                b'd' | b'D' => Some(suit::DIAMONDS),
                b'c' | b'C' => Some(suit::CLUBS),
                _ => None,
            };
            if let Some(s) = s {
                return Ok(Card::new(r as u8, s));
            }
        }
    }
    let chars: Vec<(usize, char)> = token.char_indices().collect();
    if chars.is_empty() {
        return Err(Error::new("empty card").because(Reason::BadCard));
    }
    // Try every split point: rank|suit, then suit|rank.
    for &(at, _) in chars.iter().skip(1) {
        let (a, b) = token.split_at(at);
        if let (Some(r), Some(s)) = (parse_rank(a), parse_suit(b)) {
            return Ok(Card::new(r, s));
        }
        if let (Some(s), Some(r)) = (parse_suit(a), parse_rank(b)) {
            return Ok(Card::new(r, s));
        }
    }
    // Explain what is wrong.
    let first: String = chars[0].1.to_string();
    let rest = &token[chars[0].1.len_utf8()..];
    let last: String = chars[chars.len() - 1].1.to_string();
    let head = &token[..token.len() - last.len()];
    let why = if chars.len() == 1 {
        "a card needs a rank and a suit".to_string()
    } else if parse_suit(&last).is_some() {
        format!("unknown rank {head:?} (ranks: 2-9, T or 10, J, Q, K, A)")
    } else if parse_suit(&first).is_some() {
        format!("unknown rank {rest:?} (ranks: 2-9, T or 10, J, Q, K, A)")
    } else if parse_rank(head).is_some() {
        format!("unknown suit {last:?} (suits: s h d c or ♠ ♥ ♦ ♣)")
    } else {
        "expected a rank (2-9, T/10, J, Q, K, A) and a suit (s h d c or ♠ ♥ ♦ ♣)".to_string()
    };
    Err(Error::new(why).because(Reason::BadCard))
}

/// Parse a list of cards separated by spaces and/or commas; reject empty tokens and
/// repeated cards. Errors name the token and its 0-based position.
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    let mut tokens: Vec<&str> = Vec::new();
    if !text.trim().is_empty() {
        for piece in text.split(',') {
            let mut any = false;
            for t in piece.split_whitespace() {
                tokens.push(t);
                any = true;
            }
            if !any {
                return Err(Error::new(format!(
                    "empty card at position {} (two commas in a row, or a leading/trailing comma)",
                    tokens.len()
                ))
                .because(Reason::BadCard));
            }
        }
    }
    parse_tokens(&tokens)
}

/// Parse a list whose items are each exactly one card token.
pub fn parse_tokens<S: AsRef<str>>(tokens: &[S]) -> Result<Vec<Card>> {
    let mut cards = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let t = t.as_ref().trim();
        let c = parse_card(t).map_err(|e| Error::new(format!("bad card {t:?} at position {i}: {}", e.message)).because(Reason::BadCard))?;
        cards.push(c);
    }
    check_distinct(&cards)?;
    Ok(cards)
}

/// Every card at most once.
pub fn check_distinct(cards: &[Card]) -> Result<()> {
    let mut seen = [usize::MAX; 52];
    for (i, c) in cards.iter().enumerate() {
        let prev = seen[c.0 as usize];
        if prev != usize::MAX {
            return Err(Error::new(format!("duplicate card {c} at positions {prev} and {i}")).because(Reason::DuplicateCard));
        }
        seen[c.0 as usize] = i;
    }
    Ok(())
}

/// Every card at most once across several named groups (players' hands or rows).
pub fn check_distinct_across(groups: &[(String, &[Card])]) -> Result<()> {
    let mut seen: [Option<usize>; 52] = [None; 52];
    for (g, (name, cards)) in groups.iter().enumerate() {
        for c in cards.iter() {
            if let Some(prev) = seen[c.0 as usize] {
                if prev == g {
                    return Err(Error::field(name.clone(), format!("duplicate card {c}")).because(Reason::DuplicateCard));
                }
                return Err(Error::field(name.clone(), format!("card {c} is also in {}", groups[prev].0)).because(Reason::DuplicateCard));
            }
            seen[c.0 as usize] = Some(g);
        }
    }
    Ok(())
}

/// Canonical text: `As Td 3h`.
pub fn format_cards(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// Test and example helper: parse or panic.
pub fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// The most actions a play record of a 52-card shedding game (越式13张, 打儲) can hold: 52
/// plays, each followed by at most three passes.
pub const MAX_RECORD_ACTIONS: usize = 52 * 4;

/// The cards dealt to each seat, in every game of this crate (RULES 1, 2, 3).
pub(crate) const HAND_SIZE: usize = 13;

/// Refuse a record of `n` actions longer than [`MAX_RECORD_ACTIONS`] (reason `TooLarge`),
/// before any of it is read.
pub fn check_record_len(n: usize, field: &str) -> Result<()> {
    if n > MAX_RECORD_ACTIONS {
        return Err(Error::field(
            field,
            format!("{n} actions are more than a game of 52 cards allows (at most {MAX_RECORD_ACTIONS}: 52 plays, each followed by at most 3 passes)"),
        )
        .because(Reason::TooLarge));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips() {
        for id in 0..52u8 {
            let c = Card(id);
            assert_eq!(parse_card(&c.to_string()).unwrap(), c);
        }
    }

    #[test]
    fn accepted_notations() {
        assert_eq!(format_cards(&cards("As 10d ♥3")), "As Td 3h");
        assert_eq!(format_cards(&cards("as,TD, 7♣")), "As Td 7c");
        assert_eq!(format_cards(&cards("♠A 10♦")), "As Td");
        assert!(parse_cards("").unwrap().is_empty());
    }

    #[test]
    fn a_huge_bad_token_is_echoed_cut() {
        let text = format!("As {}", "Z".repeat(1 << 20));
        let e = parse_cards(&text).unwrap_err().message;
        assert!(e.len() < 400 && e.contains("position 1") && e.contains("(1048576 chars)"), "{e}");
    }

    #[test]
    fn errors_name_token_and_position() {
        let e = parse_cards("As Xs").unwrap_err().message;
        assert!(e.contains("\"Xs\"") && e.contains("position 1") && e.contains("rank"), "{e}");
        let e = parse_cards("As Kx").unwrap_err().message;
        assert!(e.contains("\"Kx\"") && e.contains("suit"), "{e}");
        let e = parse_cards("As,,Kd").unwrap_err().message;
        assert!(e.contains("empty") && e.contains("position 1"), "{e}");
        let e = parse_cards("As Kd as").unwrap_err().message;
        assert!(e.contains("duplicate card As") && e.contains("0 and 2"), "{e}");
        assert!(parse_cards("1s").is_err());
        assert!(parse_cards("A").is_err());
        assert!(parse_cards("Ass").is_err());
    }

    #[test]
    fn duplicates_across_groups_name_both() {
        let a = cards("As Kd");
        let b = cards("Qh As");
        let e = check_distinct_across(&[("players[0]".into(), &a), ("players[1]".into(), &b)]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("players[1]"));
        assert!(e.message.contains("As") && e.message.contains("players[0]"), "{}", e.message);
    }
}
