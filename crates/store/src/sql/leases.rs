//! Table leases, nodes and duties.

use super::{args, Backend, Db, Sql, SqlExt};
use crate::{now_ms, LeaseStore, NodeInfo, Result, StoreError, TableOwner};

/// Refuses the write unless every fence is the table's current one.
pub(super) fn check_fences(tx: &mut dyn Sql, fences: &[(i64, u64)]) -> Result<()> {
    for &(table, fence) in fences {
        let current: Option<u64> = match tx.opt(
            "SELECT fence FROM table_leases WHERE play_table = ?1",
            args![table],
        )? {
            Some(r) => Some(r.get(0)?),
            None => None,
        };
        if current != Some(fence) {
            return Err(StoreError::Invalid(format!(
                "table {table}: this node's lease (fence {fence}) was taken over (fence now {}); it no longer plays the table",
                current.map_or("none".to_string(), |f| f.to_string())
            )));
        }
    }
    Ok(())
}

fn node_info(r: &super::Row) -> Result<NodeInfo> {
    Ok(NodeInfo {
        name: r.get(0)?,
        url: r.get(1)?,
        seen: r.get(2)?,
    })
}

impl<B: Backend> LeaseStore for Db<B> {
    fn claim_table(&self, table: i64, node: &str, ttl_ms: u64, force: bool) -> Result<Option<u64>> {
        self.change(|tx| {
            let now = now_ms();
            let until = now + ttl_ms as i64;
            let held = tx.opt(
                "SELECT node, fence, expires FROM table_leases WHERE play_table = ?1",
                args![table],
            )?;
            let Some(r) = held else {
                tx.exec(
                    "INSERT INTO table_leases (play_table, node, fence, expires) VALUES (?1, ?2, 1, ?3)",
                    args![table, node, until],
                )?;
                return Ok(Some(1));
            };
            let (owner, fence, expires): (String, u64, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
            // A lease let go (expires 0) is taken with a new fence, even by the same node:
            // the task that held it has ended.
            if owner == node && expires > 0 {
                tx.exec(
                    "UPDATE table_leases SET expires = ?2 WHERE play_table = ?1",
                    args![table, until],
                )?;
                return Ok(Some(fence));
            }
            if expires > now && !force {
                return Ok(None);
            }
            tx.exec(
                "UPDATE table_leases SET node = ?2, fence = ?3, expires = ?4 WHERE play_table = ?1",
                args![table, node, fence + 1, until],
            )?;
            Ok(Some(fence + 1))
        })
    }

    fn renew_tables(&self, node: &str, tables: &[(i64, u64)], ttl_ms: u64) -> Result<Vec<i64>> {
        self.change(|tx| {
            let until = now_ms() + ttl_ms as i64;
            let mut lost = Vec::new();
            for &(table, fence) in tables {
                let n = tx.exec(
                    "UPDATE table_leases SET expires = ?4 WHERE play_table = ?1 AND node = ?2 AND fence = ?3 AND expires > 0",
                    args![table, node, fence, until],
                )?;
                if n == 0 {
                    lost.push(table);
                }
            }
            Ok(lost)
        })
    }

    fn release_table(&self, table: i64, node: &str, fence: u64) -> Result<()> {
        self.change(|tx| {
            // Expired now, fence kept: the next owner still gets a larger one.
            tx.exec(
                "UPDATE table_leases SET expires = 0 WHERE play_table = ?1 AND node = ?2 AND fence = ?3",
                args![table, node, fence],
            )?;
            Ok(())
        })
    }

    fn table_owner(&self, table: i64) -> Result<Option<TableOwner>> {
        match self.read(|c| {
            c.opt(
                "SELECT node, fence, expires FROM table_leases WHERE play_table = ?1",
                args![table],
            )
        })? {
            Some(r) => Ok(Some(TableOwner {
                node: r.get(0)?,
                fence: r.get(1)?,
                expires: r.get(2)?,
            })),
            None => Ok(None),
        }
    }

    fn unheld_tables(&self) -> Result<Vec<i64>> {
        self.read(|c| {
            c.column(
                "SELECT t.id FROM play_tables t LEFT JOIN table_leases l ON l.play_table = t.id \
                 WHERE t.finished = 0 AND (l.play_table IS NULL OR l.expires <= ?1) ORDER BY t.id",
                args![now_ms()],
            )
        })
    }

    fn journal_fences(&self, table: i64) -> Result<Vec<Option<u64>>> {
        self.read(|c| {
            c.column(
                "SELECT fence FROM play_journal WHERE play_table = ?1 ORDER BY seq",
                args![table],
            )
        })
    }

    fn node_alive(&self, name: &str, url: &str) -> Result<()> {
        self.change(|tx| {
            tx.exec(
                "INSERT INTO nodes (name, url, seen) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (name) DO UPDATE SET url = ?2, seen = ?3",
                args![name, url, now_ms()],
            )?;
            Ok(())
        })
    }

    fn node(&self, name: &str) -> Result<Option<NodeInfo>> {
        match self.read(|c| {
            c.opt(
                "SELECT name, url, seen FROM nodes WHERE name = ?1",
                args![name],
            )
        })? {
            Some(r) => Ok(Some(node_info(&r)?)),
            None => Ok(None),
        }
    }

    fn nodes(&self) -> Result<Vec<NodeInfo>> {
        let rows =
            self.read(|c| c.query("SELECT name, url, seen FROM nodes ORDER BY name", &[]))?;
        rows.iter().map(node_info).collect()
    }

    fn hold_duty(&self, duty: &str, node: &str, ttl_ms: u64) -> Result<bool> {
        self.change(|tx| {
            let now = now_ms();
            let until = now + ttl_ms as i64;
            let n = tx.exec(
                "UPDATE node_duties SET node = ?2, expires = ?3 WHERE duty = ?1 AND (node = ?2 OR expires <= ?4)",
                args![duty, node, until, now],
            )?;
            if n > 0 {
                return Ok(true);
            }
            let n = tx.exec(
                "INSERT INTO node_duties (duty, node, expires) VALUES (?1, ?2, ?3) ON CONFLICT (duty) DO NOTHING",
                args![duty, node, until],
            )?;
            Ok(n > 0)
        })
    }
}
