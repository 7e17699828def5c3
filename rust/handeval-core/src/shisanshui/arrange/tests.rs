use super::*;
use crate::cards::cards;
use crate::shisanshui::eval::{adjust_for_rules, is_foul, strength};
use crate::shisanshui::settle::settle;
use crate::shisanshui::special::SpecialId;
use crate::shisanshui::WheelRank;
use proptest::prelude::*;

fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

fn check_arrangement(hand: &[Card], a: &Arrangement, rules: &Rules) {
    assert_eq!((a.front.len(), a.middle.len(), a.back.len()), (3, 5, 5));
    assert!(!is_foul(&a.front, &a.middle, &a.back, rules).unwrap(), "fouled: {a:?}");
    let all: Vec<Card> = a.front.iter().chain(&a.middle).chain(&a.back).copied().collect();
    assert_eq!(sorted(all), sorted(hand.to_vec()), "not a partition of the hand");
}

fn hand_strategy() -> impl Strategy<Value = Vec<Card>> {
    proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 13).prop_shuffle().prop_map(|ids| ids.into_iter().map(Card).collect())
}

/// All 72,072 splits of a hand (fouled ones included), the brute-force reference.
fn all_splits(hand: &[Card]) -> Vec<[Vec<Card>; 3]> {
    let mut out = Vec::new();
    for back in 0u16..(1 << 13) {
        if back.count_ones() != 5 {
            continue;
        }
        for middle in 0u16..(1 << 13) {
            if middle.count_ones() != 5 || middle & back != 0 {
                continue;
            }
            let pick = |m: u16| (0..13).filter(|i| m >> i & 1 == 1).map(|i| hand[i]).collect::<Vec<_>>();
            out.push([pick(0x1FFF ^ back ^ middle), pick(middle), pick(back)]);
        }
    }
    out
}

fn rows(f: &str, m: &str, b: &str) -> Hand {
    Hand::Rows { front: cards(f), middle: cards(m), back: cards(b) }
}

#[test]
fn combinatorics() {
    let c = combos();
    assert_eq!((c.five.len(), c.three.len(), c.mid8.len()), (1287, 286, 56));
    let sub = Subsets::new(&cards("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As").try_into().unwrap(), &Rules::default());
    let mut n = 0;
    sub.for_each_split(|_, _, _| n += 1);
    // Every visited split is foul-free and no foul-free split is missed.
    let hand = sub.cards;
    let want = all_splits(&hand).iter().filter(|[f, m, b]| !is_foul(f, m, b, &Rules::default()).unwrap()).count();
    assert_eq!(n, want);
    assert_eq!(all_splits(&hand).len(), 72_072);
}

#[test]
fn classes_are_the_standard_counts() {
    assert_eq!(classes::classes(5).len(), 7_462);
    assert_eq!(classes::classes(3).len(), 455);
    for (i, &s) in classes::classes(5).iter().enumerate() {
        assert_eq!(classes::class_of(5, s), i);
    }
}

#[test]
fn class_by_rank_multiset_is_the_class_of_every_five_card_set() {
    // The search's class table by rank multiset index and flush, against strength5 +
    // class_of, exhaustively; and the index is a bijection onto 0..C(17, 5).
    use crate::shisanshui::eval::strength5;
    let table = rank_tables::classes5_by_multiset();
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let h = [a, b, c, d, e].map(Card);
                        let ranks = h.map(|c| c.rank() as usize);
                        let flush = h.iter().all(|c| c.suit() == h[0].suit());
                        let at = rank_tables::multiset5_index(ranks) + if flush { table.len() / 2 } else { 0 };
                        assert_eq!(table[at] as usize, classes::class_of(5, strength5(&h)), "{h:?}");
                    }
                }
            }
        }
    }
    let mut seen = vec![false; rank_tables::MULTISETS5];
    for r0 in 0..13 {
        for r1 in r0..13 {
            for r2 in r1..13 {
                for r3 in r2..13 {
                    for r4 in r3..13 {
                        let i = rank_tables::multiset5_index([r0, r1, r2, r3, r4]);
                        assert!(!std::mem::replace(&mut seen[i], true));
                    }
                }
            }
        }
    }
    assert!(seen.iter().all(|&x| x));
}

