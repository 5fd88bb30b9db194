//! What one window's logged operations put on single key values and on each partition's
//! writes, judged against chance.
//!
//! * **One value's load.** Every operation that reaches one key value (a write, a point
//!   read, a single-partition query) adds its RU to that value's tally for the window.
//!   A logical partition lives on one physical partition and can use at most 10,000 RU/s,
//!   whatever the container is given, so the busiest value of the busiest window is a hard
//!   limit. Its load is taken net of chance: `RU − 2σ`, where `σ² = Σ lump²` over the lines
//!   that made it (a sampled log keeps or drops whole lines), so a value that is busy by
//!   the luck of a few heavy lines is not called a limit.
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

/// The busiest single key value of a replay: its window's RU net of chance.
#[derive(Clone, Debug, PartialEq)]
pub struct HotValue {
    /// Its EPK.
    pub epk: Epk,
    /// Its RU in its busiest window, less twice the standard deviation chance gives it.
    pub ru: f64,
    /// Its RU in that window as counted.
    pub counted_ru: f64,
}

/// One value's tally in a window: `(RU, Σ lump², EPK)`.
type Tally = (f64, f64, Epk);

/// The open window's per-value and per-partition write loads, and what closed windows
/// showed.
#[derive(Debug, Default)]
pub struct WindowLoad {
    values: FxHashMap<u64, Tally>,
    writes: Vec<f64>,
    write_lumps: (f64, f64),
    /// Σ write RU · relative spread and Σ write RU over closed windows.
    spread: (f64, f64),
    /// The busiest value so far.
    pub hottest: Option<HotValue>,
}

impl WindowLoad {
    /// `ru` on the value `key` (whose EPK is `epk`), from one line of the log.
    pub fn value(&mut self, key: u64, epk: &Epk, ru: f64) {
        let t = (self.values.entry(key)).or_insert_with(|| (0.0, 0.0, epk.clone()));
        t.0 += ru;
        t.1 += ru * ru;
    }

    /// A write of `ru` from one line of `count` operations on partition `idx` of `parts`.
    pub fn write(&mut self, idx: usize, parts: usize, ru: f64, count: f64) {
        if self.writes.len() < parts {
            self.writes.resize(parts, 0.0);
        }
        self.writes[idx] += ru;
        self.write_lumps.0 += count;
        self.write_lumps.1 += count * count;
    }

    /// Closes the window: keeps its busiest value when it beats the others so far, and
    /// weighs its write spread.
    pub fn close(&mut self, parts: usize) {
        for (_, (ru, sq, epk)) in self.values.drain() {
            let net = ru - 2.0 * sq.sqrt();
            if self.hottest.as_ref().is_none_or(|h| net > h.ru) {
                self.hottest = Some(HotValue {
                    epk,
                    ru: net,
                    counted_ru: ru,
                });
            }
        }
        let total: f64 = self.writes.iter().sum();
        let max = self.writes.iter().copied().fold(0.0, f64::max);
        if parts > 1 && total > 0.0 && max > 0.0 {
            let even = total / parts as f64 / max;
            let relative = (even / random_spread(self.write_lumps, parts)).min(1.0);
            self.spread.0 += total * relative;
            self.spread.1 += total;
        }
        self.writes.iter_mut().for_each(|w| *w = 0.0);
        self.write_lumps = (0.0, 0.0);
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
        let mut w = WindowLoad::default();
        let (a, b) = (Epk::min(), Epk::max());
        // One line of 1,000 RU, against 100 lines of 9 RU.
        w.value(1, &a, 1_000.0);
        (0..100).for_each(|_| w.value(2, &b, 9.0));
        w.close(4);
        let h = w.hottest.unwrap();
        assert!((h.counted_ru - 900.0).abs() < 1e-9, "{h:?}");
        assert!((h.ru - (900.0 - 2.0 * 90.0)).abs() < 1e-9);
    }

    #[test]
    fn write_spread_is_by_load() {
        // 78% of the write RU on one of 20 partitions, from 1,000 single writes.
        let mut w = WindowLoad::default();
        for i in 0..1_000 {
            let idx = if i % 100 < 78 { 0 } else { i % 19 + 1 };
            w.write(idx, 20, 6.0, 1.0);
        }
        w.close(20);
        assert!(w.write_spread() < 0.1, "{}", w.write_spread());
        // Spread evenly: as spread as chance.
        let mut w = WindowLoad::default();
        for i in 0..1_000 {
            w.write(i % 20, 20, 6.0, 1.0);
        }
        w.close(20);
        assert!(w.write_spread() > 0.99, "{}", w.write_spread());
    }
}
