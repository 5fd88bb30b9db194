//! What one window's logged operations put on single key values and on each partition's
//! writes, judged against chance.
//!
//! * **One value's load.** Every operation that reaches one key value (a write, a point
//!   read, a single-partition query) adds its RU to that value's tally for its minute (or
//!   the replay's window when that is shorter): fixed seconds, whatever the container, so
//!   the verdict does not depend on `--throughput`. A logical partition lives on one
//!   physical partition and can use at most 10,000 RU/s, whatever the container is given,
//!   so the busiest value of the busiest minute is a hard limit. When the log is a sample
//!   its load is taken net of chance: `RU − 2σ`, where `σ² = (1 − s) Σ unit²` over the
//!   sampled units that made it, `s` the share of them kept (a log of a share of the
//!   requests kept each request on its own, so a line of `count` n is n units; thinning
//!   to fit `--memory` by a threshold `τ` kept or dropped a lighter line whole and kept a
//!   heavier one as it is, `n / τ` units; a full log has no sampling noise), so a value
//!   that is busy by the luck of a few heavy requests is not called a limit. A line's
//!   `count` is that many requests arriving at its `ts`.
//! * **Write load.** Each partition's write RU in the window; the window's spread is the
//!   mean over the busiest partition's write RU, relative to what the same writes placed at
//!   random would give (see [`random_spread`]). A quarter that takes 78% of the writes
//!   reaches every partition over a few hundred writes, but loads one.

use rustc_hash::FxHashMap;

use crate::engine::Epk;

/// The mean / max load a key placing lumps of `(Σc, Σc², max c)` at random over `parts`
/// partitions would show in the busiest of `windows` windows like it: the busiest
/// partition expects its mean `Σc/P` plus the most chance puts on one of `P · W`
/// partition-windows (see [`chance_excess`]). Poisson counts of a few lumps a partition
/// have a longer tail than the Gaussian `λ + sqrt(2 λ ln P)`, and the worst of many
/// windows is picked for being the worst: judged against one window's Gaussian, a key
/// that places every write at random (`/id`) looked hot on a log of a few hundred lines.
pub fn random_spread((sum, sum_sq, max): (f64, f64, f64), parts: usize, windows: usize) -> f64 {
    if parts <= 1 || sum <= 0.0 || sum_sq <= 0.0 {
        return 1.0;
    }
    let p = parts as f64;
    let mean = sum / p;
    let cells = p * windows.max(1) as f64;
    mean / (mean + chance_excess(cells, (sum_sq / p).sqrt(), max))
}

/// The most chance puts on the busiest of `cells` loads beyond the expected, when each
/// gets lumps of at most `lump` with variance `sigma²` (Bernstein's inequality at
/// probability `1 / cells`); 0 for one.
pub fn chance_excess(cells: f64, sigma: f64, lump: f64) -> f64 {
    if cells <= 1.0 {
        return 0.0;
    }
    let l = cells.ln();
    let b = lump * l / 3.0;
    b + (b * b + 2.0 * sigma * sigma * l).sqrt()
}

/// The mean / max load random placement of lumps `(Σc, Σc², max c)` over `parts`
/// partitions would show: the busiest partition expects the larger of the Gaussian bound
/// `Σc/P + sqrt(2 ln P · Σc²/P)` and the largest lump plus its
/// share of the rest, `max c + (Σc − max c)/P`, which a single heavy write sets.
pub fn lumpy_spread((sum, sum_sq, max): (f64, f64, f64), parts: usize) -> f64 {
    if parts <= 1 || sum <= 0.0 {
        return 1.0;
    }
    let p = parts as f64;
    let mean = sum / p;
    let gauss = mean + (2.0 * p.ln() * sum_sq / p).sqrt();
    let heavy = max + (sum - max) / p;
    mean / gauss.max(heavy)
}

/// The busiest single key value of a replay: its busiest stretch's RU net of chance.
#[derive(Clone, Debug, PartialEq)]
pub struct HotValue {
    /// Its EPK.
    pub epk: Epk,
    /// Its RU in its busiest stretch, less twice the standard deviation chance gives it.
    pub ru: f64,
    /// Its RU in that stretch as counted.
    pub counted_ru: f64,
    /// The stretch's seconds.
    pub seconds: f64,
}

