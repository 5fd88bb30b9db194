//! Request units per physical partition over a sequence of time windows, and from them the
//! usable fraction of provisioned throughput.
//!
//! Provisioned RU/s are split evenly, so each of `P` partitions serves `R/P`. If a window's
//! load were scaled up until its hottest partition saturated, the container would serve
//! `R · total / (P · max)`: the usable fraction of a window is `mean / max` partition load.
//! The container's usable fraction is that of its worst window.
//!
//! Each closed window keeps its load per partition too ([`WindowedLoad::cells`]), for the
//! HTML report's heat map: one row per window (a replay has a few dozen at most) of one
//! figure per partition, a few hundred bytes per partition beside its logical partitions.

use serde::Serialize;

/// The load of one closed window.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WindowStats {
    /// RU charged in the window, all partitions.
    pub total: f64,
    /// RU charged to the busiest partition.
    pub max: f64,
    /// Index of the busiest partition (lowest index on ties).
    pub hottest: usize,
    /// Physical partitions at the time.
    pub partitions: usize,
}

impl WindowStats {
    /// `mean / max`: the share of provisioned RU/s usable at this window's distribution.
    pub fn usable_fraction(&self) -> f64 {
        if self.max <= 0.0 {
            1.0
        } else {
            (self.total / (self.partitions as f64 * self.max)).min(1.0)
        }
    }
}

/// Load per partition in the open window, and a summary and the per-partition load of
/// every closed one.
#[derive(Clone, Debug, Default)]
pub struct WindowedLoad {
    current: Vec<f64>,
    closed: Vec<WindowStats>,
    /// Each closed window's load per partition, in today's partitions.
    closed_cells: Vec<Vec<f64>>,
    /// Each closed window's place among all windows, those without load included.
    closed_at: Vec<usize>,
    /// Windows closed so far, with load or not.
    windows_closed: usize,
}

impl WindowedLoad {
    /// Tracking for `partitions` physical partitions.
    pub fn new(partitions: usize) -> Self {
        WindowedLoad {
            current: vec![0.0; partitions],
            closed: Vec::new(),
            closed_cells: Vec::new(),
            closed_at: Vec::new(),
            windows_closed: 0,
        }
    }

    /// Adds `ru` to partition `idx` in the open window.
    pub fn charge(&mut self, idx: usize, ru: f64) {
        self.current[idx] += ru;
    }

    /// Partition `idx` became two (`idx`, `idx + 1`): the open window's load is shared, and
    /// so is the closed windows' (their [`cells`](Self::cells) follow today's partitions;
    /// their summaries keep the partitions of their time).
    pub fn split(&mut self, idx: usize) {
        for row in std::iter::once(&mut self.current).chain(&mut self.closed_cells) {
            let half = row[idx] / 2.0;
            row[idx] = half;
            row.insert(idx + 1, half);
        }
    }

    fn summarize(&self) -> Option<WindowStats> {
        let total: f64 = self.current.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let (hottest, &max) =
            self.current
                .iter()
                .enumerate()
                .fold((0, &self.current[0]), |best, (i, v)| {
                    if *v > *best.1 { (i, v) } else { best }
                });
        Some(WindowStats {
            total,
            max,
            hottest,
            partitions: self.current.len(),
        })
    }

    /// Closes the open window (empty windows leave no record) and opens a new one.
    pub fn close_window(&mut self, partitions: usize) {
        if let Some(s) = self.summarize() {
            self.closed.push(s);
            self.closed_cells.push(self.current.clone());
            self.closed_at.push(self.windows_closed);
        }
        self.windows_closed += 1;
        self.current.clear();
        self.current.resize(partitions, 0.0);
    }

    /// The open window's summary; `None` while nothing is charged in it.
    pub fn current(&self) -> Option<WindowStats> {
        self.summarize()
    }

    /// Every window with load, the open one last.
    pub fn windows(&self) -> Vec<WindowStats> {
        let mut all = self.closed.clone();
        all.extend(self.summarize());
        all
    }

    /// The load of every window with load (those of [`windows`](Self::windows), in the
    /// same order), per partition in EPK order: RU charged to each partition there.
    pub fn cells(&self) -> Vec<Vec<f64>> {
        let mut all = self.closed_cells.clone();
        if self.summarize().is_some() {
            all.push(self.current.clone());
        }
        all
    }

    /// Where each of [`cells`](Self::cells)' rows lies among all windows, those without
    /// load included (a window's place times its length is when it starts).
    pub fn cell_windows(&self) -> Vec<usize> {
        let mut all = self.closed_at.clone();
        if self.summarize().is_some() {
            all.push(self.windows_closed);
        }
        all
    }

    /// The RU charged to each partition over every window, in today's partitions: the sum
    /// of [`cells`](Self::cells)' rows.
    pub fn totals(&self) -> Vec<f64> {
        let mut sums = vec![0.0; self.current.len()];
        for row in self.closed_cells.iter().chain([&self.current]) {
            sums.iter_mut().zip(row).for_each(|(s, c)| *s += c);
        }
        sums
    }

    /// The usable fraction of the worst window holding at least 1% of the load (a
    /// nearly empty window says nothing of the distribution); 1.0 when nothing was charged.
    pub fn usable_fraction(&self) -> f64 {
        let windows = self.windows();
        let total: f64 = windows.iter().map(|w| w.total).sum();
        windows
            .iter()
            .filter(|w| w.total >= total * 0.01)
            .map(|w| w.usable_fraction())
            .fold(1.0, f64::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usable_fraction_is_mean_over_max_of_the_worst_window() {
        let mut l = WindowedLoad::new(4);
        for i in 0..4 {
            l.charge(i, 100.0);
        }
        l.close_window(4);
        assert!((l.usable_fraction() - 1.0).abs() < 1e-12);
        l.charge(0, 300.0);
        l.charge(1, 100.0);
        // mean 100, max 300.
        assert!((l.usable_fraction() - 1.0 / 3.0).abs() < 1e-12);
        l.close_window(4);
        assert_eq!(l.windows().len(), 2);
        assert_eq!(l.windows()[1].hottest, 0);
    }

    #[test]
    fn empty_windows_leave_no_record_and_splits_share_load() {
        let mut l = WindowedLoad::new(2);
        l.close_window(2);
        assert!(l.windows().is_empty());
        assert_eq!(l.usable_fraction(), 1.0);
        l.charge(1, 80.0);
        l.split(1);
        let w = l.windows()[0];
        assert_eq!((w.partitions, w.max, w.total), (3, 40.0, 80.0));
    }

    #[test]
    fn cells_follow_the_windows_and_todays_partitions() {
        let mut l = WindowedLoad::new(2);
        l.charge(0, 30.0);
        l.charge(1, 10.0);
        l.close_window(2);
        // An empty window leaves no row, as it leaves no summary.
        l.close_window(2);
        l.charge(1, 60.0);
        assert_eq!(l.cells(), vec![vec![30.0, 10.0], vec![0.0, 60.0]]);
        // A split shares the closed window's load too; its summary keeps two partitions.
        l.split(0);
        assert_eq!(
            l.cells(),
            vec![vec![15.0, 15.0, 10.0], vec![0.0, 0.0, 60.0]]
        );
        assert_eq!(l.windows()[0].partitions, 2);
        assert_eq!(l.windows().len(), l.cells().len());
        assert_eq!(l.totals(), vec![15.0, 15.0, 70.0]);
    }
}
