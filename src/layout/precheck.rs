//! Checks before any search: inputs no layout can satisfy are refused at
//! once with a plain reason (a room needing more doors than its templates
//! have, two connected rooms whose doors never meet, a unique template two
//! rooms cannot do without, a template bigger than the map), instead of
//! after every attempt has failed.

use std::collections::BTreeSet;

use super::shapes::Shape;
use super::{Joints, Problem};

/// `Err(reason)` when the problem cannot be solved. `node_shapes` are the
/// shapes each node may use that fit the `w x h` map.
pub fn check(
    problem: &Problem,
    shapes: &[Shape],
    node_shapes: &[Vec<usize>],
    w: i32,
    h: i32,
) -> Result<(), String> {
    let graph = &problem.graph;
    let incident = graph.incident();
    let template_name = |t: usize| problem.templates[t].name.as_str();
    for (n, node) in graph.nodes.iter().enumerate() {
        let needed = incident[n].len();
        if node_shapes[n].is_empty() {
            return Err(format!(
                "room \"{}\": none of its templates fits the {w}x{h} map",
                node.name
            ));
        }
        let most = node_shapes[n]
            .iter()
            .map(|&s| (shapes[s].doors.len(), shapes[s].template))
            .max_by_key(|&(d, t)| (d, std::cmp::Reverse(t)));
        if let Some((most, t)) = most {
            if most < needed {
                return Err(if most == 0 {
                    format!(
                        "room \"{}\" has {needed} connection(s) but its template \"{}\" has no door places (mark them in the legend with door = true)",
                        node.name,
                        template_name(t)
                    )
                } else {
                    format!(
                        "room \"{}\" has {needed} connections but its templates have at most {most} door places (template \"{}\")",
                        node.name,
                        template_name(t)
                    )
                });
            }
        }
    }
    // The (socket, side) of every door each room's shapes have: a few
    // entries, so each edge is checked without pairing door lists.
    let sides: Vec<BTreeSet<(u32, (i32, i32))>> = node_shapes
        .iter()
        .map(|list| {
            list.iter()
                .flat_map(|&s| shapes[s].doors.iter().map(|d| (d.socket, d.dir)))
                .collect()
        })
        .collect();
    for edge in &graph.edges {
        let meet = sides[edge.a].iter().any(|&(socket, (dx, dy))| {
            if problem.joints == Joints::Shared {
                sides[edge.b].contains(&(socket, (-dx, -dy)))
            } else {
                sides[edge.b].iter().any(|&(other, _)| other == socket)
            }
        });
        if !meet {
            return Err(format!(
                "room \"{}\": no template has a door that can face \"{}\" (their sockets or sides never meet)",
                graph.nodes[edge.b].name, graph.nodes[edge.a].name
            ));
        }
    }
    // A unique template that two rooms both need, having nothing else.
    let mut only: Vec<Option<&str>> = vec![None; problem.templates.len()];
    for node in &graph.nodes {
        let Some(&t) = node.templates.first() else {
            continue;
        };
        if !problem.templates[t].unique || node.templates.iter().any(|&u| u != t) {
            continue;
        }
        match only[t] {
            None => only[t] = Some(node.name.as_str()),
            Some(first) => {
                return Err(format!(
                    "template \"{}\" is unique but rooms \"{first}\" and \"{}\" have no other",
                    problem.templates[t].name, node.name
                ))
            }
        }
    }
    Ok(())
}