/// One value's tally in a stretch: `(RU, Σ lump², EPK)`.
type Tally = (f64, f64, Epk);

/// The longest stretch a value's load is tallied over: a minute.
pub const VALUE_SECONDS: f64 = 60.0;

/// The open window's per-value and per-partition write loads, and what closed windows
/// showed.
#[derive(Debug, Default)]
pub struct WindowLoad {
    /// Per (stretch, value) tallies of the open window.
    values: FxHashMap<(i64, u64), Tally>,
    /// The stretches' seconds, and the variance factor `1 − s` of the lines' sampling.
    pub clock: (f64, f64),
    writes: Vec<f64>,
    /// This window's write RU spread evenly over every partition.
    even: f64,
    /// This window's writes as lumps of RU: `(Σ, Σ², max)`.
    write_lumps: (f64, f64, f64),
    /// Σ write RU · relative spread and Σ write RU over closed windows.
    spread: (f64, f64),
    /// The busiest value so far.
    pub hottest: Option<HotValue>,
}

impl WindowLoad {
    /// `ru` on the value `key` (whose EPK is `epk`) in stretch `at`, from one line of the
    /// log: `Some(n)` when it came in `n` sampled units of equal charge (variance `ru² / n`),
    /// `None` when it is exact (a value logged whole has no sampling noise).
    pub fn value(&mut self, at: i64, key: u64, epk: &Epk, ru: f64, units: Option<f64>) {
        let t = (self.values.entry((at, key))).or_insert_with(|| (0.0, 0.0, epk.clone()));
        t.0 += ru;
        t.1 += units.map_or(0.0, |n| ru * ru / n.max(1.0));
    }

    /// Write RU spread evenly over every partition (the values a logged one stands for).
    pub fn write_even(&mut self, ru: f64) {
        self.even += ru;
        self.write_lumps.0 += ru;
    }

    /// A write of `ru` from one line of the log on partition `idx` of `parts`.
    pub fn write(&mut self, idx: usize, parts: usize, ru: f64) {
        if self.writes.len() < parts {
            self.writes.resize(parts, 0.0);
        }
        self.writes[idx] += ru;
        // Lumps by RU, as the loads are: a heavy write is one placement of much RU, and a
        // line's identical requests are one (no key places them apart).
        self.write_lumps.0 += ru;
        self.write_lumps.1 += ru * ru;
        self.write_lumps.2 = self.write_lumps.2.max(ru);
    }
    /// Judges every value's stretches (which may span windows) and keeps the busiest, net
    /// of chance.
    pub fn finish(&mut self) {
        let (seconds, chance) = self.clock;
        for (_, (ru, sq, epk)) in self.values.drain() {
            let net = ru - 2.0 * (chance.clamp(0.0, 1.0) * sq).sqrt();
            // Ties go to the smaller EPK, whatever the table's order.
            let beats = |h: &HotValue| net > h.ru || (net == h.ru && epk < h.epk);
            if self.hottest.as_ref().is_none_or(beats) {
                self.hottest = Some(HotValue {
                    epk,
                    ru: net,
                    counted_ru: ru,
                    seconds,
                });
            }
        }
    }

    /// Closes a replay window: weighs its write spread.
    pub fn close(&mut self, parts: usize) {
        let even = std::mem::take(&mut self.even);
        if even > 0.0 && parts > 0 {
            self.writes.resize(parts.max(self.writes.len()), 0.0);
            self.writes
                .iter_mut()
                .for_each(|w| *w += even / parts as f64);
        }
        let total: f64 = self.writes.iter().sum();
        let max = self.writes.iter().copied().fold(0.0, f64::max);
        if parts > 1 && total > 0.0 && max > 0.0 {
            let even = total / parts as f64 / max;
            let relative = (even / lumpy_spread(self.write_lumps, parts)).min(1.0);
            self.spread.0 += total * relative;
            self.spread.1 += total;
        }
        self.writes.iter_mut().for_each(|w| *w = 0.0);
        self.write_lumps = (0.0, 0.0, 0.0);
    }

