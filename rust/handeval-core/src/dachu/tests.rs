use super::calling::{CHU, OTHER};
use super::*;
use crate::cards::{cards, Card};
use proptest::prelude::*;

fn r() -> Rules {
    Rules::default()
}
fn kind(s: &str, chu: Chu) -> Kind {
    classify(&cards(s), chu, &r()).unwrap().kind
}
fn b(p: &str, t: &str, chu: Chu) -> bool {
    beats(&cards(p), &cards(t), chu, &r()).unwrap()
}

#[test]
fn kinds() {
    use Kind::*;
    assert_eq!(kind("3s", Chu::Red), Single);
    assert_eq!(kind("Ah Ad", Chu::Red), DuChu);
    assert_eq!(kind("Ah Ad", Chu::Black), Pair);
    assert_eq!(kind("Ah As", Chu::Red), Pair); // one 儲A + one plain A: ordinary AA
    assert_eq!(kind("As 2s 3s", Chu::Red), Straight);
    assert_eq!(kind("Qh Kh Ac", Chu::Red), Straight);
    assert_eq!(kind("5s 5h 5d", Chu::Red), TripleBomb);
    assert_eq!(kind("5s 5h 5d 5c", Chu::Red), QuadBomb);
    assert_eq!(kind("Ah Ad As", Chu::Red), TripleBomb);
    for bad in ["Ks As 2s", "3s 4s", "3s 3h 4s", "3s 5s 6s", "3s 3h 4s 4h", ""] {
        assert!(classify(&cards(bad), Chu::Red, &r()).is_err(), "{bad}");
    }
    let e = classify(&cards("Ks As 2s"), Chu::Red, &r()).unwrap_err().message;
    assert!(e.contains("KA2") && e.contains("Ks"), "{e}");
    let strict = Rules { mixed_ace_pair: false, ..r() };
    let e = classify(&cards("Ah As"), Chu::Red, &strict).unwrap_err().message;
    assert!(e.contains("mixed_ace_pair"), "{e}");
}

#[test]
fn chu_colour_must_be_red_or_black() {
    assert_eq!(Chu::parse("red").unwrap(), Chu::Red);
    let e = Chu::parse("green").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("chu"));
    assert!(e.message.contains("green"));
}

#[test]
fn single_order_is_the_chu_order() {
    // 儲A > 2 > plain A > K > … > 3, for both colours.
    for chu in [Chu::Red, Chu::Black] {
        let [c1, _] = chu.aces();
        let plain = crate::cards::Card::new(12, if chu == Chu::Red { 0 } else { 1 });
        let mut order: Vec<Card> = vec![c1, Card::new(0, 2), plain];
        for rk in (1..=11).rev() {
            order.push(Card::new(rk, 3));
        }
        for i in 0..order.len() {
            for j in 0..order.len() {
                let got = if i == j {
                    let p = classify(&[order[i]], chu, &r()).unwrap();
                    beats_play(&p, &p)
                } else {
                    beats(&[order[i]], &[order[j]], chu, &r()).unwrap()
                };
                assert_eq!(got, i < j, "{} vs {}", order[i], order[j]);
            }
        }
    }
    // Equal ranks never beat each other; the two 儲 aces neither.
    assert!(!b("Kh", "Ks", Chu::Red));
    assert!(!b("Ah", "Ad", Chu::Red));
    assert!(!b("As", "Ac", Chu::Red));
}

#[test]
fn pairs_straights_bombs() {
    assert!(b("2s 2h", "As Ah", Chu::Red));
    assert!(b("As Ah", "Ks Kh", Chu::Red));
    assert!(!b("As Ah", "Ac Ad", Chu::Black)); // both ordinary AA
    assert!(!b("3s 4s 5s 6s", "3h 4h 5h", Chu::Red)); // different length
    assert!(b("Ts Jh Qd Kc As", "9s Th Jd Qc Ks", Chu::Red));
    assert!(b("2s 3h 4d", "Ad 2h 3s", Chu::Red));
    // 13 ranks: read 2..A (top A) rather than A..K.
    let all = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks";
    assert_eq!(classify(&cards(all), Chu::Red, &r()).unwrap().strength, 14);
    assert!(b("3s 3h 3d", "2s 2h", Chu::Red));
    assert!(b("3s 3h 3d", "Ah", Chu::Red));
    assert!(!b("3s 3h 3d", "4s 4h 4d 4c", Chu::Red));
    assert!(b("3s 3h 3d 3c", "2s 2h 2d", Chu::Red));
    assert!(b("2s 2h 2d 2c", "As Ah Ac Ad", Chu::Red));
    assert!(b("Ah Ad", "2s 2h 2d 2c", Chu::Red));
    assert!(!b("2s 2h 2d 2c", "Ah Ad", Chu::Red));
    assert!(!b("Ks", "Kh Kd", Chu::Red));
    // Cards in both play and table are bad input.
    assert!(beats(&cards("Ks"), &cards("Ks"), Chu::Red, &r()).is_err());
}

#[test]
fn seed_vectors_dachu_beats() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/seed_examples.json")).unwrap();
    // A minimal scan of the dachu_beats entries (no JSON crate in the core).
    let part = &text[text.find("\"dachu_beats\"").unwrap()..];
    let mut n = 0;
    for entry in part.split('{').skip(1) {
        let field = |k: &str| -> Option<String> {
            let at = entry.find(&format!("\"{k}\""))? + k.len() + 2;
            let rest = entry[at..].trim_start().strip_prefix(':')?.trim_start();
            Some(if let Some(s) = rest.strip_prefix('"') {
                s[..s.find('"')?].to_string()
            } else {
                rest.split([',', '}', '\n']).next()?.trim().to_string()
            })
        };
        let (Some(chu), Some(play), Some(table), Some(exp)) = (field("chu"), field("play"), field("table"), field("expected")) else {
            break;
        };
        let chu = Chu::parse(&chu).unwrap();
        assert_eq!(b(&play, &table, chu), exp == "true", "{play} vs {table}");
        n += 1;
        if entry.contains(']') {
            break;
        }
    }
    assert!(n >= 7, "read {n} vectors");
}

fn lp(hand: &str, table: Option<&str>, cons: &Constraints) -> Vec<String> {
    let t = table.map(cards);
    legal_plays(&cards(hand), t.as_deref(), Chu::Red, cons, &r()).unwrap().iter().map(|p| crate::cards::format_cards(&p.cards)).collect()
}

#[test]
fn legal_plays_follow_and_lead() {
    let none = Constraints::default();
    assert_eq!(lp("3s 9h Kd 2c As", Some("Ks"), &none), vec!["As", "2c"]);
    assert_eq!(lp("3s 9h Kd 2c Ah", Some("Ks"), &none), vec!["2c", "Ah"]); // Ah is a red 儲A
    assert_eq!(lp("3s 3h 9h 9d", Some("8s 8h"), &none), vec!["9h 9d"]);
    // Leading: singles, pairs, straights, bombs, 獨儲, weakest first.
    let all = lp("3s 4s 5s 5h 5d Ah Ad", None, &none);
    assert_eq!(all.first().unwrap(), "3s");
    assert_eq!(all.last().unwrap(), "Ah Ad");
    assert!(all.contains(&"3s 4s 5h".to_string()) && all.contains(&"5s 5h 5d".to_string()));
    // No duplicates.
    let mut d = all.clone();
    d.sort();
    d.dedup();
    assert_eq!(d.len(), all.len());
}