#[test]
fn card_bits_agree_on_every_path() {
    // The per-card bitsets over the sorted subsets (AVX2 or scalar), on the lists
    // the search builds them over: all 1,287 five-card and 286 three-card masks, in
    // combos order and shuffled (the last word partial in both).
    let c = combos();
    for list in [&c.five, &c.three] {
        let mut masks = list.clone();
        bitset::check_card_bits(&masks);
        sim::Rng::new(23).shuffle(&mut masks);
        bitset::check_card_bits(&masks);
    }
}

#[test]
fn bin_starts_agree_on_every_path() {
    // The sort's bin starts (running sums down rows of 32 keys, compiled for AVX2
    // where the CPU has it) must be the plain suffix sum over the keys, on counts like
    // a hand's (1,287 subsets over a few hundred keys, runs of neighbours) and at the
    // edges of the key range and of the rows.
    let mut cases: Vec<Box<[u16; 1 << 13]>> = Vec::new();
    let mut edge = Box::new([0u16; 1 << 13]);
    cases.push(edge.clone());
    (edge[0], edge[1], edge[255], edge[256], edge[7461], edge[8191]) = (1, 144, 2, 1000, 3, 137);
    cases.push(edge);
    for i in 0..200u64 {
        let mut rng = sim::Rng::for_item(23, 7, i);
        let mut count = Box::new([0u16; 1 << 13]);
        let (mut left, spread) = (1287, [40, 300, 2000, 8192][i as usize % 4]);
        let base = rng.below(8192 - spread.min(8191));
        while left > 0 {
            let n = (1 + rng.below(6)).min(left);
            count[base + rng.below(spread)] += n as u16;
            left -= n;
        }
        cases.push(count);
    }
    for count in &cases {
        counting_sort::check_bin_starts(count);
    }
}

#[test]
fn search_classes_every_subset_as_the_evaluator_does() {
    // The search classes subsets by ranks, then again the five-card subsets of each suit
    // of five or more as flushes; every subset's class and rule strength must be the
    // evaluator's, and the sorted order strongest first (equal strengths by index), on
    // hands with no, one and two suits of five or more, and on one-suit hands.
    use crate::shisanshui::eval::strength5;
    let rules = rule_variants();
    let all: Vec<u8> = (0..52).collect();
    let suited = |ss: &[u8]| -> Vec<u8> { (0..52).filter(|i| ss.contains(&(i % 4))).collect() };
    let pools = [all.clone(), suited(&[0, 1]), suited(&[2]), suited(&[1, 2, 3])];
    for i in 0..400u64 {
        let mut rng = sim::Rng::for_item(23, 5, i);
        let pool = &pools[i as usize % pools.len()];
        let r = &rules[i as usize % rules.len()];
        let model = Model::for_rules(r);
        let sub = Subsets::new(&draw(&mut rng, pool).try_into().unwrap(), r);
        let (c5, s5, ord5) = hand::subset_classes(&sub.cards, &model);
        let c = combos();
        for (j, &m) in c.five.iter().enumerate() {
            let std = strength5(&pick::<5>(&sub.cards, m));
            assert_eq!(c5[j] as usize, classes::class_of(5, std), "{:?} subset {m:#x}", sub.cards);
            assert_eq!(s5[j], sub.s5[j], "{:?} subset {m:#x}", sub.cards);
        }
        let mut want: Vec<u16> = (0..c.five.len() as u16).collect();
        want.sort_by(|&x, &y| sub.s5[y as usize].cmp(&sub.s5[x as usize]).then(x.cmp(&y)));
        assert_eq!(ord5, want, "{:?}", sub.cards);
    }
}

/// The shipped tables came from the training run `sim`'s defaults describe: its deals
/// and seed (iteration i deals with seed + i), and an iteration before the last the run
/// allows, so it stopped on the tolerance (with 6 iterations, say, iteration 7 could not
/// be shipped).
#[test]
fn shipped_tables_match_the_training_defaults() {
    let (t, t0) = (Tables::shipped(), Tables::iteration0());
    assert_eq!((t0.iteration, t0.seed, t0.hands), (0, sim::SEED, 4 * sim::DEALS));
    assert_eq!(t.seed, sim::SEED + t.iteration as u64);
    assert!(t.iteration < sim::MAX_ITERATIONS, "iteration {} of at most {}", t.iteration, sim::MAX_ITERATIONS);
}

