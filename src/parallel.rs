//! Independent work spread over threads, its results in input order whatever the
//! scheduling.

use std::sync::Mutex;

/// `f(i, item)` for every item, on at most `threads` threads (each takes the next item when
/// it is done with one), the results in item order. One thread, or one item, runs on the
/// calling thread.
pub fn map<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: &(dyn Fn(usize, T) -> R + Sync),
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items
            .into_iter()
            .enumerate()
            .map(|(i, t)| f(i, t))
            .collect();
    }
    let queue = Mutex::new(items.into_iter().enumerate());
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let next = queue.lock().map(|mut q| q.next()).unwrap_or(None);
                        let Some((i, item)) = next else { break };
                        out.push((i, f(i, item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_item_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..50).collect();
        for threads in [0, 1, 2, 3, 64] {
            let out = map(items.clone(), threads, &|i, x| {
                // Uneven work, so that threads finish out of order.
                std::thread::sleep(std::time::Duration::from_micros((x * 7919) % 300));
                (i as u64, x * x)
            });
            let want: Vec<(u64, u64)> = items.iter().map(|&x| (x, x * x)).collect();
            assert_eq!(out, want, "{threads} threads");
        }
    }

    #[test]
    fn no_items_no_results() {
        let out: Vec<u8> = map(Vec::<u8>::new(), 4, &|_, x| x);
        assert!(out.is_empty());
    }
}