#[test]
fn first_lead_and_shown_triple() {
    let first = Constraints { first_lead: true, ..Default::default() };
    let plays = lp("3h 4s 5s 9d", None, &first);
    assert!(plays.iter().all(|p| p.contains("3h")), "{plays:?}");
    assert!(plays.contains(&"3h 4s 5s".to_string()));
    // 3♥ inside a triple bomb: any play.
    let plays = lp("3h 3s 3d 9d", None, &first);
    assert!(plays.contains(&"9d".to_string()));
    assert!(legal_plays(&cards("4s"), None, Chu::Red, &first, &r()).unwrap_err().message.contains("3h"));
    // Surrendered holder: the 3♥ goes out as a single.
    let sur = Constraints { first_lead: true, surrendered: true, ..Default::default() };
    assert_eq!(lp("3h 3s 9d", None, &sur), vec!["3h"]);
    // 夢踹 triple: never split; as a quad: the quad, or the triple + the 4th as a single.
    let shown = Constraints { shown_triple: cards("7s 7h 7d"), ..Default::default() };
    let plays = lp("7s 7h 7d 7c 9s", None, &shown);
    assert_eq!(plays, vec!["7c", "9s", "7s 7h 7d", "7s 7h 7d 7c"]);
    let plays = lp("7s 7h 7d 9s", Some("5s"), &shown);
    assert_eq!(plays, vec!["9s", "7s 7h 7d"]);
    let bad = Constraints { shown_triple: cards("7s 7h 7d"), ..Default::default() };
    assert!(legal_plays(&cards("7s 7h 9s"), None, Chu::Red, &bad, &r()).unwrap_err().message.contains("never split"));
}

/// RULES 3.7: the first card of the rightmost column as the client shows it.
#[test]
fn timeout_play_is_the_rightmost_column_as_shown() {
    let none = Constraints::default();
    let tp = |hand: &str, table: Option<&str>, cons: &Constraints| {
        let t = table.map(cards);
        timeout_play(&columns_of(&cards(hand)), t.as_deref(), Chu::Red, cons, &r()).unwrap().map(|c| crate::cards::format_cards(&c))
    };
    // The order given, not a sorted hand: the column 4d 4h 4s, its first card 4d.
    assert_eq!(tp("Kh 9c 4d 4h 4s", None, &none).as_deref(), Some("4d"));
    assert_eq!(tp("4d 9c Kh", None, &none).as_deref(), Some("Kh"));
    // Following: the card is played when it beats the table, else a pass.
    assert_eq!(tp("4h", Some("3h"), &none).as_deref(), Some("4h"));
    assert_eq!(tp("5s 4h", Some("4d"), &none), None);
    assert_eq!(tp("3s 9c", Some("5d"), &none).as_deref(), Some("9c"));
    assert_eq!(tp("9c 3s", Some("5d"), &none), None);
    assert_eq!(tp("9c 9s", Some("5d 5h"), &none), None); // a single never follows a pair
                                                         // Explicit columns, rightmost last.
    let cols = vec![cards("5s"), cards("Kd")];
    assert_eq!(timeout_play(&cols, None, Chu::Red, &none, &r()).unwrap(), Some(cards("Kd")));
    // The shown 夢踹 triple, and the quad it grew into, are skipped.
    let shown = Constraints { shown_triple: cards("3s 3h 3d"), ..Default::default() };
    assert_eq!(tp("9c Kd 3s 3h 3d", None, &shown).as_deref(), Some("Kd"));
    assert_eq!(tp("9c Kd 3s 3h 3d 3c", None, &shown).as_deref(), Some("Kd"));
    assert_eq!(tp("9c 3s 3h 3d 3c", Some("5d"), &shown).as_deref(), Some("9c"));
    // Nothing but the shown triple (or its quad): it leads whole; following, a pass.
    assert_eq!(tp("3s 3h 3d", None, &shown).as_deref(), Some("3s 3h 3d"));
    assert_eq!(tp("3s 3h 3d 3c", None, &shown).as_deref(), Some("3s 3h 3d 3c"));
    assert_eq!(tp("3s 3h 3d 3c", Some("5d"), &shown), None);
    // The shown triple split over two columns by the client: the triple leads.
    let split = vec![cards("3s 3h"), cards("3d 3c")];
    assert_eq!(timeout_play(&split, None, Chu::Red, &shown, &r()).unwrap(), Some(cards("3s 3h 3d")));
    // An empty hand plays nothing.
    assert_eq!(timeout_play(&[], None, Chu::Red, &none, &r()).unwrap(), None);
    // The first lead plays the 3♥ (RULES 3.4); so does a surrendered holder.
    let first = Constraints { first_lead: true, ..Default::default() };
    assert_eq!(tp("3s 3h 9c", None, &first).as_deref(), Some("3h"));
    let sur = Constraints { first_lead: true, surrendered: true, ..Default::default() };
    assert_eq!(tp("Kd 3h 9c", None, &sur).as_deref(), Some("3h"));
    let later = Constraints { surrendered: true, ..Default::default() };
    assert_eq!(timeout_play(&columns_of(&cards("Kd 3h")), None, Chu::Red, &later, &r()).unwrap_err().field.as_deref(), Some("surrendered"));
    let e = timeout_play(&[cards("5s"), vec![]], None, Chu::Red, &none, &r()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("hand[1]"));
}

// ---- the deal ----

/// Hands in dealing order: seat s gets `hands[s]`.
fn deal_hands(spec: [&str; 4]) -> Vec<Vec<Card>> {
    spec.iter().map(|s| cards(s)).collect()
}

fn std_hands() -> Vec<Vec<Card>> {
    // Seat 0: Ah first card, black triple 5s in cards 1..5; seat 1: Ad; seat 2: As Ac.
    deal_hands([
        "Ah 5s 5h 5d 2s 3s 4s 6s 7s 8s 9s Ts Js",
        "Ad 2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Qs",
        "As Ac 2d 3d 4d 6d 7d 8d 9d Td Jd Qd Kd",
        "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks",
    ])
}

