//! The copy's request units, duration and money, and the new container after it.
//!
//! **RU.** Every item is read once from the source's change feed (a point read by its size:
//! "reading items through a feed costs about what reading them one by one costs") and
//! created once in the new container (5 RU by size plus 0.2 per indexed term under its
//! indexing policy). With `--online`, the source's own writes pay a surcharge while the
//! copy runs (the docs: "charged double", `--online-surcharge 1`).
//!
//! **Duration.** Three rates bound it: the source's RU/s left beyond its workload (reads),
//! the new container's RU/s during the copy (writes), and each of its physical partitions'
//! share of them (at most 10,000 RU/s), which the new key's skew loads unevenly. The fast
//! end takes the copy as one mix: `max(R / free, max_p W_p / (C / P))`. The slow end reads
//! the source one partition at a time, each as slow as its own busiest bound:
//! `Σ_s max(R_s / free, max_p W_{s,p} / (C / P))`: a source partition whose items go to few
//! values of the new key writes to few partitions at a time. A value of the new key holding
//! at least 1% of the container lands where its EPK routes it; the smaller ones spread over
//! every partition (a real partition holds many; the sample's few would be chance). The
//! job's own compute (two instances) is not modelled: both ends are floors.
//!
//! **Money.** The new container's throughput over the copy's whole clock hours, in every
//! region (serverless: the copy's RU at the price per million).
//!
//! **After.** The copy's throughput splits the new container's partitions as the engine's
//! raise does (⌈C / 10,000⌉); lowering it afterwards merges nothing, so reads that visit
//! every partition pay 2.5 RU for each partition the raise added.

use super::{CopyOrder, Inputs};
use crate::engine::{Epk, Throughput};
use crate::pricing::charge::{QUERY_RU_PER_PARTITION, RU_PER_TERM, create, read};
use crate::pricing::throughput::Model;
use crate::report::migration::{After, CopyCost, Range};
use crate::report::text::thousands;
use crate::stats::copy::Record;

/// The surcharge `--online` takes without `--online-surcharge`: writes charged double.
pub const ONLINE_SURCHARGE: f64 = 1.0;

/// The copy's cost and duration, the container after it, and what was assumed: its
/// records read in `order`.
pub fn copy(inp: &Inputs<'_>, order: &CopyOrder<'_>) -> (CopyCost, After, Vec<String>) {
    let mut notes = Vec::new();
    let serverless = inp.prices.model == Model::Serverless;
    let asked = inp.copy_ru.unwrap_or(inp.target.ru);
    let mut during = inp.target.container.clone();
    if !serverless {
        during.set_throughput(in_mode(during.throughput(), asked));
    }
    let partitions = during.partitions().len().max(1);
    // Serverless serves by its partitions, whatever is asked.
    let copy_ru = inp.prices.billing().capacity(asked, partitions);
    let partition_ru = (copy_ru / partitions as f64).min(during.limits().physical_ru);
    copy_notes(inp, partitions, &mut notes);
    // A value holding LARGE_VALUE of the container lands where its EPK routes it.
    let least = during.bytes() as f64 * LARGE_VALUE;
    let large = super::value_sizes(&during, |bytes| bytes as f64 >= least);
    let source = inp.source.container;
    let loads = Loads::of(inp, order, partitions, |r| {
        (large.contains_key(&r.to)).then(|| during.route(&Epk::from_bytes(r.to_epk.as_bytes())))
    });
    let (free, surcharge) = source_free(inp, &mut notes);
    let sources = source.partitions().len().max(1) as f64;
    let timing = (free > 0.0).then(|| loads.timing(free / sources, partition_ru, copy_ru));
    let cost = CopyCost {
        read_ru: loads.read,
        write_ru: loads.write,
        online_ru: (timing.as_ref())
            .filter(|_| inp.online.is_some() && inp.source.load_ru.is_some())
            .map(|t| surcharge * t.seconds.high),
        online_surcharge: inp.online,
        source_ru_free: free,
        copy_ru,
        copy_partitions: partitions,
        partition_ru,
        serverless,
        hottest_share: (loads.hottest() / loads.write.max(f64::MIN_POSITIVE)).clamp(0.0, 1.0),
        seconds: timing.as_ref().map(|t| t.seconds),
        bound: timing.as_ref().map(|t| t.bound.to_owned()),
        money: timing
            .as_ref()
            .map(|t| money(inp, copy_ru, loads.read + loads.write, t.seconds)),
    };
    let after = after(inp, during, cost.copy_partitions, copy_ru);
    (cost, after, notes)
}