    /// The write spread by load over the closed windows, weighted by their write RU (1 when
    /// no window held writes on more than one partition).
    pub fn write_spread(&self) -> f64 {
        match self.spread.1 > 0.0 {
            true => self.spread.0 / self.spread.1,
            false => 1.0,
        }
    }
}

/// Excesses `e[i]` of `n` loads over what each was expected to carry, judged against
/// chance for a log that kept a share `kept` of the requests (`sigma[i]²`: Σ unit² of
/// what made load `i`; `lump`: the largest unit). A sampled log stands for the complete
/// one: each excess is less the most its sampling gives the busiest of the `n`
/// (`(1 − kept) σ²`, units of up to `(1 − kept) lump`, see [`chance_excess`]), but keeps
/// what the arrivals of all the traffic give the busiest by the same bound (`kept σ²`,
/// units of `kept lump`), which the complete log would show. A log whose loads show
/// their arrivals (`shown`: a log of requests) keeps it of each excess, never more than
/// the excess itself; a log of values spreads the values each logged one stands for
/// evenly and shows none, so its busiest load is raised to it (the first of equals, so that
/// an excess of nothing is raised as a tiny one is). A complete log (`kept` 1) is judged as
/// logged. Excesses below 0 are kept.
pub fn judged_excesses(e: &[f64], sigma: &[f64], lump: f64, kept: f64, shown: bool) -> Vec<f64> {
    let kept = kept.clamp(0.0, 1.0);
    if kept >= 1.0 {
        return e.to_vec();
    }
    let n = e.len() as f64;
    let thinned = 1.0 - kept;
    let arrived = |s: f64| chance_excess(n, kept.sqrt() * s, kept * lump);
    let mut out: Vec<f64> = (e.iter().zip(sigma))
        .map(|(&e, &s)| {
            if e <= 0.0 {
                return e;
            }
            let net = (e - chance_excess(n, thinned.sqrt() * s, thinned * lump)).max(0.0);
            match shown {
                true => net.max(arrived(s).min(e)),
                false => net,
            }
        })
        .collect();
    let busiest = (0..e.len())
        .filter(|&i| e[i] >= 0.0)
        .max_by(|&a, &b| e[a].total_cmp(&e[b]).then(b.cmp(&a)));
    if let (false, Some(i)) = (shown, busiest) {
        out[i] = out[i].max(arrived(sigma[i]));
    }
    out
}

