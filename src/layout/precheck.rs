//! Checks before any search: inputs no layout can satisfy are refused at
//! once with a plain reason (a room needing more doors than its templates
//! have, two connected rooms whose doors never meet, a unique template two
//! rooms cannot do without, a template bigger than the map), instead of
//! after every attempt has failed.

use rustc_hash::{FxHashMap, FxHashSet};

use super::shapes::Shape;
use super::{Joints, Problem};

/// Budget units for putting one door's key in a list or a set (2-3 ns
/// measured; a unit is about 4 ns of Lua, and a set bigger than the
/// cache is slower).
const UNITS_PER_KEY: u64 = 2;
/// Budget units a key for sorting a list of them.
const UNITS_PER_SORTED_KEY: u64 = 4;
/// Budget units for looking one key up in a set (as putting one in).
const UNITS_PER_LOOKUP: u64 = 2;
/// Budget units for an edge, besides its keys and its rooms' template
/// lists.
const UNITS_PER_EDGE: u64 = 16;

/// `Ok(Err(reason))` when the problem cannot be solved. `node_shapes` are
/// the shapes each node may use that fit the `w x h` map. Every step is
/// charged to `charge` before it is done; `Err` when it refused.
pub fn check<E>(
    problem: &Problem,
    shapes: &[Shape],
    node_shapes: &[Vec<usize>],
    w: i32,
    h: i32,
    charge: &mut dyn FnMut(u64) -> Result<(), E>,
) -> Result<Result<(), String>, E> {
    let graph = &problem.graph;
    charge(graph.nodes.len() as u64 + graph.edges.len() as u64 * 2 + 1)?;
    let incident = graph.incident();
    let template_name = |t: usize| problem.templates[t].name.as_str();
    for (n, node) in graph.nodes.iter().enumerate() {
        let needed = incident[n].len();
        charge(node_shapes[n].len() as u64 + 1)?;
        if node_shapes[n].is_empty() {
            return Ok(Err(format!(
                "room \"{}\": none of its templates fits the {w}x{h} map",
                node.name
            )));
        }
        let most = node_shapes[n]
            .iter()
            .map(|&s| (shapes[s].doors.len(), shapes[s].template))
            .max_by_key(|&(d, t)| (d, std::cmp::Reverse(t)));
        if let Some((most, t)) = most {
            if most < needed {
                return Ok(Err(if most == 0 {
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
                }));
            }
        }
    }
    // Whether each edge's rooms have doors that can meet: the doors of one
    // end's shapes as a set of keys (the socket, and for a shared door its
    // side), looked up with every door of the other end's shapes (the side
    // it would need), template by template. Rooms with the same template
    // list give the same answer, so each pair of lists is looked at once.
    // Everything is charged as it goes, before it is done.
    let shared = problem.joints == Joints::Shared;
    let key = |socket: u32, (dx, dy): (i32, i32)| -> u64 {
        if shared {
            // A side is -1, 0 or 1 on each axis: two bits each.
            (socket as u64) << 4 | ((dx + 1) as u64) << 2 | (dy + 1) as u64
        } else {
            socket as u64
        }
    };
    // Each template's keys, from its shapes that fit the map: what a room
    // using it offers, and (the sides turned round) what it would need.
    // With corridors a key is the socket alone, so what a template needs
    // is what it offers: that one list is built and used for both.
    charge(shapes.len() as u64 + problem.templates.len() as u64 + 1)?;
    let mut offers: Vec<Vec<u64>> = vec![Vec::new(); problem.templates.len()];
    let mut needs: Vec<Vec<u64>> = if shared {
        vec![Vec::new(); problem.templates.len()]
    } else {
        Vec::new()
    };
    for shape in shapes.iter().filter(|s| s.w <= w && s.h <= h) {
        charge(shape.doors.len() as u64 * UNITS_PER_KEY)?;
        for d in &shape.doors {
            offers[shape.template].push(key(d.socket, d.dir));
            if shared {
                needs[shape.template].push(key(d.socket, (-d.dir.0, -d.dir.1)));
            }
        }
    }
    for keys in offers.iter_mut().chain(needs.iter_mut()) {
        charge(keys.len() as u64 * UNITS_PER_SORTED_KEY + 1)?;
        keys.sort_unstable();
        keys.dedup();
    }
    let wants: &[Vec<u64>] = if shared { &needs } else { &offers };
    let mut met: FxHashMap<(&[usize], &[usize]), bool> = FxHashMap::default();
    let mut set: (Option<&[usize]>, FxHashSet<u64>) = (None, FxHashSet::default());
    for edge in &graph.edges {
        let (a, b) = (
            graph.nodes[edge.a].templates.as_slice(),
            graph.nodes[edge.b].templates.as_slice(),
        );
        charge(UNITS_PER_EDGE + a.len() as u64 + b.len() as u64)?;
        if let Some(&meet) = met.get(&(a, b)) {
            if meet {
                continue;
            }
        } else {
            if set.0 != Some(a) {
                set.1.clear();
                for &t in a {
                    charge(offers[t].len() as u64 * UNITS_PER_KEY + 1)?;
                    set.1.extend(&offers[t]);
                }
                set.0 = Some(a);
            }
            let mut meet = false;
            for &t in b {
                charge(wants[t].len() as u64 * UNITS_PER_LOOKUP + 1)?;
                if wants[t].iter().any(|k| set.1.contains(k)) {
                    meet = true;
                    break;
                }
            }
            met.insert((a, b), meet);
            if meet {
                continue;
            }
        }
        return Ok(Err(format!(
            "room \"{}\": no template has a door that can face \"{}\" (their sockets or sides never meet)",
            graph.nodes[edge.b].name, graph.nodes[edge.a].name
        )));
    }
    // A unique template that two rooms both need, having nothing else.
    let mut only: Vec<Option<&str>> = vec![None; problem.templates.len()];
    for node in &graph.nodes {
        charge(node.templates.len() as u64 + 1)?;
        let Some(&t) = node.templates.first() else {
            continue;
        };
        if !problem.templates[t].unique || node.templates.iter().any(|&u| u != t) {
            continue;
        }
        match only[t] {
            None => only[t] = Some(node.name.as_str()),
            Some(first) => {
                return Ok(Err(format!(
                    "template \"{}\" is unique but rooms \"{first}\" and \"{}\" have no other",
                    problem.templates[t].name, node.name
                )))
            }
        }
    }
    Ok(Ok(()))
}
