//! Terraform's override files (`override.tf`, `*_override.tf`): read after the others, each
//! top-level block merged into the block of the same type and labels instead of declaring a
//! second one. An override's attributes replace the original's of the same name; its nested
//! blocks replace every nested block of their type; a `locals` override replaces the locals
//! of the same name. A block that overrides nothing is an error, as Terraform makes it.

use hcl::{Block, Body, Structure};

/// Whether `name` (a path) is an override file.
pub fn is_override(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = (base
        .strip_suffix(".tf.json")
        .or_else(|| base.strip_suffix(".tf")))
    .unwrap_or(base);
    stem == "override" || stem.ends_with("_override")
}

/// `base` with the blocks of `over` (the structures of override file `file`) merged in.
pub fn merge(base: &mut Vec<Structure>, file: &str, over: Body) -> Result<(), String> {
    for s in over.0 {
        match s {
            Structure::Block(b) if b.identifier.as_str() == "locals" => merge_locals(base, b),
            Structure::Block(b) if b.identifier.as_str() == "terraform" => {}
            Structure::Block(b) => {
                let target = base.iter_mut().find_map(|s| match s {
                    Structure::Block(o) if o.identifier == b.identifier && o.labels == b.labels => {
                        Some(o)
                    }
                    _ => None,
                });
                match target {
                    Some(o) => merge_block(o, b),
                    None => {
                        let labels: Vec<&str> = b.labels.iter().map(|l| l.as_str()).collect();
                        return Err(format!(
                            "{file}: {} {} overrides no block of the module (an override file changes blocks other files declare)",
                            b.identifier.as_str(),
                            labels.join(".")
                        ));
                    }
                }
            }
            Structure::Attribute(a) => base.push(Structure::Attribute(a)),
        }
    }
    Ok(())
}

/// Replaces each local of `over` where a `locals` block of `base` declares it, else adds it.
fn merge_locals(base: &mut Vec<Structure>, over: Block) {
    for s in over.body.0 {
        let Structure::Attribute(a) = s else { continue };
        let existing = base.iter_mut().find_map(|s| match s {
            Structure::Block(b) if b.identifier.as_str() == "locals" => (b.body.0.iter_mut())
                .find_map(|x| match x {
                    Structure::Attribute(o) if o.key == a.key => Some(o),
                    _ => None,
                }),
            _ => None,
        });
        match existing {
            Some(o) => o.expr = a.expr,
            None => base.push(Structure::Block(Block {
                identifier: over.identifier.clone(),
                labels: Vec::new(),
                body: Body(vec![Structure::Attribute(a)]),
            })),
        }
    }
}

/// Merges `over` into `o`: attributes replaced by name, nested blocks replaced by type.
fn merge_block(o: &mut Block, over: Block) {
    let replaced: Vec<hcl::Identifier> = (over.body.0.iter())
        .filter_map(|s| match s {
            Structure::Block(b) => Some(b.identifier.clone()),
            _ => None,
        })
        .collect();
    o.body
        .0
        .retain(|s| !matches!(s, Structure::Block(b) if replaced.contains(&b.identifier)));
    for s in over.body.0 {
        match s {
            Structure::Attribute(a) => {
                match (o.body.0.iter_mut()).find_map(|x| match x {
                    Structure::Attribute(e) if e.key == a.key => Some(e),
                    _ => None,
                }) {
                    Some(e) => e.expr = a.expr,
                    None => o.body.0.push(Structure::Attribute(a)),
                }
            }
            block => o.body.0.push(block),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_files_are_named_as_terraform_names_them() {
        for (name, is) in [
            ("override.tf", true),
            ("dir/prod_override.tf", true),
            ("main.tf", false),
            ("overrides.tf", false),
            ("my-override.tf", false),
        ] {
            assert_eq!(is_override(name), is, "{name}");
        }
    }

    #[test]
    fn an_override_replaces_attributes_and_nested_blocks_of_its_block() {
        let base: Body = hcl::from_str(
            r#"resource "t" "a" {
  name = "x"
  key  = ["/a"]
  nested { v = 1 }
  nested { v = 2 }
}
locals { k = 1 }
"#,
        )
        .unwrap();
        let over: Body = hcl::from_str(
            r#"resource "t" "a" {
  key = ["/b"]
  nested { v = 3 }
}
locals { k = 2 }
"#,
        )
        .unwrap();
        let mut s = base.0;
        merge(&mut s, "override.tf", over).unwrap();
        let merged = hcl::to_string(&Body(s)).unwrap();
        assert_eq!(
            merged.matches("resource \"t\" \"a\"").count(),
            1,
            "{merged}"
        );
        assert!(merged.contains("name = \"x\""), "{merged}");
        assert!(
            merged.contains("key = [\n    \"/b\"\n  ]") || merged.contains("\"/b\""),
            "{merged}"
        );
        assert!(
            !merged.contains("\"/a\"") && !merged.contains("v = 1") && merged.contains("v = 3"),
            "{merged}"
        );
        assert!(
            merged.contains("k = 2") && !merged.contains("k = 1"),
            "{merged}"
        );
        let stray: Body = hcl::from_str("resource \"t\" \"b\" {\n  k = 1\n}\n").unwrap();
        let err = merge(&mut Vec::new(), "x_override.tf", stray).unwrap_err();
        assert!(err.contains("resource t.b overrides no block"), "{err}");
    }
}
