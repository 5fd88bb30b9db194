//! What one window's logged operations put on single key values and on each partition's
//! writes, judged against chance.
//!
//! * **One value's load.** Every operation that reaches one key value (a write, a point
//!   read, a single-partition query) adds its RU to that value's tally for its minute (or
//!   the replay's window when that is shorter): fixed seconds, whatever the container, so
//!   the verdict does not depend on `--throughput`. A logical partition lives on one
//!   physical partition and can use at most 10,000 RU/s, whatever the container is given,
//!   so the busiest value of the busiest minute is a hard limit. When the log is a sample
//!   its load is taken net of chance: `RU − 2σ`, where `σ² = (1 − s) Σ lump²` over the
//!   lines that made it, `s` the share of lines kept (a sampled log keeps or drops whole
//!   lines; a full log has no sampling noise), so a value that is busy by the luck of a few
//!   heavy lines is not called a limit. A line's `count` is taken to arrive at its `ts`.
//! * **Write load.** Each partition's write RU in the window; the window's spread is the
//!   mean over the busiest partition's write RU, relative to what the same writes placed at
//!   random would give (see [`random_spread`]). A quarter that takes 78% of the writes
//!   reaches every partition over a few hundred writes, but loads one.

use rustc_hash::FxHashMap;

use crate::engine::Epk;

/// The mean / max load a key placing lumps of `(Σc, Σc²)` at random over `parts` partitions
/// would show: with `n = (Σc)² / Σc²` independent placements and `λ = n / P` per partition,
/// the busiest partition expects about `λ + sqrt(2 λ ln P)` (the maximum of `P` Poisson
/// counts), so `λ / (λ + sqrt(2 λ ln P))`.
pub fn random_spread((sum, sum_sq): (f64, f64), parts: usize) -> f64 {
    if parts <= 1 || sum <= 0.0 || sum_sq <= 0.0 {
        return 1.0;
    }
    let p = parts as f64;
    let lambda = sum * sum / sum_sq / p;
    lambda / (lambda + (2.0 * lambda * p.ln()).sqrt())
}

/// The mean / max load random placement of lumps `(Σc, Σc², max c)` over `parts`
/// partitions would show: the busiest partition expects the larger of the Gaussian bound
/// `Σc/P + sqrt(2 ln P · Σc²/P)` (see [`random_spread`]) and the largest lump plus its
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
    /// This window's writes as lumps of RU: `(Σ, Σ², max)`.
    write_lumps: (f64, f64, f64),
    /// Σ write RU · relative spread and Σ write RU over closed windows.
    spread: (f64, f64),
    /// The busiest value so far.
    pub hottest: Option<HotValue>,
}

impl WindowLoad {
    /// `ru` on the value `key` (whose EPK is `epk`) in stretch `at`, from one line of the
    /// log.
    pub fn value(&mut self, at: i64, key: u64, epk: &Epk, ru: f64) {
        let t = (self.values.entry((at, key))).or_insert_with(|| (0.0, 0.0, epk.clone()));
        t.0 += ru;
        t.1 += ru * ru;
    }

    /// A write of `ru` from one line of the log on partition `idx` of `parts`.
    pub fn write(&mut self, idx: usize, parts: usize, ru: f64) {
        if self.writes.len() < parts {
            self.writes.resize(parts, 0.0);
        }
        self.writes[idx] += ru;
        // Lumps by RU, as the loads are: a heavy write is one placement of much RU.
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

/// `totals` shrunk toward their mean by the variance chance gives each (`squares`: Σ lump²
/// of what made it): `m + e · max(0, 1 − σ²/e²)` for an excess `e` over the mean `m`, so an
/// excess a few lumps explain counts for nothing and one far beyond them counts almost
/// whole. Values at or below the mean are kept.
pub fn net_of_chance(totals: &[f64], squares: &[f64]) -> Vec<f64> {
    let n = totals.len().max(1) as f64;
    let mean = totals.iter().sum::<f64>() / n;
    (totals
        .iter()
        .zip(squares.iter().chain(std::iter::repeat(&0.0))))
    .map(|(&t, &sq)| {
        let e = t - mean;
        if e <= 0.0 {
            return t;
        }
        mean + e * (1.0 - sq / (e * e)).max(0.0)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chance_excess_is_shrunk_and_real_excess_kept() {
        // Four partitions of 100 RU, one of 110 from lumps of 10 (σ² = 11 · 100): chance.
        let t = [100.0, 100.0, 100.0, 110.0];
        let sq = [1_000.0, 1_000.0, 1_000.0, 1_100.0];
        let net = net_of_chance(&t, &sq);
        assert!((net[3] - 102.5).abs() < 1e-9, "{net:?}");
        // 300 against a mean of 150: far beyond σ = 33.
        let t = [100.0, 100.0, 100.0, 300.0];
        let sq = [1_000.0, 1_000.0, 1_000.0, 1_100.0];
        let net = net_of_chance(&t, &sq);
        let kept = 150.0 + 150.0 * (1.0 - 1_100.0 / (150.0 * 150.0));
        assert!((net[3] - kept).abs() < 1e-9 && kept > 290.0, "{net:?}");
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
        w.value(0, 1, &a, 1_000.0);
        (0..100).for_each(|_| w.value(0, 2, &b, 9.0));
        w.finish();
        let h = w.hottest.clone().unwrap();
        assert!((h.counted_ru - 900.0).abs() < 1e-9, "{h:?}");
        assert!((h.ru - (900.0 - 2.0 * (0.99f64 * 8_100.0).sqrt())).abs() < 1e-9);
        // A full log has no sampling noise: the heavy line counts whole.
        w.clock = (60.0, 0.0);
        w.value(1, 1, &a, 1_000.0);
        w.finish();
        assert_eq!(w.hottest.unwrap().ru, 1_000.0);
    }

    #[test]
    fn ties_go_to_the_smaller_epk_whatever_the_order() {
        let (a, b) = (Epk::from_bytes(&[1]), Epk::from_bytes(&[2]));
        for order in [[(1, &a), (2, &b)], [(2, &b), (1, &a)]] {
            let mut w = WindowLoad::default();
            for (k, e) in order {
                w.value(0, k, e, 100.0);
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