#[test]
fn tables_round_trip_and_reject_garbage() {
    let t = Tables::shipped();
    assert_eq!(&Tables::from_bytes(&t.to_bytes()).unwrap(), t);
    assert!(t.iteration >= 1 && Tables::iteration0().iteration == 0);
    assert!(Tables::from_bytes(b"nonsense").is_err());
    let mut bytes = t.to_bytes();
    bytes.push(0);
    assert!(Tables::from_bytes(&bytes).unwrap_err().message.contains("trailing"));
    bytes.truncate(100);
    assert!(Tables::from_bytes(&bytes).unwrap_err().message.contains("truncated"));
}

#[test]
fn model_is_monotone_in_row_strength() {
    let variants = [Rules::default(), Rules { a2345: WheelRank::SecondHighest, suit_tiebreak: false, ..Rules::default() }];
    for (rules, tables) in variants.iter().flat_map(|r| [(r, Tables::shipped()), (r, Tables::iteration0())]) {
        let rules = rules.clone();
        let m = Model::new(tables, &rules);
        for (r, len) in [(0, 3), (1, 5), (2, 5)] {
            let mut cls: Vec<usize> = (0..classes::classes(len).len()).collect();
            cls.sort_by_key(|&i| adjust_for_rules(classes::classes(len)[i], &rules));
            for w in cls.windows(2) {
                let (a, b) = (m.rows[r][w[0]], m.rows[r][w[1]]);
                // Exactly, rounding included: the search's bounds rely on it (search.rs).
                assert!(a.win <= b.win && a.lose >= b.lose && a.lose_waters >= b.lose_waters && a.row <= b.row);
                assert!(a.my_waters <= b.my_waters);
            }
            for v in &m.rows[r] {
                let total = v.win + v.lose;
                assert!(total <= 1.0 + 1e-9 && (!rules.suit_tiebreak || (total - 1.0).abs() < 1e-9));
            }
        }
    }
}

#[test]
fn greedy_takes_the_strongest_back_then_middle() {
    let r = Rules::default();
    let hand = cards("As Ah Ad Ac Ks Kh Qd Qc 2s 3h 5d 7c 9s");
    let g = greedy(&hand, &r).unwrap();
    check_arrangement(&hand, &g, &r);
    assert_eq!(crate::shisanshui::eval::row_value(&g.back, &r).unwrap().category(), crate::shisanshui::Category::FourOfAKind);
    let best_back = all_splits(&hand).iter().map(|[_, _, b]| strength(b, &r).unwrap()).max().unwrap();
    assert_eq!(strength(&g.back, &r).unwrap(), best_back);
}

#[test]
fn arrange_examples() {
    let r = Rules::default();
    // Quads and two pairs: quads go to the back, a pair in front.
    let hand = cards("As Ah Ad Ac Ks Kh Qd Qc 2s 3h 5d 7c 9s");
    let a = arrange(&hand, &Options { top_k: 5, ..Options::default() }, &r).unwrap();
    check_arrangement(&hand, &a.best, &r);
    assert_eq!(a.alternatives[0], a.best);
    assert_eq!(a.alternatives.len(), 5);
    assert!(a.alternatives.windows(2).all(|w| w[0].expected >= w[1].expected));
    assert!(a.special.is_none() && !a.declare_special);
    // A 一条龙 is reported and worth declaring (36 waters per opponent).
    let dragon = cards("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As");
    let a = arrange(&dragon, &Options::default(), &r).unwrap();
    assert_eq!(a.special.as_ref().map(|s| s.id), Some(SpecialId::Yitiaolong));
    assert!(a.declare_special && a.special_expected.unwrap() > 100.0);
    check_arrangement(&dragon, &a.best, &r);
}

#[test]
fn expected_value_matches_monte_carlo_roughly() {
    // The table model approximates the exact expectation: compare on a strong hand.
    let r = Rules::default();
    let hand = cards("As Ah Ad Ks Kh 7c 7d 7s 9h 9c Qd Jd 2c");
    let opts = Options { samples: 400, seed: 7, ..Options::default() };
    let mc = arrange(&hand, &opts, &r).unwrap();
    let table = arrange(&hand, &Options::default(), &r).unwrap();
    assert!((mc.best.expected - table.best.expected).abs() < 3.0, "{} vs {}", mc.best.expected, table.best.expected);
    // Same seed, same answer; the samples re-rank but never foul.
    assert_eq!(mc, arrange(&hand, &opts, &r).unwrap());
    check_arrangement(&hand, &mc.best, &r);
}

