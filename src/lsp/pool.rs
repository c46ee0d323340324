//! A fixed set of worker threads that answer read-only requests. Its queue is bounded: when
//! the client stops reading the answers, the workers wait on the full outbox, the queue fills,
//! and the loop stops taking requests (so stops reading stdin) instead of starting a thread
//! per request.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// Work for a thread of the pool.
pub type Job = Box<dyn FnOnce() + Send>;

/// The worker threads and their queue.
pub struct Pool {
    jobs: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts up to `threads` workers sharing a queue of `queue` jobs. A thread the system
    /// refuses is not an error: with none at all, [`Pool::run`] works on the caller's thread.
    pub fn new(threads: usize, queue: usize) -> Pool {
        let (tx, rx) = sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        let workers: Vec<JoinHandle<()>> = (0..threads)
            .filter_map(|i| {
                let rx = rx.clone();
                std::thread::Builder::new()
                    .name(format!("rulebook-lsp-worker-{i}"))
                    .spawn(move || work(&rx))
                    .ok()
            })
            .collect();
        Pool {
            jobs: (!workers.is_empty()).then_some(tx),
            workers,
        }
    }

    /// The number of workers that were started.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Queues `job`, waiting while the queue is full; runs it here when there are no workers.
    pub fn run(&self, job: Job) {
        match &self.jobs {
            Some(tx) => {
                if let Err(e) = tx.send(job) {
                    // Every worker is gone (each one's job panicked): answer here.
                    (e.0)();
                }
            }
            None => job(),
        }
    }

    /// Lets the queued jobs finish and ends the workers.
    pub fn finish(mut self) {
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// A worker: takes jobs until the queue is closed.
fn work(rx: &Mutex<Receiver<Job>>) {
    loop {
        // A worker whose job panicked held no lock then; the queue stays usable.
        let job = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_job_runs_on_a_fixed_number_of_threads() {
        let pool = Pool::new(2, 4);
        assert_eq!(pool.threads(), 2);
        let done = Arc::new(AtomicUsize::new(0));
        for _ in 0..100 {
            let done = done.clone();
            pool.run(Box::new(move || {
                done.fetch_add(1, Ordering::SeqCst);
            }));
        }
        pool.finish();
        assert_eq!(done.load(Ordering::SeqCst), 100);
    }

    #[test]
    fn without_threads_jobs_run_on_the_caller() {
        let pool = Pool::new(0, 1);
        let here = std::thread::current().id();
        let ran_on = Arc::new(Mutex::new(None));
        let r = ran_on.clone();
        pool.run(Box::new(move || {
            *r.lock().unwrap() = Some(std::thread::current().id());
        }));
        assert_eq!(*ran_on.lock().unwrap(), Some(here));
    }
}
