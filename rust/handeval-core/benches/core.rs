//! Core speed of the 十三水 row evaluator: five-card strength over a fixed set of random
//! hands, against the straightforward reference classifier (`strength_slow`) measured in
//! the same run; and of the arrangement search (`arrange`, default options) against the
//! searches it replaced, same answers, on the same seeded 13-card hands:
//! `baseline_arrange` (the exhaustive branch and bound) and `prior_arrange` (the previous
//! pruning search).
//! `cargo bench -p handeval-core --features bench --bench core` (`-- arrange` for the
//! arrangement only).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use handeval_core::cards::Card;
use handeval_core::shisanshui::arrange::sim::{deck, Rng};
use handeval_core::shisanshui::arrange::{arrange, baseline_arrange, prior_arrange, Options};
use handeval_core::shisanshui::eval::{strength3, strength5, strength_slow};
use handeval_core::shisanshui::Rules;

fn random_hands(n: usize) -> Vec<[Card; 5]> {
    // xorshift64*: deterministic, no dependency.
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    (0..n)
        .map(|_| {
            let mut used = 0u64;
            let mut h = [Card(0); 5];
            for c in h.iter_mut() {
                loop {
                    let id = (next() % 52) as u8;
                    if used & 1 << id == 0 {
                        used |= 1 << id;
                        *c = Card(id);
                        break;
                    }
                }
            }
            h
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let hands = random_hands(1 << 16);
    let mut g = c.benchmark_group("five_card_strength");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("strength5 (lookup tables)", |b| b.iter(|| hands.iter().fold(0u32, |acc, h| acc ^ strength5(black_box(h)))));
    g.bench_function("baseline: strength_slow (reference)", |b| {
        b.iter(|| {
            hands.iter().fold(0u32, |acc, h| {
                let ranks = [h[0].rank(), h[1].rank(), h[2].rank(), h[3].rank(), h[4].rank()];
                let flush = h.iter().all(|c| c.suit() == h[0].suit());
                acc ^ strength_slow(black_box(&ranks), flush)
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("three_card_strength");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("strength3", |b| b.iter(|| hands.iter().fold(0u32, |acc, h| acc ^ strength3(black_box(&[h[0], h[1], h[2]])))));
    g.finish();

    let mut g = c.benchmark_group("enumerate_all_five_card_hands");
    g.sample_size(10);
    g.throughput(Throughput::Elements(2_598_960));
    g.bench_function("strength5 over all 2,598,960 hands", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for a in 0..52u8 {
                for b2 in a + 1..52 {
                    for c3 in b2 + 1..52 {
                        for d in c3 + 1..52 {
                            for e in d + 1..52 {
                                acc ^= strength5(black_box(&[Card(a), Card(b2), Card(c3), Card(d), Card(e)]));
                            }
                        }
                    }
                }
            }
            acc
        })
    });
    g.finish();
}

fn bench_arrange(c: &mut Criterion) {
    // The hands of examples/arrange_speed.rs (seed 1), fewer of them per iteration.
    let hands: Vec<Vec<Card>> = (0..200u64).map(|i| deck(&mut Rng::for_item(1, 13, i))[..13].to_vec()).collect();
    let (o, r) = (Options::default(), Rules::default());
    let mut g = c.benchmark_group("arrange");
    g.sample_size(20);
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("baseline_arrange (exhaustive branch and bound)", |b| {
        b.iter(|| hands.iter().map(|h| baseline_arrange(black_box(h), &o, &r).unwrap().best.expected).sum::<f64>())
    });
    g.bench_function("prior_arrange (previous pruning search)", |b| {
        b.iter(|| hands.iter().map(|h| prior_arrange(black_box(h), &o, &r).unwrap().best.expected).sum::<f64>())
    });
    g.bench_function("arrange", |b| b.iter(|| hands.iter().map(|h| arrange(black_box(h), &o, &r).unwrap().best.expected).sum::<f64>()));
    g.finish();
}

criterion_group!(benches, bench, bench_arrange);
criterion_main!(benches);
