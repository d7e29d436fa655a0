//! Writes tables' journals and finished hands on one thread, many tables per transaction:
//! each table's task waits for its write to be committed before telling anyone of the
//! change, and tables that change together share one commit (and one disk sync).

use std::sync::mpsc as std_mpsc;
use std::sync::Arc;

use crate::PlayError;
use store::{PlayWrite, Store};
use tokio::sync::oneshot;

type Job = (PlayWrite, oneshot::Sender<Result<(), PlayError>>);

/// The journal writer: threads (lanes) that commit batches and answer each when it is
/// durable. A table always writes through the same lane, so its writes stay in order; the
/// store says how many lanes gain from committing at once.
pub struct Writer {
    lanes: Vec<std_mpsc::Sender<Job>>,
    store: Arc<dyn Store>,
}

impl Writer {
    /// Starts the writer's threads over `store`.
    pub fn start(store: Arc<dyn Store>) -> Writer {
        let lanes = (0..store.writers().max(1))
            .map(|i| {
                let (tx, rx) = std_mpsc::channel::<Job>();
                let s = store.clone();
                std::thread::Builder::new()
                    .name(format!("dupmj-journal-{i}"))
                    .spawn(move || {
                        while let Ok(first) = rx.recv() {
                            let mut jobs = vec![first];
                            jobs.extend(rx.try_iter());
                            let results = write(s.as_ref(), &jobs);
                            for ((_, ack), result) in jobs.into_iter().zip(results) {
                                let _ = ack.send(result);
                            }
                        }
                    })
                    .expect("the journal thread starts");
                tx
            })
            .collect();
        Writer { lanes, store }
    }

    /// Writes what table `table` has to write; resolves once it is committed.
    pub async fn write(&self, table: i64, batch: PlayWrite) -> Result<(), PlayError> {
        if batch.is_empty() {
            return Ok(());
        }
        let (ack, done) = oneshot::channel();
        let lane = &self.lanes[table.rem_euclid(self.lanes.len() as i64) as usize];
        lane.send((batch, ack))
            .map_err(|_| PlayError::Internal("the journal thread has stopped".to_string()))?;
        done.await
            .map_err(|_| PlayError::Internal("the journal thread has stopped".to_string()))?
    }

    /// Writes journal entries of a new table directly (nothing else writes to it yet).
    pub fn write_now(
        &self,
        entries: impl Iterator<Item = (i64, u64, String)>,
    ) -> Result<(), PlayError> {
        let v: Vec<_> = entries.collect();
        self.store.append_journal(&v).map_err(PlayError::from)
    }
}

/// Everything `jobs` write in one transaction; one answer per job. When the shared
/// transaction is refused (one table's fence is stale: another node took it over), each
/// job is written on its own, so that only that table's write fails.
fn write(store: &dyn Store, jobs: &[Job]) -> Vec<Result<(), PlayError>> {
    if jobs.len() > 1 {
        let mut all = PlayWrite::default();
        for (w, _) in jobs {
            all.fences.extend(w.fences.iter().cloned());
            all.entries.extend(w.entries.iter().cloned());
            all.hands.extend(w.hands.iter().cloned());
            all.finished.extend(w.finished.iter().cloned());
            all.lobby.extend(w.lobby.iter().cloned());
        }
        if store.write_play(&all).is_ok() {
            return vec![Ok(()); jobs.len()];
        }
    }
    jobs.iter()
        .map(|(w, _)| store.write_play(w).map_err(PlayError::from))
        .collect()
}
