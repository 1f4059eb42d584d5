//! Checks before any search: inputs no layout can satisfy are refused at
//! once with a plain reason (a room needing more doors than its templates
//! have, two connected rooms whose doors never meet, a unique template two
//! rooms cannot do without, a template bigger than the map), instead of
//! after every attempt has failed.

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
    for edge in &graph.edges {
        let meet = node_shapes[edge.a].iter().any(|&sa| {
            node_shapes[edge.b].iter().any(|&sb| {
                shapes[sa].doors.iter().any(|da| {
                    shapes[sb].doors.iter().any(|db| {
                        da.socket == db.socket
                            && (problem.joints != Joints::Shared
                                || (da.dir.0 + db.dir.0, da.dir.1 + db.dir.1) == (0, 0))
                    })
                })
            })
        });
        if !meet {
            return Err(format!(
                "room \"{}\": no template has a door that can face \"{}\" (their sockets or sides never meet)",
                graph.nodes[edge.b].name, graph.nodes[edge.a].name
            ));
        }
    }
    // A unique template that two rooms both need, having nothing else.
    for (t, spec) in problem.templates.iter().enumerate() {
        if !spec.unique {
            continue;
        }
        let only: Vec<&str> = graph
            .nodes
            .iter()
            .filter(|node| node.templates.iter().all(|&u| u == t))
            .map(|node| node.name.as_str())
            .take(2)
            .collect();
        if let [a, b] = only[..] {
            return Err(format!(
                "template \"{}\" is unique but rooms \"{a}\" and \"{b}\" have no other",
                spec.name
            ));
        }
    }
    Ok(())
}
