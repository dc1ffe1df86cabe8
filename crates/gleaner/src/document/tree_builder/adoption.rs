//! The adoption agency algorithm (WHATWG §13.2.6.4.7, "adoption agency
//! algorithm"): a formatting end tag closes its element even when other
//! elements were opened inside it, re-creating the formatting elements it
//! crosses inside the block that interrupted them (`<b>1<p>2</b>3</p>`
//! makes `<b>1</b><p><b>2</b>3</p>`).

use html5ever::tree_builder::{NodeOrText, TreeSink};
use markup5ever::LocalName;

use super::{class, Active, OwnTreeBuilder, Scope};

/// Outer and inner loop limits of the algorithm (steps 3 and 14.1).
const OUTER_LOOPS: usize = 8;
const INNER_LOOPS_BEFORE_DROPPING: usize = 3;

impl OwnTreeBuilder {
    /// Runs the adoption agency for end tag `subject`; false when the
    /// spec says to act as "any other end tag" instead.
    pub(super) fn adoption_agency(&mut self, subject: &LocalName) -> bool {
        // Step 2: the current node is the subject and not formatting.
        if let Some(current) = self.open.last() {
            if current.is(subject) && self.active_position(current.node).is_none() {
                self.open.pop();
                return true;
            }
        }
        for _ in 0..OUTER_LOOPS {
            // Step 4.3: the last formatting element named `subject` after
            // the last marker.
            let mut found = None;
            for (i, entry) in self.active.iter().enumerate().rev() {
                match entry {
                    Active::Marker => break,
                    Active::Element { node, name } if name == subject => {
                        found = Some((i, *node));
                        break;
                    }
                    Active::Element { .. } => {}
                }
            }
            let Some((mut fe_active, fe)) = found else { return false };
            // Step 4.4–4.5.
            let Some(fe_stack) = self.position_in_stack(fe) else {
                self.active.remove(fe_active);
                return true;
            };
            if !self.node_in_scope(fe, Scope::Default) {
                return true;
            }
            // Step 4.7: the furthest block.
            let Some(fb_stack) =
                (fe_stack + 1..self.open.len()).find(|&i| self.open[i].has(class::SPECIAL))
            else {
                self.open.truncate(fe_stack);
                self.active.remove(fe_active);
                return true;
            };
            let furthest_block = self.open[fb_stack].node;
            // Step 4.9–4.10.
            let common_ancestor = fe_stack.saturating_sub(1);
            let mut bookmark = fe_active;
            // Step 4.11–4.13: walk up from the furthest block to the
            // formatting element.
            let mut last_node = furthest_block;
            let mut node_stack = fb_stack;
            let mut inner = 0;
            loop {
                inner += 1;
                let Some(above) = node_stack.checked_sub(1) else { break };
                node_stack = above;
                let Some(entry) = self.open.get(node_stack) else { break };
                let node = entry.node;
                if node == fe {
                    break;
                }
                let mut node_active = self.active_position(node);
                if inner > INNER_LOOPS_BEFORE_DROPPING {
                    if let Some(i) = node_active.take() {
                        self.active.remove(i);
                        if i < bookmark {
                            bookmark -= 1;
                        }
                        if i < fe_active {
                            fe_active -= 1;
                        }
                    }
                }
                let Some(node_active) = node_active else {
                    self.open.remove(node_stack);
                    continue;
                };
                // Step 4.13.6: a new element for the node's token.
                let Some(Active::Element { name, node: old }) = self.active.get(node_active) else {
                    break;
                };
                let (name, old) = (name.clone(), *old);
                let new = self.create_like(name.clone(), old);
                let new_node = new.node;
                self.active[node_active] = Active::Element { node: new_node, name };
                self.open[node_stack] = new;
                if last_node == furthest_block {
                    bookmark = node_active + 1;
                }
                self.sink.remove_from_parent(&last_node);
                self.sink.append(&new_node, NodeOrText::AppendNode(last_node));
                last_node = new_node;
            }
            // Step 4.14: the last node goes where the common ancestor
            // would take it (foster-parented in a table).
            self.sink.remove_from_parent(&last_node);
            let place = self.place(Some(common_ancestor));
            self.insert_at(place, NodeOrText::AppendNode(last_node));
            // Step 4.15–4.17: a new formatting element takes the furthest
            // block's children.
            let Some(Active::Element { name, node: old }) = self.active.get(fe_active) else {
                return true;
            };
            let (name, old) = (name.clone(), *old);
            let new = self.create_like(name.clone(), old);
            let new_node = new.node;
            self.sink.reparent_children(&furthest_block, &new_node);
            self.sink.append(&furthest_block, NodeOrText::AppendNode(new_node));
            // Step 4.18: the list entry moves to the bookmark.
            self.active.remove(fe_active);
            if fe_active < bookmark {
                bookmark -= 1;
            }
            let at = bookmark.min(self.active.len());
            self.active.insert(at, Active::Element { node: new_node, name });
            // Step 4.19: and the stack entry to just below the furthest
            // block.
            if let Some(i) = self.position_in_stack(fe) {
                self.open.remove(i);
            }
            let fb_at = self.position_in_stack(furthest_block).map_or(self.open.len(), |i| i + 1);
            self.open.insert(fb_at, new);
        }
        true
    }
}