#[test]
fn arrange_yielding_calls_between_each_sample_block_and_answers_as_arrange() {
    let r = Rules::default();
    let hand = cards("As Ah Ad Ks Kh 7c 7d 7s 9h 9c Qd Jd 2c");
    let opts = Options { samples: 2 * SAMPLE_BLOCK as u32 + 1, seed: 3, ..Options::default() };
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let got = arrange_yielding(&hand, &opts, &r, &|| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(calls.into_inner(), 2); // three blocks
    assert_eq!(got, arrange(&hand, &opts, &r).unwrap());
}

#[test]
fn bad_input() {
    let r = Rules::default();
    let o = Options::default();
    let e = arrange(&cards("As Ah Ad"), &o, &r).unwrap_err();
    assert!(e.message.contains("13 cards, got 3"), "{}", e.message);
    let mut dup = cards("As Ad Ac Ks Kh Qd Qc 2s 3h 5d 7c 9s");
    dup.push(dup[0]);
    let e = arrange(&dup, &o, &r).unwrap_err();
    assert!(e.message.contains("As"), "{}", e.message);
    let hand = cards("As Ah Ad Ac Ks Kh Qd Qc 2s 3h 5d 7c 9s");
    for bad in [0, 4] {
        let e = arrange(&hand, &Options { opponents: bad, ..o.clone() }, &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("opponents"));
    }
    assert_eq!(arrange(&hand, &Options { top_k: 0, ..o.clone() }, &r).unwrap_err().field.as_deref(), Some("top_k"));
    let e = arrange_many(&[hand.clone(), cards("As")], &o, &r).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("hands[1].cards"));
    let opp = rows("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h");
    let e = best_response(&hand, &[opp], 1, &r).unwrap_err();
    assert!(
        e.message.contains("Qd") && e.to_string().contains("opponents[0].front") && e.message.contains("also in cards"),
        "{}",
        e.message
    );
    let e = best_response(&hand, &[], 1, &r).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("opponents"));
    let short = rows("Jd 8d", "2h 5h 7h 9h Jh", "Ts Th Td 4s 4h");
    assert_eq!(best_response(&hand, &[short], 1, &r).unwrap_err().field.as_deref(), Some("opponents[0].front"));
    let fake = Hand::Special { id: SpecialId::Yitiaolong, cards: cards("3s 3c 4s 4h 5h 5s 6s 6h 7s 7h 8h 8s 9h") };
    assert!(best_response(&hand, &[fake], 1, &r).unwrap_err().to_string().starts_with("opponents[0]"));
}

/// Exact score of seat 0 by the real settlement.
fn settle_score(me: &Hand, opps: &[Hand], r: &Rules) -> i64 {
    let mut players = vec![me.clone()];
    players.extend(opps.iter().cloned());
    settle(&players, 1, None, r).unwrap().waters[0]
}

#[test]
fn best_response_is_optimal_against_brute_force() {
    let cases: Vec<(&str, Vec<Hand>, Rules)> = vec![
        (
            "2d 3c 4d Th Tc Jd 7d 9c As Ah Ad Js 6h",
            vec![
                rows("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h"),
                rows("2s 3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac"),
                rows("3s 3h 6d", "5s 5d 8s 8c Qc", "6s 7s 8h 9d Ts"),
            ],
            Rules::default(),
        ),
        (
            // Two opponents, one fouled and one special; suit tie-break off, A2345 second.
            "2d 3c 4d Th Tc Jd 7d 9c As Ah Ad Js 6h",
            vec![
                rows("Ks Kh Kd", "2h 3h 4h 6d 8s", "Qs Qh 9d 9h 5s"),
                Hand::Special { id: SpecialId::LiuDuiBan, cards: cards("2s 2c 3s 3d 4s 4c 5h 5d 6s 6c 7s 7c Jc") }, // 8h: a 全小
            ],
            Rules { suit_tiebreak: false, a2345: WheelRank::SecondHighest, ..Rules::default() },
        ),
        (
            "2s 3s 4s 5s 6c 8h 8d Tc Jc Qc Kd Ad 9s",
            vec![rows("2c 2h 7d", "3c 3h 9c 9d Jh", "4c 4h 4d Ks Kc")],
            Rules { home_run_min_opponents: 1, ..Rules::default() },
        ),
    ];
    for (hand, opps, r) in cases {
        let hand = cards(hand);
        let got = best_response(&hand, &opps, 3, &r).unwrap();
        check_arrangement(&hand, &got.best, &r);
        let mut best = i64::MIN;
        let mut hits = 0;
        for [f, m, b] in all_splits(&hand) {
            let me = Hand::Rows { front: f, middle: m, back: b };
            best = best.max(settle_score(&me, &opps, &r));
            hits += 1;
        }
        assert_eq!(hits, 72_072);
        assert_eq!(got.best.expected, best as f64, "best_response is not optimal");
        // The reported score is the real settlement's.
        for alt in &got.alternatives {
            let me = Hand::Rows { front: alt.front.clone(), middle: alt.middle.clone(), back: alt.back.clone() };
            assert_eq!(settle_score(&me, &opps, &r) as f64, alt.expected);
        }
    }
}