fn step(d: &Deal, a: DealAction) -> Deal {
    d.apply(&a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

fn deal_to(mut d: Deal, n: u8) -> Deal {
    while d.dealt < n {
        d = step(&d, DealAction::Deal);
    }
    d
}

#[test]
fn ping_xuan_reads_the_last_card() {
    let d = Deal::new(std_hands(), 0, r()).unwrap();
    let d = step(&deal_to(d, 13), DealAction::Finish);
    // Last card dealt: seat 3's 13th, Ks → black.
    assert_eq!(d.chu, Some(Chu::Black));
    assert_eq!(d.multiplier, 1);
    assert_eq!(d.chu_side(), Some(vec![2]));
    assert!(!d.declared());
    // Dealing starts at seat 1 → seat 0 is dealt last: Js → black as well; Td → red.
    let mut h = std_hands();
    h[0][12] = cards("Kd")[0];
    h[2][12] = cards("Js")[0];
    let d = step(&deal_to(Deal::new(h, 1, r()).unwrap(), 13), DealAction::Finish);
    assert_eq!(d.chu, Some(Chu::Red));
    assert_eq!(d.chu_side(), Some(vec![0, 1]));
}

#[test]
fn meng_xuan_meng_chuai_cheng_chu_double() {
    let d = Deal::new(std_hands(), 0, r()).unwrap();
    let d1 = deal_to(d.clone(), 1);
    assert!(d1.legal_actions().contains(&DealAction::MengXuan { seat: 0, card: cards("Ah")[0] }));
    let d1 = step(&d1, DealAction::MengXuan { seat: 0, card: cards("Ah")[0] });
    assert_eq!((d1.chu, d1.multiplier), (Some(Chu::Red), 2));
    // Nobody else may 夢宣 now; the same seat never twice.
    assert!(d1.apply(&DealAction::MengXuan { seat: 1, card: cards("Ad")[0] }).unwrap_err().message.contains("already red"));
    assert!(d1.apply(&DealAction::MengXuan { seat: 0, card: cards("Ah")[0] }).unwrap_err().message.contains("once per player"));
    let d4 = deal_to(d1, 4);
    assert!(d4
        .apply(&DealAction::MengChuai { seat: 0, cards: [cards("5s")[0], cards("5h")[0], cards("5d")[0]] })
        .unwrap_err()
        .message
        .contains("5–8"));
    let d5 = deal_to(d4, 5);
    let t = [cards("5s")[0], cards("5h")[0], cards("5d")[0]];
    assert!(d5.legal_actions().contains(&DealAction::MengChuai { seat: 0, cards: t }));
    let d5 = step(&d5, DealAction::MengChuai { seat: 0, cards: t });
    assert_eq!(d5.multiplier, 4);
    assert!(d5.apply(&DealAction::MengChuai { seat: 0, cards: t }).unwrap_err().message.contains("once per player"));
    let d9 = deal_to(d5, 9);
    assert_eq!(d9.dealt, 13); // 9–13 in one go
    assert!(d9.apply(&DealAction::MengXuan { seat: 1, card: cards("Ad")[0] }).is_err());
    let done = step(&d9, DealAction::Finish);
    assert_eq!(done.chu_side(), Some(vec![0, 1]));
    assert!(done.declared());
    assert!(done.apply(&DealAction::Deal).is_err());
}

#[test]
fn cheng_chu_and_its_option() {
    let d = deal_to(Deal::new(std_hands(), 0, r()).unwrap(), 13);
    assert!(d.legal_actions().contains(&DealAction::ChengChu { seat: 2, chu: Chu::Black }));
    assert!(d.apply(&DealAction::ChengChu { seat: 1, chu: Chu::Red }).unwrap_err().message.contains("both red aces"));
    let c = step(&d, DealAction::ChengChu { seat: 2, chu: Chu::Black });
    let c = step(&c, DealAction::Finish);
    assert_eq!((c.chu, c.multiplier, c.chu_side()), (Some(Chu::Black), 2, Some(vec![2])));
    assert!(c.declared());
    // After 夢宣 red, a black 撐儲 cannot change the 儲 …
    let x = step(&deal_to(Deal::new(std_hands(), 0, r()).unwrap(), 1), DealAction::MengXuan { seat: 0, card: cards("Ah")[0] });
    let x = deal_to(x, 13);
    assert!(x.apply(&DealAction::ChengChu { seat: 2, chu: Chu::Black }).unwrap_err().message.contains("already red"));
    // … unless 撐儲 only doubles (rule option): then the colour stays red.
    let opt = Rules { cheng_chu_alone: false, ..r() };
    let y = step(&deal_to(Deal::new(std_hands(), 0, opt.clone()).unwrap(), 1), DealAction::MengXuan { seat: 0, card: cards("Ah")[0] });
    let y = step(&deal_to(y, 13), DealAction::ChengChu { seat: 2, chu: Chu::Black });
    let y = step(&y, DealAction::Finish);
    assert_eq!((y.chu, y.multiplier, y.chu_side()), (Some(Chu::Red), 4, Some(vec![0, 1])));
    // Double-only 撐儲 without 夢宣: the colour comes from 平宣 (Ks: black).
    let z = step(&deal_to(Deal::new(std_hands(), 0, opt).unwrap(), 13), DealAction::ChengChu { seat: 2, chu: Chu::Black });
    let z = step(&z, DealAction::Finish);
    assert_eq!(z.chu_source, Some(deal::ChuSource::PingXuan));
}

/// RULES 3.5 [decision]: declarations are once per player per kind; several players may
/// each 夢踹 (each doubles); 夢宣 and 撐儲 fix the colour, so each happens once per game.
#[test]
fn declarations_once_per_player_per_kind() {
    let h = deal_hands([
        "Ah 5s 5h 5d 2s 3s 4s 6s 7s 8s 9s Ts Js",
        "Ad 6h 6d 6c 2h 3h 4h 7h 8h 9h Th Jh Qh",
        "As Ac 2d 3d 4d 7d 8d 9d Td Jd Qd Kd Kh",
        "2c 3c 4c 5c 7c 8c 9c Tc Jc Qc Kc Ks Qs",
    ]);
    let fives = [cards("5s")[0], cards("5h")[0], cards("5d")[0]];
    let sixes = [cards("6h")[0], cards("6d")[0], cards("6c")[0]];
    let d = deal_to(Deal::new(h.clone(), 0, r()).unwrap(), 5);
    let d = step(&d, DealAction::MengChuai { seat: 0, cards: fives });
    let d = step(&d, DealAction::MengChuai { seat: 1, cards: sixes });
    assert_eq!(d.multiplier, 4);
    assert!(d.apply(&DealAction::MengChuai { seat: 0, cards: fives }).unwrap_err().message.contains("once per player"));
    assert!(!d.legal_actions().iter().any(|a| matches!(a, DealAction::MengChuai { seat: 0 | 1, .. })));
    // 夢宣 is still open while they hold 5 cards, once in all: seat 1's Ad fixes red.
    let x = step(&d, DealAction::MengXuan { seat: 1, card: cards("Ad")[0] });
    assert_eq!((x.chu, x.multiplier), (Some(Chu::Red), 8));
    assert!(!x.legal_actions().iter().any(|a| matches!(a, DealAction::MengXuan { .. })));
    // 撐儲 once in all: seat 2 (As Ac) fixes black; nobody may 撐儲 after it.
    let y = step(&deal_to(d, 13), DealAction::ChengChu { seat: 2, chu: Chu::Black });
    assert_eq!((y.chu, y.multiplier), (Some(Chu::Black), 8));
    assert!(!y.legal_actions().iter().any(|a| matches!(a, DealAction::ChengChu { .. })));
    assert!(y.apply(&DealAction::ChengChu { seat: 2, chu: Chu::Black }).unwrap_err().message.contains("once per player"));
    let y = step(&y, DealAction::Finish);
    assert_eq!((y.chu_source, y.chu_side()), (Some(deal::ChuSource::ChengChu), Some(vec![2])));

    // The other readings of the rule (option declare_once_per).
    let per = |once| Rules { declare_once_per: once, ..r() };
    let d = deal_to(Deal::new(h.clone(), 0, per(rules::DeclareOncePer::Game)).unwrap(), 5);
    let d = step(&d, DealAction::MengChuai { seat: 0, cards: fives });
    let e = d.apply(&DealAction::MengChuai { seat: 1, cards: sixes }).unwrap_err();
    assert!(e.message.contains("seat 0 has already made 夢踹: once per game"), "{}", e.message);
    assert!(!d.legal_actions().iter().any(|a| matches!(a, DealAction::MengChuai { .. })));
    let d = deal_to(Deal::new(h, 0, per(rules::DeclareOncePer::Player)).unwrap(), 5);
    let d = step(&d, DealAction::MengXuan { seat: 1, card: cards("Ad")[0] });
    let e = d.apply(&DealAction::MengChuai { seat: 1, cards: sixes }).unwrap_err();
    assert!(e.message.contains("one declaration per player"), "{}", e.message);
    assert_eq!(step(&d, DealAction::MengChuai { seat: 0, cards: fives }).multiplier, 4);
}

#[test]
fn deal_bad_input() {
    let mut h = std_hands();
    h[1][0] = h[0][0];
    assert!(Deal::new(h, 0, r()).unwrap_err().message.contains("Ah"));
    assert!(Deal::new(std_hands()[..3].to_vec(), 0, r()).is_err());
    let d = deal_to(Deal::new(std_hands(), 0, r()).unwrap(), 5);
    let e = d.apply(&DealAction::MengXuan { seat: 4, card: cards("Ah")[0] }).unwrap_err();
    assert!(e.message.contains("unknown seat 4"), "{}", e.message);
    assert!(d.apply(&DealAction::Finish).unwrap_err().message.contains("5 of 13"));
}

#[test]
fn three_aces_may_not_meng_chuai() {
    let h = deal_hands([
        "Ah As Ac 2s 3s 4s 6s 7s 8s 9s Ts Js 5s",
        "Ad 2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Qs",
        "5h 5d 2d 3d 4d 6d 7d 8d 9d Td Jd Qd Kd",
        "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks",
    ]);
    let d = deal_to(Deal::new(h, 0, r()).unwrap(), 5);
    assert!(!d.legal_actions().iter().any(|a| matches!(a, DealAction::MengChuai { seat: 0, .. })));
    let e = d.apply(&DealAction::MengChuai { seat: 0, cards: [cards("Ah")[0], cards("As")[0], cards("Ac")[0]] }).unwrap_err();
    assert!(e.message.contains("三張A"), "{}", e.message);
}

// ---- calling ----

fn call(c: &Calling, seat: usize, x: Call) -> Calling {
    c.apply(seat, x).unwrap_or_else(|e| panic!("seat {seat} {x:?}: {e}"))
}

/// 1 vs 3: seat 0 alone. 2 vs 2: seats 0 and 2 against 1 and 3.
fn c1v3(declared: bool) -> Calling {
    Calling::new(&[0], declared, 1, 0, None, &r()).unwrap()
}
fn c2v2(declared: bool) -> Calling {
    Calling::new(&[0, 2], declared, 1, 0, None, &r()).unwrap()
}

use Call::*;

#[test]
fn flow1_lone_chu_calls_first() {
    let c = c1v3(false);
    assert_eq!((c.turn(), c.legal_calls()), (Some(0), vec![PingDa, Chuai, Jiao]));
    // A: 平打 → play.
    let a = call(&c, 0, PingDa);
    assert_eq!((a.outcome, a.multiplier, a.turn()), (Some(Outcome::Play), 1, None));
    // C: 繳 → the side surrenders.
    let s = call(&c, 0, Jiao);
    assert_eq!(s.outcome, Some(Outcome::Surrender { side: CHU }));
    assert_eq!(s.surrendered(), vec![0]);
    // B: 踹 → ×2, the 非儲方 calls (flow 2) with 平打 踹 包踹 繳.
    let k = call(&c, 0, Chuai);
    assert_eq!((k.multiplier, k.turn(), k.calling_side()), (2, Some(1), Some(OTHER)));
    assert_eq!(k.legal_calls(), vec![PingDa, Chuai, BaoChuai, Jiao]);
}

#[test]
fn flow2_a_all_ping_da_plays() {
    let c = c2v2(false);
    assert_eq!(c.calling_side(), Some(OTHER)); // undeclared 2 vs 2: 非儲方 first
    let c = call(&call(&c, 1, PingDa), 3, PingDa);
    assert_eq!((c.outcome, c.multiplier), (Some(Outcome::Play), 1));
}

#[test]
fn flow2_b_all_jiao_surrenders() {
    let c = call(&call(&c2v2(false), 1, Jiao), 3, Jiao);
    assert_eq!(c.outcome, Some(Outcome::Surrender { side: OTHER }));
    assert_eq!(c.surrendered(), vec![1, 3]);
    // 1 vs 3, 非儲方 of three after the lone 踹: all three 繳.
    let c = call(&c1v3(false), 0, Chuai);
    let c = call(&call(&call(&c, 1, Jiao), 2, Jiao), 3, Jiao);
    assert_eq!((c.outcome, c.multiplier), (Some(Outcome::Surrender { side: OTHER }), 2));
}

#[test]
fn flow2_c_bao_chuai_then_bao_chuai_makes_the_first_bei_bao_da() {
    let c = call(&c2v2(false), 1, BaoChuai);
    assert_eq!((c.turn(), c.legal_calls()), (Some(3), vec![BaoChuai, Jiao]));
    let c = call(&c, 3, BaoChuai);
    assert_eq!(c.bei_bao_da_seats(), vec![1]);
    assert_eq!(c.sole[OTHER], Some(3));
    assert_eq!(c.multiplier, 2); // one final 包踹, note 1
                                 // The kick passes the call to the 儲方.
    assert_eq!((c.turn(), c.calling_side()), (Some(0), Some(CHU)));
}

#[test]
fn flow2_c_bao_chuai_then_jiao_plays_alone() {
    let c = call(&call(&c2v2(false), 1, BaoChuai), 3, Jiao);
    assert_eq!(c.surrendered(), vec![3]);
    assert_eq!(c.sole[OTHER], Some(1));
    assert_eq!(c.multiplier, 2);
    let c = call(&call(&c, 0, PingDa), 2, PingDa);
    assert_eq!(c.outcome, Some(Outcome::Play));
    assert_eq!(c.playing(), vec![0, 1, 2]);
}

#[test]
fn flow2_c_three_players_chain() {
    // 1 vs 3 after the lone 踹: 1 包踹, 2 包踹 (1 被包打), 3 繳 → 2 plays alone.
    let c = call(&c1v3(false), 0, Chuai);
    let c = call(&c, 1, BaoChuai);
    let c = call(&c, 2, BaoChuai);
    let c = call(&c, 3, Jiao);
    assert_eq!((c.bei_bao_da_seats(), c.surrendered(), c.sole[OTHER]), (vec![1], vec![3], Some(2)));
    assert_eq!(c.multiplier, 4);
    // Both sides kicked → note 3's second round: the lone 儲 first, then seat 2.
    assert_eq!((c.phase(), c.turn(), c.legal_calls()), ("second_round", Some(0), vec![PingDa, Chuai]));
    let c = call(&call(&c, 0, Chuai), 2, PingDa);
    assert_eq!((c.outcome, c.multiplier), (Some(Outcome::Play), 8));
    assert_eq!(c.playing(), vec![0, 2]);
}

#[test]
fn flow2_c_wraps_to_earlier_players() {
    // 1 平打, 3 包踹 (differs but 包踹 decides): seat 1 answers 包踹 / 繳.
    let c = call(&call(&c2v2(false), 1, PingDa), 3, BaoChuai);
    assert_eq!((c.phase(), c.turn()), ("bao_chuai", Some(1)));
    let c = call(&c, 1, BaoChuai);
    assert_eq!((c.bei_bao_da_seats(), c.sole[OTHER]), (vec![3], Some(1)));
}

#[test]
fn flow2_d_chuai_gen_chuai() {
    let c = call(&c2v2(false), 1, Chuai);
    assert_eq!(c.legal_calls(), vec![PingDa, Chuai, BaoChuai, Jiao]); // 平打 跟踹 包踹 繳
    let c = call(&c, 3, Chuai);
    assert_eq!((c.multiplier, c.calling_side()), (2, Some(CHU)));
}

#[test]
fn flow2_d_disagreement_second_round_last_answer_counts() {
    let c = call(&call(&c2v2(false), 1, Chuai), 3, PingDa);
    assert_eq!((c.phase(), c.turn()), ("side_call_round2", Some(1)));
    let c = call(&call(&c, 1, Chuai), 3, PingDa);
    // The last answer (平打) is final: play at ×1.
    assert_eq!((c.outcome, c.multiplier), (Some(Outcome::Play), 1));
}

#[test]
fn flow2_d_second_round_last_jiao_defers_to_previous() {
    let c = call(&call(&c2v2(false), 1, Chuai), 3, Jiao);
    assert_eq!(c.phase(), "side_call_round2");
    let c = call(&call(&c, 1, Chuai), 3, Jiao);
    // Seat 3 繳 personally; seat 1's 踹 is the side's choice (×2); the 儲方 calls.
    assert_eq!((c.surrendered(), c.multiplier, c.calling_side()), (vec![3], 2, Some(CHU)));
    // Second round all 繳 → the side surrenders.
    let d = call(&call(&c2v2(false), 1, Chuai), 3, PingDa);
    let d = call(&call(&d, 1, Jiao), 3, Jiao);
    assert_eq!(d.outcome, Some(Outcome::Surrender { side: OTHER }));
    // Second round with a 包踹 goes to flow C.
    let e = call(&call(&c2v2(false), 1, Chuai), 3, PingDa);
    let e = call(&e, 1, BaoChuai);
    assert_eq!((e.phase(), e.turn(), e.legal_calls()), ("bao_chuai", Some(3), vec![BaoChuai, Jiao]));
}

#[test]
fn note1_bao_chuai_once_per_player() {
    // 儲方 kicks, 非儲方 包踹 (seat 1 alone, 3 繳) → second round; seat 1 may not 包踹 again.
    let c = call(&c2v2(true), 0, Chuai);
    let c = call(&c, 2, Chuai);
    let c = call(&call(&c, 1, BaoChuai), 3, Jiao);
    assert_eq!(c.phase(), "second_round");
    let c = call(&c, 0, PingDa);
    let c = call(&c, 2, PingDa);
    assert_eq!(c.turn(), Some(1));
    let e = c.apply(1, BaoChuai).unwrap_err();
    assert!(e.message.contains("already chosen 包踹"), "{}", e.message);
    // In flow C a player whose 包踹 is used is offered 繳 only.
    let c = call(&call(&c2v2(false), 1, BaoChuai), 3, BaoChuai);
    assert!(!c.bao_used[0]);
    assert_eq!(c.bao_used, [false, true, false, true]);
}

#[test]
fn note2_and_note3_and_note4() {
    // Declared 2 vs 2: the 儲方 (0, 2) calls first.
    let c = c2v2(true);
    assert_eq!((c.calling_side(), c.turn()), (Some(CHU), Some(0)));
    let c = call(&call(&c, 0, Chuai), 2, Chuai); // ×2 (note 4)
    let c = call(&call(&c, 1, Chuai), 3, Chuai); // ×2
    assert_eq!((c.multiplier, c.phase()), (4, "second_round"));
    // Note 3: the first side chooses 平打/踹 once each, the last answer counts; then the other side.
    let c = call(&call(&c, 0, PingDa), 2, Chuai); // ×2
    assert_eq!(c.calling_side(), Some(OTHER));
    let c = call(&call(&c, 1, Chuai), 3, PingDa); // last: 平打
    assert_eq!((c.outcome, c.multiplier), (Some(Outcome::Play), 8));
    assert_eq!(c.finals.len(), 4);
}

#[test]
fn second_side_ping_da_or_jiao_ends_calling() {
    let c = call(&c1v3(true), 0, Chuai);
    let p = call(&call(&call(&c, 1, PingDa), 2, PingDa), 3, PingDa);
    assert_eq!((p.outcome, p.multiplier), (Some(Outcome::Play), 2));
    // 1 vs 3 with the 非儲方 first (override): the lone 儲 later chooses without 包踹.
    let o = Calling::new(&[0], false, 1, 0, Some(OTHER), &r()).unwrap();
    let o = call(&call(&call(&o, 1, Chuai), 2, Chuai), 3, Chuai);
    assert_eq!((o.turn(), o.legal_calls()), (Some(0), vec![PingDa, Chuai, Jiao]));
}

#[test]
fn calling_bad_input() {
    let c = c2v2(false);
    let e = c.apply(0, PingDa).unwrap_err();
    assert!(e.message.contains("out of turn") && e.message.contains("seat 1"), "{}", e.message);
    let e = c.apply(9, PingDa).unwrap_err();
    assert!(e.message.contains("unknown seat 9"), "{}", e.message);
    let e = c1v3(false).apply(0, BaoChuai).unwrap_err();
    assert!(e.message.contains("not allowed"), "{}", e.message);
    let done = call(&c1v3(false), 0, PingDa);
    assert!(done.apply(0, PingDa).unwrap_err().message.contains("over"));
    assert!(Calling::new(&[0, 0], false, 1, 0, None, &r()).is_err());
    assert!(Calling::new(&[5], false, 1, 0, None, &r()).unwrap_err().message.contains("unknown seat 5"));
    assert!(Calling::new(&[0], false, 3, 0, None, &r()).unwrap_err().message.contains("power of two"));
    assert!(Call::parse("pass").is_err());
    assert_eq!(Call::parse("跟踹").unwrap(), Chuai);
}

// ---- settlement ----

fn game(chu: &[usize], places: Option<&[usize]>) -> GameResult {
    GameResult { chu_side: chu.to_vec(), multiplier: 1, base: 10, places: places.map(|p| p.to_vec()), ..Default::default() }
}

#[test]
fn outcome_table_rules_3_7() {
    use Verdict::*;
    // (儲方 seats, places, verdict, 全殲, deltas with base 10 ×1) — one row per line of RULES 3.7.
    type Row<'a> = (&'a [usize], [usize; 4], Verdict, bool, [i64; 4]);
    let rows: &[Row] = &[
        // 1 vs 3 (seat 0 alone): 1st → win, 全殲 (×2): 3 units of 20.
        (&[0], [0, 1, 2, 3], Win, true, [60, -20, -20, -20]),
        (&[0], [1, 0, 2, 3], Draw, false, [0; 4]),
        (&[0], [1, 2, 0, 3], Draw, false, [0; 4]),
        (&[0], [1, 2, 3, 0], Loss, true, [-60, 20, 20, 20]),
        // 2 vs 2 (seats 0, 2): places of the 儲方.
        (&[0, 2], [0, 2, 1, 3], Win, true, [20, -20, 20, -20]),
        (&[0, 2], [0, 1, 2, 3], Win, false, [10, -10, 10, -10]),
        (&[0, 2], [0, 1, 3, 2], Draw, false, [0; 4]),
        (&[0, 2], [1, 0, 2, 3], Draw, false, [0; 4]),
        (&[0, 2], [1, 3, 0, 2], Loss, true, [-20, 20, -20, 20]),
    ];
    for (chu, places, v, w, deltas) in rows {
        let s = settle(&game(chu, Some(places)), &r()).unwrap();
        assert_eq!((s.verdict, s.wipe_out, s.deltas.as_slice()), (Some(*v), *w, deltas.as_slice()), "{chu:?} {places:?}");
        assert_eq!(s.deltas.iter().sum::<i64>(), 0);
    }
}

#[test]
fn jiao_escape_bei_bao_da_cap() {
    // Whole 非儲方 surrenders at ×2: each pays 10 × 2 / 2 = 10, shared by the 儲方.
    let g = GameResult { chu_side: vec![0, 2], multiplier: 2, base: 10, surrendered: vec![1, 3], ..Default::default() };
    assert_eq!(settle(&g, &r()).unwrap().deltas, vec![10, -10, 10, -10]);
    // Lone 儲 surrenders: 10 shared by three → 4 3 3 (largest remainder, lower seat first).
    let g = GameResult { chu_side: vec![3], multiplier: 2, base: 10, surrendered: vec![3], ..Default::default() };
    assert_eq!(settle(&g, &r()).unwrap().deltas, vec![4, 3, 3, -10]);
    // Escape: 10 × 1 × 5 = 50 shared by the three others; with the option, by the opponents.
    let g = GameResult { chu_side: vec![0, 2], multiplier: 1, base: 10, escaped: vec![1], ..Default::default() };
    assert_eq!(settle(&g, &r()).unwrap().deltas, vec![17, -50, 17, 16]);
    let opp = Rules { escape_shared_by_all: false, ..r() };
    assert_eq!(settle(&g, &opp).unwrap().deltas, vec![25, -50, 25, 0]);
    // 被包打: seat 1 包踹 for seat 3 (who sits out) and comes last of three → loss, 全殲.
    let g = GameResult {
        chu_side: vec![0, 2],
        multiplier: 2,
        base: 10,
        places: Some(vec![0, 2, 1]),
        bei_bao_da: vec![3],
        ..Default::default()
    };
    let s = settle(&g, &r()).unwrap();
    assert_eq!((s.verdict, s.wipe_out, s.deltas.clone()), (Some(Verdict::Win), true, vec![40, -40, 40, -40]));
    // 包踹 with a surrendered teammate: 繳 (10) plus the result.
    let g = GameResult {
        chu_side: vec![0, 2],
        multiplier: 2,
        base: 10,
        places: Some(vec![0, 1, 2]),
        surrendered: vec![3],
        ..Default::default()
    };
    let s = settle(&g, &r()).unwrap();
    assert_eq!(s.verdict, Some(Verdict::Draw));
    assert_eq!(s.deltas, vec![5, 0, 5, -10]);
    // The cap applies last, with an itemised adjustment.
    let mut g = game(&[0], Some(&[0, 1, 2, 3]));
    g.carried = Some(vec![Some(30), None, None, None]);
    let s = settle(&g, &r()).unwrap();
    assert_eq!(s.deltas, vec![30, -10, -10, -10]);
    assert!(s.lines.iter().any(|l| l.kind == "cap"));
    for seat in 0..4 {
        assert_eq!(s.lines.iter().filter(|l| l.seat == seat).map(|l| l.amount).sum::<i64>(), s.deltas[seat]);
    }
    // Losing-side unit option: the lone loser pays one unit.
    let ls = Rules { unit_per: rules::UnitPer::LosingSide, ..r() };
    assert_eq!(settle(&game(&[0], Some(&[1, 2, 3, 0])), &ls).unwrap().deltas, vec![-20, 7, 7, 6]);
}

/// RULES 3.7: payments to the same receivers are added up and shared once.
#[test]
fn escapes_to_the_same_receivers_are_pooled() {
    let g = GameResult { chu_side: vec![1], multiplier: 1, base: 1, escaped: vec![2, 3], ..Default::default() };
    let s = settle(&g, &r()).unwrap();
    assert_eq!(s.deltas, vec![5, 5, -5, -5]);
    // Listed in another order: the same.
    let g2 = GameResult { escaped: vec![3, 2], ..g.clone() };
    assert_eq!(settle(&g2, &r()).unwrap().deltas, vec![5, 5, -5, -5]);
    // Shared by the opponents only: seats 2 and 3 are both 非儲方, so the same receiver.
    let opp = Rules { escape_shared_by_all: false, ..r() };
    assert_eq!(settle(&g, &opp).unwrap().deltas, vec![0, 10, -5, -5]);
    // Different receivers stay apart: seat 1 (儲方) pays seats 0 and 3's side... here seats 0, 2.
    let g3 = GameResult { chu_side: vec![1, 3], multiplier: 1, base: 1, escaped: vec![0, 1], ..Default::default() };
    assert_eq!(settle(&g3, &opp).unwrap().deltas, vec![-5, -5, 5, 5]);
}

/// RULES 3.7 [v5]: an escape penalty whose receivers all escaped too is not paid, and a
/// game in which nobody can receive settles to zero for every seat (not an error).
#[test]
fn an_escape_penalty_nobody_may_receive_is_not_paid() {
    let opp = Rules { escape_shared_by_all: false, ..r() };
    // 2 vs 2, 儲方 0 and 2: seat 0's opponents 1 and 3 escaped too, so seat 0 pays nothing;
    // seats 1 and 3 pay seat 2 (the one opponent who did not escape), 5 each.
    let g = GameResult { chu_side: vec![0, 2], multiplier: 1, base: 1, escaped: vec![0, 1, 3], ..Default::default() };
    let s = settle(&g, &opp).unwrap();
    assert_eq!(s.deltas, vec![0, -5, 10, -5]);
    assert!(s.lines.iter().all(|l| l.seat != 0), "{:?}", s.lines);
    // Shared by all: seat 2 is the one receiver of all three penalties.
    assert_eq!(settle(&g, &r()).unwrap().deltas, vec![-5, -5, 15, -5]);
    // Both sides wholly escaped under the option: nobody can receive; every seat 0.
    let g = GameResult { chu_side: vec![0, 2], multiplier: 1, base: 1, escaped: vec![0, 1, 2, 3], ..Default::default() };
    for rules in [&opp, &r()] {
        let s = settle(&g, rules).unwrap();
        assert_eq!(s.deltas, vec![0, 0, 0, 0]);
        assert!(s.lines.is_empty(), "{:?}", s.lines);
    }
    // 1 vs 3, every seat escaping: under the option too, nobody can receive.
    let g = GameResult { chu_side: vec![1], multiplier: 1, base: 1, escaped: vec![0, 1, 2, 3], ..Default::default() };
    assert_eq!(settle(&g, &opp).unwrap().deltas, vec![0, 0, 0, 0]);
}

/// RULES §0: a side's total may exceed an i64 while every seat's result fits.
#[test]
fn totals_wider_than_i64_settle() {
    let g =
        GameResult { chu_side: vec![0, 1], multiplier: 1, base: 5 * 10i64.pow(18), places: Some(vec![0, 2, 1, 3]), ..Default::default() };
    let e = 5 * 10i64.pow(18);
    assert_eq!(settle(&g, &r()).unwrap().deltas, vec![e, e, -e, -e]);
    // Lone winner of three units of 5e18: 1.5e19 does not fit — refused, naming the seat.
    let g = GameResult { chu_side: vec![0], multiplier: 1, base: e, places: Some(vec![0, 1, 2, 3]), ..Default::default() };
    let err = settle(&g, &r()).unwrap_err();
    assert!(err.message.contains("seat 0") && err.message.contains("overflow"), "{err}");
}

/// Every line's note states the amount it carries (not "3 × base × 2" on a −20 line).
#[test]
fn line_notes_state_their_amounts() {
    let g = GameResult { chu_side: vec![2], multiplier: 1, base: 10, places: Some(vec![2, 0, 1, 3]), ..Default::default() };
    let s = settle(&g, &r()).unwrap();
    assert_eq!(s.deltas, vec![-20, -20, 60, -20]);
    let l0 = s.lines.iter().find(|l| l.seat == 0).unwrap();
    assert_eq!(l0.amount, -20);
    assert!(l0.text.ends_with("= 20"), "{}", l0.text);
    assert!(!l0.text.contains("= 60,") || l0.text.contains("60 / 3 = 20"), "{}", l0.text);
    let l2 = s.lines.iter().find(|l| l.seat == 2).unwrap();
    assert!(l2.text.ends_with("= 60"), "{}", l2.text);
}

/// RULES 3.7 [decision] `jiao_round_up`: a 繳 costs base × multiplier / 2 rounded up.
#[test]
fn jiao_rounds_up() {
    let g = |base, multiplier| GameResult { chu_side: vec![0, 2], multiplier, base, surrendered: vec![1, 3], ..Default::default() };
    // base 1 × 1: half a unit each, rounded up to 1 (not down to 0).
    assert_eq!(settle(&g(1, 1), &r()).unwrap().deltas, vec![1, -1, 1, -1]);
    assert_eq!(settle(&g(5, 1), &r()).unwrap().deltas, vec![3, -3, 3, -3]);
    assert_eq!(settle(&g(5, 2), &r()).unwrap().deltas, vec![5, -5, 5, -5]);
    let down = Rules { jiao_round_up: false, ..r() };
    assert_eq!(settle(&g(1, 1), &down).unwrap().deltas, vec![0; 4]);
    assert_eq!(settle(&g(5, 1), &down).unwrap().deltas, vec![2, -2, 2, -2]);
    // A lone 繳 of 1 × 1 costs 1, shared by three (1 0 0: largest remainder, lower seat).
    let lone = GameResult { chu_side: vec![3], multiplier: 1, base: 1, surrendered: vec![3], ..Default::default() };
    assert_eq!(settle(&lone, &r()).unwrap().deltas, vec![1, 0, 0, -1]);
}

/// RULES 3.7 `unit_per`: 2 vs 2 after one 繳, the partner who plays on alone pays or
/// receives one unit per opponent (two units); `losing_side` counts the losers.
#[test]
fn unit_per_after_a_partners_jiao() {
    // 儲方 0 and 2; seat 2 繳 (5 = ⌈10 / 2⌉, shared 3 / 2 by seats 1 and 3).
    let g = |places: &[usize]| GameResult {
        chu_side: vec![0, 2],
        multiplier: 1,
        base: 10,
        places: Some(places.to_vec()),
        surrendered: vec![2],
        ..Default::default()
    };
    // Seat 0 first of three: win with 全殲, unit 10 × 2; one unit from each opponent.
    let s = settle(&g(&[0, 1, 3]), &r()).unwrap();
    assert_eq!((s.verdict, s.wipe_out), (Some(Verdict::Win), true));
    assert_eq!(s.deltas, vec![40, 3 - 20, -5, 2 - 20]);
    // Seat 0 last: it pays one unit to each opponent.
    assert_eq!(settle(&g(&[1, 3, 0]), &r()).unwrap().deltas, vec![-40, 3 + 20, -5, 2 + 20]);
    let ls = Rules { unit_per: rules::UnitPer::LosingSide, ..r() };
    assert_eq!(settle(&g(&[0, 1, 3]), &ls).unwrap().deltas, vec![40, 3 - 20, -5, 2 - 20]);
    assert_eq!(settle(&g(&[1, 3, 0]), &ls).unwrap().deltas, vec![-20, 3 + 10, -5, 2 + 10]);
}

#[test]
fn base_is_at_least_one() {
    for base in [0, -10] {
        let g = GameResult { base, ..game(&[0], Some(&[0, 1, 2, 3])) };
        assert_eq!(settle(&g, &r()).unwrap_err().field.as_deref(), Some("base"));
    }
}

#[test]
fn settle_bad_input() {
    let e = settle(&game(&[0], Some(&[0, 1, 2])), &r()).unwrap_err();
    assert!(e.to_string().contains("places"), "{}", e.message);
    let e = settle(&game(&[7], Some(&[0, 1, 2, 3])), &r()).unwrap_err();
    assert!(e.message.contains("unknown seat 7"), "{}", e.message);
    let e = settle(&game(&[0], Some(&[0, 1, 2, 4])), &r()).unwrap_err();
    assert!(e.message.contains("unknown seat 4"), "{}", e.message);
    let mut g = game(&[0], None);
    assert!(settle(&g, &r()).unwrap_err().message.contains("finishing order"));
    g.multiplier = 6;
    assert!(settle(&g, &r()).unwrap_err().message.contains("power of two"));
    let g =
        GameResult { chu_side: vec![0], multiplier: 1, base: 10, escaped: vec![1], places: Some(vec![0, 1, 2, 3]), ..Default::default() };
    assert!(settle(&g, &r()).unwrap_err().message.contains("abandoned"));
}

// ---- properties ----

fn any_cards(max: usize) -> impl Strategy<Value = Vec<Card>> {
    proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 1..=max).prop_shuffle().prop_map(|v| v.into_iter().map(Card).collect())
}

