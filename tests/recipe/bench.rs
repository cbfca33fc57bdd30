//! The README's "Criterion" recipe: a user's bench with `use criterion::...` replaced by
//! `use hotpath::criterion::...`. `scripts/test-readme` runs it with the README's
//! dev-dependency line, verbatim, once as Criterion and once as a profile.

use hotpath::criterion::{black_box, criterion_group, criterion_main, Criterion};

#[hotpath::measure]
fn checksum(data: &[u8]) -> u64 {
    data.iter().map(|&b| u64::from(b)).sum()
}

fn benches(c: &mut Criterion) {
    let data = vec![7u8; 256];
    c.bench_function("checksum", |b| b.iter(|| checksum(black_box(&data))));
}

criterion_group!(group, benches);
criterion_main!(group);
