#!/usr/bin/env python3
# Copyright (C) 2026 The Boost.ForkJoin authors.
# Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
#
# The architecture, checked: `python3 test/structure/layers.py [root]` exits with 1 and names
# each violation of these rules, else prints the layers with their line counts.
#  - Every internal header is in a layer folder of boost/thread/executors/detail/fork_join/.
#  - A header of a layer includes headers of its own layer and of layers below it only
#    (LAYERS, lowest first), and no public header of this library: no arrow up.
#  - A public header (boost/thread/executors/, ours) has at most PUBLIC_MAX_LINES lines: it is
#    an outline (declarations, their contracts, thin inline forwarding); the machinery is
#    in detail/.
import os
import re
import sys

# Lowest first; the design notes (doc/design.md, "The layers") say what each holds.
LAYERS = ["base", "primitives", "trace", "tasks", "fibers", "scheduler", "waits", "futures",
          "invoke", "algorithms", "pool"]
PUBLIC_MAX_LINES = 250
DETAIL = "boost/thread/executors/detail/fork_join"
PUBLIC = "boost/thread/executors"
INCLUDE = re.compile(r'^\s*#\s*include\s*<(boost/thread/executors/[^>]+)>', re.M)


def ours_public(root):
    """Our public headers: those of boost/thread/executors/ that include our config."""
    out = []
    for name in sorted(os.listdir(os.path.join(root, PUBLIC))):
        path = os.path.join(root, PUBLIC, name)
        if name.endswith(".hpp") and os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                if DETAIL in f.read():
                    out.append(PUBLIC + "/" + name)
    return out


def main(root):
    errors = []
    sizes = {layer: [0, 0] for layer in LAYERS}
    detail_root = os.path.join(root, DETAIL)
    for dirpath, _, names in os.walk(detail_root):
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            parts = os.path.relpath(os.path.join(dirpath, name), detail_root).split(os.sep)
            if len(parts) != 2 or parts[0] not in LAYERS:
                errors.append(f"{rel}: not in a layer folder ({', '.join(LAYERS)})")
                continue
            level = LAYERS.index(parts[0])
            with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                text = f.read()
            sizes[parts[0]][0] += 1
            sizes[parts[0]][1] += text.count("\n")
            for target in INCLUDE.findall(text):
                if not target.startswith(DETAIL + "/"):
                    if os.path.exists(os.path.join(root, target)) and target in public:
                        errors.append(f"{rel}: includes the public header {target} (an arrow up)")
                    continue
                layer = target[len(DETAIL) + 1:].split("/")[0]
                if layer not in LAYERS:
                    errors.append(f"{rel}: includes {target}, outside every layer")
                elif LAYERS.index(layer) > level:
                    errors.append(f"{rel}: layer {parts[0]} includes {target} of the higher layer {layer}")
    for header in public:
        with open(os.path.join(root, header), encoding="utf-8") as f:
            lines = f.read().count("\n")
        if lines > PUBLIC_MAX_LINES:
            errors.append(f"{header}: {lines} lines; a public header is an outline of at most {PUBLIC_MAX_LINES}")
    for e in errors:
        print(e)
    if errors:
        return 1
    for layer in LAYERS:
        print(f"{layer:<12} {sizes[layer][0]:>3} files {sizes[layer][1]:>6} lines")
    return 0


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    public = ours_public(root)
    sys.exit(main(root))