#[test]
fn arrange_is_deterministic_and_ignores_input_order() {
    let r = Rules::default();
    let hand = cards("Kd 9h 9s 4c 4d Jh Qs 2c 7h 7s Ac 3d 8c");
    let mut rev = hand.clone();
    rev.reverse();
    let o = Options { top_k: 4, ..Options::default() };
    let a = arrange(&hand, &o, &r).unwrap();
    assert_eq!(a, arrange(&rev, &o, &r).unwrap());
    assert_eq!(arrange_many(&[hand.clone(), rev], &o, &r).unwrap(), vec![a.clone(), a]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arrange_never_fouls_and_partitions_the_hand(hand in hand_strategy(), n in 1usize..=3, k in 1usize..4, wheel in any::<bool>()) {
        let r = Rules { a2345: if wheel { WheelRank::SecondHighest } else { WheelRank::Lowest }, ..Rules::default() };
        let a = arrange(&hand, &Options { opponents: n, top_k: k, ..Options::default() }, &r).unwrap();
        prop_assert!(!a.alternatives.is_empty() && a.alternatives.len() <= k);
        for alt in &a.alternatives {
            check_arrangement(&hand, alt, &r);
        }
        // A special is reported whenever special() finds one.
        prop_assert_eq!(a.special.map(|s| s.id), special(&hand).unwrap().map(|s| s.id));
        let g = greedy(&hand, &r).unwrap();
        check_arrangement(&hand, &g, &r);
    }

    #[test]
    fn fast_scorer_equals_settle(
        ids in Just((0u8..52).collect::<Vec<_>>()).prop_shuffle(),
        n in 2usize..=4,
        kinds in proptest::collection::vec(0u8..3, 4),
        hr_min in 1u32..4,
        tie in any::<bool>(),
    ) {
        let r = Rules { home_run_min_opponents: hr_min, suit_tiebreak: tie, ..Rules::default() };
        let model = Model::for_rules(&r);
        let hands: Vec<Hand> = (0..n)
            .map(|i| {
                let c: Vec<Card> = ids[i * 13..i * 13 + 13].iter().map(|&x| Card(x)).collect();
                match kinds[i] {
                    // the raw deal order: often fouled
                    0 => Hand::Rows { front: c[..3].to_vec(), middle: c[3..8].to_vec(), back: c[8..].to_vec() },
                    1 => play_hand(&c, &Policy::Greedy, n - 1, &r).unwrap(),
                    _ => play_hand(&c, &Policy::Solver(&model), n - 1, &r).unwrap(),
                }
            })
            .collect();
        let plays: Vec<Play> = hands.iter().map(|h| Play::from_hand(h, &r).unwrap()).collect();
        let want = settle(&hands, 1, None, &r).unwrap().waters;
        prop_assert_eq!(sim::seat_waters(&plays, &r), want.clone());
        prop_assert_eq!(exact_waters(&hands[0], &hands[1..], &r).unwrap(), want[0]);
    }
}

// ------------------------------------------------ the fast search against the reference

/// Everything `arrange` answers, with every `expected` as its bits: the fast search must
/// give the reference's answer exactly (same split, same float, same order).
fn same_answer(hand: &[Card], o: &Options, r: &Rules) -> std::result::Result<(), String> {
    let (fast, slow) = (arrange(hand, o, r).unwrap(), baseline_arrange(hand, o, r).unwrap());
    let bits = |a: &ArrangeResult| {
        let mut v: Vec<u64> = a.alternatives.iter().map(|x| x.expected.to_bits()).collect();
        v.push(a.special_expected.unwrap_or(f64::NAN).to_bits());
        v
    };
    if fast != slow || bits(&fast) != bits(&slow) {
        return Err(format!("{hand:?} with {o:?} under {r:?}:\n fast {fast:?}\n reference {slow:?}"));
    }
    Ok(())
}

/// A spread of rule sets: the defaults, the `A2345` variant, no suit tie-break (equal
/// classes tie), 全垒打 from 1 and 2 opponents.
fn rule_variants() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules { a2345: WheelRank::SecondHighest, ..Rules::default() },
        Rules { suit_tiebreak: false, ..Rules::default() },
        Rules { home_run_min_opponents: 1, ..Rules::default() },
        Rules { home_run_min_opponents: 2, a2345: WheelRank::SecondHighest, suit_tiebreak: false, ..Rules::default() },
    ]
}

