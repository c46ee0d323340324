//! FICS formula screening, the server's hot path: one compiled formula (with f-variables)
//! evaluated over many match requests, against a hand-written Rust function of the same
//! logic, in the same run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rulebook::dialect::fics::{
    Category, FVar, FVars, GameType, MatchFormula, MatchRequest, Players, Ratings,
};
use rulebook::source::FileId;
use std::hint::black_box;

/// f1: the game types wanted; the formula: the screening itself.
const F1: &str = "rated & (blitz | standard)";
const FORMULA: &str = "f1 & !computer & !abuser & ratingdiff > -200 & ratingdiff < 400 \
                       & maxtime(40) >= 10 minutes & inc <= 12 # my filter";

/// The same logic written by hand.
fn by_hand(r: &MatchRequest) -> bool {
    let ty = r.game_type();
    let f1 = r.rated && (ty == GameType::Blitz || ty == GameType::Standard);
    let diff = r.rating.for_type(ty) - r.myrating.for_type(ty);
    f1 && !r.computer
        && !r.abuser
        && diff > -200
        && diff < 400
        && r.max_time(40, Players::Both, ty).is_some_and(|t| t >= 600)
        && r.inc <= 12
}

/// Deterministic pseudo-random match requests.
fn requests(n: usize) -> Vec<MatchRequest> {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        i32::try_from(seed % m).unwrap_or(0)
    };
    (0..n)
        .map(|_| {
            let time = next(30);
            let inc = next(20);
            let same = next(4) != 0;
            let ratings = |base: i32, spread: i32| Ratings {
                blitz: base + spread,
                standard: base - spread,
                lightning: base,
                wild: base + 2 * spread,
            };
            MatchRequest {
                time,
                inc,
                mytime: if same { time } else { next(30) },
                myinc: if same { inc } else { next(20) },
                rated: next(3) != 0,
                category: if next(10) == 0 {
                    Category::Wild
                } else {
                    Category::Standard
                },
                rating: ratings(1200 + next(1200), next(100)),
                myrating: ratings(1500, 50),
                registered: next(5) != 0,
                computer: next(8) == 0,
                abuser: next(50) == 0,
                private: false,
                timeseal: next(2) == 0,
                assesswin: next(16),
                assessdraw: next(5),
                assessloss: -next(16),
            }
        })
        .collect()
}

fn screening(c: &mut Criterion) {
    let mut fvars = FVars::new();
    fvars
        .set(FVar::new(1).expect("f1"), F1, FileId(1))
        .expect("f1 is valid");
    let formula = MatchFormula::compile(FORMULA, FileId(0), &fvars).expect("formula is valid");
    let reqs = requests(4096);
    // Same decisions first: the benchmark compares equal work.
    for r in &reqs {
        assert_eq!(formula.accepts(r), by_hand(r), "{r:?}");
    }
    let accepted = reqs.iter().filter(|r| by_hand(r)).count();
    eprintln!("{accepted} of {} requests accepted", reqs.len());

    let mut group = c.benchmark_group("fics_screening");
    group.throughput(Throughput::Elements(reqs.len() as u64));
    group.bench_function("compiled_formula", |b| {
        b.iter(|| {
            reqs.iter()
                .filter(|r| formula.accepts(black_box(r)))
                .count()
        })
    });
    group.bench_function("hand_written_rust", |b| {
        b.iter(|| reqs.iter().filter(|r| by_hand(black_box(r))).count())
    });
    group.bench_function("compile_once", |b| {
        b.iter(|| MatchFormula::compile(black_box(FORMULA), FileId(0), &fvars).is_ok())
    });
    group.finish();
}

criterion_group!(benches, screening);
criterion_main!(benches);
