// The file tree panel: the sandbox's home and temporary directories as a
// nested list of buttons (keyboard reachable), redrawn after each command.

/** Renders `roots` (from the worker's `tree` request) into `container`. */
export function renderTree(container, roots, open, selected, onSelect) {
  const list = document.createElement("ul");
  list.setAttribute("role", "tree");
  list.setAttribute("aria-label", "Sandbox files");
  for (const root of roots) {
    list.append(item(root, open, selected, onSelect, true));
  }
  container.replaceChildren(list);
}

function item(node, open, selected, onSelect, isRoot) {
  const li = document.createElement("li");
  li.setAttribute("role", "treeitem");
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.path = node.path;
  button.className = `entry ${node.type}`;
  if (node.type === "directory") {
    const expanded = isRoot || open.has(node.path);
    li.setAttribute("aria-expanded", String(expanded));
    button.textContent = `${expanded ? "▾" : "▸"} ${isRoot ? node.path : node.name}/`;
    button.onclick = () => onSelect(node, "toggle");
    li.append(button);
    if (expanded) {
      const group = document.createElement("ul");
      group.setAttribute("role", "group");
      for (const child of node.children) {
        group.append(item(child, open, selected, onSelect, false));
      }
      if (node.truncated) {
        const more = document.createElement("li");
        more.textContent = "… (more entries not shown)";
        group.append(more);
      }
      li.append(group);
    }
  } else {
    button.textContent = node.type === "symlink" ? `${node.name} →` : node.name;
    if (node.path === selected) {
      li.setAttribute("aria-selected", "true");
    }
    button.onclick = () => onSelect(node, "open");
    li.append(button);
  }
  return li;
}