/// 13 cards drawn from `pool` (distinct card ids).
fn draw(rng: &mut sim::Rng, pool: &[u8]) -> Vec<Card> {
    let mut p = pool.to_vec();
    rng.shuffle(&mut p);
    p[..13].iter().map(|&i| Card(i)).collect()
}

#[test]
fn fast_search_equals_reference_on_random_hands() {
    let rules = rule_variants();
    let all: Vec<u8> = (0..52).collect();
    let failures: Vec<String> = (0..12_000u64)
        .into_par_iter()
        .filter_map(|i| {
            let mut rng = sim::Rng::for_item(13, 1, i);
            let hand = draw(&mut rng, &all);
            let r = &rules[i as usize % rules.len()];
            // Mostly the default top_k = 1; some longer lists (ties and the order of
            // alternatives); every opponent count.
            let top_k = [1, 1, 1, 2, 3, 5, 8, 40][rng.below(8)];
            let o = Options { opponents: 1 + rng.below(3), top_k, ..Options::default() };
            same_answer(&hand, &o, r).err()
        })
        .collect();
    assert!(failures.is_empty(), "{} of 12,000 hands differ, e.g. {}", failures.len(), failures[0]);
}

#[test]
fn fast_search_equals_reference_on_adversarial_hands() {
    // Hands where many splits tie or nearly tie: drawn from few ranks (many pairs, trips,
    // quads, suit variants of one class), from two or one suits (many flushes, straight
    // flushes), from a run of ranks (many straights), and the specials.
    let ranks = |rs: &[u8]| -> Vec<u8> { rs.iter().flat_map(|&r| (0..4).map(move |s| r * 4 + s)).collect() };
    let suits = |ss: &[u8]| -> Vec<u8> { (0..52).filter(|i| ss.contains(&(i % 4))).collect() };
    let pools: Vec<Vec<u8>> = vec![
        ranks(&[0, 5, 9, 12]),
        ranks(&[3, 4, 10, 11, 12]),
        ranks(&[0, 1, 2, 3, 4, 5]),
        ranks(&[6, 7, 8, 9, 10, 11, 12]),
        suits(&[0, 1]),
        suits(&[2, 3]),
        suits(&[1]),
        ranks(&[0, 1, 2, 3, 4, 12]).into_iter().chain(suits(&[0])).collect(),
    ];
    let rules = rule_variants();
    let mut hands: Vec<Vec<Card>> = Vec::new();
    for (p, pool) in pools.iter().enumerate() {
        let mut pool = pool.clone();
        pool.sort_unstable();
        pool.dedup();
        for i in 0..150u64 {
            hands.push(draw(&mut sim::Rng::for_item(13, 2 + p as u64, i), &pool));
        }
    }
    for text in [
        "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As", // 一条龙
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", // 清龙
        "2s 2h 3s 3h 4d 4c 5s 5h 6d 6c 7s 7h 9c", // 六对半
        "2s 5s 9s 2h 4h 6h 8h Th 3d 7d Jd Kd Ad", // 三同花
        "2s 3h 4d 5c 6s 7h 8d 9c Th 9s Ts Js Qs", // 三顺子
        "As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc 2s", // three quads
        "2s 2h 2d 3s 3h 3d 4s 4h 4d 5s 5h 5d 6s", // 四套三条
    ] {
        hands.push(cards(text));
    }
    let failures: Vec<String> = hands
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, hand)| {
            let r = &rules[i % rules.len()];
            [(1 + i % 3, 1), (3, 4), (2, 25)]
                .into_iter()
                .filter_map(|(opponents, top_k)| same_answer(hand, &Options { opponents, top_k, ..Options::default() }, r).err())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "{} differ, e.g. {}", failures.len(), failures[0]);
}