/// What the copy's figures assume, in words.
fn copy_notes(inp: &Inputs<'_>, partitions: usize, notes: &mut Vec<String>) {
    let p = inp.prices;
    if p.model == Model::Serverless {
        notes.push("serverless: the new container serves 5,000 RU/s over up to five partitions and 1,000 more for each further one, and the copy is billed by its RU".to_owned());
    } else if inp.copy_ru.is_none() {
        notes.push(format!(
            "the new container is taken at its own {} RU/s during the copy (the docs advise twice the source's: give --copy-throughput to plan a raise, and see the partitions it leaves)",
            thousands(inp.target.ru.round())
        ));
    } else if partitions > inp.target.container.partitions().len() {
        notes.push("a raise that needs more partitions is asynchronous, typically 4-6 hours: the copy runs at the old throughput until the splits finish (not counted in the duration)".to_owned());
    }
    if p.reserved.is_some() {
        notes.push("reserved capacity is not applied to the copy: a temporary container's throughput beyond the reservation is billed at list price".to_owned());
    }
}

/// How long the copy takes and what bounds it.
struct Timing {
    seconds: Range,
    bound: &'static str,
}

/// `ru` in the mode of `t`.
fn in_mode(t: Throughput, ru: f64) -> Throughput {
    match t {
        Throughput::Manual(_) => Throughput::Manual(ru),
        Throughput::Autoscale(_) => Throughput::Autoscale(ru),
    }
}

/// The source's RU/s free for the copy's reads, and the RU/s its writes' surcharge takes
/// with `--online`.
fn source_free(inp: &Inputs<'_>, notes: &mut Vec<String>) -> (f64, f64) {
    let s = &inp.source;
    let load = match s.load_ru {
        Some(l) => l,
        None => {
            notes.push("the log gives no rates (or there is none): the source's whole throughput is taken as free for the copy's reads".to_owned());
            0.0
        }
    };
    let surcharge = inp.online.map_or(0.0, |f| load * s.write_share * f);
    if let Some(f) = inp.online {
        notes.push(format!(
            "online: the source's writes are charged {:.0}% extra during the copy (the docs say double; a training unit says 50-100% extra on replaces and deletes only: --online-surcharge sets it); an online copy reads the all-versions-and-deletes change feed, which needs continuous backup on the account",
            f * 100.0
        ));
    }
    // Serverless serves by its partitions; manual and autoscale, what is provisioned.
    let capacity = (inp.prices.billing()).capacity(s.ru, s.container.partitions().len());
    (capacity - load - surcharge, surcharge)
}

/// The copy's RU by where they land: per slice of the read order (a source partition),
/// its reads, the writes of values too small to matter where they land (spread over every
/// new partition, as the many values a partition of a real container holds are) and the
/// writes of the large ones on their own partitions.
struct Loads {
    /// Read RU, whole copy.
    read: f64,
    /// Write RU, whole copy.
    write: f64,
    /// The new container's partitions.
    partitions: usize,
    /// Per slice: read RU, spread write RU, and write RU per partition of large values.
    slices: Vec<(f64, f64, Vec<f64>)>,
}

impl Loads {
    /// The loads of the records in `order` at `inp`'s weight, each in the slice of the
    /// source partition it is read from; a record of a large value written to the
    /// partition `route` gives.
    fn of(
        inp: &Inputs<'_>,
        order: &CopyOrder<'_>,
        partitions: usize,
        route: impl Fn(&Record) -> Option<usize>,
    ) -> Loads {
        let w = inp.weight();
        let mut l = Loads {
            read: 0.0,
            write: 0.0,
            partitions: partitions.max(1),
            slices: Vec::new(),
        };
        for &(i, r) in order {
            let (rd, wr) = charges(r, w);
            if l.slices.len() <= i {
                l.slices.resize(i + 1, (0.0, 0.0, Vec::new()));
            }
            l.read += rd;
            l.write += wr;
            let s = &mut l.slices[i];
            s.0 += rd;
            match route(r) {
                Some(p) => add_at(&mut s.2, p, wr),
                None => s.1 += wr,
            }
        }
        l.scale_to(exact(inp));
        l
    }

    /// Scales the kept records' loads to the copy's exact read and write RU.
    fn scale_to(&mut self, (read, write): (f64, f64)) {
        let r = ratio(read, self.read);
        let w = ratio(write, self.write);
        for (rd, spread, large) in &mut self.slices {
            *rd *= r;
            *spread *= w;
            large.iter_mut().for_each(|x| *x *= w);
        }
        (self.read, self.write) = (read, write);
    }

