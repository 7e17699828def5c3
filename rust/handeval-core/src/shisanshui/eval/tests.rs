//! Tests of the row evaluation: exhaustive over every row where that is small, against
//! the reference classifier and the rule book's order written out.

use super::{bulk::*, compare::*, order::*, strength::*};
use crate::cards::Card;
use crate::shisanshui::rules::{Rules, WheelRank};
use std::cmp::Ordering;

mod single_row_tests {
    use super::*;
    use crate::shisanshui::{SuitOrder, WheelRank};

    /// Random distinct rows of 3 or 5 cards (xorshift, fixed seed), and a second row
    /// disjoint from the first.
    fn rows(n: usize) -> Vec<(Vec<Card>, Vec<Card>)> {
        let mut s: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        (0..n)
            .map(|i| {
                let len = if i % 4 == 0 { 3 } else { 5 };
                let mut deck: Vec<Card> = (0..52).map(Card).collect();
                for k in 0..2 * len {
                    let j = k + (next() % (52 - k as u64)) as usize;
                    deck.swap(k, j);
                }
                (deck[..len].to_vec(), deck[len..2 * len].to_vec())
            })
            .collect()
    }

    /// The sorting networks give the insertion sort's order on every 5-card and 3-card
    /// row, under suit orders that differ in every position.
    #[test]
    fn significance_networks_agree_with_the_insertion_sort_on_every_row() {
        let orders = ["shcd", "dchs", "hdsc", "cshd"];
        let all: Vec<Card> = (0..52).map(Card).collect();
        for order in orders {
            let rules = Rules { suit_order: SuitOrder::parse(order).unwrap(), ..Rules::default() };
            for a in 0..52 {
                for b in a + 1..52 {
                    for c in b + 1..52 {
                        let three = [all[c], all[a], all[b]];
                        let mut want = three;
                        sort_by_significance(&mut want, &rules, 0);
                        assert_eq!(significance3(&three, &rules), want);
                        if order != "shcd" && order != "dchs" {
                            continue; // 5-card rows: two suit orders (2.6 M rows each)
                        }
                        for d in c + 1..52 {
                            for e in d + 1..52 {
                                // Not in id order: the network must sort any input order.
                                let five = [all[d], all[a], all[e], all[c], all[b]];
                                let s = strength5(&five);
                                let mut want = five;
                                sort_by_significance(&mut want, &rules, s);
                                assert_eq!(significance5(&five, &rules, s), want, "{five:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn classify_row_and_compare_rows_agree_with_the_row_value() {
        let variants = [Rules::default(), Rules { a2345: WheelRank::SecondHighest, suit_tiebreak: false, ..Rules::default() }];
        let mut cases = rows(20_000);
        // Ties of strength (suits decide) and A2345 straights, on purpose.
        for (a, b) in [("As 2d 3c 4h 5s", "Ah 2s 3d 4c 5h"), ("Ks Kh 7d 7c 2s", "Kd Kc 7s 7h 2h"), ("Qs Qh 3d", "Qd Qc 3s")] {
            cases.push((crate::cards::cards(a), crate::cards::cards(b)));
        }
        for r in &variants {
            for (a, b) in &cases {
                let (s, order) = classify_row(a, r).unwrap();
                assert_eq!(s, strength(a, r).unwrap());
                assert_eq!(order[..a.len()], significance_order(a, r)[..]);
                let want = row_value(a, r).unwrap().key.cmp(&row_value(b, r).unwrap().key);
                assert_eq!(compare_rows(a, b, r).unwrap(), want, "{a:?} vs {b:?}");
            }
        }
        let r = Rules::default();
        let mut dup = crate::cards::cards("As Kd Qh");
        dup[1] = dup[0];
        assert!(classify_row(&dup, &r).unwrap_err().to_string().contains("twice"));
        assert!(classify_row(&crate::cards::cards("As Kd"), &r).is_err());
        assert!(compare_rows(&crate::cards::cards("As Kd Qh"), &crate::cards::cards("As 2d 3h"), &r)
            .unwrap_err()
            .to_string()
            .contains("As"));
    }
}

mod repeated_card_tests {
    use super::*;
    use crate::cards::cards;

    /// Fuzz finding: five aces from repeated cards indexed past the key-sum table (a panic).
    #[test]
    fn repeated_cards_are_an_error() {
        let r = Rules::default();
        let mut m = cards("As Ah");
        m.extend(cards("As Ah"));
        m.extend(cards("As"));
        assert!(row_value(&m, &r).unwrap_err().message.contains("twice"));
        assert!(compare_rows(&m, &cards("2s 3s 4s 5s 7d"), &r).is_err());
        assert!(is_foul(&cards("Kd Kh 2c"), &m, &cards("3s 3h 3d 3c 4c"), &r).is_err());
        assert!(row_value(&[Card(60), Card(1), Card(2)], &r).is_err());
    }
}

mod property_tests {
    use super::*;
    use crate::cards::cards;
    use proptest::prelude::*;

    fn all_five() -> impl Iterator<Item = [Card; 5]> {
        (0..52u8).flat_map(|a| {
            (a + 1..52).flat_map(move |b| {
                (b + 1..52).flat_map(move |c| {
                    (c + 1..52).flat_map(move |d| (d + 1..52).map(move |e| [Card(a), Card(b), Card(c), Card(d), Card(e)]))
                })
            })
        })
    }

    #[test]
    fn exhaustive_five_card_category_counts() {
        let mut counts = [0u64; 9];
        let mut distinct = std::collections::HashSet::new();
        for h in all_five() {
            let s = strength5(&h);
            counts[(s >> 20) as usize] += 1;
            distinct.insert(s);
        }
        assert_eq!(counts.iter().sum::<u64>(), 2_598_960);
        assert_eq!(counts, [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]);
        // 7,462 distinct rank classes: the standard count of poker hand values.
        assert_eq!(distinct.len(), 7_462);
    }

    #[test]
    fn exhaustive_fast_equals_reference() {
        for h in all_five() {
            let ranks: Vec<u8> = h.iter().map(|c| c.rank()).collect();
            let flush = h.iter().all(|c| c.suit() == h[0].suit());
            assert_eq!(strength5(&h), strength_slow(&ranks, flush), "{:?}", h);
        }
    }

    #[test]
    fn exhaustive_three_card_category_counts() {
        let mut counts = [0u64; 9];
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let h = [Card(a), Card(b), Card(c)];
                    let s = strength3(&h);
                    let ranks: Vec<u8> = h.iter().map(|c| c.rank()).collect();
                    assert_eq!(s, strength_slow(&ranks, false));
                    counts[(s >> 20) as usize] += 1;
                }
            }
        }
        assert_eq!(counts.iter().sum::<u64>(), 22_100);
        assert_eq!((counts[3], counts[1], counts[0]), (52, 3_744, 18_304));
    }

    #[test]
    fn straights_and_wheel() {
        let r = Rules::default();
        let wheel = row_value(&cards("As 2d 3c 4h 5s"), &r).unwrap();
        let six = row_value(&cards("2d 3c 4h 5s 6s"), &r).unwrap();
        let broadway = row_value(&cards("Ts Jd Qc Kh As"), &r).unwrap();
        assert_eq!(wheel.category(), Category::Straight);
        assert!(wheel.key < six.key && six.key < broadway.key);
        assert_eq!(row_value(&cards("Qs Kd Ac 2h 3s"), &r).unwrap().category(), Category::HighCard);
        let alt = Rules { a2345: WheelRank::SecondHighest, ..Rules::default() };
        let wheel = row_value(&cards("As 2d 3c 4h 5s"), &alt).unwrap();
        let king = row_value(&cards("9s Td Jc Qh Ks"), &alt).unwrap();
        let broadway = row_value(&cards("Ts Jd Qc Kh As"), &alt).unwrap();
        assert!(king.key < wheel.key && wheel.key < broadway.key);
    }

    #[test]
    fn suits_break_ties_card_by_card() {
        let r = Rules::default();
        // Same ranks; pair suits: ♠♦ vs ♥♣ -> first pair card ♠ beats ♥.
        let a = cards("Ks Kd 7h 5c 3c");
        let b = cards("Kh Kc 7s 5d 3d");
        assert_eq!(compare_rows(&a, &b, &r).unwrap(), Ordering::Greater);
        // Wheel: the ace is the last card, so the 5's suit decides first.
        let w1 = cards("5s 4d 3d 2d Ad");
        let w2 = cards("5h 4s 3s 2s As");
        assert_eq!(compare_rows(&w1, &w2, &r).unwrap(), Ordering::Greater);
        // ♣ > ♦ by default.
        assert_eq!(compare_rows(&cards("Ac 9d 7d"), &cards("Ad 9c 7c"), &r).unwrap(), Ordering::Greater);
        let off = Rules { suit_tiebreak: false, ..Rules::default() };
        assert_eq!(compare_rows(&a, &b, &off).unwrap(), Ordering::Equal);
    }

    /// RULES §0: one deck, so the same card in both rows is bad input, not a tie.
    #[test]
    fn same_card_in_both_rows_is_an_error() {
        let r = Rules::default();
        let e = compare_rows(&cards("As Ks Qs Js Ts"), &cards("As Kd Qd Jd Td"), &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("b"));
        assert!(e.message.contains("As is also in a"), "{}", e.message);
        assert!(compare_rows(&cards("Qs Qh 2c"), &cards("Qd Qc 2c"), &r).unwrap_err().message.contains("2c"));
    }

    #[test]
    fn foul_examples() {
        let r = Rules::default();
        let f = |a: &str, b: &str, c: &str| is_foul(&cards(a), &cards(b), &cards(c), &r).unwrap();
        assert!(!f("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h"));
        assert!(f("Qs Qh Qd", "Js Jh Jd 3c 4d", "Ks Kh Kd 4s 4h")); // QQQ over JJJ
        assert!(f("Js Jh Jd", "Jc 2h 2d 3c 4d", "As Ah Ad 4s 4h")); // front trips over a middle pair
        assert!(!f("8s 8h Kd", "8d 8c Ks Qh Jd", "As Ah Ad 4s 4h")); // equal over common ranks
        assert!(f("8s 8h Ad", "8d 8c Ks Qh Jd", "As Ah Ad 4s 4h")); // front kicker A > K
        assert!(!f("As Kh Qd", "Ac Kd Qs Jh 9d", "2s 2h 2d 4s 4h")); // high-card prefix equal
        assert!(f("2s 3h 5d", "Ac Ad Qs Jh 9d", "Ks Kh 7d 4s 3h")); // middle AA > back KK
        assert!(is_foul(&cards("2s 3h"), &cards("Ac Ad Qs Jh 9d"), &cards("Ks Kh 7d 4s 3h"), &r).is_err());
    }

    proptest! {
        #[test]
        fn compare_is_antisymmetric_and_total(ids in proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 10), tie in any::<bool>()) {
            let r = Rules { suit_tiebreak: tie, ..Rules::default() };
            let a: Vec<Card> = ids[..5].iter().map(|&i| Card(i)).collect();
            let b: Vec<Card> = ids[5..].iter().map(|&i| Card(i)).collect();
            let ab = compare_rows(&a, &b, &r).unwrap();
            prop_assert_eq!(ab, compare_rows(&b, &a, &r).unwrap().reverse());
            if tie { prop_assert_ne!(ab, Ordering::Equal); }
        }
    }
}

mod categories_from_ids_tests {
    use super::*;
    use proptest::prelude::*;

    /// The bulk path's category of every five-card set (in every id order of a sample of
    /// rotations) is the strength table's.
    #[test]
    fn exhaustive_five_card_categories_equal_strength5() {
        let mut data = Vec::with_capacity(2_598_960 * 5);
        let mut want = Vec::with_capacity(2_598_960);
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let h = [Card(a), Card(b), Card(c), Card(d), Card(e)];
                            want.push((strength5(&h) >> 20) as u8);
                            // Rotated by the hand's index, so the ids come in varied orders.
                            let mut ids = [a, b, c, d, e];
                            ids.rotate_left(want.len() % 5);
                            if want.len() % 2 == 0 {
                                ids.swap(0, 4);
                            }
                            data.extend_from_slice(&ids);
                        }
                    }
                }
            }
        }
        assert_eq!(categories_from_ids(&data, 5).unwrap(), want);
    }

    #[test]
    fn exhaustive_three_card_categories_equal_strength3() {
        let (mut data, mut want) = (Vec::new(), Vec::new());
        for a in 0..52u8 {
            for b in 0..52u8 {
                for c in 0..52u8 {
                    if a != b && a != c && b != c {
                        data.extend_from_slice(&[a, b, c]);
                        want.push((strength3(&[Card(a), Card(b), Card(c)]) >> 20) as u8);
                    }
                }
            }
        }
        assert_eq!(categories_from_ids(&data, 3).unwrap(), want);
    }

    /// The first bad row, card by card (the definition the fast check must agree with).
    fn reference_error(data: &[u8], row_size: usize) -> Option<(String, String)> {
        for (i, row) in data.chunks_exact(row_size).enumerate() {
            for (k, &id) in row.iter().enumerate() {
                if id >= 52 {
                    return Some((format!("data[{i}]"), format!("card id {id} is out of range 0..51")));
                }
                if row[..k].contains(&id) {
                    return Some((format!("data[{i}]"), format!("duplicate card {}", Card(id))));
                }
            }
        }
        None
    }

    proptest! {
        /// Good rows (some made bad: an id above 51 or a card twice): the error is the
        /// first bad row's, a good request's categories are strength5's / strength3's.
        #[test]
        fn any_bytes_answer_like_the_reference(rows in proptest::collection::vec(Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(), 0..100),
                                               spoil in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..5, prop_oneof![Just(None), (52u8..=255).prop_map(Some)]), 0..3),
                                               three in any::<bool>()) {
            let size = if three { 3 } else { 5 };
            let mut data: Vec<u8> = rows.iter().flat_map(|r| r[..size].to_vec()).collect();
            for (row, k, value) in spoil {
                if !rows.is_empty() {
                    let at = row.index(rows.len()) * size;
                    // None: the card of another position of the row, i.e. a repeat.
                    data[at + k % size] = value.unwrap_or(data[at + (k + 1) % size]);
                }
            }
            let mut out = vec![9u8];
            match (categories_from_ids_into(&data, size, &mut out), reference_error(&data, size)) {
                (Ok(()), None) => {
                    let want: Vec<u8> = std::iter::once(9).chain(data.chunks_exact(size).map(|r| {
                        let s = if three { strength3(&[Card(r[0]), Card(r[1]), Card(r[2])]) } else { strength5(&[Card(r[0]), Card(r[1]), Card(r[2]), Card(r[3]), Card(r[4])]) };
                        (s >> 20) as u8
                    })).collect();
                    prop_assert_eq!(out, want);
                }
                (Err(e), Some((field, message))) => {
                    prop_assert_eq!(e.field.as_deref(), Some(field.as_str()));
                    prop_assert_eq!(e.message, message);
                    prop_assert_eq!(out, vec![9u8]);
                }
                (got, want) => prop_assert!(false, "{:?} vs {:?}", got, want),
            }
        }
    }
}

