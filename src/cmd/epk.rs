//! `pkadvisor epk`: the effective partition key of a key value.

use std::io::Write;

use anyhow::{Result, bail};

use pkadvisor::engine::{KeyPath, PartitionKeyDefinition, PartitionKind, PkValue, PkValueRef};

use super::Exit;
use crate::cli::{EpkArgs, KindArg};

/// The validated request.
struct EpkOptions {
    definition: PartitionKeyDefinition,
    values: Vec<PkValue>,
}

fn options(args: EpkArgs) -> Result<EpkOptions> {
    let values = args
        .values
        .iter()
        .map(|v| PkValue::parse_literal(v).map_err(anyhow::Error::msg))
        .collect::<Result<Vec<_>>>()?;
    let (kind, version, paths) = match args.kind {
        KindArg::Hash => {
            let paths = args.paths.map_or(1, usize::from);
            if paths != 1 {
                bail!("--kind hash has exactly one path, not {paths} (use --kind multihash)");
            }
            (PartitionKind::Hash, args.version.unwrap_or(2), 1)
        }
        KindArg::Multihash => {
            if args.version == Some(1) {
                bail!("--kind multihash is always version 2 (there is no MultiHash V1)");
            }
            let paths = args.paths.map_or(values.len(), usize::from);
            if paths > 3 || values.len() > 3 {
                bail!(
                    "a hierarchical key has at most 3 paths, not {}",
                    paths.max(values.len())
                );
            }
            (PartitionKind::MultiHash, 2, paths)
        }
    };
    if values.len() > paths {
        bail!(
            "{} values given but the key has {paths} path(s)",
            values.len()
        );
    }
    let placeholder: Vec<KeyPath> = (1..=paths)
        .map(|i| KeyPath::from_segments([format!("p{i}")]))
        .collect();
    let definition = PartitionKeyDefinition::new(placeholder, kind, version)?;
    Ok(EpkOptions { definition, values })
}

/// Prints the EPK, or `MIN MAX` for a MultiHash prefix.
pub fn run(args: EpkArgs) -> Result<Exit> {
    let opts = options(args)?;
    let refs: Vec<PkValueRef<'_>> = opts.values.iter().map(PkValue::as_ref).collect();
    let range = opts.definition.range(&refs)?;
    let mut out = std::io::stdout().lock();
    if refs.len() == opts.definition.paths().len() {
        writeln!(out, "{}", range.min)?;
    } else {
        writeln!(out, "{} {}", range.min, range.max)?;
    }
    Ok(Exit::Ok)
}