    /// Write RU per partition over the whole copy.
    fn per_partition(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.partitions];
        for (_, spread, large) in &self.slices {
            for (p, x) in out.iter_mut().enumerate() {
                *x += spread / self.partitions as f64 + large.get(p).copied().unwrap_or(0.0);
            }
        }
        out
    }

    /// The busiest partition's write RU.
    fn hottest(&self) -> f64 {
        self.per_partition().into_iter().fold(0.0, f64::max)
    }

    /// Seconds when each source partition is read alone, each at `per_source` RU/s, and
    /// takes as long as its slowest bound.
    fn slow(&self, per_source: f64, partition_ru: f64) -> f64 {
        (self.slices.iter())
            .map(|(rd, spread, large)| {
                let each = spread / self.partitions as f64;
                let w = (0..self.partitions)
                    .map(|p| each + large.get(p).copied().unwrap_or(0.0))
                    .fold(0.0, f64::max);
                (rd / per_source).max(w / partition_ru)
            })
            .sum()
    }

    /// The duration's bounds when each source partition gives the copy `per_source` RU/s
    /// and each new one takes `partition_ru` of the copy's `copy_ru`.
    fn timing(&self, per_source: f64, partition_ru: f64, copy_ru: f64) -> Timing {
        let busiest_source = self.slices.iter().map(|s| s.0).fold(0.0, f64::max);
        let reads = busiest_source / per_source;
        let writes = self.hottest() / partition_ru;
        let low = reads.max(writes);
        let high = self.slow(per_source, partition_ru).max(low);
        let bound = match () {
            _ if reads >= writes => "source reads",
            _ if writes > self.write / copy_ru * 1.05 => "hottest partition",
            _ => "target RU/s",
        };
        Timing {
            seconds: Range { low, high },
            bound,
        }
    }
}

/// A value holding at least this share of the container is placed where it lands; smaller
/// ones are spread over every partition (a real partition holds many of them).
pub const LARGE_VALUE: f64 = 0.01;

/// `a / b`, 1 when `b` is nothing.
fn ratio(a: f64, b: f64) -> f64 {
    match b > 0.0 {
        true => a / b,
        false => 1.0,
    }
}

/// The copy's read and write RU over every document read, at the container's size: each
/// size class's count at the charge of its mean size (the charges are linear within it),
/// and 0.2 RU per indexed term.
fn exact(inp: &Inputs<'_>) -> (f64, f64) {
    let scale = inp.storage_bytes as f64 / inp.input.bytes.max(1) as f64;
    let (mut rd, mut wr) = (0.0, 0.0);
    for &(n, bytes, terms) in &inp.trace.sizes.classes {
        if n == 0 {
            continue;
        }
        let mean = bytes as f64 / n as f64;
        rd += read(mean) * n as f64;
        wr += create(mean, 0.0) * n as f64 + RU_PER_TERM * terms as f64;
    }
    (rd * scale, wr * scale)
}

/// Adds `x` at `i`, growing `v` as needed.
fn add_at(v: &mut Vec<f64>, i: usize, x: f64) {
    if v.len() <= i {
        v.resize(i + 1, 0.0);
    }
    v[i] += x;
}

/// The read and write RU of the items one record stands for (`w` of them).
pub fn charges(r: &Record, w: f64) -> (f64, f64) {
    let bytes = f64::from(r.bytes);
    (read(bytes) * w, create(bytes, f64::from(r.terms)) * w)
}

/// USD for the copy: the new container's `copy_ru` over its whole clock hours in every
/// region (the slow and fast ends) at list price (a reservation covers the steady
/// throughput, not a temporary one), or serverless, its `ru` at the price per million.
fn money(inp: &Inputs<'_>, copy_ru: f64, ru: f64, seconds: Range) -> Range {
    let p = inp.prices;
    if p.model == Model::Serverless {
        let usd = ru / 1e6 * p.ru_million;
        return Range {
            low: usd,
            high: usd,
        };
    }
    let price = p.ru_hour(p.billing());
    let at = |s: f64| {
        let hours = (s / 3600.0).ceil().max(1.0);
        copy_ru / 100.0 * price * hours * f64::from(p.regions.max(1))
    };
    Range {
        low: at(seconds.low),
        high: at(seconds.high),
    }
}

/// The new container once the copy is done and its throughput is back at the workload's.
fn after(
    inp: &Inputs<'_>,
    mut during: crate::engine::Container,
    copied: usize,
    copy_ru: f64,
) -> After {
    let t = &inp.target;
    let workload_partitions = t.container.partitions().len();
    let limits = *during.limits();
    let created = in_mode(during.throughput(), copy_ru).even_partitions(inp.storage_bytes, &limits);
    if inp.prices.model != Model::Serverless {
        during.set_throughput(in_mode(during.throughput(), t.ru));
    }
    let partitions = during.partitions().len().max(copied);
    let added = partitions.saturating_sub(workload_partitions) as f64;
    let fan_out_extra_ru = match (t.replay.need_ru, t.replay.ru > 0.0) {
        (Some(need), true) => {
            Some(need * t.replay.fan_out_reads * QUERY_RU_PER_PARTITION * added / t.replay.ru)
        }
        _ => None,
    };
    After {
        workload_partitions,
        partitions,
        // Only a raise has another way to get there; no raise, one container.
        created_at_copy_partitions: match inp.prices.model {
            Model::Serverless => partitions,
            _ if copy_ru <= t.ru => partitions,
            _ => created.max(workload_partitions),
        },
        fan_out_extra_ru,
        ru: t.ru,
        // Serverless containers do not merge.
        merge_possible: inp.prices.model != Model::Serverless
            && crate::pricing::relief::merge_possible(
                t.ru,
                inp.storage_bytes,
                partitions,
                inp.prices.multi_region_writes,
            ),
    }
}