#[test]
fn fast_search_equals_reference_on_paired_hands() {
    // Three to six pairs and trips, the rest random: where the strongest front and
    // middle of a back, or the rows of the walk's loose bound, would hold the same pair
    // (the search's bounds pass those), and many backs' bounds are close.
    let rules = rule_variants();
    let failures: Vec<String> = (0..4_000u64)
        .into_par_iter()
        .filter_map(|i| {
            let mut rng = sim::Rng::for_item(13, 20, i);
            let mut ranks: Vec<u8> = (0..13).collect();
            rng.shuffle(&mut ranks);
            let mut ids: Vec<u8> = Vec::new();
            for &r in &ranks[..3 + rng.below(4)] {
                let mut suits = [0u8, 1, 2, 3];
                rng.shuffle(&mut suits);
                let n = (2 + rng.below(2)).min(13 - ids.len());
                ids.extend(suits[..n].iter().map(|&s| r * 4 + s));
            }
            let mut rest: Vec<u8> = (0..52).filter(|c| !ids.contains(c)).collect();
            rng.shuffle(&mut rest);
            ids.extend_from_slice(&rest[..13 - ids.len()]);
            let hand: Vec<Card> = ids.into_iter().map(Card).collect();
            let r = &rules[i as usize % rules.len()];
            let top_k = [1, 1, 1, 2, 3, 8][rng.below(6)];
            let o = Options { opponents: 1 + rng.below(3), top_k, ..Options::default() };
            same_answer(&hand, &o, r).err()
        })
        .collect();
    assert!(failures.is_empty(), "{} of 4,000 hands differ, e.g. {}", failures.len(), failures[0]);
}

#[test]
fn fast_search_equals_reference_on_long_lists() {
    // Long `alternatives` lists reach deep into dominated and tied splits.
    let hands =
        ["Kd 9h 9s 4c 4d Jh Qs 2c 7h 7s Ac 3d 8c", "2s 2h 3s 3h 4d 4c 5s 5h 6d 6c 7s 7h 9c", "2d 3c 4d Th Tc Jd 7d 9c As Ah Ad Js 6h"];
    for (i, text) in hands.iter().enumerate() {
        for top_k in [300, 3000] {
            let r = &rule_variants()[i];
            same_answer(&cards(text), &Options { top_k, opponents: 1 + i, ..Options::default() }, r).unwrap();
        }
    }
}

#[test]
fn fast_search_equals_reference_with_monte_carlo_reranking() {
    // The re-ranked candidates are the search's 16 best: the same list, the same totals.
    let r = Rules::default();
    for (i, text) in ["Kd 9h 9s 4c 4d Jh Qs 2c 7h 7s Ac 3d 8c", "As Ah Ad Ks Kh 7c 7d 7s 9h 9c Qd Jd 2c"].iter().enumerate() {
        let o = Options { samples: 24, seed: i as u64, top_k: 3, ..Options::default() };
        same_answer(&cards(text), &o, &r).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random deals, rule sets, opponent counts and list lengths: the search answers
    /// exactly (same splits, same bits of every `expected`) what the previous pruning
    /// search (`prior.rs`) and the exhaustive reference answer.
    #[test]
    fn fast_search_equals_prior_and_reference(
        hand in hand_strategy(),
        rules in 0usize..5,
        opponents in 1usize..=3,
        top_k in prop_oneof![3 => Just(1usize), 1 => 2usize..12],
    ) {
        let r = &rule_variants()[rules];
        let o = Options { opponents, top_k, ..Options::default() };
        let (fast, prior) = (arrange(&hand, &o, r).unwrap(), prior_arrange(&hand, &o, r).unwrap());
        let bits = |a: &ArrangeResult| a.alternatives.iter().map(|x| x.expected.to_bits()).collect::<Vec<_>>();
        prop_assert_eq!(&fast, &prior);
        prop_assert_eq!(bits(&fast), bits(&prior));
        prop_assert!(same_answer(&hand, &o, r).is_ok(), "{}", same_answer(&hand, &o, r).unwrap_err());
    }
}
