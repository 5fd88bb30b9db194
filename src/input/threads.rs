//! Running the reader and the workers: all on the calling thread, or the calling thread
//! reading and `threads` workers parsing, with chunks passed over a bounded channel (so at
//! most `2 × threads + 1` chunks exist at once) and their buffers recycled back.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Mutex, PoisonError};

use super::chunk::{Chunk, ChunkBufs};
use super::error::InputError;
use super::extract::PathTrie;
use super::reader::ChunkReader;
use super::source::Source;
use super::worker::{Failure, Tally, Worker};
use super::{Progress, ReadOptions, ReadSummary, Sink};

/// Everything a run shares.
pub(crate) struct Run<'a> {
    pub sources: &'a [Source],
    pub trie: &'a PathTrie,
    pub names: &'a [String],
    pub opts: &'a ReadOptions,
    pub progress: &'a dyn Progress,
}

/// What a run produced.
pub(crate) struct Outcome<S> {
    sink: S,
    tally: Tally,
    failure: Option<Failure>,
    bytes: u64,
}

impl Run<'_> {
    /// Reads and parses on the calling thread.
    pub fn serial<S: Sink>(&self, make_sink: &(dyn Fn() -> S + Sync)) -> Outcome<S> {
        let mut reader = ChunkReader::new(self.sources, self.opts);
        let mut worker = Worker::new(self.trie, self.names, self.opts);
        let mut sink = make_sink();
        let mut bufs = ChunkBufs::default();
        let failure = loop {
            match reader.next_chunk(bufs) {
                Ok(Some(mut chunk)) => {
                    match worker.process(&mut chunk, &mut sink) {
                        Ok(docs) => self.progress.advance(chunk.raw, docs),
                        Err(f) => break Some(f),
                    }
                    bufs = chunk.into_bufs();
                }
                Ok(None) => break None,
                Err(f) => break Some(f),
            }
        };
        Outcome {
            sink,
            tally: worker.tally,
            failure,
            bytes: reader.bytes(),
        }
    }

    /// Reads on the calling thread while `threads` workers parse.
    pub fn parallel<S: Sink>(
        &self,
        make_sink: &(dyn Fn() -> S + Sync),
        threads: usize,
    ) -> Outcome<S> {
        // Chunk i goes to worker i mod threads: which documents each sink sees, and so
        // every merged statistic, does not depend on thread scheduling.
        let (txs, rxs): (Vec<_>, Vec<_>) =
            (0..threads).map(|_| mpsc::sync_channel::<Chunk>(1)).unzip();
        let (free_tx, free_rx) = mpsc::channel::<ChunkBufs>();
        // The global offset of the earliest failure so far: later chunks need no work.
        let stop = AtomicU64::new(u64::MAX);
        std::thread::scope(|scope| {
            let handles: Vec<_> = rxs
                .into_iter()
                .map(|rx| {
                    let (stop, free) = (&stop, free_tx.clone());
                    scope.spawn(move || self.work(&Mutex::new(rx), free, stop, make_sink))
                })
                .collect();
            drop(free_tx);
            let mut reader = ChunkReader::new(self.sources, self.opts);
            let reader_failure = feed(&mut reader, txs, &free_rx, &stop);
            let mut results = handles.into_iter().map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            let mut outcome = results.next().expect("at least one worker");
            for other in results {
                outcome.absorb(other);
            }
            outcome.failure = earliest(outcome.failure.take(), reader_failure);
            outcome.bytes = reader.bytes();
            outcome
        })
    }

    /// One worker thread: parses chunks until the channel closes.
    fn work<S: Sink>(
        &self,
        rx: &Mutex<Receiver<Chunk>>,
        free: Sender<ChunkBufs>,
        stop: &AtomicU64,
        make_sink: &(dyn Fn() -> S + Sync),
    ) -> Outcome<S> {
        let mut worker = Worker::new(self.trie, self.names, self.opts);
        let mut sink = make_sink();
        let mut failure = None;
        loop {
            let next = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
            let Ok(mut chunk) = next else { break };
            // A chunk that starts after a known failure cannot hold an earlier one.
            if chunk.offset <= stop.load(Ordering::Relaxed) {
                match worker.process(&mut chunk, &mut sink) {
                    Ok(docs) => self.progress.advance(chunk.raw, docs),
                    Err(f) => {
                        stop.fetch_min(f.offset, Ordering::Relaxed);
                        failure = earliest(failure, Some(f));
                    }
                }
            }
            // The reader may have finished; then the buffer is simply dropped.
            let _ = free.send(chunk.into_bufs());
        }
        Outcome {
            sink,
            tally: worker.tally,
            failure,
            bytes: 0,
        }
    }
}

/// The reader's loop: chunks into the channel until the input ends or a failure is known.
fn feed(
    reader: &mut ChunkReader<'_>,
    txs: Vec<SyncSender<Chunk>>,
    free: &Receiver<ChunkBufs>,
    stop: &AtomicU64,
) -> Option<Failure> {
    let mut next = 0;
    while stop.load(Ordering::Relaxed) == u64::MAX {
        let bufs = free.try_recv().unwrap_or_default();
        match reader.next_chunk(bufs) {
            Ok(Some(chunk)) => {
                if txs[next % txs.len()].send(chunk).is_err() {
                    return None;
                }
                next += 1;
            }
            Ok(None) => return None,
            Err(f) => {
                stop.fetch_min(f.offset, Ordering::Relaxed);
                return Some(f);
            }
        }
    }
    None
}

fn earliest(a: Option<Failure>, b: Option<Failure>) -> Option<Failure> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.offset < a.offset { b } else { a }),
        (a, b) => a.or(b),
    }
}

impl<S: Sink> Outcome<S> {
    fn absorb(&mut self, other: Outcome<S>) {
        self.sink.merge(other.sink);
        self.tally.merge(other.tally);
        self.failure = earliest(self.failure.take(), other.failure);
    }

    /// The result: the earliest failure, or the sink and summary — unless there were no
    /// documents at all.
    pub fn finish(self, names: &[String]) -> Result<(S, ReadSummary), InputError> {
        if let Some(f) = self.failure {
            return Err(f.error);
        }
        let t = self.tally;
        if t.documents == 0 {
            let names = names.join(", ");
            return Err(match t.first_invalid {
                Some((_, first)) => InputError::NoValid {
                    names,
                    invalid: t.invalid,
                    first,
                },
                None => InputError::Empty { names },
            });
        }
        let summary = ReadSummary {
            documents: t.documents,
            bytes: t.bytes,
            invalid: t.invalid,
            first_invalid: t.first_invalid.map(|f| f.1),
        };
        let mut sink = self.sink;
        sink.finish();
        Ok((sink, summary))
    }
}