/// `totals` judged against the chance of a log that kept a share `kept` of the requests
/// (`squares`: Σ unit² of what made each): the mean `m` of `n` totals plus each excess over
/// it judged by [`judged_excesses`] without a lump term, as each window's partitions are.
/// The busiest of 64 partitions of a sampled log is 2.4 σ over the mean by chance alone;
/// shrunk by `1 − σ²/e²` it kept 83% of that, and a key that spreads perfectly looked 23%
/// hot. An excess far beyond chance keeps all but the sampling's bound. Values at or below
/// the mean are kept.
pub fn net_of_chance(totals: &[f64], squares: &[f64], kept: f64, shown: bool) -> Vec<f64> {
    let n = totals.len().max(1) as f64;
    let mean = totals.iter().sum::<f64>() / n;
    let e: Vec<f64> = totals.iter().map(|t| t - mean).collect();
    let sigma: Vec<f64> = (0..totals.len())
        .map(|i| squares.get(i).copied().unwrap_or(0.0).sqrt())
        .collect();
    (judged_excesses(&e, &sigma, 0.0, kept, shown).iter())
        .zip(totals)
        .map(|(&j, &t)| match t >= mean {
            true => mean + j,
            false => t,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worst window's mean / max of `lumps` requests each placed at random over
    /// `parts` partitions, in each of `windows` windows.
    fn worst_random_window(lumps: usize, parts: usize, windows: usize, seed: u64) -> f64 {
        let mut x = seed;
        let mut next = move || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..windows)
            .map(|_| {
                let mut load = vec![0u32; parts];
                (0..lumps).for_each(|_| load[(next() % parts as u64) as usize] += 1);
                let max = *load.iter().max().unwrap() as f64;
                lumps as f64 / parts as f64 / max
            })
            .fold(1.0, f64::min)
    }

    #[test]
    fn random_placement_is_not_judged_worse_than_random() {
        // From a fifth of a lump to 20 lumps a partition, over 1 to 60 windows: the
        // worst window of a random placement keeps at least the HOT_PARTITION threshold
        // (half) of what `random_spread` expects of it.
        for (lumps, parts) in [(50, 256), (256, 256), (600, 256), (640, 32), (100, 32)] {
            for windows in [1, 10, 60] {
                for seed in 0..5 {
                    let worst = worst_random_window(lumps, parts, windows, seed);
                    let l = lumps as f64;
                    let expected = random_spread((l, l, 1.0), parts, windows);
                    assert!(
                        worst / expected >= 0.5,
                        "{lumps} over {parts}, {windows} windows: {worst} vs {expected}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_partition_with_a_third_of_the_lumps_is_judged_hot() {
        // 600 lumps over 32 partitions, 200 of them on one: mean / max = 18.75 / 200.
        let usable = 600.0 / 32.0 / 200.0;
        let expected = random_spread((600.0, 600.0, 1.0), 32, 10);
        assert!(usable / expected < 0.5, "{usable} vs {expected}");
    }

    #[test]
    fn a_complete_log_is_judged_as_logged_and_a_sampled_one_as_the_complete_would_be() {
        // Four partitions with Σ unit² = 900 each (units of up to 10); excesses of 50, 3, 0
        // and −53. Logged whole, nothing is chance.
        let e = [50.0, 3.0, 0.0, -53.0];
        let sigma = [30.0; 4];
        assert_eq!(judged_excesses(&e, &sigma, 10.0, 1.0, true), e.to_vec());
        // Kept at 1%: sampling's chance is b + sqrt(b² + 2 · 0.99 · 900 · ln 4), b = 9.9
        // ln 4 / 3 = 4.57: 54.5, more than either excess. What all the traffic's arrivals
        // give the busiest of four (σ² = 0.01 · 900, b = 0.01 · 10 · ln 4 / 3 = 0.046:
        // 0.046 + sqrt(0.046² + 2 · 9 · ln 4) = 5.04) is kept of each excess, no higher
        // than the 50 it shows; each excess keeps that much of itself.
        let j = judged_excesses(&e, &sigma, 10.0, 0.01, true);
        assert!((j[0] - 5.042).abs() < 0.01, "{j:?}");
        assert_eq!(&j[1..], &[3.0, 0.0, -53.0]);
        // A log of values shows none of them: its busiest alone is raised to it.
        let spread = judged_excesses(&e, &sigma, 10.0, 0.01, false);
        assert!((spread[0] - 5.042).abs() < 0.01, "{spread:?}");
        assert_eq!(&spread[1..], &[0.0, 0.0, -53.0]);
        let spread = judged_excesses(&[3.0, 1.0], &[30.0; 2], 10.0, 0.01, false);
        assert!(spread[0] > 3.0 && spread[1] == 0.0, "{spread:?}");
        // Far beyond chance, the excess less sampling's share: 200 − 54.48.
        let hot = judged_excesses(&[200.0, 0.0, 0.0, 0.0], &sigma, 10.0, 0.01, true);
        assert!((hot[0] - 145.52).abs() < 0.01, "{hot:?}");
        // A log a hair below complete bills as the complete one: nothing to take out, and
        // the floor no higher than what it shows.
        let near = judged_excesses(&e, &sigma, 10.0, 0.999, true);
        assert!((near[0] - 50.0).abs() < 2.5 && near[0] <= 50.0, "{near:?}");
    }

    #[test]
    fn chance_excess_is_shrunk_and_real_excess_kept() {
        // Four partitions of 100 RU, one of 110 from lumps of 10 (σ² = 11 · 100): chance,
        // so the mean, 102.5.
        let t = [100.0, 100.0, 100.0, 110.0];
        let sq = [1_000.0, 1_000.0, 1_000.0, 1_100.0];
        let net = net_of_chance(&t, &sq, 0.0, true);
        assert!((net[3] - 102.5).abs() < 1e-9, "{net:?}");
        // 300 against a mean of 150: far beyond σ = 33.
        let t = [100.0, 100.0, 100.0, 300.0];
        let sq = [1_000.0, 1_000.0, 1_000.0, 1_100.0];
        let net = net_of_chance(&t, &sq, 0.0, true);
        // Less sqrt(2 · 1,100 · ln 4) = 55.2 of chance: 150 + 150 − 55.2 = 244.8.
        let kept = 300.0 - (2.0 * 1_100.0 * 4f64.ln()).sqrt();
        assert!(
            (net[3] - kept).abs() < 1e-9 && (kept - 244.8).abs() < 0.1,
            "{net:?}"
        );
        assert_eq!(&net[..3], &t[..3]);
    }

    #[test]
    fn the_busiest_value_is_judged_net_of_its_lines() {
        // A 1% sample: one line of 1,000 RU, against 100 lines of 9 RU.
        let mut w = WindowLoad {
            clock: (60.0, 0.99),
            ..WindowLoad::default()
        };
        let (a, b) = (Epk::min(), Epk::max());
        w.value(0, 1, &a, 1_000.0, Some(1.0));
        (0..100).for_each(|_| w.value(0, 2, &b, 9.0, Some(1.0)));
        w.finish();
        let h = w.hottest.clone().unwrap();
        assert!((h.counted_ru - 900.0).abs() < 1e-9, "{h:?}");
        assert!((h.ru - (900.0 - 2.0 * (0.99f64 * 8_100.0).sqrt())).abs() < 1e-9);
        // A full log has no sampling noise: the heavy line counts whole.
        w.clock = (60.0, 0.0);
        w.value(1, 1, &a, 1_000.0, Some(1.0));
        w.finish();
        assert_eq!(w.hottest.clone().unwrap().ru, 1_000.0);
        // A value logged whole (a log of values) has none either, whatever the share.
        w.clock = (60.0, 0.99);
        w.value(2, 3, &b, 1_500.0, None);
        w.finish();
        assert_eq!(w.hottest.unwrap().ru, 1_500.0);
    }

    #[test]
    fn ties_go_to_the_smaller_epk_whatever_the_order() {
        let (a, b) = (Epk::from_bytes(&[1]), Epk::from_bytes(&[2]));
        for order in [[(1, &a), (2, &b)], [(2, &b), (1, &a)]] {
            let mut w = WindowLoad::default();
            for (k, e) in order {
                w.value(0, k, e, 100.0, Some(1.0));
            }
            w.finish();
            assert_eq!(w.hottest.unwrap().epk, a);
        }
    }

    #[test]
    fn a_rare_heavy_write_is_one_lump_of_its_ru() {
        // 1,000 writes of 6 RU spread evenly, one of 5,000 RU: chance, not a hotspot.
        let mut w = WindowLoad::default();
        for i in 0..1_000 {
            w.write(i % 20, 20, 6.0);
        }
        w.write(3, 20, 5_000.0);
        w.close(20);
        assert!(w.write_spread() > 0.9, "{}", w.write_spread());
    }

    #[test]
    fn write_spread_is_by_load() {
        // 78% of the write RU on one of 20 partitions, from 1,000 single writes.
        let mut w = WindowLoad::default();
        for i in 0..1_000 {
            let idx = if i % 100 < 78 { 0 } else { i % 19 + 1 };
            w.write(idx, 20, 6.0);
        }
        w.close(20);
        assert!(w.write_spread() < 0.1, "{}", w.write_spread());
        // Spread evenly: as spread as chance.
        let mut w = WindowLoad::default();
        for i in 0..1_000 {
            w.write(i % 20, 20, 6.0);
        }
        w.close(20);
        assert!(w.write_spread() > 0.99, "{}", w.write_spread());
    }
}