fn all_plays(chu: Chu) -> Vec<Play> {
    // Every classification reachable: enumerate the legal plays of a few full hands.
    let mut out = Vec::new();
    for h in ["As Ah Ad Ac 2s 2h 2d 2c 3s 3h 3d 3c Ks", "4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s 3s", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah Ad"]
    {
        for p in legal_plays(&cards(h), None, chu, &Constraints::default(), &r()).unwrap() {
            out.push(p.play);
        }
    }
    out.sort_by_key(|p| (p.kind, p.len, p.strength));
    out.dedup();
    out
}

#[test]
fn beats_is_irreflexive_and_asymmetric_on_every_play_value() {
    for chu in [Chu::Red, Chu::Black] {
        let plays = all_plays(chu);
        assert!(plays.len() > 40);
        for a in &plays {
            assert!(!beats_play(a, a), "{a:?}");
            for x in &plays {
                assert!(!(beats_play(a, x) && beats_play(x, a)), "{a:?} {x:?}");
            }
        }
    }
}

proptest! {
    #[test]
    fn beats_asymmetric_on_random_sets(p in any_cards(5), t in any_cards(5), red in any::<bool>()) {
        let chu = if red { Chu::Red } else { Chu::Black };
        prop_assume!(p.iter().all(|c| !t.contains(c)));
        if let (Ok(x), Ok(y)) = (beats(&p, &t, chu, &r()), beats(&t, &p, chu, &r())) {
            prop_assert!(!(x && y));
        }
    }

    #[test]
    fn legal_plays_are_plays_that_beat(hand in any_cards(13), t in any_cards(4)) {
        let hand: Vec<Card> = hand.into_iter().filter(|c| !t.contains(c)).collect();
        prop_assume!(classify(&t, Chu::Red, &r()).is_ok());
        for lp in legal_plays(&hand, Some(&t), Chu::Red, &Constraints::default(), &r()).unwrap() {
            prop_assert!(lp.cards.iter().all(|c| hand.contains(c)));
            prop_assert!(beats(&lp.cards, &t, Chu::Red, &r()).unwrap());
        }
    }

    #[test]
    fn random_calling_walks_double_only(choices in proptest::collection::vec(0usize..4, 1..24), two in any::<bool>(), declared in any::<bool>(), start in 0usize..4) {
        let side: &[usize] = if two { &[1, 3] } else { &[2] };
        let mut c = Calling::new(side, declared, 1, start, None, &r()).unwrap();
        let mut kicks = 0;
        for k in choices {
            let Some(turn) = c.turn() else { break };
            let legal = c.legal_calls();
            let next = c.apply(turn, legal[k % legal.len()]).unwrap();
            prop_assert!(next.multiplier == c.multiplier || next.multiplier == 2 * c.multiplier);
            if next.multiplier != c.multiplier { kicks += 1; }
            c = next;
        }
        prop_assert_eq!(c.multiplier, 1 << kicks);
        prop_assert_eq!(c.finals.iter().filter(|(_, x)| matches!(x, Call::Chuai | Call::BaoChuai)).count(), kicks);
        if c.is_over() {
            // Settle whatever happened: zero-sum.
            let playing = c.playing();
            let places = if matches!(c.outcome, Some(Outcome::Play)) { Some(playing) } else { None };
            let chu_side: Vec<usize> = side.to_vec();
            let g = GameResult { chu_side, multiplier: c.multiplier, base: 7, places, surrendered: c.surrendered(), bei_bao_da: c.bei_bao_da_seats(), ..Default::default() };
            let s = settle(&g, &r()).unwrap();
            prop_assert_eq!(s.deltas.iter().sum::<i64>(), 0);
        }
    }

    #[test]
    fn settlements_are_zero_sum(perm in Just(vec![0usize, 1, 2, 3]).prop_shuffle(), two in any::<bool>(), m in 0u32..6, base in 1i64..1000,
                                carried in proptest::collection::vec(proptest::option::of(0i64..5000), 4), esc in proptest::option::of(0usize..4)) {
        let chu: Vec<usize> = if two { vec![perm[0], perm[3]] } else { vec![perm[1]] };
        let g = GameResult { chu_side: chu, multiplier: 1 << m, base, places: if esc.is_some() { None } else { Some(perm.clone()) },
                       escaped: esc.into_iter().collect(), carried: Some(carried), ..Default::default() };
        let s = settle(&g, &r()).unwrap();
        prop_assert_eq!(s.deltas.iter().sum::<i64>(), 0);
        prop_assert_eq!(s.theoretical.iter().sum::<i64>(), 0);
    }

    /// Random settlements of every shape (繳, 被包打, escapes, the cap, both unit options,
    /// huge bases): zero-sum, each seat's lines add up to its delta, and every line's note
    /// ends with the amount it carries.
    #[test]
    fn lines_add_up_and_state_their_amounts(perm in Just(vec![0usize, 1, 2, 3]).prop_shuffle(), two in any::<bool>(), m in 0u32..6,
                                            base in prop_oneof![1i64..1000, 1i64..i64::MAX], jiao in 0u8..16, bbd in 0u8..16, esc in 0u8..16,
                                            carried in proptest::collection::vec(proptest::option::of(0i64..5000), 4),
                                            losing in any::<bool>(), round_up in any::<bool>(), by_all in any::<bool>()) {
        let chu: Vec<usize> = if two { vec![perm[0], perm[3]] } else { vec![perm[1]] };
        let bits = |mask: u8| (0..4).filter(|s| mask & (1 << s) != 0).collect::<Vec<usize>>();
        let (jiao, esc) = (bits(jiao), bits(esc & 0xF));
        let bbd: Vec<usize> = bits(bbd & 0xF).into_iter().filter(|s| !jiao.contains(s)).take(1).collect();
        let places: Vec<usize> = perm.iter().copied().filter(|s| !jiao.contains(s) && !bbd.contains(s)).collect();
        let g = GameResult { chu_side: chu, multiplier: 1 << m, base, places: if esc.is_empty() { Some(places) } else { None },
                       surrendered: jiao, bei_bao_da: bbd, escaped: esc, carried: Some(carried) };
        let rules = Rules { unit_per: if losing { rules::UnitPer::LosingSide } else { rules::UnitPer::LargerSide },
                            jiao_round_up: round_up, escape_shared_by_all: by_all, ..r() };
        let s = match settle(&g, &rules) {
            Ok(s) => s,
            Err(e) => {
                // The generator makes some inconsistent 繳/被包打/places; but escapes alone
                // always settle unless an amount passes int64 (RULES §0, 3.7).
                let escapes_alone = !g.escaped.is_empty() && g.surrendered.is_empty() && g.bei_bao_da.is_empty();
                prop_assert!(!escapes_alone || e.reason == crate::error::Reason::OutOfRange, "{}", e);
                return Ok(());
            }
        };
        prop_assert_eq!(s.deltas.iter().map(|&v| v as i128).sum::<i128>(), 0);
        for seat in 0..4 {
            prop_assert_eq!(s.lines.iter().filter(|l| l.seat == seat).map(|l| l.amount as i128).sum::<i128>(), s.deltas[seat] as i128);
        }
        for l in &s.lines {
            let amount = l.amount.unsigned_abs();
            prop_assert!(l.text.ends_with(&format!("= {amount}")), "{:?}", l);
        }
    }
}

#[test]
fn random_deal_walks_double_only() {
    // Walk every deal action sequence greedily with a simple PRNG: multipliers only double.
    let mut seed = 12345u64;
    for _ in 0..300 {
        let mut deck: Vec<Card> = (0..52).map(Card).collect();
        for i in (1..52).rev() {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            deck.swap(i, (seed >> 33) as usize % (i + 1));
        }
        let hands: Vec<Vec<Card>> = deck.chunks(13).map(|c| c.to_vec()).collect();
        let mut d = Deal::new(hands, (seed % 4) as usize, r()).unwrap();
        while !d.finished {
            let acts = d.legal_actions();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let a = &acts[(seed >> 33) as usize % acts.len()];
            let n = d.apply(a).unwrap();
            assert!(n.multiplier == d.multiplier || n.multiplier == 2 * d.multiplier);
            assert_eq!(n.multiplier != d.multiplier, !matches!(a, DealAction::Deal | DealAction::Finish));
            d = n;
        }
        let side = d.chu_side().unwrap();
        assert!(side.len() == 1 || side.len() == 2);
        // The 撐儲 player (if any) holds both 儲.
        if let Some(s) = d.cheng_chu.iter().position(|&x| x) {
            assert_eq!(side, vec![s]);
        }
    }
}
