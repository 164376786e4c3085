/* fu_dot.c — --emit=pdg: a region's PDG with its clusters, as Graphviz dot.
 * Nodes are the region's bindings (boxes: kernel launches, labelled with the
 * SOAC; ellipses: CPU computations, grey when they keep their order because
 * of an effect); solid edges are fusible dependencies, red dashed ones
 * fusion-preventing; a cluster of two or more nodes is a subgraph box. */
#include "fu_impl.h"

static void label(FILE *o, const Node *nd)
{
    for (int v = 0; v < nd->bind->nvars; v++) fprintf(o, "%s%s", v ? ", " : "", nd->bind->vars[v]);
    if (nd->kind == NODE_RUN) fprintf(o, "\\n%s %s", lcu_soac_name(nd->soac), nd->k->name);
}

void dot_region(Fu *F, const Region *r)
{
    FILE *o = F->opt->pdg;
    int n = r->n;
    fprintf(o, "digraph region%d {  // function %s\n", r->index, r->fun);
    fprintf(o, "  node [fontname=\"monospace\"];\n");
    for (int c = 0; c < n; c++) {
        int members = 0;
        for (int i = 0; i < n; i++) members += r->nodes[i].cluster == c;
        if (members < 2) continue;
        fprintf(o, "  subgraph cluster_%d {\n    label=\"kernel %d\";\n", c, c);
        for (int i = 0; i < n; i++)
            if (r->nodes[i].cluster == c) fprintf(o, "    n%d;\n", i);
        fprintf(o, "  }\n");
    }
    for (int i = 0; i < n; i++) {
        const Node *nd = &r->nodes[i];
        fprintf(o, "  n%d [label=\"", i);
        label(o, nd);
        fprintf(o, "\", shape=%s%s];\n", nd->kind == NODE_RUN ? "box" : "ellipse",
                nd->effect ? ", style=filled, fillcolor=grey" : "");
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            unsigned char e = r->edge[(size_t)i * (size_t)n + (size_t)j];
            if (e == EDGE_FUSE) fprintf(o, "  n%d -> n%d;\n", i, j);
            else if (e == EDGE_PREVENT) fprintf(o, "  n%d -> n%d [color=red, style=dashed];\n", i, j);
        }
    fprintf(o, "}\n");
}
