//! Speed and memory of the Pro Spider 10 computer levels, per decision: plays games between
//! levels (entrants rotate round the seats as in `arachne-cli phase10 tournament`) and times every
//! decision, and a counting global allocator measures what each decision allocates. Numbers go to
//! BENCHMARKS.md with the command that produced them.
//!
//! `cargo run --release -p arachne-engine --example p10_bench -- --ai michaela,petra --games 20`
//! prints, per level: decisions, decisions/s, p50/p95/p99/max wall time per decision, p50/p95 of
//! the CPU time the deciding thread used (on Linux; what a decision costs on a core of its own when
//! other programs share the machine), bytes allocated per decision (mean and max) and the most
//! memory a decision held at once beyond what was live when it began; then games and games/s.
//! `--deals N` and `--steps N` give Michaela another budget than her default; `--model F` (or
//! `none`) and `--own N` another discard order (`p10_common::model`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use arachne_engine::phase10::ai::{self, Player, Sampler};
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::play_game;
use arachne_engine::phase10::variant;

mod p10_common;
use p10_common::{games_options, option};

/// The system allocator, counting bytes allocated and the peak of live bytes.
struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    ALLOCATED.fetch_add(size, Ordering::Relaxed);
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract is passed on to `System`.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grew(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// CPU time used by this thread, in microseconds (Linux; elsewhere 0).
#[cfg(target_os = "linux")]
fn thread_cpu_micros() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, out: *mut Timespec) -> i32;
    }
    /// `CLOCK_THREAD_CPUTIME_ID` on Linux.
    const THREAD_CPU: i32 = 3;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    if unsafe { clock_gettime(THREAD_CPU, &mut t) } != 0 {
        return 0.0;
    }
    t.sec as f64 * 1e6 + t.nsec as f64 / 1e3
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_micros() -> f64 {
    0.0
}

#[derive(Default)]
struct Stats {
    micros: Vec<f64>,
    cpu: Vec<f64>,
    bytes: Vec<usize>,
    peak: usize,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (levels, games, seed) = games_options(&args, "michaela,petra", 10);
    let id = option(&args, "--variant").unwrap_or_else(|| "pro-spider-10".into());
    // Michaela's budget other than her default (`--deals N`, `--steps N`), to time a candidate.
    let budget = |name: &str| {
        option(&args, name).map(|v| {
            v.parse::<usize>()
                .unwrap_or_else(|_| panic!("{name} wants a whole number, not {v:?}"))
        })
    };
    let (deals, steps) = (budget("--deals"), budget("--steps"));
    // Her discard model (`--model FILE`, or `--model none` for Petra's order; `--own N`: only
    // her own seat's first N turns in each of her playouts use it). Without them, her default.
    let model = p10_common::model(&args);
    let own: Option<usize> = option(&args, "--own").map(|v| v.parse().expect("--own N"));
    let variant = variant::by_id(&id).expect("a known variant").clone();
    let n = levels.len();
    let mut names: Vec<String> = levels.clone();
    names.sort();
    names.dedup();
    let mut stats: Vec<Stats> = names.iter().map(|_| Stats::default()).collect();
    let start = Instant::now();
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let seat_level: Vec<usize> = (0..n)
            .map(|s| {
                let l = &levels[(s + n - (g as usize % n)) % n];
                names.iter().position(|x| x == l).expect("listed")
            })
            .collect();
        let mut players: Vec<Box<dyn Player + Send>> = (0..n)
            .map(|s| -> Box<dyn Player + Send> {
                let (name, ps) = (&names[seat_level[s]], player_seed(game_seed, s));
                if name == "michaela"
                    && (deals.is_some() || steps.is_some() || model.is_some() || own.is_some())
                {
                    let mut m = Sampler::new(ps);
                    m.deals = deals.unwrap_or(m.deals);
                    m.steps = steps.unwrap_or(m.steps);
                    if let Some(model) = &model {
                        m.model = model.clone();
                    }
                    m.own = own.unwrap_or(m.own);
                    Box::new(m)
                } else {
                    ai::player(name, ps).expect("a level")
                }
            })
            .collect();
        play_game(variant.clone(), n, game_seed, &mut |s, view, _| {
            let before_alloc = ALLOCATED.load(Ordering::Relaxed);
            let live = LIVE.load(Ordering::Relaxed);
            PEAK.store(live, Ordering::Relaxed);
            let cpu = thread_cpu_micros();
            let t = Instant::now();
            let a = players[s].decide(view);
            let micros = t.elapsed().as_secs_f64() * 1e6;
            let cpu = thread_cpu_micros() - cpu;
            // Read before the statistics below allocate.
            let allocated = ALLOCATED.load(Ordering::Relaxed) - before_alloc;
            let held = PEAK.load(Ordering::Relaxed).saturating_sub(live);
            let st = &mut stats[seat_level[s]];
            st.micros.push(micros);
            st.cpu.push(cpu);
            st.bytes.push(allocated);
            st.peak = st.peak.max(held);
            Ok(a)
        })
        .expect("a game plays to its end");
    }
    let wall = start.elapsed().as_secs_f64();
    println!(
        "level decisions decisions/s p50-us p95-us p99-us max-us cpu-p50-us cpu-p95-us alloc-mean-KB alloc-max-KB held-max-KB"
    );
    for (name, st) in names.iter().zip(&mut stats) {
        let total: f64 = st.micros.iter().sum();
        let count = st.micros.len();
        st.micros.sort_by(f64::total_cmp);
        st.cpu.sort_by(f64::total_cmp);
        let mean_bytes = st.bytes.iter().sum::<usize>() as f64 / count.max(1) as f64;
        println!(
            "{name} {count} {:.0} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1}",
            count as f64 / (total / 1e6).max(1e-9),
            percentile(&st.micros, 0.5),
            percentile(&st.micros, 0.95),
            percentile(&st.micros, 0.99),
            st.micros.last().copied().unwrap_or(0.0),
            percentile(&st.cpu, 0.5),
            percentile(&st.cpu, 0.95),
            mean_bytes / 1024.0,
            st.bytes.iter().max().copied().unwrap_or(0) as f64 / 1024.0,
            st.peak as f64 / 1024.0,
        );
    }
    println!(
        "games {games} players {n} wall-s {wall:.2} games/s {:.2} ms-per-game {:.2}",
        games as f64 / wall,
        1000.0 * wall / games as f64
    );
}