mod order_key_tests {
    use super::*;
    use crate::cards::cards;
    use crate::shisanshui::rules::SuitOrder;
    use proptest::prelude::*;

    /// The rule book's order written out: (strength, the suits of the cards in order of
    /// significance when suits break ties), compared lexicographically.
    fn reference(row: &[Card], rules: &Rules) -> (u32, Vec<u8>) {
        let suits = if rules.suit_tiebreak {
            significance_order(row, rules).iter().map(|c| rules.suit_order.0[c.suit() as usize]).collect()
        } else {
            Vec::new()
        };
        (strength(row, rules).unwrap(), suits)
    }

    /// Sorted by the reference, neighbouring keys must rise exactly where the reference
    /// does: then the keys order every pair of rows as the reference does.
    fn check_all(mut rows: Vec<Vec<Card>>, rules: &Rules) {
        let mut keyed: Vec<((u32, Vec<u8>), u64)> = rows.drain(..).map(|r| (reference(&r, rules), order_key(&r, rules).unwrap())).collect();
        keyed.sort();
        for w in keyed.windows(2) {
            assert_eq!(w[0].0.cmp(&w[1].0), w[0].1.cmp(&w[1].1), "{:?} vs {:?}", w[0], w[1]);
        }
    }

    fn rule_sets() -> Vec<Rules> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules { suit_tiebreak: false, ..d.clone() },
            Rules { a2345: WheelRank::SecondHighest, suit_order: SuitOrder::parse("dchs").unwrap(), ..d },
        ]
    }

    #[test]
    fn exhaustive_three_card_keys_follow_the_rule_book() {
        let mut rows = Vec::new();
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    rows.push(vec![Card(a), Card(b), Card(c)]);
                }
            }
        }
        for rules in rule_sets() {
            check_all(rows.clone(), &rules);
        }
    }

    /// All 2,598,960 five-card rows (default rules and the variant rules: a2345
    /// second-highest with another suit order).
    #[test]
    fn exhaustive_five_card_keys_follow_the_rule_book() {
        for rules in [&rule_sets()[0], &rule_sets()[2]] {
            let mut rows = Vec::with_capacity(2_598_960);
            for a in 0..52u8 {
                for b in a + 1..52 {
                    for c in b + 1..52 {
                        for d in c + 1..52 {
                            for e in d + 1..52 {
                                rows.push(vec![Card(a), Card(b), Card(c), Card(d), Card(e)]);
                            }
                        }
                    }
                }
            }
            check_all(rows, rules);
        }
    }

    #[test]
    fn rows_may_share_cards_and_ties_are_equal_keys() {
        let r = Rules::default();
        let key = |s: &str, r: &Rules| order_key(&cards(s), r).unwrap();
        // The same As in both: compare_rows refuses, a key still ranks them (♠ > ♦ first).
        assert!(key("As Ks Qs Js Ts", &r) > key("As Kd Qd Jd Td", &r));
        assert_eq!(key("As Ks Qs Js Ts", &r), key("Ts Js Qs Ks As", &r));
        let off = Rules { suit_tiebreak: false, ..r.clone() };
        assert_eq!(key("Ks Kd 7h 5c 3c", &off), key("Kh Kc 7s 5d 3d", &off));
        let e = order_keys(&[cards("As Ks Qs Js Ts"), cards("2s 2h 3d")], &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("[1]"));
        let mut twice = cards("4s 4h");
        twice.push(twice[0]);
        let e = order_keys(&[cards("2s 2h 3d"), twice], &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("[1]"));
        assert!(e.message.contains("twice"), "{}", e.message);
        assert_eq!(order_keys(&[], &r).unwrap(), Vec::<u64>::new());
    }

    proptest! {
        /// On two rows of one deck the keys agree with compare_rows, under any rules.
        #[test]
        fn keys_agree_with_compare_rows(ids in proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 10),
                                        five in any::<bool>(), tie in any::<bool>(), wheel_high in any::<bool>(),
                                        order in proptest::sample::select(vec!["shcd", "dchs", "hscd", "cdsh"])) {
            let rules = Rules {
                suit_tiebreak: tie,
                a2345: if wheel_high { WheelRank::SecondHighest } else { WheelRank::Lowest },
                suit_order: SuitOrder::parse(order).unwrap(),
                ..Rules::default()
            };
            let n = if five { 5 } else { 3 };
            let a: Vec<Card> = ids[..n].iter().map(|&i| Card(i)).collect();
            let b: Vec<Card> = ids[5..5 + n].iter().map(|&i| Card(i)).collect();
            let keys = order_keys(&[a.clone(), b.clone()], &rules).unwrap();
            prop_assert_eq!(keys[0].cmp(&keys[1]), compare_rows(&a, &b, &rules).unwrap());
        }
    }
}
