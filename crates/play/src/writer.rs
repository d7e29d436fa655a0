//! Writes tables' journals and finished hands on one thread, many tables per transaction:
//! each table's task waits for its write to be committed before telling anyone of the
//! change, and tables that change together share one commit (and one disk sync).

use std::sync::mpsc as std_mpsc;
use std::sync::Arc;

use store::Store;
use tokio::sync::oneshot;

use super::room::FinishedHand;

/// What one table has to write.
#[derive(Default)]
pub struct Batch {
    /// Journal lines: (table id, line number, JSON entry).
    pub entries: Vec<(i64, u64, String)>,
    /// Hands that ended, by table id.
    pub hands: Vec<(i64, FinishedHand)>,
    /// The table is over: its settings are marked finished.
    pub finished: Option<(i64, String)>,
}

impl Batch {
    /// Whether there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.hands.is_empty() && self.finished.is_none()
    }
}

type Job = (Batch, oneshot::Sender<Result<(), String>>);

/// The journal writer: a thread that commits batches and answers each when it is durable.
pub struct Writer {
    tx: std_mpsc::Sender<Job>,
    store: Arc<dyn Store>,
}

impl Writer {
    /// Starts the writer's thread over `store`.
    pub fn start(store: Arc<dyn Store>) -> Writer {
        let (tx, rx) = std_mpsc::channel::<Job>();
        let s = store.clone();
        std::thread::Builder::new()
            .name("dupmj-journal".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut jobs = vec![first];
                    jobs.extend(rx.try_iter());
                    let result = write(s.as_ref(), &jobs);
                    for (_, ack) in jobs {
                        let _ = ack.send(result.clone());
                    }
                }
            })
            .expect("the journal thread starts");
        Writer { tx, store }
    }

    /// Writes a batch; resolves once it is committed.
    pub async fn write(&self, batch: Batch) -> Result<(), String> {
        if batch.is_empty() {
            return Ok(());
        }
        let (ack, done) = oneshot::channel();
        self.tx
            .send((batch, ack))
            .map_err(|_| "the journal thread has stopped".to_string())?;
        done.await
            .map_err(|_| "the journal thread has stopped".to_string())?
    }

    /// Writes journal entries of a new table directly (nothing else writes to it yet).
    pub fn write_now(
        &self,
        entries: impl Iterator<Item = (i64, u64, String)>,
    ) -> Result<(), String> {
        let v: Vec<_> = entries.collect();
        self.store.append_journal(&v).map_err(|e| e.to_string())
    }
}

fn write(store: &dyn Store, jobs: &[Job]) -> Result<(), String> {
    let entries: Vec<(i64, u64, String)> = jobs
        .iter()
        .flat_map(|(b, _)| b.entries.iter().cloned())
        .collect();
    if !entries.is_empty() {
        store.append_journal(&entries).map_err(|e| e.to_string())?;
    }
    for (b, _) in jobs {
        for (table, h) in &b.hands {
            let summary = serde_json::to_string(&h.summary).map_err(|e| e.to_string())?;
            let log = serde_json::to_string(&h.log).map_err(|e| e.to_string())?;
            store
                .save_hand(
                    *table,
                    h.summary.hand_no as u32,
                    h.deal_key.as_deref(),
                    &summary,
                    &log,
                )
                .map_err(|e| e.to_string())?;
        }
        if let Some((table, spec)) = &b.finished {
            store
                .update_play_table(*table, spec, true)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
