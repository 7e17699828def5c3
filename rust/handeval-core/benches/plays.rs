//! Core speed of `legal_plays` (every lead of a 13-card hand) for 越式13张 and 打儲: the
//! figure the Python `tienlen.legal_plays` / `dachu.legal_plays` calls are measured
//! against (benches/bench_tienlen.py, benches/bench_dachu.py time the same hands, read
//! from `hands13.txt`). `cargo bench -p handeval-core --bench plays`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use handeval_core::cards::{parse_cards, Card};
use handeval_core::{dachu, tienlen};

fn hands() -> Vec<Vec<Card>> {
    include_str!("hands13.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_cards(l).expect("a valid hand"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let hands = hands();
    assert!(hands.iter().all(|h| h.len() == 13));

    let mut g = c.benchmark_group("legal_plays, 13-card hands (leads)");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("tienlen::legal_plays", |b| {
        b.iter(|| hands.iter().map(|h| tienlen::legal_plays(black_box(h), None, false).unwrap().len()).sum::<usize>())
    });
    let (cons, rules) = (dachu::Constraints::default(), dachu::Rules::default());
    g.bench_function("dachu::legal_plays", |b| {
        b.iter(|| {
            hands.iter().map(|h| dachu::legal_plays(black_box(h), None, dachu::Chu::Red, &cons, &rules).unwrap().len()).sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
