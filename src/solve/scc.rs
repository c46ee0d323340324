//! Tarjan's strongly connected components, iterative.
//!
//! petgraph's `tarjan_scc` recurses once per node on the DFS path, so a dependency chain of
//! 100,000 variables would overflow the stack; this is the same algorithm with an explicit
//! stack, restricted to a subset of the graph's nodes.

use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};

/// The strongly connected components of the subgraph induced by `nodes` (each node once;
/// `in_subset` says whether a node belongs to it), in **reverse topological order** (every
/// component comes before the components that have edges into it), like petgraph's
/// `tarjan_scc`.
pub fn tarjan_scc_iterative<N, E>(
    graph: &DiGraph<N, E>,
    nodes: &[NodeIndex],
    in_subset: &dyn Fn(NodeIndex) -> bool,
) -> Vec<Vec<NodeIndex>> {
    const UNVISITED: u32 = u32::MAX;
    let n = graph.node_count();
    let mut index = vec![UNVISITED; n];
    let mut lowlink = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<NodeIndex> = Vec::new();
    let mut components = Vec::new();
    let mut next_index = 0u32;
    // DFS frames: the node and its remaining successors.
    let mut frames: Vec<(NodeIndex, Vec<NodeIndex>)> = Vec::new();

    for &root in nodes {
        if index.get(root.index()).copied() != Some(UNVISITED) {
            continue;
        }
        let succ = |v: NodeIndex| -> Vec<NodeIndex> {
            graph
                .neighbors_directed(v, Direction::Outgoing)
                .filter(|&w| in_subset(w))
                .collect()
        };
        let mut visit = |v: NodeIndex,
                         index: &mut Vec<u32>,
                         lowlink: &mut Vec<u32>,
                         on_stack: &mut Vec<bool>,
                         stack: &mut Vec<NodeIndex>,
                         frames: &mut Vec<(NodeIndex, Vec<NodeIndex>)>| {
            if let (Some(i), Some(l), Some(o)) = (
                index.get_mut(v.index()),
                lowlink.get_mut(v.index()),
                on_stack.get_mut(v.index()),
            ) {
                *i = next_index;
                *l = next_index;
                *o = true;
            }
            next_index = next_index.saturating_add(1);
            stack.push(v);
            frames.push((v, succ(v)));
        };
        visit(
            root,
            &mut index,
            &mut lowlink,
            &mut on_stack,
            &mut stack,
            &mut frames,
        );
        while let Some((v, rest)) = frames.last_mut() {
            let v = *v;
            if let Some(w) = rest.pop() {
                let wi = w.index();
                if index.get(wi).copied() == Some(UNVISITED) {
                    visit(
                        w,
                        &mut index,
                        &mut lowlink,
                        &mut on_stack,
                        &mut stack,
                        &mut frames,
                    );
                } else if on_stack.get(wi).copied().unwrap_or(false) {
                    let wl = index.get(wi).copied().unwrap_or(0);
                    if let Some(l) = lowlink.get_mut(v.index()) {
                        *l = (*l).min(wl);
                    }
                }
                continue;
            }
            frames.pop();
            let vl = lowlink.get(v.index()).copied().unwrap_or(0);
            if let Some((parent, _)) = frames.last() {
                if let Some(pl) = lowlink.get_mut(parent.index()) {
                    *pl = (*pl).min(vl);
                }
            }
            if vl == index.get(v.index()).copied().unwrap_or(0) {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    if let Some(o) = on_stack.get_mut(w.index()) {
                        *o = false;
                    }
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut comps: Vec<Vec<NodeIndex>>) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = comps
            .iter_mut()
            .map(|c| {
                let mut v: Vec<usize> = c.iter().map(|n| n.index()).collect();
                v.sort();
                v
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn matches_petgraph_on_a_small_graph() {
        let mut g: DiGraph<(), ()> = DiGraph::new();
        let n: Vec<NodeIndex> = (0..7).map(|_| g.add_node(())).collect();
        for (a, b) in [
            (0, 1),
            (1, 2),
            (2, 0),
            (2, 3),
            (3, 4),
            (4, 3),
            (5, 5),
            (4, 6),
        ] {
            g.add_edge(n[a], n[b], ());
        }
        let ours = tarjan_scc_iterative(&g, &n, &|_| true);
        assert_eq!(sorted(ours.clone()), sorted(petgraph::algo::tarjan_scc(&g)));
        // Reverse topological order: {3,4} and 6 come before {0,1,2}.
        let pos = |x: usize| ours.iter().position(|c| c.iter().any(|m| m.index() == x));
        assert!(pos(3) < pos(0));
        assert!(pos(6) < pos(3));
    }

    #[test]
    fn long_chain_does_not_overflow() {
        let mut g: DiGraph<(), ()> = DiGraph::new();
        let n: Vec<NodeIndex> = (0..200_000).map(|_| g.add_node(())).collect();
        for w in n.windows(2) {
            g.add_edge(w[0], w[1], ());
        }
        g.add_edge(n[199_999], n[0], ());
        let comps = tarjan_scc_iterative(&g, &n, &|_| true);
        assert_eq!(comps.len(), 1);
        assert_eq!(comps[0].len(), 200_000);
    }
}
